"""End to end with the real local engine: import → light sleep → deep sleep → weekly, and --backfill."""
import json
from datetime import date, datetime, time, timedelta, timezone as dt_timezone
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from chat.models import ChatSession
from dreaming.pipeline.deep import deep_sleep_user
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import DiaryEntry, DreamRun, Memory, MemorySource
from dreaming.pipeline.weekly import weekly_consolidate_user
from tests.factories import ChatSessionFactory, MessageFactory

pytestmark = pytest.mark.django_db

UTC = dt_timezone.utc


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=UTC)


MONDAY = date(2026, 2, 2)
HISTORY = [  # (day, [(minute offset, role, text)])
    (MONDAY, [(0, "user", "I live in Shanghai and I have a dog named Milo."),
              (1, "assistant", "Milo sounds lovely. What do you do?"),
              (2, "user", "I work as a nurse.")]),
    (MONDAY + timedelta(days=1), [(0, "user", "I like jazz music."),
                                  (3, "user", "Long shift again, I work as a nurse after all.")]),
    (MONDAY + timedelta(days=11), [(0, "user", "Big news: I moved to Tokyo last week!"),
                                   (1, "assistant", "Congratulations!"),
                                   (2, "user", "I like jazz music, still.")]),
]


def history_file(tmp_path) -> str:
    path = tmp_path / "history.jsonl"
    lines = []
    for number, (day, turns) in enumerate(HISTORY):
        lines.append(json.dumps({
            "external_id": f"conv-{number}",
            "messages": [{"role": role, "content": text, "created_at": (at(day, 20) + timedelta(minutes=m)).isoformat()}
                         for m, role, text in turns],
        }))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def import_history(tmp_path, username):
    call_command("import_chats", history_file(tmp_path), "--user", username, "--create-user", stdout=StringIO())
    return get_user_model().objects.get(username=username)


def memory_rows(user):
    return sorted(
        (m.statement, m.status, m.category, round(m.confidence, 4), m.recurrence, m.first_seen, m.last_seen,
         m.valid_from, m.valid_to, m.superseded_by.statement if m.superseded_by else None,
         tuple(m.sources.order_by("said_at").values_list("quote", "said_at")))
        for m in Memory.objects.filter(user=user)
    )


def replay_night_by_night(user):
    """What a server running since the first day would have done, one night at a time."""
    idle = timedelta(seconds=settings.DREAM_IDLE_SECONDS)
    last_night = None
    for day, _ in HISTORY:
        ids = [s.pk for s in ChatSession.objects.filter(user=user) if s.last_active_at.date() == day]
        light_sleep_sweep(now=at(day + timedelta(days=1), 0) + idle, session_ids=ids)
        night = at(day + timedelta(days=1), settings.DREAM_DEEP_HOUR)
        sunday = at(MONDAY + timedelta(days=6), settings.DREAM_WEEKLY_HOUR)
        if last_night is not None and last_night < sunday <= night:
            weekly_consolidate_user(user=user, now=sunday)
        deep_sleep_user(user=user, now=night)
        last_night = night


def test_backfill_gives_the_same_memories_as_running_night_by_night(tmp_path):
    alice = import_history(tmp_path, "alice")
    bob = import_history(tmp_path, "bob")

    out, err = StringIO(), StringIO()
    call_command("dream", "--now", "--backfill", "--user", "alice", stdout=out, stderr=err)
    replay_night_by_night(bob)

    alice_rows, bob_rows = memory_rows(alice), memory_rows(bob)
    assert alice_rows == bob_rows and len(alice_rows) >= 4
    # Times come from the messages (February), never from the wall clock.
    message_times = {at(day, 20) + timedelta(minutes=m) for day, turns in HISTORY for m, _, _ in turns}
    for row in alice_rows:
        assert row[5] in message_times and row[6] in message_times and row[7] in message_times
    # The move was learned on the third night and superseded Shanghai from the moment it was said.
    shanghai = Memory.objects.get(user=alice, statement__contains="Shanghai")
    assert shanghai.status == Memory.Status.SUPERSEDED
    assert shanghai.valid_to == at(MONDAY + timedelta(days=11), 20)
    assert "Tokyo" in shanghai.superseded_by.statement
    # Jazz was said in two sessions, so it became a memory with both sources.
    jazz = Memory.objects.get(user=alice, statement__icontains="jazz")
    assert jazz.recurrence == 2 and jazz.sources.count() == 2
    assert sorted(DiaryEntry.objects.filter(user=alice).values_list("night", flat=True)) == [
        MONDAY, MONDAY + timedelta(days=1), MONDAY + timedelta(days=11)]
    assert DreamRun.objects.filter(phase="weekly", simulated_now=at(MONDAY + timedelta(days=6), 4)).exists()
    assert "superseded 1" in out.getvalue() and "backfill" in err.getvalue()
    assert not ChatSession.objects.filter(user=alice, dreamed_at__isnull=True).exists()


def test_backfill_dry_run_writes_no_memories(tmp_path):
    alice = import_history(tmp_path, "alice")
    out = StringIO()
    call_command("dream", "--now", "--backfill", "--dry-run", stdout=out, stderr=StringIO())
    assert out.getvalue().startswith("Dry run")
    assert not Memory.objects.filter(user=alice).exists()
    assert not ChatSession.objects.filter(user=alice, dreamed_at__isnull=False).exists()


def say(user, when, *texts):
    session = ChatSessionFactory(user=user, started_at=when, last_active_at=when + timedelta(minutes=len(texts)))
    for seq, text in enumerate(texts, start=1):
        MessageFactory(session=session, seq=seq, role="user", content=text, created_at=when + timedelta(minutes=seq))
    return session


def test_similarity_alone_is_not_contradiction(user):
    start = datetime(2026, 3, 1, 10, tzinfo=UTC)
    say(user, start, "I live in Shanghai.", "I like green tea.")
    light_sleep_sweep(now=start + timedelta(hours=5))
    deep_sleep_user(user=user, now=start + timedelta(hours=17))
    learned = set(Memory.objects.filter(user=user).values_list("statement", flat=True))

    later = start + timedelta(days=2)
    say(user, later, "I love the food in Shanghai.", "I like green tea with jasmine.")
    light_sleep_sweep(now=later + timedelta(hours=5))
    run = deep_sleep_user(user=user, now=later + timedelta(hours=17))

    assert run.superseded == 0
    assert not Memory.objects.filter(user=user, status=Memory.Status.SUPERSEDED).exists()
    still_active = set(Memory.objects.filter(user=user, status="active").values_list("statement", flat=True))
    assert learned <= still_active


def test_an_explicit_move_supersedes_through_the_real_engine(user):
    start = datetime(2026, 3, 1, 10, tzinfo=UTC)
    say(user, start, "I live in Shanghai.")
    light_sleep_sweep(now=start + timedelta(hours=5))
    deep_sleep_user(user=user, now=start + timedelta(hours=17))
    later = start + timedelta(days=20)
    say(user, later, "I moved to Tokyo in March.")
    light_sleep_sweep(now=later + timedelta(hours=5))

    run = deep_sleep_user(user=user, now=later + timedelta(hours=17))

    old = Memory.objects.get(user=user, statement__contains="Shanghai")
    new = Memory.objects.get(user=user, statement__contains="Tokyo")
    assert run.superseded == 1
    assert (old.status, old.superseded_by, old.valid_to) == (Memory.Status.SUPERSEDED, new, later + timedelta(minutes=1))
    assert new.valid_from == later + timedelta(minutes=1) and new.status == Memory.Status.ACTIVE
    assert MemorySource.objects.filter(memory=new, quote__contains="Tokyo").exists()


def test_dream_now_runs_light_then_deep_by_default(user):
    from django.utils import timezone

    long_ago = timezone.now() - timedelta(hours=3)
    say(user, long_ago, "I have a dog named Milo.", "I work as a nurse in Leeds.")
    coding = say(user, long_ago, "Can you debug my Python code?\n```python\ndef add(a, b):\n    return a + b\n```",
                 "Traceback (most recent call last): TypeError: unsupported operand type(s) for +: 'int' and 'str'")
    out, err = StringIO(), StringIO()

    call_command("dream", "--now", "--user", user.username, stdout=out, stderr=err)

    line = out.getvalue().strip()
    assert line.startswith("sessions 1 (skipped: coding 1)"), line
    assert "promoted 2" in line
    assert set(DreamRun.objects.values_list("phase", flat=True)) == {"light", "deep"}
    coding.refresh_from_db()
    assert coding.skipped and coding.triage_kind == "coding"
    assert Memory.objects.filter(user=user, status="active").count() == 2


def test_an_offline_night_asks_inside_the_transaction_only_and_decides_the_same(tmp_path, monkeypatch):
    """The rehearsal exists so a remote model is not awaited under the user's lock; the rules engine and
    the local embedder answer in process, so their night skips it, with the same outcome."""
    from dreaming.pipeline import deep

    alice, bob = import_history(tmp_path, "alice"), import_history(tmp_path, "bob")
    rehearsed = []
    real_rehearse = deep._night_rehearse
    monkeypatch.setattr(deep, "_night_rehearse", lambda night: rehearsed.append(night.user.pk) or real_rehearse(night))
    replay_night_by_night(alice)
    assert rehearsed == []

    # The same nights with the rehearsal forced (as with a remote model): the same memories.
    monkeypatch.setattr(deep, "_awaits_network", lambda dreamer, embedder: True)
    replay_night_by_night(bob)
    assert rehearsed and set(rehearsed) == {bob.pk}
    assert memory_rows(alice) == memory_rows(bob) and len(memory_rows(alice)) >= 4
