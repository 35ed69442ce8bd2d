"""Staff candidate audit in the admin: pages, filters, highlight, actions and the JSONL export."""
import json
from io import StringIO

import pytest
from django.contrib import admin
from django.core.management import CommandError, call_command
from django.urls import reverse

from dreaming.staff.audit import quote_highlight, quote_span
from dreaming.models import Candidate, Memory, MemorySettings, MemorySource, Tombstone
from dreaming.memory.tombstones import tombstone_add
from tests.factories import (
    CandidateFactory, ChatSessionFactory, DreamRunFactory, LLMCallFactory, MemoryFactory, MemorySourceFactory,
    MessageFactory, UserFactory,
)

pytestmark = pytest.mark.django_db
CHANGELIST = "admin:dreaming_candidate_changelist"


@pytest.fixture
def staff(db):
    return UserFactory(username="auditor", is_staff=True, is_superuser=True)


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


def _candidate(*, content="Well… I have a dog named Milo, he's 3.", quote="i have a DOG named milo", triage="normal", **kw):
    session = ChatSessionFactory(triage_kind=triage, user=kw.pop("user", None) or UserFactory())
    message = MessageFactory(session=session, content=content)
    return CandidateFactory(user=session.user, session=session, message=message, quote=quote, verified=True, **kw)


def _act(client, action, candidates):
    return client.post(reverse(CHANGELIST), {"action": action, "_selected_action": [c.pk for c in candidates]})


# --- locating the quote ---------------------------------------------------------------------


@pytest.mark.parametrize(("text", "quote", "expected"), [
    ("Well… I have a dog named Milo, he's 3.", "i have a DOG named milo", "I have a dog named Milo"),
    ("I  have\na dog", "I have a dog", "I  have\na dog"),
    ("我养了一只狗，叫Ｍｉｌｏ。", "一只狗,叫Milo", "一只狗，叫Ｍｉｌｏ"),
    ("Je suis allé à Paris", "allé a Paris", None),  # accents are not forgiven, like verify
    ("I love cafe\u0301 au lait", "café au lait", "cafe\u0301 au lait"),
])
def test_quote_span_matches_like_verify_and_maps_back_to_the_original(text, quote, expected):
    span = quote_span(quote=quote, text=text)

    assert (text[span[0]:span[1]] if span else None) == expected


def test_highlight_escapes_first_and_falls_back_to_no_mark():
    marked = quote_highlight(quote="dog named Milo", text="<b>hi</b> my dog named Milo & co")
    assert marked == "&lt;b&gt;hi&lt;/b&gt; my <mark>dog named Milo</mark> &amp; co"
    # Punctuation is not part of a match, so the mark ends on the last matched word character.
    assert quote_highlight(quote="<Milo>", text="a <Milo>!") == "a &lt;<mark>Milo</mark>&gt;!"

    assert quote_highlight(quote="a cat", text="<i>my dog</i>") == "&lt;i&gt;my dog&lt;/i&gt;"


# --- pages ----------------------------------------------------------------------------------


def test_changelist_shows_the_audit_columns(staff_client):
    candidate = _candidate(triage="coding", reason="extracted by rules", score=0.62,
                           score_breakdown={"importance": 0.3, "recurrence": 0.2, "specificity": 0.1, "timeliness": 0.02})

    response = staff_client.get(reverse(CHANGELIST))

    html = response.content.decode()
    assert response.status_code == 200
    assert candidate.statement in html and "i have a DOG named milo" in html
    assert "coding" in html and "extracted by rules" in html
    assert "0.62 (importance 0.30, recurrence 0.20, specificity 0.10)" in html


@pytest.mark.parametrize("query", [
    {"status": "dismissed"}, {"category": "event"}, {"reason": "too vague"}, {"session__triage_kind__exact": "coding"},
    {"audit__exact": "extraction_error"}, {"q": "Paris"}, {"verified__exact": "0"},
])
def test_filters_and_search_narrow_the_list(staff_client, query):
    wanted = _candidate(content="I moved to Paris last May.", quote="moved to Paris", statement="User moved to Paris",
                        status=Candidate.Status.DISMISSED, category="event", reason="too vague", triage="coding",
                        audit=Candidate.Audit.EXTRACTION_ERROR)
    Candidate.objects.filter(pk=wanted.pk).update(verified=False)
    _candidate()  # a normal, pending, verified, unaudited fact about Milo

    response = staff_client.get(reverse(CHANGELIST), query)

    assert response.status_code == 200
    assert [c.pk for c in response.context["cl"].result_list] == [wanted.pk]


def test_run_filter_accepts_any_run_id(staff_client):
    run = DreamRunFactory()
    wanted = _candidate(run=run)
    _candidate()

    response = staff_client.get(reverse(CHANGELIST), {"run": str(run.pk)})

    assert [c.pk for c in response.context["cl"].result_list] == [wanted.pk]
    assert f"#{run.pk} Light sleep" in response.content.decode()  # offered in the sidebar too


def test_detail_page_highlights_the_quote_inside_its_message(staff_client):
    candidate = _candidate(content="<script>x</script> Honestly, I have a dog named Milo!")

    response = staff_client.get(reverse("admin:dreaming_candidate_change", args=[candidate.pk]))

    html = response.content.decode()
    assert response.status_code == 200
    assert "&lt;script&gt;x&lt;/script&gt; Honestly, <mark>I have a dog named Milo</mark>!" in html
    assert "<script>x</script>" not in html


def test_detail_page_shows_the_turns_around_the_message(staff_client):
    candidate = _candidate(content="I have a dog named Milo.")
    session = candidate.session
    MessageFactory(session=session, seq=candidate.message.seq - 1, role="assistant", content="Any pets <yet>?")
    MessageFactory(session=session, seq=candidate.message.seq + 5, role="user", content="far later")

    html = staff_client.get(reverse("admin:dreaming_candidate_change", args=[candidate.pk])).content.decode()

    assert "Any pets &lt;yet&gt;?" in html
    assert "far later" not in html


def test_detail_page_survives_a_deleted_message(staff_client):
    candidate = _candidate()
    candidate.message.delete()

    response = staff_client.get(reverse("admin:dreaming_candidate_change", args=[candidate.pk]))

    assert response.status_code == 200
    assert "the source message is gone" in response.content.decode()


def test_every_admin_changelist_loads_for_staff(staff_client):
    candidate = _candidate(run=DreamRunFactory())
    memory = MemoryFactory(user=candidate.user)
    MemorySourceFactory(memory=memory, message=candidate.message)
    LLMCallFactory(user=candidate.user)

    for model in admin.site._registry:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert staff_client.get(url).status_code == 200, url
    assert staff_client.get(reverse("admin:dreaming_memory_change", args=[memory.pk])).status_code == 200
    assert staff_client.get(reverse("admin:chat_chatsession_change", args=[candidate.session_id])).status_code == 200


def test_non_staff_cannot_reach_the_audit(client, user):
    candidate = _candidate(user=user)
    client.force_login(user)  # even the candidate's own user: the memory center is their place

    for url in (reverse(CHANGELIST), reverse("admin:dreaming_candidate_change", args=[candidate.pk])):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert _act(client, "mark_correct", [candidate]).status_code == 302
    candidate.refresh_from_db()
    assert candidate.audit == ""


# --- actions --------------------------------------------------------------------------------


def test_promote_creates_a_memory_with_its_source_quote(staff_client):
    candidate = _candidate()

    response = _act(staff_client, "promote", [candidate])

    assert response.status_code == 302
    candidate.refresh_from_db()
    memory = Memory.objects.get()
    assert (candidate.status, candidate.memory_id) == (Candidate.Status.PROMOTED, memory.pk)
    assert candidate.reason == "promoted by staff (auditor)"
    assert (memory.user_id, memory.statement) == (candidate.user_id, candidate.statement)
    assert "promoted_by_staff" in memory.score_breakdown and "confirmed_by_user" not in memory.score_breakdown
    source = MemorySource.objects.get(memory=memory)
    assert (source.quote, source.message_id) == (candidate.quote, candidate.message_id)


def test_promote_skips_what_privacy_or_evidence_rules_forbid(staff_client):
    unverified = _candidate()
    Candidate.objects.filter(pk=unverified.pk).update(verified=False)
    forgotten = _candidate(statement="User has a cat named Tom")
    tombstone_add(user=forgotten.user, statement=forgotten.statement)
    memory_off = _candidate()
    MemorySettings.objects.create(user=memory_off.user, enabled=False)
    already = _candidate(status=Candidate.Status.DISMISSED)
    good = _candidate()

    response = _act(staff_client, "promote", [unverified, forgotten, memory_off, already, good])

    assert Memory.objects.count() == 1 and Memory.objects.get().user_id == good.user_id
    for skipped in (unverified, forgotten, memory_off):
        skipped.refresh_from_db()
        assert skipped.status == Candidate.Status.PENDING
    shown = [str(m) for m in response.wsgi_request._messages]
    assert "Promoted 1 candidate." in shown
    assert any("1 memory is off for the user" in m and "1 quote not verified" in m and "1 not pending" in m
               and "1 the user made us forget it" in m for m in shown)


def test_dismiss_only_touches_pending_candidates_and_tombstones_nothing(staff_client):
    pending = _candidate()
    promoted = _candidate(status=Candidate.Status.PROMOTED)

    _act(staff_client, "dismiss", [pending, promoted])

    pending.refresh_from_db()
    promoted.refresh_from_db()
    assert (pending.status, pending.reason) == (Candidate.Status.DISMISSED, "dismissed by staff")
    assert pending.decided_at is not None
    assert promoted.status == Candidate.Status.PROMOTED
    assert not Tombstone.objects.exists()  # staff judging is not the user asking us to forget


def test_audit_labels_are_set_by_the_mark_actions(staff_client):
    wrong, right, untouched = _candidate(), _candidate(), _candidate()

    _act(staff_client, "mark_extraction_error", [wrong])
    _act(staff_client, "mark_correct", [right])

    assert Candidate.objects.get(pk=wrong.pk).audit == Candidate.Audit.EXTRACTION_ERROR
    assert Candidate.objects.get(pk=right.pk).audit == Candidate.Audit.CORRECT
    assert Candidate.objects.get(pk=untouched.pk).audit == ""
    assert Candidate.objects.get(pk=wrong.pk).status == Candidate.Status.PENDING  # a label, not a decision


def test_audit_note_is_editable_on_the_detail_page(staff_client):
    candidate = _candidate()
    url = reverse("admin:dreaming_candidate_change", args=[candidate.pk])

    response = staff_client.post(url, {"audit": "extraction_error", "audit_note": "statement adds an age"})

    assert response.status_code == 302
    candidate.refresh_from_db()
    assert (candidate.audit, candidate.audit_note) == ("extraction_error", "statement adds an age")
    assert candidate.statement == "User has a dog named Milo"


def test_export_action_downloads_the_selected_candidates_as_jsonl(staff_client):
    zh = _candidate(content="我养了一只狗，叫Milo。", quote="我养了一只狗", statement="用户养了一只狗", triage="normal",
                    audit=Candidate.Audit.CORRECT, audit_note="好")
    other = _candidate(triage="coding")

    response = _act(staff_client, "export_jsonl", [zh, other])

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="candidate-audit-')
    lines = response.content.decode().splitlines()
    assert len(lines) == 2
    assert json.loads(lines[0]) == {
        "statement": "用户养了一只狗", "quote": "我养了一只狗", "message": "我养了一只狗，叫Milo。", "category": "fact",
        "status": "pending", "reason": "", "audit": "correct", "audit_note": "好", "triage_kind": "normal",
    }
    assert json.loads(lines[1])["triage_kind"] == "coding"
    assert "我养了一只狗" in lines[0]  # readable, not \u-escaped


def test_export_audit_command_writes_labelled_examples(tmp_path):
    labelled = _candidate(audit=Candidate.Audit.EXTRACTION_ERROR, audit_note="quote is the assistant's")
    _candidate()  # not labelled
    out = tmp_path / "audit.jsonl"

    stdout = StringIO()
    call_command("export_audit", "--output", str(out), stdout=stdout)

    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows == [{
        "statement": labelled.statement, "quote": labelled.quote, "message": labelled.message.content,
        "category": "fact", "status": "pending", "reason": "", "audit": "extraction_error",
        "audit_note": "quote is the assistant's", "triage_kind": "normal",
    }]
    assert f"Exported 1 candidate(s) to {out}." in stdout.getvalue()

    everything = StringIO()
    call_command("export_audit", "--all", stdout=everything, stderr=StringIO())
    assert len(everything.getvalue().splitlines()) == 2


def test_export_audit_command_fails_readably_on_a_bad_path(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        call_command("export_audit", "--output", str(tmp_path / "missing" / "x.jsonl"))


def test_deleting_a_memory_in_admin_forgets_it_everywhere(staff_client):
    memory = MemoryFactory(statement="User likes jazz")

    response = staff_client.post(reverse("admin:dreaming_memory_delete", args=[memory.pk]), {"post": "yes"})

    assert response.status_code == 302
    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert Tombstone.objects.filter(user=memory.user).count() == 1  # never learned again


def test_candidate_list_query_count_does_not_grow_with_rows(staff_client, django_assert_max_num_queries):
    for _ in range(30):
        _candidate()

    with django_assert_max_num_queries(20):
        response = staff_client.get(reverse(CHANGELIST))
    assert len(response.context["cl"].result_list) == 30


# --- conversations and API keys -------------------------------------------------------------


def test_release_claim_frees_stuck_sessions_only(staff_client):
    from django.utils import timezone

    stuck = ChatSessionFactory(claimed_at=timezone.now(), claimed_by="worker-1")
    free = ChatSessionFactory()

    staff_client.post(reverse("admin:chat_chatsession_changelist"),
                      {"action": "release_claim", "_selected_action": [stuck.pk, free.pk]})

    stuck.refresh_from_db()
    assert (stuck.claimed_at, stuck.claimed_by) == (None, "")


def test_deleting_a_conversation_in_admin_forgets_what_it_alone_taught(staff_client):
    candidate = _candidate()
    memory = MemoryFactory(user=candidate.user, statement="User has a dog named Milo")
    MemorySourceFactory(memory=memory, message=candidate.message, quote=candidate.quote)

    response = staff_client.post(reverse("admin:chat_chatsession_delete", args=[candidate.session_id]), {"post": "yes"})

    assert response.status_code == 302
    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert not Candidate.objects.filter(pk=candidate.pk).exists()
    assert Tombstone.objects.filter(user=candidate.user).exists()


def test_revoking_api_keys_and_no_adding_from_admin(staff_client):
    from chat.models import ApiKey
    from tests.factories import api_key_create

    key, _ = api_key_create("bot")

    staff_client.post(reverse("admin:chat_apikey_changelist"), {"action": "revoke", "_selected_action": [key.pk]})

    key.refresh_from_db()
    assert key.revoked_at is not None
    assert staff_client.get(reverse("admin:chat_apikey_add")).status_code == 403
    assert ApiKey.objects.count() == 1


def test_editing_a_memory_in_admin_rerenders_memory_md(staff_client):
    from dreaming.models import MemoryDocument

    memory = MemoryFactory(statement="User likes jazz")
    url = reverse("admin:dreaming_memory_change", args=[memory.pk])
    form = staff_client.get(url).context["adminform"].form
    data = {name: "" if form[name].value() is None else form[name].value() for name in form.fields}
    for when in ("valid_from", "first_seen", "last_seen"):  # split date/time widgets
        data.pop(when)
        data.update({f"{when}_0": "2026-01-01", f"{when}_1": "10:00:00"})
    for when in ("valid_to", "last_recalled_at"):
        data.pop(when, None)
    data.update({"statement": "User likes bebop jazz", "sources-TOTAL_FORMS": "0", "sources-INITIAL_FORMS": "0"})

    response = staff_client.post(url, data)

    assert response.status_code == 302
    memory.refresh_from_db()
    assert memory.statement == "User likes bebop jazz"
    assert "bebop" in MemoryDocument.objects.get(user=memory.user, persona=None).content
