"""Admin deletion goes through the forget service and leaves no words in django_admin_log;
"Don't remember" keeps only a tombstone."""
import json

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.urls import reverse

from dreaming.memory.diary import DiaryLines, diary_append
from dreaming.models import Candidate, DiaryEntry, Memory, MemorySource, Tombstone
from dreaming.protocol import NightChanges
from dreaming.memory.services import candidate_dismiss
from dreaming.memory.tombstones import is_tombstoned
from tests.factories import (
    CandidateFactory,
    MemoryFactory,
    MemorySourceFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _log_text() -> str:
    return json.dumps(list(LogEntry.objects.values("object_repr", "change_message")), ensure_ascii=False)


def test_deleting_a_memory_in_admin_logs_its_id_not_its_words(staff_client):
    memory = MemoryFactory(statement="User keeps bees in Wolfhausen")
    MemorySourceFactory(memory=memory, quote="my bees in Wolfhausen")

    response = staff_client.post(reverse("admin:dreaming_memory_delete", args=[memory.pk]), {"post": "yes"}, follow=True)

    assert response.status_code == 200
    assert not Memory.objects.filter(pk=memory.pk).exists() and not MemorySource.objects.exists()
    assert Tombstone.objects.filter(user=memory.user).exists()
    entry = LogEntry.objects.get(object_id=str(memory.pk))
    assert entry.object_repr.startswith(f"memory #{memory.pk}")
    assert "Wolfhausen" not in _log_text()
    assert "Wolfhausen" not in response.content.decode()  # nor in the "was deleted" message


def test_an_admin_edit_logged_before_the_forget_loses_its_words_too(staff_client):
    memory = MemoryFactory(statement="User keeps bees in Wolfhausen")
    # An entry as Django wrote it before this admin named rows by id (or as any other tool may).
    LogEntry.objects.create(
        user_id=UserFactory(is_staff=True).pk, content_type=ContentType.objects.get_for_model(Memory),
        object_id=str(memory.pk), object_repr=memory.statement, action_flag=CHANGE,
        change_message=json.dumps([{"added": {"name": "memory source", "object": "bees in Wolfhausen"}}]),
    )

    staff_client.post(reverse("admin:dreaming_memory_changelist"),
                      {"action": "delete_selected", "_selected_action": [memory.pk], "post": "yes"})

    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert "Wolfhausen" not in _log_text()
    assert LogEntry.objects.filter(object_id=str(memory.pk)).count() == 2  # the history is kept, wordless


def test_an_admin_change_with_an_inline_source_is_logged_without_the_quote(staff_client):
    memory = MemoryFactory(statement="User keeps bees")
    url = reverse("admin:dreaming_memory_change", args=[memory.pk])
    form = staff_client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, (list, dict))}
    data.update({
        "statement": "User keeps bees in Wolfhausen", "score_breakdown": "{}",
        "valid_from_0": "2026-01-01", "valid_from_1": "00:00:00", "first_seen_0": "2026-01-01",
        "first_seen_1": "00:00:00", "last_seen_0": "2026-01-01", "last_seen_1": "00:00:00",
        "sources-TOTAL_FORMS": "1", "sources-INITIAL_FORMS": "0",
        "sources-0-quote": "bees in Wolfhausen", "sources-0-said_at_0": "2026-01-01", "sources-0-said_at_1": "00:00:00",
    })
    data.pop("valid_to", None)
    data.pop("superseded_by", None)
    data.pop("persona", None)

    response = staff_client.post(url, data)

    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    assert MemorySource.objects.filter(memory=memory).exists()
    entry = LogEntry.objects.get(object_id=str(memory.pk))
    assert entry.object_repr == f"memory #{memory.pk}" and "Wolfhausen" not in _log_text()


def test_dont_remember_deletes_the_candidate_and_keeps_only_a_tombstone(user):
    candidate = CandidateFactory(user=user, status="pending", statement="User made mapo tofu for Qiang",
                                 quote="I made mapo tofu for Qiang")

    returned = candidate_dismiss(candidate=candidate, by=user)

    assert returned.status == "dismissed"
    assert not Candidate.objects.filter(pk=candidate.pk).exists()
    assert is_tombstoned(user=user, statement="User made mapo tofu for Qiang")
    assert not Tombstone.objects.filter(digest__icontains="tofu").exists()


def test_dont_remember_refuses_a_candidate_that_was_already_decided(user):
    candidate = CandidateFactory(user=user, status="promoted")
    with pytest.raises(ValidationError):
        candidate_dismiss(candidate=candidate, by=user)
    assert Candidate.objects.filter(pk=candidate.pk).exists()


def test_deleting_a_candidate_in_admin_takes_its_pending_diary_line(staff_client, user):
    kept = CandidateFactory(user=user, status="pending", statement="User likes jazz")
    doomed = CandidateFactory(user=user, status="pending", statement="User likes Kumquatello jam")
    lines = DiaryLines()
    for candidate in (kept, doomed):
        lines.add("pending", [candidate.statement], candidate_ids=[candidate.pk])
    diary_append(user=user, run=None, now=doomed.said_at, changes=NightChanges(), lines=lines, memories=[])

    response = staff_client.post(reverse("admin:dreaming_candidate_delete", args=[doomed.pk]), {"post": "yes"})

    assert response.status_code == 302 and not Candidate.objects.filter(pk=doomed.pk).exists()
    narrative = DiaryEntry.objects.get(user=user).narrative
    assert "Kumquatello" not in narrative and "User likes jazz" in narrative
    assert "Kumquatello" not in _log_text()
