"""Reads on the chat side."""
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, QuerySet

from chat.models import ChatSession, Client, Message


def session_get(*, session_id: int, client: Client | None = None) -> ChatSession | None:
    """A session by id; with a client, only if its user is one of that client's users."""
    sessions = ChatSession.objects.select_related("user__client_account", "persona").filter(pk=session_id)
    if client is not None:
        sessions = sessions.filter(user__client_account__client=client)
    return sessions.annotate(message_count=Count("messages")).first()


def session_messages(*, session: ChatSession, after_seq: int = 0, limit: int | None = None) -> list[Message]:
    messages = session.messages.filter(seq__gt=after_seq).order_by("seq")
    return list(messages[:limit] if limit is not None else messages)


def sessions_for_user(*, user: AbstractBaseUser) -> QuerySet[ChatSession]:
    """Most recently active first (served by chat_session_user_recent_idx)."""
    return (
        ChatSession.objects.filter(user=user)
        .select_related("user__client_account", "persona")
        .annotate(message_count=Count("messages"))
        .order_by("-last_active_at", "-id")
    )
