import json
from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import ChatSession, Message
from dreaming.memory.context import memory_md_render
from dreaming.models import LLMCall
from dreaming.providers.local_embedder import LocalEmbedder
from memcenter.assistant import chat_reply
from tests.factories import ChatSessionFactory, MemoryFactory, MemorySourceFactory, MessageFactory, PersonaFactory

pytestmark = pytest.mark.django_db
EMBEDDER = LocalEmbedder(dimensions=512)


def remember(user, statement, **fields):
    return MemoryFactory(user=user, statement=statement, embedding=EMBEDDER.embed([statement])[0], **fields)


@pytest.fixture
def offline(settings):
    settings.LLM_BACKEND = "local"
    settings.EMBEDDING_BACKEND = "local"


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


def test_the_chat_page_requires_login(client):
    response = client.get("/chat/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client.post("/chat/send/", {"message": "hi"})
    assert response.status_code == 302
    assert not Message.objects.exists()


def test_the_page_lists_personas_and_shows_the_current_conversation(logged_in, user):
    luna = PersonaFactory(slug="luna", name="Luna")
    session = ChatSessionFactory(user=user, persona=luna, source=ChatSession.Source.CHAT, last_active_at=timezone.now())
    MessageFactory(session=session, content="Good morning, Luna")

    response = logged_in.get("/chat/?persona=luna")

    body = response.content.decode()
    assert response.status_code == 200
    assert "Good morning, Luna" in body and 'href="/chat/?persona=luna"' in body
    assert f'name="session" value="{session.pk}"' in body
    assert logged_in.get("/chat/?persona=ghost").status_code == 404


def test_posting_without_htmx_stores_both_turns_and_redirects_back(logged_in, user, offline):
    dog = remember(user, "User has a dog named Milo")
    said = timezone.now() - timedelta(days=40)
    MemorySourceFactory(memory=dog, quote="my dog Milo", said_at=said)

    response = logged_in.post("/chat/send/", {"message": "What is my dog called?", "persona": "", "session": ""})

    session = ChatSession.objects.get(user=user)
    assert response.status_code == 302
    assert response["Location"] == f"/chat/sessions/{session.pk}/#composer"
    assert session.source == ChatSession.Source.CHAT and session.persona is None
    assert session.dreamed_at is None  # dreamed later, like any other session
    turns = list(session.messages.order_by("seq"))
    assert [(t.seq, t.role) for t in turns] == [(1, "user"), (2, "assistant")]
    assert turns[0].content == "What is my dog called?"
    reply = turns[1].content
    assert "You have a dog named Milo" in reply and said.date().isoformat() in reply
    assert "LLM_API_KEY" not in reply
    page = logged_in.get(response["Location"]).content.decode()
    assert "What is my dog called?" in page and "named Milo" in page


def test_posting_with_htmx_returns_only_the_conversation(logged_in, user, offline):
    response = logged_in.post("/chat/send/", {"message": "Hello there"}, HTTP_HX_REQUEST="true")

    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="conversation"')
    assert "<html" not in body and "Hello there" in body
    session = ChatSession.objects.get(user=user)
    assert f'name="session" value="{session.pk}"' in body  # the next message continues this session
    assert session.messages.count() == 2


def test_a_continued_conversation_stays_in_one_session_until_it_goes_idle(user, offline, settings):
    now = timezone.now()
    first = chat_reply(user=user, persona=None, text="Hi", now=now)
    second = chat_reply(user=user, persona=None, text="Still me", session=first.session, now=now + timedelta(minutes=5))
    assert second.session.pk == first.session.pk
    assert list(first.session.messages.values_list("seq", flat=True)) == [1, 2, 3, 4]

    later = now + timedelta(seconds=settings.DREAM_IDLE_SECONDS + 600)
    third = chat_reply(user=user, persona=None, text="Back again", session=second.session, now=later)
    assert third.session.pk != first.session.pk
    assert third.session.source == ChatSession.Source.CHAT
    assert ChatSession.objects.filter(user=user).count() == 2


def test_an_empty_message_is_a_form_error_and_stores_nothing(logged_in, user):
    response = logged_in.post("/chat/send/", {"message": "   "})
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()
    htmx = logged_in.post("/chat/send/", {"message": ""}, HTTP_HX_REQUEST="true")
    # A 200, because htmx does not swap error responses: the form comes back with its error in place.
    assert htmx.status_code == 200 and "<html" not in htmx.content.decode()
    assert "This field is required" in htmx.content.decode()
    assert not ChatSession.objects.exists() and not Message.objects.exists()


def test_a_message_over_the_size_limit_is_a_form_error_and_stores_nothing(logged_in, user, offline, settings):
    settings.API_MAX_MESSAGE_CHARS = 100
    response = logged_in.post("/chat/send/", {"message": "x" * 101})
    assert response.status_code == 400
    assert "Your message has 101 characters; the limit is 100" in response.content.decode()
    htmx = logged_in.post("/chat/send/", {"message": "y" * 101}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200 and "the limit is 100" in htmx.content.decode()
    assert not ChatSession.objects.exists() and not Message.objects.exists()
    assert logged_in.post("/chat/send/", {"message": "z" * 100}).status_code == 302  # at the limit is fine
    assert list(Message.objects.filter(role="user").values_list("content", flat=True)) == ["z" * 100]


def test_another_users_session_is_not_reachable(logged_in, user, other_user, offline):
    theirs = ChatSessionFactory(user=other_user, source=ChatSession.Source.CHAT, last_active_at=timezone.now())
    MessageFactory(session=theirs, content="a private thing")

    assert logged_in.get(f"/chat/sessions/{theirs.pk}/").status_code == 404
    response = logged_in.post("/chat/send/", {"message": "let me in", "session": theirs.pk})
    assert response.status_code == 404
    assert theirs.messages.count() == 1
    assert not Message.objects.filter(content="let me in").exists()


def test_persona_chat_uses_the_persona_scope(logged_in, user, offline):
    luna = PersonaFactory(slug="luna", name="Luna")
    remember(user, "User and Luna share a love of comets", persona=luna)

    general = chat_reply(user=user, persona=None, text="Do you remember comets?")
    with_luna = chat_reply(user=user, persona=luna, text="Do you remember comets?")

    assert "comets" not in general.reply.content.split("\n\n")[0]
    assert "love of comets" in with_luna.reply.content
    assert with_luna.session.persona == luna and general.session.pk != with_luna.session.pk


def test_with_a_chat_model_the_context_is_one_query_and_no_embedding(user, openai_backend):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    remember(user, "User has a dog named Milo")
    memory_md_render(user=user)
    openai_backend.queue_chat("Hi! How is Milo?")  # no tool call

    with CaptureQueriesContext(connection) as queries:
        turn = chat_reply(user=user, persona=None, text="Hello")

    assert turn.reply.content == "Hi! How is Milo?"
    assert "User has a dog named Milo" in openai_backend.chat_requests[0].messages[0]["content"]
    assert openai_backend.embedding_requests == []
    reads = [q["sql"] for q in queries.captured_queries if "dreaming_memory" in q["sql"]]
    assert len(reads) == 1 and "dreaming_memorydocument" in reads[0]  # MEMORY.md, nothing else of memory


def test_with_a_chat_model_memory_md_is_the_system_prompt_and_recall_runs_as_a_tool(user, openai_backend):
    remember(user, "User's name is Dana", importance=1.0, category="fact")
    memory_md_render(user=user)
    hidden = remember(user, "User's grandmother Irena taught them to bake babka", importance=0.2)
    # Only Dana fits in MEMORY.md, so the grandmother can only come from the tool.
    from dreaming.models import MemoryDocument

    MemoryDocument.objects.filter(user=user).update(memory_ids=[m for m in MemoryDocument.objects.get(user=user).memory_ids if m != hidden.id])
    openai_backend.queue_chat(tool_calls=[("recall_memory", {"query": "grandmother baking"})])
    openai_backend.queue_chat("Your grandmother Irena taught you babka, Dana!")

    turn = chat_reply(user=user, persona=None, text="Who taught me to bake?")

    assert turn.error == "" and turn.reply.content == "Your grandmother Irena taught you babka, Dana!"
    first, second = openai_backend.chat_requests
    system = first.messages[0]
    assert system["role"] == "system" and "User's name is Dana" in system["content"]
    assert first.messages[-1] == {"role": "user", "content": "Who taught me to bake?"}
    assert any(tool["function"]["name"] == "recall_memory" for tool in first.body["tools"])
    tool_message = next(m for m in second.messages if m["role"] == "tool")
    results = json.loads(tool_message["content"])["results"]
    assert results[0]["id"] == hidden.id and "Irena" in results[0]["statement"]
    hidden.refresh_from_db()
    assert hidden.recall_count == 1
    assert LLMCall.objects.filter(user=user, phase="chat").count() >= 1


def test_a_chat_model_outage_keeps_the_users_message(logged_in, user, openai_backend):
    openai_backend.queue_error(500, times=5)

    response = logged_in.post("/chat/send/", {"message": "Are you there?"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert "unavailable" in response.content.decode()
    session = ChatSession.objects.get(user=user)
    assert list(session.messages.values_list("role", "content")) == [("user", "Are you there?")]


def test_an_api_session_is_never_appended_to_from_the_chat_page(user, offline):
    api_session = ChatSessionFactory(user=user, source=ChatSession.Source.API, last_active_at=timezone.now())

    turn = chat_reply(user=user, persona=None, text="Hello", session=api_session)

    assert turn.session.pk != api_session.pk and turn.session.source == ChatSession.Source.CHAT
    assert api_session.messages.count() == 0
