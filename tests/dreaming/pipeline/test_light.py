"""Light sleep per-session pipeline, with fake dreamers/embedders at the model edge (real Postgres)."""
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from chat.models import ChatSession
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import Candidate, DreamRun
from dreaming.protocol import (
    ExtractedCandidate, ProviderUnavailable, SessionReading, TriageResult, UnusableAnswer,
)
from dreaming.pipeline.runs import run_add, run_start
from dreaming.memory.tombstones import tombstone_add
from tests.factories import ChatSessionFactory, PersonaFactory
from tests.support.light import FakeDreamer, FakeEmbedder, idle_session, messages_add, sweep


# --- the happy path -------------------------------------------------------------------------------


def test_it_stores_verified_candidates_and_stamps_the_session(user):
    persona = PersonaFactory(slug="luna")
    session = idle_session(user, persona=persona)
    hello, _, milo = messages_add(session, ("user", "Hi there"), ("assistant", "Hello! How are you?"),
                          ("user", "I adopted a dog named Milo last week."))
    dreamer, embedder = FakeDreamer(extract=[
        ExtractedCandidate(quote="adopted a dog named Milo", statement="The user adopted a dog named Milo",
                           category="event", importance=0.8, user_initiated=True, seq=3),
    ]), FakeEmbedder()

    run = light_sleep_sweep(dreamer=dreamer, embedder=embedder, worker="w1")

    candidate = Candidate.objects.get()
    assert (candidate.status, candidate.verified, candidate.category, candidate.importance) == (
        Candidate.Status.PENDING, True, "event", 0.8)
    assert candidate.message == milo and candidate.said_at == milo.created_at
    assert candidate.session == session and candidate.persona == persona and candidate.user == user
    assert candidate.run == run
    assert candidate.signals["session_id"] == session.pk and candidate.signals["seq"] == 3
    assert candidate.signals["specific"] > 0.5  # a name: specific
    assert candidate.embedding is not None and len(candidate.embedding) == settings.EMBEDDING_DIM
    session.refresh_from_db()
    assert session.dreamed_at is not None and session.processed_seq == 3
    assert (session.claimed_at, session.claimed_by, session.attempts) == (None, "", 0)
    assert (session.triage_kind, session.skipped) == ("normal", False)
    assert len(dreamer.tasks("extract")) == 1 and len(embedder.calls) == 1  # one call each per session
    assert (run.status, run.sessions_claimed, run.sessions_done, run.candidates_created) == ("ok", 1, 1, 1)
    assert run.embedding_calls == 1 and run.finished_at is not None and run.phase == "light"
    ctx = dreamer.tasks("extract")[0][2]
    assert (ctx.user_id, ctx.run_id, ctx.phase) == (user.pk, run.pk, "light")


def test_a_stamped_session_is_not_dreamed_twice(user):
    session = idle_session(user)
    messages_add(session, ("user", "I live in Lisbon."))
    sweep()
    dreamer = FakeDreamer()
    run = sweep(dreamer=dreamer)
    assert run.sessions_claimed == 0 and dreamer.calls == []
    assert Candidate.objects.count() == 1


# --- poison pills and provider failures -----------------------------------------------------------


def test_an_unusable_answer_counts_an_attempt_and_is_not_stamped_empty(user):
    session = idle_session(user)
    messages_add(session, ("user", "I live in Lisbon."))
    run = sweep(dreamer=FakeDreamer(extract_error=UnusableAnswer("not JSON")))
    session.refresh_from_db()
    assert session.dreamed_at is None and session.processed_seq == 0 and session.attempts == 1
    assert "UnusableAnswer: not JSON" in session.last_error
    assert Candidate.objects.count() == 0
    assert (run.status, run.sessions_done, run.sessions_failed) == ("failed", 0, 1)
    assert sweep().sessions_claimed == 0  # held until the claim is stale: no tight retry loop


def test_zero_candidates_still_stamps_the_session(user):
    session = idle_session(user)
    messages_add(session, ("user", "ok thanks"))
    run = sweep(dreamer=FakeDreamer(extract=[]))
    session.refresh_from_db()
    assert session.dreamed_at is not None and session.last_error == ""
    assert (run.sessions_done, run.candidates_created) == (1, 0)


def test_provider_unavailable_stamps_nothing_and_the_next_sweep_retries(user):
    first, second = idle_session(user), idle_session(user)
    messages_add(first, ("user", "I live in Lisbon."))
    messages_add(second, ("user", "I work as a nurse."))
    down = FakeDreamer(extract_error=ProviderUnavailable("503 from upstream"))

    run = sweep(dreamer=down)

    assert run.status == "failed" and "provider unavailable" in run.error and "2 session(s) released" in run.error
    assert len(down.tasks("extract")) == 1  # stopped at the first outage instead of hammering on
    for session in (first, second):
        session.refresh_from_db()
        assert session.dreamed_at is None and session.claimed_at is None and session.claimed_by == ""
        assert "provider unavailable" in session.last_error
        assert session.attempts == 0  # an outage is not the session's fault
    assert Candidate.objects.count() == 0

    retry = sweep()
    assert (retry.status, retry.sessions_claimed, retry.sessions_done) == ("ok", 2, 2)
    assert Candidate.objects.count() == 2
    first.refresh_from_db()
    assert first.dreamed_at is not None and first.last_error == ""


def test_an_embedding_outage_after_a_paid_extract_keeps_the_candidates_without_vectors(user):
    session = idle_session(user)
    messages_add(session, ("user", "I live in Lisbon."))
    dreamer = FakeDreamer()

    class DownEmbedder(FakeEmbedder):
        def embed(self, texts, *, kind="document", ctx=None):
            raise ProviderUnavailable("embeddings timed out")

    run = sweep(dreamer=dreamer, embedder=DownEmbedder())
    session.refresh_from_db()
    assert run.status == "ok" and session.dreamed_at is not None and "without vectors" in session.last_error
    candidate = Candidate.objects.get()
    assert candidate.status == Candidate.Status.PENDING and candidate.embedding is None
    assert sweep(dreamer=dreamer).sessions_claimed == 0 and len(dreamer.tasks("extract")) == 1  # not paid twice


def test_an_unexpected_error_in_one_session_does_not_stop_the_sweep(user):
    bad, good = idle_session(user), idle_session(user)
    messages_add(bad, ("user", "BOOM please"))
    messages_add(good, ("user", "I live in Lisbon."))
    dreamer = FakeDreamer(extract_error=lambda turns: RuntimeError("kaboom") if "BOOM" in turns[0].content else None)

    run = sweep(dreamer=dreamer)

    assert (run.status, run.sessions_claimed, run.sessions_done, run.sessions_failed) == ("failed", 2, 1, 1)
    assert run.error == f"session {bad.pk}: RuntimeError: kaboom"
    bad.refresh_from_db()
    good.refresh_from_db()
    assert "RuntimeError: kaboom" in bad.last_error and bad.dreamed_at is None
    assert bad.claimed_at is not None  # left to go stale: retried after DREAM_CLAIM_STALE_SECONDS
    assert good.dreamed_at is not None
    assert list(Candidate.objects.values_list("session_id", flat=True)) == [good.pk]


def test_a_session_that_keeps_failing_is_given_up_after_max_attempts(user, settings):
    settings.DREAM_MAX_ATTEMPTS = 2
    session = idle_session(user)
    messages_add(session, ("user", "BOOM"))
    broken = FakeDreamer(extract_error=RuntimeError("kaboom"))
    sweep(dreamer=broken)
    session.refresh_from_db()
    assert session.dreamed_at is None and session.attempts == 1
    ChatSession.objects.filter(pk=session.pk).update(claimed_at=timezone.now() - timedelta(hours=1))

    run = sweep(dreamer=broken)

    session.refresh_from_db()
    assert run.sessions_failed == 1
    assert session.dreamed_at is not None and session.claimed_at is None and session.processed_seq == 1
    assert session.last_error.startswith("gave up after 2 attempts")
    assert sweep().sessions_claimed == 0


def test_one_bad_candidate_does_not_sink_the_session(user):
    session = idle_session(user)
    messages_add(session, ("user", "I live in Lisbon and I have two cats."))
    answer = SessionReading.model_validate({"candidates": [
        {"quote": "", "statement": "The user has something", "seq": 1},
        "not an object",
        {"quote": "I have two cats", "statement": "The user has two cats", "category": "pets?!",
         "importance": "very", "seq": 1},
        {"quote": "I live in Lisbon", "statement": "The user lives in Lisbon", "category": "nonsense",
         "importance": 7, "seq": 1},
    ]})
    run = sweep(dreamer=FakeDreamer(extract=answer.candidates))
    kept = {c.statement: (c.category, c.importance) for c in Candidate.objects.all()}
    # unknown categories collapse to fact, importance is clamped or defaulted, the empty quote is dropped
    assert kept == {"The user has two cats": ("fact", 0.5), "The user lives in Lisbon": ("fact", 0.7)}
    assert run.sessions_done == 1 and run.candidates_created == 2
    session.refresh_from_db()
    assert session.dreamed_at is not None


# --- triage --------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["roleplay", "document", "coding", "translation"])
def test_each_skip_kind_is_stored_with_its_reason_and_nothing_is_extracted(user, kind):
    session = idle_session(user)
    messages_add(session, ("user", "I have a dog named Milo."))
    dreamer = FakeDreamer(triage=TriageResult(kind=kind, reason=f"model says {kind}"))

    run = sweep(dreamer=dreamer)

    session.refresh_from_db()
    assert (session.triage_kind, session.triage_reason, session.skipped) == (kind, f"model says {kind}", True)
    assert session.dreamed_at is not None and session.processed_seq == 1
    # One model call, whose answer is not kept. Skip the task, keep the person: the user's own plain statement
    # is still read by rules in a coding, document or translation session, never in fiction.
    kept = list(Candidate.objects.values_list("statement", flat=True))
    assert len(dreamer.tasks("extract")) == 1
    assert kept == ([] if kind == "roleplay" else ["User has a dog named Milo"]), kept
    assert (run.sessions_skipped, run.sessions_done, run.skipped_by_kind) == (1, 0, {kind: 1})


OBVIOUS = {
    "coding": [("user", 'Why does this crash?\n```python\nimport os\nprint(os.environ["X"])\n```\n'
                        'Traceback (most recent call last):\n  File "a.py", line 2, in <module>\nKeyError: X')],
    "translation": [("user", "Translate this into French: The weather is lovely and the market opens at nine.")],
    "roleplay": [("user", "Let's roleplay. You are a pirate captain and I am your first mate. Stay in character."),
                 ("assistant", "Arr, welcome aboard!"), ("user", "*draws my sword* We attack at dawn!")],
    "document": [("user", "Summarize this article:\n" + "The committee reviewed the annual budget and found "
                          "that spending on infrastructure rose by twelve percent while education stayed flat. " * 6)],
}


@pytest.mark.parametrize("kind", sorted(OBVIOUS))
def test_the_rule_precheck_skips_obvious_sessions_without_a_model_call(user, kind):
    session = idle_session(user)
    messages_add(session, *OBVIOUS[kind])
    dreamer = FakeDreamer()

    run = sweep(dreamer=dreamer)

    assert dreamer.calls == []  # not even triage
    session.refresh_from_db()
    assert (session.triage_kind, session.skipped) == (kind, True)
    assert session.triage_reason.startswith("rule pre-check")
    assert run.skipped_by_kind == {kind: 1} and run.llm_calls == 0


def test_an_ordinary_session_goes_past_the_precheck_to_the_model(user):
    session = idle_session(user)
    messages_add(session, ("user", "My sister Anna is visiting me in Berlin next week."))
    dreamer = FakeDreamer()
    sweep(dreamer=dreamer)
    assert [call[0] for call in dreamer.calls] == ["extract"]  # one call: the kind and the candidates


def test_system_prompts_are_not_sent_to_the_model(user):
    session = idle_session(user)
    messages_add(session, ("system", "You are Luna, a caring companion. Stay in character. API key sk-abcdefghijklmnop1234"),
         ("user", "I moved to Porto last month."))
    dreamer = FakeDreamer()
    sweep(dreamer=dreamer)
    assert "Luna" not in dreamer.sent_text() and "I moved to Porto" in dreamer.sent_text()
    session.refresh_from_db()
    assert session.triage_kind == "normal" and Candidate.objects.count() == 1


@pytest.mark.parametrize("turns", [[], [("assistant", "Hello! Anyone there?")], [("user", "   ")]])
def test_empty_and_assistant_only_sessions_are_stamped_empty_without_a_model_call(user, turns):
    session = idle_session(user)
    messages_add(session, *turns)
    dreamer = FakeDreamer()
    run = sweep(dreamer=dreamer)
    session.refresh_from_db()
    assert (session.triage_kind, session.skipped) == ("empty", True) and session.dreamed_at is not None
    assert dreamer.calls == [] and run.skipped_by_kind == {"empty": 1}


# --- sensitive content and secrets -----------------------------------------------------------------

SENSITIVE_TURNS = [
    "I was diagnosed with diabetes last year.",
    "I go to church every Sunday and pray before meals.",
    "My password is hunter2hunter2, don't tell anyone.",
    "我最近确诊了抑郁症，在吃抗抑郁药。",
    "我信佛，每个月初一都去寺庙烧香。",
    "我的银行卡密码是123456。",
]


def test_sensitive_user_turns_never_reach_the_model_or_a_candidate(user):
    session = idle_session(user)
    turns = [("user", "I have a dog named Milo.")]
    for text in SENSITIVE_TURNS:
        turns += [("assistant", "I see."), ("user", text)]
    messages_add(session, *turns)
    dreamer = FakeDreamer()

    run = sweep(dreamer=dreamer)

    sent = dreamer.sent_text()
    for text in SENSITIVE_TURNS:
        assert text not in sent
    assert "hunter2" not in sent and "抑郁" not in sent and "寺庙" not in sent and "123456" not in sent
    assert list(Candidate.objects.values_list("quote", flat=True)) == ["I have a dog named Milo."]
    assert run.sensitive_dropped == len(SENSITIVE_TURNS)


def test_a_session_with_only_sensitive_user_turns_is_stamped_without_any_model_call(user):
    session = idle_session(user)
    messages_add(session, ("user", "I was diagnosed with asthma."), ("assistant", "I'm sorry to hear that."))
    dreamer = FakeDreamer()
    run = sweep(dreamer=dreamer)
    session.refresh_from_db()
    assert dreamer.calls == [] and session.dreamed_at is not None and "sensitive" in session.triage_reason
    assert run.sensitive_dropped == 1 and not Candidate.objects.exists()


def test_sensitive_candidates_from_the_model_are_dropped_and_counted(user):
    session = idle_session(user)
    messages_add(session, ("user", "I have a dog named Milo."), ("user", "Also I like jazz."))
    dreamer = FakeDreamer(extract=[
        ExtractedCandidate(quote="I have a dog named Milo", statement="The user has diabetes and a dog",
                           category="fact", importance=0.5, user_initiated=True, seq=1),
        ExtractedCandidate(quote="我信佛", statement="用户信佛", category="fact", importance=0.5,
                           user_initiated=True, seq=2),
        ExtractedCandidate(quote="I have a dog named Milo", statement="The user has a dog named Milo",
                           category="fact", importance=0.5, user_initiated=True, seq=1),
    ])
    run = sweep(dreamer=dreamer)
    assert list(Candidate.objects.values_list("statement", flat=True)) == ["The user has a dog named Milo"]
    assert run.sensitive_dropped == 2


def test_secrets_are_masked_in_what_the_model_receives(user):
    session = idle_session(user)
    key = "sk-proj-AbCdEfGhIjKlMnOpQrStUv123456"
    messages_add(session, ("user", "I moved to Porto last month."),
         ("assistant", f"Great! By the way your config still had {key} in it."),
         ("user", "Thanks, I love the river there."))
    dreamer = FakeDreamer()
    sweep(dreamer=dreamer)
    sent = dreamer.sent_text()
    assert key not in sent and "Great!" in sent  # the clause holding the key is gone, the rest of the turn sent
    assert not Candidate.objects.filter(quote__contains=key).exists()
    assert not Candidate.objects.filter(statement__contains=key).exists()


# --- quote verification ---------------------------------------------------------------------------


def test_it_rejects_a_hallucinated_quote_for_audit(user):
    session = idle_session(user)
    _, said = messages_add(session, ("assistant", "How was your weekend?"), ("user", "Went hiking with my brother Tom."))
    dreamer = FakeDreamer(extract=[
        ExtractedCandidate(quote="I hiked Mount Fuji with Tom", statement="The user hiked Mount Fuji",
                           category="event", importance=0.7, user_initiated=True, seq=2),
        ExtractedCandidate(quote="went hiking with my brother tom", statement="The user went hiking with brother Tom",
                           category="event", importance=0.7, user_initiated=True, seq=2),
    ])
    run = sweep(dreamer=dreamer)

    rejected = Candidate.objects.get(status=Candidate.Status.REJECTED_UNVERIFIED)
    assert rejected.verified is False and "not found" in rejected.reason
    assert rejected.message == said and rejected.embedding is None
    kept = Candidate.objects.get(status=Candidate.Status.PENDING)
    assert kept.verified and kept.statement == "The user went hiking with brother Tom"  # case/punct forgiven
    assert (run.unverified_rejected, run.candidates_created) == (1, 1)


def test_it_rejects_a_quote_taken_from_an_assistant_message(user):
    session = idle_session(user)
    assistant, _ = messages_add(session, ("assistant", "You should really visit Kyoto in spring."), ("user", "Maybe!"))
    dreamer = FakeDreamer(extract=[
        ExtractedCandidate(quote="visit Kyoto in spring", statement="The user will visit Kyoto in spring",
                           category="event", importance=0.6, user_initiated=False, seq=1),
    ])
    sweep(dreamer=dreamer)
    rejected = Candidate.objects.get()
    assert rejected.status == Candidate.Status.REJECTED_UNVERIFIED and not rejected.verified
    assert rejected.message == assistant and "assistant" in rejected.reason


def test_a_miscounted_seq_is_forgiven_when_the_quote_is_in_another_user_message(user):
    session = idle_session(user)
    _, _, lisbon = messages_add(session, ("user", "Hello"), ("assistant", "Hi"), ("user", "I live in Lisbon"))
    dreamer = FakeDreamer(extract=[ExtractedCandidate(
        quote="I live in Lisbon", statement="The user lives in Lisbon", category="fact", importance=0.6,
        user_initiated=True, seq=1)])
    sweep(dreamer=dreamer)
    assert Candidate.objects.get().message == lisbon


# --- resumed sessions, tombstones, memory off, simulated clocks -----------------------------------


def test_a_resumed_session_is_processed_again_for_the_new_part_only(user):
    session = idle_session(user)
    messages_add(session, ("user", "I live in Lisbon."), ("assistant", "Nice city!"))
    sweep()
    session.refresh_from_db()
    assert session.processed_seq == 2
    first_dream = session.dreamed_at

    # Appended with a time older than the dream (a re-import of a conversation that went on before
    # the first sweep ran): the seq watermark still finds it.
    messages_add(session, ("user", "I started learning the cello."), ("assistant", "Lovely!"), start_seq=3)
    dreamer = FakeDreamer()
    run = sweep(dreamer=dreamer)

    assert run.sessions_claimed == 1 and run.candidates_created == 1
    turns_seen = dreamer.tasks("extract")[0][1]
    assert [t.seq for t in turns_seen] == [1, 2, 3, 4]  # old part only as context
    assert sorted(Candidate.objects.values_list("quote", flat=True)) == [
        "I live in Lisbon.", "I started learning the cello."]
    session.refresh_from_db()
    assert session.processed_seq == 4 and session.dreamed_at > first_dream


def test_a_resumed_session_with_only_new_assistant_turns_keeps_its_triage(user):
    session = idle_session(user)
    messages_add(session, ("user", "I live in Lisbon."))
    sweep()
    messages_add(session, ("assistant", "Are you still there?"), start_seq=2)
    dreamer = FakeDreamer()
    sweep(dreamer=dreamer)
    session.refresh_from_db()
    assert dreamer.calls == [] and session.processed_seq == 2
    assert (session.triage_kind, session.skipped) == ("normal", False)


def test_a_tombstoned_statement_is_never_learned_again(user):
    session = idle_session(user)
    messages_add(session, ("user", "I live in Lisbon."), ("user", "I play the cello."))
    tombstone_add(user=user, statement="User said: I live in Lisbon.")
    run = sweep()
    assert list(Candidate.objects.values_list("quote", flat=True)) == ["I play the cello."]
    assert run.tombstoned_dropped == 1


def test_dry_run_writes_nothing_but_reports_what_would_change(user):
    session = idle_session(user)
    messages_add(session, ("user", "I live in Lisbon."), ("user", "I play the cello."))
    before = ChatSession.objects.values().get(pk=session.pk)

    run = sweep(dry_run=True)

    assert ChatSession.objects.values().get(pk=session.pk) == before  # no claim, no stamp, no attempts
    assert Candidate.objects.count() == 0
    assert (run.dry_run, run.status, run.sessions_claimed, run.sessions_done, run.candidates_created) == (
        True, "ok", 1, 1, 2)
    # ...and the real sweep still finds the work afterwards.
    assert sweep().candidates_created == 2


def test_a_simulated_clock_decides_idleness_and_stamps(user):
    past = timezone.now() - timedelta(days=400)
    old = ChatSessionFactory(user=user, started_at=past, last_active_at=past + timedelta(minutes=10))
    messages_add(old, ("user", "I live in Lisbon."))
    recent = idle_session(user)
    messages_add(recent, ("user", "I play the cello."))
    simulated = past + timedelta(hours=2)

    run = sweep(now=simulated)

    old.refresh_from_db()
    recent.refresh_from_db()
    assert run.simulated_now == simulated and run.sessions_claimed == 1
    assert old.dreamed_at == simulated and recent.dreamed_at is None  # the future is not idle yet
    assert Candidate.objects.get().said_at == old.messages.get().created_at


def test_dream_run_counters_add_up_over_a_mixed_batch(user, other_user):
    normal = idle_session(user)
    messages_add(normal, ("user", "I live in Lisbon."), ("user", "I have diabetes."), ("user", "I play the cello."))
    coding = idle_session(user)
    messages_add(coding, *OBVIOUS["coding"])
    empty = idle_session(other_user)
    messages_add(empty, ("assistant", "Hello?"))
    hallucinating = idle_session(other_user)
    messages_add(hallucinating, ("user", "We went to the beach."))
    tombstone_add(user=user, statement="User: I play the cello.")

    def extract(turns):
        if any("beach" in t.content for t in turns):
            return [ExtractedCandidate(quote="we went skiing", statement="The user skied", category="event",
                                       importance=0.5, user_initiated=True, seq=1)]
        return FakeDreamer().extract(turns=turns, ctx=None)

    run = sweep(dreamer=FakeDreamer(extract=extract))

    assert (run.sessions_claimed, run.sessions_done, run.sessions_skipped, run.sessions_failed) == (4, 2, 2, 0)
    assert run.skipped_by_kind == {"coding": 1, "empty": 1}
    assert (run.sensitive_dropped, run.candidates_created, run.unverified_rejected, run.tombstoned_dropped) == (
        1, 1, 1, 1)
    assert run.embedding_calls == 1  # the hallucinated one is not embedded
    assert DreamRun.objects.filter(phase="light").count() == 1


def test_run_add_merges_kind_counts_without_losing_any(db):
    run = run_start(phase="light", worker="t")
    run_add(run=run, sessions_skipped=1, skipped_by_kind={"coding": 1})
    run_add(run=run, sessions_skipped=2, skipped_by_kind={"coding": 1, "document": 1})
    run_add(run=run, skipped_by_kind={})
    run.refresh_from_db()
    assert run.sessions_skipped == 3 and run.skipped_by_kind == {"coding": 2, "document": 1}
