"""Conversations say whether they were dreamed and what they taught; the chat answers offline like a person."""
import pytest
from django.urls import reverse
from django.utils import timezone

from chat.models import ChatSession
from dreaming.models import MemorySettings
from dreaming.providers.local_embedder import LocalEmbedder
from memcenter.assistant import chat_reply
from tests.factories import (
    ChatSessionFactory,
    MemoryFactory,
    MemorySourceFactory,
    MessageFactory,
    PersonaFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def offline(settings):
    settings.LLM_BACKEND = "local"
    settings.EMBEDDING_BACKEND = "local"


def test_conversations_are_in_the_nav_with_triage_and_what_they_taught(client_in, user):
    dreamed = ChatSessionFactory(user=user, title="", dreamed_at=timezone.now(), triage_kind="normal")
    said = MessageFactory(session=dreamed, seq=1, content="I have a corgi named Mochi and she snores")
    memory = MemoryFactory(user=user, statement="User has a corgi named Mochi")
    MemorySourceFactory(memory=memory, message=said, quote="I have a corgi named Mochi")
    ChatSessionFactory(user=user, title="Fix my script", dreamed_at=timezone.now(), skipped=True, triage_kind="coding")
    ChatSessionFactory(user=user, title="Just now")
    html = client_in.get(reverse("memcenter:conversations")).content.decode()
    assert f'href="{reverse("memcenter:conversations")}" aria-current="page"' in html  # in the nav
    assert "I have a corgi named Mochi and she snores" in html  # titled by its first line, not "session 23"
    assert f"session {dreamed.pk}" not in html
    assert "Dreamed on" in html and "taught 1 memory" in html
    assert "Skipped: a coding session" in html
    assert "Not dreamed yet: it is read after 30 quiet minutes" in html

    detail = client_in.get(reverse("memcenter:conversation", args=[dreamed.pk])).content.decode()
    assert "What it taught me" in detail and "You have a corgi named Mochi" in detail
    assert reverse("memcenter:memory_detail", args=[memory.pk]) in detail


def test_the_delete_confirmation_lists_what_goes_and_what_stays(client_in, user):
    session = ChatSessionFactory(user=user)
    other = ChatSessionFactory(user=user)
    here = MessageFactory(session=session, seq=1, content="I live in Lyon and I have a cat")
    only = MemoryFactory(user=user, statement="User has a cat")
    shared = MemoryFactory(user=user, statement="User lives in Lyon")
    MemorySourceFactory(memory=only, message=here, quote="I have a cat")
    MemorySourceFactory(memory=shared, message=here, quote="I live in Lyon")
    MemorySourceFactory(memory=shared, message=MessageFactory(session=other, seq=1), quote="Lyon again")
    html = client_in.get(reverse("memcenter:conversation_delete", args=[session.pk])).content.decode()
    assert "You have a cat — <strong>forgotten (only this conversation said it)" in html
    assert "You live in Lyon — <span class=\"muted\">kept (said elsewhere too)" in html
    assert ChatSession.objects.filter(pk=session.pk).exists()  # a GET deletes nothing


def test_a_chat_conversation_is_titled_by_its_first_line(user, offline):
    turn = chat_reply(user=user, persona=None, text="I have a cat named Tom and he is very fluffy and loud at night, every night")
    assert turn.session.title.startswith("I have a cat named Tom") and len(turn.session.title) <= 60


def test_offline_the_chat_acknowledges_a_fact_and_uses_the_current_conversation(user, offline):
    first = chat_reply(user=user, persona=None, text="I have a cat named Tom")
    assert "I'll remember this tonight" in first.reply.content
    second = chat_reply(user=user, persona=None, text="What did I just tell you about my cat?", session=first.session)
    assert "“I have a cat named Tom”" in second.reply.content
    assert "LLM_API_KEY" not in second.reply.content


def test_offline_the_chat_answers_in_chinese_in_the_second_person(user, offline):
    statement = "用户的狗叫旺财"
    MemoryFactory(user=user, statement=statement, embedding=LocalEmbedder(512).embed([statement])[0])
    turn = chat_reply(user=user, persona=None, text="我的狗叫什么？")
    assert "你的狗叫旺财" in turn.reply.content and "用户" not in turn.reply.content


def test_with_memory_off_the_chat_says_so_and_promises_nothing(client_in, user, offline):
    MemorySettings.objects.create(user=user, enabled=False)
    turn = chat_reply(user=user, persona=None, text="I have a cat named Tom")
    assert "Memory is off" in turn.reply.content and "remember this tonight" not in turn.reply.content
    page = client_in.get("/chat/").content.decode()
    assert "Memory is off" in page and "no MEMORY.md yet" not in page


def test_a_new_user_sees_no_one_elses_persona(client_in, user):
    PersonaFactory(slug="demo-luna", name="Demo Luna")
    page = client_in.get("/chat/").content.decode()
    assert "Demo Luna" not in page
    # Personas belong to the users who talk to them: asking for another's by name finds nothing.
    assert client_in.get("/chat/?persona=demo-luna").status_code == 404


def test_offline_a_message_without_words_is_answered_in_the_page_language_and_lists_nothing(user, offline):
    from django.utils import translation

    statement = "User has a dog named Milo"
    MemoryFactory(user=user, statement=statement, embedding=LocalEmbedder(512).embed([statement])[0])
    with translation.override("zh-hans"):
        turn = chat_reply(user=user, persona=None, text="3")
    assert "问我你告诉过我的事" in turn.reply.content and "Milo" not in turn.reply.content
    with translation.override("en"):
        turn = chat_reply(user=user, persona=None, text="3", session=turn.session)
    assert "Ask me about something you told me" in turn.reply.content and "Milo" not in turn.reply.content
    asked = chat_reply(user=user, persona=None, text="What do you remember about me?", session=turn.session)
    assert "You have a dog named Milo" in asked.reply.content
