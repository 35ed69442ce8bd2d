"""DREAMS.md: one entry per night in the user's time zone, a line per memory; forgetting one memory
removes exactly its line, and "I let go of" says which."""
from datetime import date, datetime
from datetime import timezone as dt_timezone

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from dreaming.pipeline.deep import deep_sleep_user
from dreaming.models import DiaryEntry, Feedback, Memory, MemorySettings
from dreaming.memory.selectors import diary_markdown
from dreaming.memory.services import candidate_dismiss, memory_forget, memory_settings_set
from tests.factories import DiaryEntryFactory, candidate_said
from tests.support.deep import EMBEDDER, ScriptedDreamer

pytestmark = pytest.mark.django_db

UTC = dt_timezone.utc


def night(user, now):
    run = deep_sleep_user(user=user, now=now, dreamer=ScriptedDreamer(), embedder=EMBEDDER)
    assert run.status == "ok", run.error
    return run


def said(user, statement, at, importance=0.8):
    return candidate_said(user=user, quote=statement.replace("User", "I"), statement=statement,
                          importance=importance, said_at=at)


def test_forgetting_one_memory_removes_only_its_line_and_recounts(user):
    at = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
    for statement in ("User has a dog named Zephyrine", "User works as a baker in Quillabamba",
                      "User's sister Ottoline lives in Berlin"):
        said(user, statement, at)
    night(user, datetime(2026, 12, 1, 3, 0, tzinfo=UTC))
    entry = DiaryEntry.objects.get(user=user)
    assert entry.narrative.startswith("I learned 3 new things:")

    receipt = memory_forget(memory=Memory.objects.get(statement__contains="Zephyrine"), by=user)

    entry.refresh_from_db()
    assert receipt.diary_rewritten == 1 and receipt.diary_deleted == 0
    assert entry.narrative.startswith("I learned 2 new things:")
    assert "Quillabamba" in entry.narrative and "Ottoline" in entry.narrative
    assert "Zephyrine" not in entry.narrative and "Zephyrine" not in str(entry.lines)
    assert set(entry.memories.values_list("statement", flat=True)) == {
        "User works as a baker in Quillabamba", "User's sister Ottoline lives in Berlin"}


def test_the_last_line_forgotten_deletes_the_entry(user):
    said(user, "User has a dog named Zephyrine", datetime(2026, 11, 30, 20, 0, tzinfo=UTC))
    night(user, datetime(2026, 12, 1, 3, 0, tzinfo=UTC))

    receipt = memory_forget(memory=Memory.objects.get(user=user), by=user)

    assert receipt.diary_deleted == 1 and not DiaryEntry.objects.filter(user=user).exists()


def test_two_runs_of_one_night_write_one_entry(user):
    said(user, "User has a dog named Zephyrine", datetime(2026, 11, 30, 20, 0, tzinfo=UTC))
    night(user, datetime(2026, 11, 30, 23, 0, tzinfo=UTC))  # `dream --now` late in the evening
    said(user, "User works as a baker in Quillabamba", datetime(2026, 11, 30, 23, 30, tzinfo=UTC))
    night(user, datetime(2026, 12, 1, 3, 0, tzinfo=UTC))  # the scheduled night

    assert list(DiaryEntry.objects.filter(user=user).values_list("night", flat=True)) == [date(2026, 11, 30)]
    assert diary_markdown(user=user).count("## 2026-11-30") == 1
    assert "I learned 2 new things:" in diary_markdown(user=user)


def test_a_night_is_filed_under_the_users_own_date(user):
    MemorySettings.objects.create(user=user, time_zone="Asia/Shanghai")
    # 10:00 on 1 Dec in Shanghai is 02:00 UTC: a server in UTC, going by the run, filed it under 30 Nov.
    said(user, "User has a dog named Zephyrine", datetime(2026, 12, 1, 2, 0, tzinfo=UTC))
    night(user, datetime(2026, 12, 1, 4, 0, tzinfo=UTC))

    assert DiaryEntry.objects.get(user=user).night == date(2026, 12, 1)


def test_sessions_of_a_day_dreamed_that_morning_are_filed_under_that_day(user):
    said(user, "User has a dog named Zephyrine", datetime(2026, 12, 1, 8, 0, tzinfo=UTC))
    night(user, datetime(2026, 12, 1, 10, 0, tzinfo=UTC))  # `dream --now` at 10:00

    assert DiaryEntry.objects.get(user=user).night == date(2026, 12, 1)


def test_a_late_chat_belongs_to_the_evening_before(user):
    said(user, "User has a dog named Zephyrine", datetime(2026, 12, 1, 0, 30, tzinfo=UTC))
    night(user, datetime(2026, 12, 1, 3, 0, tzinfo=UTC))

    assert DiaryEntry.objects.get(user=user).night == date(2026, 11, 30)


def test_letting_go_names_the_memory_and_a_hard_delete_takes_the_line(user):
    said(user, "User works as a baker in Quillabamba", datetime(2026, 11, 29, 20, 0, tzinfo=UTC))
    night(user, datetime(2026, 11, 30, 3, 0, tzinfo=UTC))
    memory = Memory.objects.get(user=user)
    Feedback.objects.create(user=user, memory=memory, verdict="reject")

    night(user, datetime(2026, 12, 1, 3, 0, tzinfo=UTC))

    let_go = DiaryEntry.objects.get(user=user, night=date(2026, 11, 30))
    assert "I let go of 1 memory:\n- “User works as a baker in Quillabamba”" in let_go.narrative
    memory_forget(memory=memory, by=user)
    assert "Quillabamba" not in diary_markdown(user=user)


def test_a_pending_line_goes_with_the_candidate_the_user_dismisses(user):
    at = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
    said(user, "User has a dog named Zephyrine", at)
    pending = candidate_said(user=user, quote="Yes, I do", statement="User likes mapo tofu", category="preference",
                             importance=0.6, user_initiated=False, said_at=at)
    night(user, datetime(2026, 12, 1, 3, 0, tzinfo=UTC))
    assert "mapo tofu" in diary_markdown(user=user)

    pending.refresh_from_db()
    candidate_dismiss(candidate=pending, by=user)

    markdown = diary_markdown(user=user)
    assert "mapo tofu" not in markdown and "Zephyrine" in markdown


def test_an_entry_written_before_lines_keeps_its_text_and_is_scrubbed_by_sentence(user):
    DiaryEntryFactory(user=user, night=date(2026, 11, 30),
                      narrative="Tonight I learned that User has a cat named Oyster. It rained.")
    said(user, "User has a dog named Zephyrine", datetime(2026, 11, 30, 20, 0, tzinfo=UTC))
    night(user, datetime(2026, 12, 1, 3, 0, tzinfo=UTC))
    entry = DiaryEntry.objects.get(user=user)
    assert "Oyster" in entry.narrative and "Zephyrine" in entry.narrative

    memory_forget(memory=Memory.objects.get(user=user), by=user)
    entry.refresh_from_db()
    assert entry.narrative == "Tonight I learned that User has a cat named Oyster. It rained."


def test_the_settings_page_sets_the_users_time_zone_and_refuses_an_unknown_one(client, user):
    client.force_login(user)
    response = client.post(reverse("memcenter:settings"), {"enabled": "on", "time_zone": "Asia/Shanghai"})
    assert response.status_code == 302
    assert MemorySettings.objects.get(user=user).time_zone == "Asia/Shanghai"

    response = client.post(reverse("memcenter:settings"), {"enabled": "on", "time_zone": "Mars/Olympus"})
    assert response.status_code == 200 and MemorySettings.objects.get(user=user).time_zone == "Asia/Shanghai"
    with pytest.raises(ValidationError):
        memory_settings_set(user=user, enabled=True, time_zone="Mars/Olympus")


def test_dreams_md_has_one_heading_per_night_even_for_older_split_entries(user):
    for text in ("First run.", "Second run.", "Third run."):
        DiaryEntryFactory(user=user, night=date(2026, 11, 30), narrative=text)

    markdown = diary_markdown(user=user)

    assert markdown.count("## 2026-11-30") == 1
    assert all(text in markdown for text in ("First run.", "Second run.", "Third run."))
