"""Memory-center pages: each page and action, HTMX partial vs full page, ownership, CSRF, DB state."""
import json

import pytest
from django.test import Client
from django.urls import reverse

from dreaming.memory.context import memory_md_get, memory_md_render_all
from dreaming.models import Candidate, DiaryEntry, Feedback, Memory, MemorySettings, MemorySource
from dreaming.memory.tombstones import is_tombstoned
from tests.factories import (
    CandidateFactory,
    ChatSessionFactory,
    DiaryEntryFactory,
    FeedbackFactory,
    MemoryFactory,
    MemorySourceFactory,
    MessageFactory,
    PersonaFactory,
)

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def memory(user):
    session = ChatSessionFactory(user=user, title="Morning chat")
    message = MessageFactory(session=session, seq=4, content="Oh, I have a dog named Milo <3")
    memory = MemoryFactory(
        user=user, statement="User has a dog named Milo", category="fact", confidence=0.82,
        score_breakdown={"importance": 0.6, "recurrence": 0.4},
    )
    MemorySourceFactory(memory=memory, message=message, quote="I have a dog named Milo")
    memory_md_render_all(user=user)
    return memory


# --- Anonymous, cross-user, CSRF --------------------------------------------------------------

@pytest.mark.parametrize("name,args", [
    ("memcenter:memories", []), ("memcenter:pending", []), ("memcenter:diary", []),
    ("memcenter:memory_md", []), ("memcenter:settings", []), ("memcenter:conversations", []),
    ("memcenter:memory_add", []), ("memcenter:forget_all", []), ("memcenter:export", []),
    ("memcenter:diary_download", []),
])
def test_every_page_sends_anonymous_visitors_to_log_in(client, name, args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_anonymous_posts_change_nothing(client, memory):
    response = client.post(reverse("memcenter:memory_delete", args=[memory.pk]), {"confirm": "on"})
    assert response.status_code == 302
    assert Memory.objects.filter(pk=memory.pk).exists()


@pytest.mark.parametrize("name,method", [
    ("memcenter:memory_detail", "get"), ("memcenter:memory_edit", "get"), ("memcenter:memory_delete", "get"),
    ("memcenter:memory_feedback", "post"), ("memcenter:memory_edit", "post"), ("memcenter:memory_delete", "post"),
])
def test_another_users_memory_is_a_404_and_untouched(client, other_user, memory, name, method):
    client.force_login(other_user)
    url = reverse(name, args=[memory.pk])
    data = {"verdict": "reject", "statement": "hacked", "category": "fact", "confirm": "on"}
    response = getattr(client, method)(url, data if method == "post" else None, **HX)
    assert response.status_code == 404
    memory.refresh_from_db()
    assert memory.statement == "User has a dog named Milo"
    assert not Feedback.objects.exists()


def test_another_users_candidate_and_conversation_are_404(client, other_user, user):
    candidate = CandidateFactory(user=user, status="pending")
    session = ChatSessionFactory(user=user)
    client.force_login(other_user)
    assert client.post(reverse("memcenter:candidate_confirm", args=[candidate.pk])).status_code == 404
    assert client.post(reverse("memcenter:candidate_dismiss", args=[candidate.pk])).status_code == 404
    assert client.get(reverse("memcenter:conversation", args=[session.pk])).status_code == 404
    assert client.post(reverse("memcenter:conversation_delete", args=[session.pk]), {"confirm": "on"}).status_code == 404
    candidate.refresh_from_db()
    assert candidate.status == "pending"


def test_posts_without_a_csrf_token_are_refused(user, memory):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(reverse("memcenter:memory_delete", args=[memory.pk]), {"confirm": "on"}, **HX)
    assert response.status_code == 403
    assert Memory.objects.filter(pk=memory.pk).exists()
    response = client.post(reverse("memcenter:memory_feedback", args=[memory.pk]), {"verdict": "agree"}, **HX)
    assert response.status_code == 403
    assert not Feedback.objects.exists()


def test_the_csrf_token_on_body_hx_headers_is_accepted(user, memory):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    page = client.get(reverse("memcenter:memories"))
    import re
    match = re.search(r"<body hx-headers='\{\"X-CSRFToken\": \"([A-Za-z0-9]+)\"\}'>", page.content.decode())
    assert match, "the CSRF token must be on <body hx-headers>"
    token = match.group(1)
    response = client.post(
        reverse("memcenter:memory_feedback", args=[memory.pk]), {"verdict": "agree"},
        HTTP_X_CSRFTOKEN=token, **HX,
    )
    assert response.status_code == 200
    assert Feedback.objects.get().verdict == "agree"


# --- Memories list ------------------------------------------------------------------------------

def test_memories_page_shows_the_card_with_quote_confidence_and_badge(client_in, memory):
    response = client_in.get(reverse("memcenter:memories"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert "You have a dog named Milo" in html and "User has a dog" not in html  # shown to its owner as "you"
    assert "“I have a dog named Milo”" in html
    assert "82%" in html and 'aria-valuenow="82"' in html and "sure" in html
    assert "in MEMORY.md" in html
    assert f'?m={memory.sources.get().message_id}' in html and "#m-4" in html
    assert "Said in 1 conversation" in html  # the "why" panel: sentences, never the raw breakdown
    assert "{&#x27;" not in html and "Score 0." not in html


def test_memories_list_htmx_request_returns_only_the_list(client_in, memory):
    response = client_in.get(reverse("memcenter:memories"), {"q": "dog"}, HTTP_HX_TARGET="memory-list", **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="memory-list"')
    assert "<html" not in html and "You have a dog named Milo" in html


def test_memories_are_filtered_by_search_category_status_and_scope(client_in, user, memory):
    persona = PersonaFactory(name="Luna")
    MemoryFactory(user=user, statement="用户住在上海", category="fact")
    MemoryFactory(user=user, statement="User loves jazz", category="preference", persona=persona)
    MemoryFactory(user=user, statement="User lived in Paris", status="superseded")

    def statements(**params):
        response = client_in.get(reverse("memcenter:memories"), params)
        return {m.statement for m in response.context["page"].object_list}

    assert statements(q="上海") == {"用户住在上海"}
    assert statements(category="preference") == {"User loves jazz"}
    assert statements(scope=str(persona.pk)) == {"User loves jazz"}
    assert "User loves jazz" not in statements(scope="profile")
    assert statements(status="superseded") == {"User lived in Paris"}
    assert "User lived in Paris" in statements(status="all")
    assert "User lived in Paris" not in statements()
    assert statements(q="上海", scope="999999", sort="bogus") == {"用户住在上海"}  # a bad filter drops only itself


def test_memories_sort_orders(client_in, user):
    MemoryFactory(user=user, statement="low", confidence=0.2, importance=0.9)
    MemoryFactory(user=user, statement="high", confidence=0.9, importance=0.1)
    first = lambda sort: client_in.get(reverse("memcenter:memories"), {"sort": sort}).context["page"].object_list[0]
    assert first("confidence").statement == "high"
    assert first("importance").statement == "low"


def test_memories_are_paginated(client_in, user):
    MemoryFactory.create_batch(30, user=user)
    page1 = client_in.get(reverse("memcenter:memories"))
    page2 = client_in.get(reverse("memcenter:memories"), {"page": 2})
    assert len(page1.context["page"].object_list) == 25
    assert len(page2.context["page"].object_list) == 5
    assert "page=2" in page1.content.decode()


def test_memories_never_show_another_users_memories(client_in, other_user, memory):
    MemoryFactory(user=other_user, statement="Their secret memory")
    html = client_in.get(reverse("memcenter:memories"), {"status": "all"}).content.decode()
    assert "Their secret memory" not in html


def test_user_text_is_escaped_everywhere(client_in, user):
    MemoryFactory(user=user, statement="<script>alert(1)</script> likes tags")
    html = client_in.get(reverse("memcenter:memories")).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_superseded_history_and_pending_verdict_show_on_the_card(client_in, user):
    from datetime import datetime, timezone as tz
    new = MemoryFactory(user=user, statement="User lives in Beijing")
    MemoryFactory(user=user, statement="User lives in Shanghai", status="superseded", superseded_by=new,
                  valid_to=datetime(2026, 5, 3, tzinfo=tz.utc))
    FeedbackFactory(memory=new, verdict="doubt")
    html = client_in.get(reverse("memcenter:memories")).content.decode()
    assert "You live in Shanghai" in html and "until 2026-05" in html
    assert "You said: Doubt (pending)" in html


# --- Verdicts, edit, add ---------------------------------------------------------------------------

@pytest.mark.parametrize("verdict", ["agree", "doubt", "reject"])
def test_a_verdict_is_stored_and_the_card_swapped_in_place(client_in, user, memory, verdict):
    response = client_in.post(reverse("memcenter:memory_feedback", args=[memory.pk]), {"verdict": verdict}, **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<article id="memory-{memory.pk}"')
    assert "<html" not in html
    assert 'aria-pressed="true"' in html and "(pending)" in html
    assert 'id="live-region" hx-swap-oob="innerHTML"' in html  # the live region announces it
    feedback = Feedback.objects.get(memory=memory)
    assert feedback.verdict == verdict and feedback.user == user and feedback.applied_at is None


def test_a_verdict_without_javascript_redirects_back(client_in, memory):
    response = client_in.post(reverse("memcenter:memory_feedback", args=[memory.pk]), {"verdict": "agree", "next": "/?sort=recent"})
    assert response.status_code == 302 and response["Location"] == "/?sort=recent"
    assert Feedback.objects.get().verdict == "agree"


def test_a_verdict_refuses_an_offsite_next(client_in, memory):
    response = client_in.post(reverse("memcenter:memory_feedback", args=[memory.pk]), {"verdict": "agree", "next": "https://evil.example/"})
    assert response["Location"].startswith("/")


def test_a_bad_verdict_is_a_400_and_stores_nothing(client_in, memory):
    response = client_in.post(reverse("memcenter:memory_feedback", args=[memory.pk]), {"verdict": "maybe"}, **HX)
    assert response.status_code == 400
    assert not Feedback.objects.exists()


def test_editing_in_place_shows_a_form_then_saves(client_in, user, memory):
    url = reverse("memcenter:memory_edit", args=[memory.pk])
    form = client_in.get(url, **HX)
    assert form.status_code == 200 and "<textarea" in form.content.decode() and "<html" not in form.content.decode()
    saved = client_in.post(url, {"statement": "User has two dogs, Milo and Otis", "category": "fact"}, **HX)
    assert saved.status_code == 200 and "Milo and Otis" in saved.content.decode()
    memory.refresh_from_db()
    assert memory.statement == "User has two dogs, Milo and Otis" and memory.user_set
    assert "Otis" in memory_md_get(user=user).content


def test_editing_without_javascript_uses_a_full_page(client_in, memory):
    url = reverse("memcenter:memory_edit", args=[memory.pk])
    assert "<html" in client_in.get(url).content.decode()
    response = client_in.post(url, {"statement": "User has a dog called Milo", "category": "fact"})
    assert response.status_code == 302


def test_editing_with_an_empty_statement_shows_the_error_and_keeps_the_memory(client_in, memory):
    response = client_in.post(reverse("memcenter:memory_edit", args=[memory.pk]), {"statement": " ", "category": "fact"}, **HX)
    assert response.status_code == 400 and "field__errors" in response.content.decode()
    memory.refresh_from_db()
    assert memory.statement == "User has a dog named Milo"


def test_adding_a_memory_by_hand(client_in, user):
    assert client_in.get(reverse("memcenter:memory_add")).status_code == 200
    response = client_in.post(reverse("memcenter:memory_add"), {"statement": "User is allergic to cats", "category": "fact"})
    assert response.status_code == 302
    memory = Memory.objects.get(user=user)
    assert memory.user_set and memory.confidence == pytest.approx(0.95) and memory.embedding is not None
    assert memory.persona is None


def test_adding_a_memory_refuses_a_persona_the_user_never_met(client_in, user):
    stranger = PersonaFactory()
    response = client_in.post(reverse("memcenter:memory_add"), {"statement": "x likes y", "category": "fact", "persona": stranger.pk})
    assert response.status_code == 400
    assert not Memory.objects.filter(user=user).exists()


# --- Delete --------------------------------------------------------------------------------------

def test_delete_without_javascript_asks_to_confirm_first(client_in, memory):
    page = client_in.get(reverse("memcenter:memory_delete", args=[memory.pk]))
    assert page.status_code == 200 and "You have a dog named Milo" in page.content.decode()
    unconfirmed = client_in.post(reverse("memcenter:memory_delete", args=[memory.pk]), {})
    assert unconfirmed.status_code == 400
    assert Memory.objects.filter(pk=memory.pk).exists()


def test_delete_confirmed_forgets_everywhere(client_in, user, other_user, memory):
    DiaryEntryFactory(user=user, narrative="Tonight I learned that User has a dog named Milo. Also: rain.")
    CandidateFactory(user=user, memory=memory, status="promoted", statement="User has a dog named Milo")
    theirs = MemoryFactory(user=other_user, statement="User has a dog named Milo")
    assert "Milo" in memory_md_get(user=user).content

    response = client_in.post(reverse("memcenter:memory_delete", args=[memory.pk]), {"confirm": "on"})

    assert response.status_code == 302
    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert not MemorySource.objects.filter(quote="I have a dog named Milo").exists()
    assert not Candidate.objects.filter(user=user).exists()
    assert is_tombstoned(user=user, statement="User has a dog named Milo")
    assert "Milo" not in memory_md_get(user=user).content
    assert DiaryEntry.objects.get(user=user).narrative == "Also: rain."
    assert Memory.objects.filter(pk=theirs.pk).exists()


def test_delete_with_htmx_replaces_the_card_with_a_receipt(client_in, memory):
    response = client_in.post(reverse("memcenter:memory_delete", args=[memory.pk]), **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<div id="memory-{memory.pk}"') and "Forgotten for good" in html
    assert not Memory.objects.filter(pk=memory.pk).exists()


def test_forget_all_needs_confirmation_then_deletes_only_this_users_memory(client_in, user, other_user, memory):
    theirs = MemoryFactory(user=other_user)
    assert client_in.post(reverse("memcenter:forget_all"), {}).status_code == 400
    assert Memory.objects.filter(user=user).exists()
    response = client_in.post(reverse("memcenter:forget_all"), {"confirm": "on"})
    assert response.status_code == 302
    assert not Memory.objects.filter(user=user).exists()
    assert Memory.objects.filter(pk=theirs.pk).exists()


# --- Pending ---------------------------------------------------------------------------------------

def test_pending_shows_pending_candidates_only(client_in, user):
    CandidateFactory(user=user, status="pending", statement="User might like jazz", quote="jazz is nice")
    CandidateFactory(user=user, status="rejected_unverified", statement="Unverified thing")
    CandidateFactory(user=user, status="promoted", statement="Promoted thing")
    html = client_in.get(reverse("memcenter:pending")).content.decode()
    assert "You might like jazz" in html and "“jazz is nice”" in html
    assert "Unverified thing" not in html and "Promoted thing" not in html


def test_confirming_a_candidate_with_htmx(client_in, user):
    candidate = CandidateFactory(user=user, status="pending", statement="User plays chess")
    response = client_in.post(reverse("memcenter:candidate_confirm", args=[candidate.pk]), **HX)
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith(f'<article id="candidate-{candidate.pk}"')
    assert Memory.objects.get(user=user).statement == "User plays chess"
    candidate.refresh_from_db()
    assert candidate.status == "promoted"


def test_dismissing_a_candidate_without_javascript_asks_first(client_in, user):
    candidate = CandidateFactory(user=user, status="pending", statement="User hates mondays")
    url = reverse("memcenter:candidate_dismiss", args=[candidate.pk])
    for asked in (client_in.get(url), client_in.post(url)):  # the link, or the card's form without a tick
        assert asked.status_code in (200, 400) and 'name="confirm"' in asked.content.decode()
        assert "You hate mondays" in asked.content.decode()  # spoken to its owner
    assert Candidate.objects.filter(pk=candidate.pk).exists()

    response = client_in.post(url, {"confirm": "on"})
    assert response.status_code == 302
    assert not Candidate.objects.filter(pk=candidate.pk).exists()  # a tombstone only, no words kept
    assert is_tombstoned(user=user, statement="User hates mondays")
    assert not Memory.objects.filter(user=user).exists()


def test_dismissing_a_candidate_with_htmx_was_confirmed_in_the_browser(client_in, user):
    candidate = CandidateFactory(user=user, status="pending", statement="User hates mondays")
    html = client_in.get(reverse("memcenter:pending")).content.decode()
    assert "hx-confirm=\"Don&#x27;t remember this?" in html or "hx-confirm=\"Don't remember this?" in html
    response = client_in.post(reverse("memcenter:candidate_dismiss", args=[candidate.pk]), **HX)
    assert response.status_code == 200 and not Candidate.objects.filter(pk=candidate.pk).exists()


def test_confirming_an_already_decided_candidate_changes_nothing(client_in, user):
    candidate = CandidateFactory(user=user, status="dismissed")
    response = client_in.post(reverse("memcenter:candidate_confirm", args=[candidate.pk]), **HX)
    assert response.status_code == 200 and "already decided" in response.content.decode()
    assert not Memory.objects.filter(user=user).exists()


# --- Diary, MEMORY.md, conversations ---------------------------------------------------------------

def test_diary_lists_entries_newest_first_and_downloads(client_in, user, other_user):
    from datetime import date
    DiaryEntryFactory(user=user, night=date(2026, 5, 1), narrative="First night.")
    DiaryEntryFactory(user=user, night=date(2026, 5, 2), narrative="Second night.")
    DiaryEntryFactory(user=other_user, narrative="Not yours.")
    html = client_in.get(reverse("memcenter:diary")).content.decode()
    assert html.index("Second night.") < html.index("First night.") and "Not yours." not in html
    download = client_in.get(reverse("memcenter:diary_download"))
    assert download["Content-Disposition"] == 'attachment; filename="DREAMS.md"'
    text = download.content.decode()
    assert text.startswith("# DREAMS.md") and "## 2026-05-02" in text and "Not yours." not in text


def test_memory_md_page_shows_exactly_the_stored_document_with_its_budget(client_in, user, memory):
    response = client_in.get(reverse("memcenter:memory_md"))
    document = memory_md_get(user=user)
    html = response.content.decode()
    assert response.status_code == 200
    assert "User has a dog named Milo" in html
    assert f"{document.token_count} of 1024 tokens" in html


def test_memory_md_page_per_persona_scope(client_in, user):
    persona = PersonaFactory(name="Luna")
    MemoryFactory(user=user, persona=persona, statement="User calls Luna every night")
    memory_md_render_all(user=user)
    assert "calls Luna" in client_in.get(reverse("memcenter:memory_md"), {"scope": persona.pk}).content.decode()
    assert "calls Luna" not in client_in.get(reverse("memcenter:memory_md")).content.decode()
    assert client_in.get(reverse("memcenter:memory_md"), {"scope": "999999"}).status_code == 404


def test_conversation_page_highlights_the_quote_escaped(client_in, user, memory):
    source = memory.sources.get()
    url = reverse("memcenter:conversation", args=[source.message.session_id])
    html = client_in.get(url, {"m": source.message_id, "q": source.quote}).content.decode()
    assert 'id="m-4"' in html and "msg--quoted" in html
    assert "Oh, <mark>I have a dog named Milo</mark> &lt;3" in html


def test_conversation_highlight_does_not_trust_the_quote_parameter(client_in, user):
    session = ChatSessionFactory(user=user)
    message = MessageFactory(session=session, content="a <b>bold</b> claim")
    html = client_in.get(reverse("memcenter:conversation", args=[session.pk]),
                         {"m": message.pk, "q": "<b>bold</b>"}).content.decode()
    assert "<mark>&lt;b&gt;bold&lt;/b&gt;</mark>" in html
    assert "<b>bold</b>" not in html


def test_deleting_a_conversation_from_the_page(client_in, user, memory):
    session_pk = memory.sources.get().message.session_id
    assert client_in.get(reverse("memcenter:conversation_delete", args=[session_pk])).status_code == 200
    assert "Morning chat" in client_in.get(reverse("memcenter:conversations")).content.decode()
    response = client_in.post(reverse("memcenter:conversation_delete", args=[session_pk]), {"confirm": "on"})
    assert response.status_code == 302
    assert not Memory.objects.filter(pk=memory.pk).exists()  # its only source was there
    assert "Morning chat" not in client_in.get(reverse("memcenter:conversations")).content.decode()


# --- Settings ------------------------------------------------------------------------------------

def test_switching_memory_off_and_keeping(client_in, user, memory):
    response = client_in.post(reverse("memcenter:settings"), {"existing": "keep"})
    assert response.status_code == 302
    assert MemorySettings.objects.get(user=user).enabled is False
    assert Memory.objects.filter(user=user).exists()
    assert memory_md_get(user=user) is None
    assert "Memory is off." in client_in.get(reverse("memcenter:settings")).content.decode()


def test_switching_memory_off_and_deleting_asks_first_and_changes_nothing_until_confirmed(client_in, user, memory):
    response = client_in.post(reverse("memcenter:settings"), {"existing": "delete"})

    html = response.content.decode()
    assert response.status_code == 200 and 'name="confirm"' in html
    assert 'name="existing" value="delete"' in html and "1 memory" in html
    assert Memory.objects.filter(pk=memory.pk).exists() and not MemorySettings.objects.filter(user=user).exists()

    response = client_in.post(reverse("memcenter:settings"), {"existing": "delete", "confirm": "on"})

    assert response.status_code == 302
    assert MemorySettings.objects.get(user=user).enabled is False
    assert not Memory.objects.filter(user=user).exists()
    assert is_tombstoned(user=user, statement=memory.statement)


def test_switching_memory_back_on(client_in, user):
    MemorySettings.objects.create(user=user, enabled=False)
    client_in.post(reverse("memcenter:settings"), {"enabled": "on"})
    assert MemorySettings.objects.get(user=user).enabled is True


def test_download_my_data_is_json_of_my_data_only(client_in, user, other_user, memory):
    MemoryFactory(user=other_user, statement="Their memory")
    response = client_in.get(reverse("memcenter:export"))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode()
    data = json.loads(text)
    assert isinstance(data, dict)
    assert "User has a dog named Milo" in text and "Their memory" not in text


def test_one_card_is_a_partial_for_htmx_and_a_page_without(client_in, memory):
    url = reverse("memcenter:memory_detail", args=[memory.pk])
    partial = client_in.get(url, **HX).content.decode()
    page = client_in.get(url).content.decode()
    assert partial.lstrip().startswith(f'<article id="memory-{memory.pk}"') and "<html" not in partial
    assert "<html" in page and f'id="memory-{memory.pk}"' in page


def test_a_rejected_memory_loses_its_memory_md_badge_at_once(client_in, user, memory):
    html = client_in.post(reverse("memcenter:memory_feedback", args=[memory.pk]), {"verdict": "reject"}, **HX).content.decode()
    assert "badge--md" not in html
    assert memory.pk not in memory_md_get(user=user).memory_ids
