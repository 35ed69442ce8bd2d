"""The chat page's reply: store the user's message, answer with MEMORY.md (+ recall on demand), store the answer.

Nothing here makes memory. The messages are stored exactly as the API stores them
(chat.services.messages_append, session source "chat"); light sleep dreams the session later.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from chat.models import ChatSession, Message, Persona
from chat.services import NewMessage, messages_append, session_create
from dreaming.memory.context import memory_md_get
from dreaming.models import MemorySettings, Phase
from dreaming.providers import CallContext, Dreamer, ProviderUnavailable, Turn, UnusableAnswer, get_dreamer
from dreaming.memory.recall import recall

log = logging.getLogger(__name__)

# How much of the conversation the model sees besides MEMORY.md.
REPLY_TURNS = 20


@dataclass
class ChatTurn:
    session: ChatSession
    user_message: Message
    reply: Message | None
    error: str = ""


def chat_session_current(*, user: AbstractBaseUser, persona: Persona | None, now: datetime | None = None) -> ChatSession | None:
    """The user's latest chat-page session with this persona, if it has not gone idle."""
    session = ChatSession.objects.filter(user=user, persona=persona, source=ChatSession.Source.CHAT).order_by("-last_active_at").first()
    if session is None or session.is_idle(now or timezone.now()):
        return None
    return session


def chat_turns(*, session: ChatSession, limit: int = REPLY_TURNS) -> list[Turn]:
    recent = list(session.messages.exclude(role=Message.Role.SYSTEM).order_by("-seq")[:limit])
    return [Turn(seq=m.seq, role=m.role, content=m.content, created_at=m.created_at) for m in reversed(recent)]


def chat_recall_for(*, user: AbstractBaseUser, persona: Persona | None, dreamer: Dreamer):
    """The recall callable handed to the dreamer (the `recall_memory` tool).

    A chat model has MEMORY.md in its system prompt, so recall skips what it holds. The local
    engine does not read MEMORY.md; it answers only from what recall returns, so nothing is skipped.
    """
    exclude_ids = None if dreamer.reads_memory_md else []

    def recall_memory(query: str) -> list[dict]:
        results = recall(user=user, query=query, k=settings.RECALL_DEFAULT_K, persona=persona, exclude_ids=exclude_ids)
        return [result.as_dict() for result in results]

    # The offline reply asks this (lazily: a chat model never does): with memory off it must not
    # promise to remember.
    recall_memory.memory_enabled = lambda: MemorySettings.is_on(user_id=user.pk)
    return recall_memory


def chat_title(text: str) -> str:
    """A new chat conversation is titled by its first line from the user (not "session 23")."""
    line = " ".join((text or "").split())
    return line if len(line) <= 60 else line[:59].rstrip() + "…"


def chat_reply(
    *,
    user: AbstractBaseUser,
    persona: Persona | None,
    text: str,
    session: ChatSession | None = None,
    now: datetime | None = None,
    dreamer: Dreamer | None = None,
) -> ChatTurn:
    """Answer one message on the chat page.

    1. Continue `session` unless it went idle or is not a chat-page session (then start a new
       chat session, like a new visit; an imported or API conversation is never appended to).
    2. Store the user's message (messages_append: never embeds, never calls a model).
    3. Context: MEMORY.md with one indexed query (memory_md_get) + the recent turns.
    4. Reply through the configured dreamer, which may call recall_memory.
    5. Store the reply. A model that is down loses nothing: the user's message stays stored
       and the error is returned for the page to show.
    """
    now = now or timezone.now()
    if session is None or session.source != ChatSession.Source.CHAT or session.is_idle(now):
        session, _ = session_create(
            user=user, persona=persona, source=ChatSession.Source.CHAT, started_at=now, now=now, title=chat_title(text)
        )
    stored = messages_append(session=session, messages=[NewMessage(role=Message.Role.USER, content=text, created_at=now)], now=now)
    session, user_message = stored.session, stored.appended[0]

    document = memory_md_get(user=user, persona=persona)
    dreamer = dreamer or get_dreamer()
    try:
        answer = dreamer.reply(
            turns=chat_turns(session=session),
            memory_md=document.content if document else "",
            recall=chat_recall_for(user=user, persona=persona, dreamer=dreamer),
            ctx=CallContext(user_id=user.pk, phase=Phase.CHAT),
        )
    except (ProviderUnavailable, UnusableAnswer) as exc:
        log.warning("chat reply for user %s failed: %s", user.pk, exc)
        return ChatTurn(session=session, user_message=user_message, reply=None, error=str(exc) or type(exc).__name__)
    if not (answer or "").strip():
        return ChatTurn(session=session, user_message=user_message, reply=None, error="The chat model returned an empty reply.")

    # The reply is stamped after the message it answers even when `now` is a fixed clock.
    replied_at = max(timezone.now(), now + timedelta(milliseconds=1))
    stored = messages_append(
        session=session, messages=[NewMessage(role=Message.Role.ASSISTANT, content=answer.strip(), created_at=replied_at)], now=replied_at
    )
    return ChatTurn(session=stored.session, user_message=user_message, reply=stored.appended[0])
