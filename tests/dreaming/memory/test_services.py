"""Memory-center write services: forgetting is total, verdicts are stored, the user's hand wins."""
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from chat.models import ChatSession, Message
from dreaming.memory.context import memory_md_get, memory_md_render_all
from dreaming.models import Candidate, DiaryEntry, Feedback, Memory, MemoryDocument, MemorySettings, MemorySource, Tombstone
from dreaming.memory.services import (
    candidate_confirm,
    candidate_dismiss,
    conversation_delete,
    feedback_record,
    memory_create_by_user,
    memory_forget,
    memory_forget_all,
    memory_settings_set,
    memory_update_statement,
    narrative_without,
)
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


@pytest.fixture
def milo(user):
    """A memory with a source message, a candidate, feedback, a diary mention and a MEMORY.md line."""
    session = ChatSessionFactory(user=user)
    message = MessageFactory(session=session, content="By the way, I have a dog named Milo. He is 3.")
    memory = MemoryFactory(user=user, statement="User has a dog named Milo", category="fact")
    MemorySourceFactory(memory=memory, message=message, quote="I have a dog named Milo")
    CandidateFactory(user=user, session=session, message=message, memory=memory, status="promoted",
                     statement="User owns a dog called Milo", quote="I have a dog named Milo")
    FeedbackFactory(memory=memory, verdict="agree")
    entry = DiaryEntryFactory(
        user=user, narrative="Tonight I learned that User has a dog named Milo. User also likes green tea.",
    )
    entry.memories.add(memory)
    MemoryFactory(user=user, statement="User likes green tea", category="preference")
    memory_md_render_all(user=user)
    return memory


def test_forget_deletes_the_memory_and_everything_carrying_its_words(user, milo):
    assert "Milo" in memory_md_get(user=user).content

    receipt = memory_forget(memory=milo, by=user)

    assert not Memory.objects.filter(pk=milo.pk).exists()
    assert not MemorySource.objects.filter(memory_id=milo.pk).exists()
    assert not Feedback.objects.filter(memory_id=milo.pk).exists()
    assert not Candidate.objects.filter(user=user, statement__icontains="Milo").exists()
    assert receipt.memories == 1 and receipt.sources == 1 and receipt.candidates == 1 and receipt.feedback == 1
    # MEMORY.md was re-rendered at once, without the memory, keeping the others.
    document = memory_md_get(user=user)
    assert "Milo" not in document.content and "green tea" in document.content
    assert milo.pk not in document.memory_ids
    # The diary passage that named it is rewritten, the rest of the night kept.
    entry = DiaryEntry.objects.get(user=user)
    assert "Milo" not in entry.narrative and "green tea" in entry.narrative
    assert receipt.diary_rewritten == 1
    # Never learned again: the statement and the candidate's wording are both tombstoned.
    assert is_tombstoned(user=user, statement="User has a dog named Milo")
    assert is_tombstoned(user=user, statement="user owns a dog called milo.")
    # The user's own message stays: only conversation_delete removes messages.
    assert Message.objects.filter(content__contains="Milo").exists()


def test_forget_deletes_a_diary_entry_with_nothing_else_to_say(user):
    memory = MemoryFactory(user=user, statement="User has a dog named Milo")
    DiaryEntryFactory(user=user, narrative="## Night\n\n- Tonight I learned that User has a dog named Milo.")
    receipt = memory_forget(memory=memory, by=user)
    assert not DiaryEntry.objects.filter(user=user).exists()
    assert receipt.diary_deleted == 1


def test_forget_removes_pending_candidates_with_the_same_statement_but_not_others(user, milo):
    same = CandidateFactory(user=user, statement="user has a dog named milo.", status="pending")
    different = CandidateFactory(user=user, statement="User has a cat named Tom", status="pending")
    memory_forget(memory=milo, by=user)
    assert not Candidate.objects.filter(pk=same.pk).exists()
    assert Candidate.objects.filter(pk=different.pk).exists()


def test_forget_leaves_another_users_same_memory_alone(user, other_user, milo):
    theirs = MemoryFactory(user=other_user, statement="User has a dog named Milo")
    their_entry = DiaryEntryFactory(user=other_user, narrative="User has a dog named Milo.")
    memory_forget(memory=milo, by=user)
    assert Memory.objects.filter(pk=theirs.pk).exists()
    assert DiaryEntry.objects.get(pk=their_entry.pk).narrative == "User has a dog named Milo."
    assert not Tombstone.objects.filter(user=other_user).exists()


def test_forget_refuses_another_users_memory(user, other_user):
    theirs = MemoryFactory(user=other_user)
    with pytest.raises(PermissionDenied):
        memory_forget(memory=theirs, by=user)
    assert Memory.objects.filter(pk=theirs.pk).exists()


def test_forget_all_deletes_every_memory_candidate_diary_and_document(user, other_user, milo):
    CandidateFactory(user=user, statement="User might like jazz", status="pending")
    kept = MemoryFactory(user=other_user)
    receipt = memory_forget_all(user=user, by=user)
    assert not Memory.objects.filter(user=user).exists()
    assert not Candidate.objects.filter(user=user).exists()
    assert not DiaryEntry.objects.filter(user=user).exists()
    # Documents are re-rendered empty so the chat path reads "nothing", not stale text.
    assert all(doc.content == "" for doc in MemoryDocument.objects.filter(user=user))
    assert is_tombstoned(user=user, statement="User might like jazz")
    assert is_tombstoned(user=user, statement="User likes green tea")
    assert receipt.memories == 2
    assert Memory.objects.filter(pk=kept.pk).exists()


def test_feedback_is_stored_unapplied_and_the_latest_verdict_replaces_the_pending_one(user):
    memory = MemoryFactory(user=user)
    feedback_record(memory=memory, by=user, verdict="agree")
    feedback_record(memory=memory, by=user, verdict="doubt")
    pending = Feedback.objects.filter(memory=memory, applied_at__isnull=True)
    assert [f.verdict for f in pending] == ["doubt"]
    assert Memory.objects.get(pk=memory.pk).confidence == memory.confidence  # applied at deep sleep, not now


def test_a_rejected_memory_leaves_memory_md_at_once(user):
    memory = MemoryFactory(user=user, statement="User is vegetarian")
    memory_md_render_all(user=user)
    assert memory.pk in memory_md_get(user=user).memory_ids
    feedback_record(memory=memory, by=user, verdict="reject")
    assert memory.pk not in memory_md_get(user=user).memory_ids
    assert Memory.objects.filter(pk=memory.pk).exists()  # rejected, not forgotten


def test_feedback_keeps_applied_history(user):
    memory = MemoryFactory(user=user)
    FeedbackFactory(memory=memory, verdict="agree", applied_at=timezone.now())
    feedback_record(memory=memory, by=user, verdict="reject")
    assert Feedback.objects.filter(memory=memory).count() == 2


def test_feedback_rejects_an_unknown_verdict(user):
    memory = MemoryFactory(user=user)
    with pytest.raises(ValidationError):
        feedback_record(memory=memory, by=user, verdict="love")
    assert not Feedback.objects.exists()


def test_editing_makes_the_memory_user_set_and_updates_memory_md(user):
    memory = MemoryFactory(user=user, statement="User lives in Shanghai", confidence=0.4, category="fact")
    memory_md_render_all(user=user)
    memory_update_statement(memory=memory, by=user, statement="  User lives in   Beijing ", category="fact")
    memory.refresh_from_db()
    assert memory.statement == "User lives in Beijing"
    assert memory.user_set and memory.confidence == pytest.approx(0.95)
    assert memory.embedding is not None
    assert "Beijing" in memory_md_get(user=user).content
    assert "Shanghai" not in memory_md_get(user=user).content


def test_editing_refuses_an_empty_statement(user):
    memory = MemoryFactory(user=user, statement="User lives in Shanghai")
    with pytest.raises(ValidationError):
        memory_update_statement(memory=memory, by=user, statement="   ")
    memory.refresh_from_db()
    assert memory.statement == "User lives in Shanghai"


def test_a_memory_added_by_hand_is_user_set_embedded_and_in_memory_md(user):
    memory = memory_create_by_user(user=user, statement="我喜欢喝乌龙茶", category="preference")
    assert memory.user_set and memory.confidence == pytest.approx(0.95)
    assert memory.embedding is not None and len(memory.embedding) > 0
    assert "乌龙茶" in memory_md_get(user=user).content


def test_adding_by_hand_lifts_a_tombstone_for_the_same_statement(user):
    memory = MemoryFactory(user=user, statement="User likes jazz")
    memory_forget(memory=memory, by=user)
    assert is_tombstoned(user=user, statement="User likes jazz")
    memory_create_by_user(user=user, statement="User likes jazz", category="preference")
    assert not is_tombstoned(user=user, statement="User likes jazz")


def test_confirming_a_candidate_promotes_it_now_with_its_quote(user):
    session = ChatSessionFactory(user=user)
    message = MessageFactory(session=session, content="I play the violin every Sunday")
    candidate = CandidateFactory(user=user, session=session, message=message, status="pending",
                                 quote="I play the violin", statement="User plays the violin")
    memory = candidate_confirm(candidate=candidate, by=user)
    candidate.refresh_from_db()
    assert candidate.status == "promoted" and candidate.memory_id == memory.pk and candidate.decided_at
    source = memory.sources.get()
    assert source.quote == "I play the violin" and source.message_id == message.pk
    assert memory.pk in memory_md_get(user=user).memory_ids


def test_confirming_twice_is_refused(user):
    candidate = CandidateFactory(user=user, status="pending")
    candidate_confirm(candidate=candidate, by=user)
    with pytest.raises(ValidationError):
        candidate_confirm(candidate=candidate, by=user)
    assert Memory.objects.filter(user=user).count() == 1


def test_dismissing_a_candidate_tombstones_it(user):
    candidate = CandidateFactory(user=user, status="pending", statement="User dislikes cilantro")
    candidate_dismiss(candidate=candidate, by=user)
    assert not Candidate.objects.filter(pk=candidate.pk).exists()  # a tombstone only, no words kept
    assert is_tombstoned(user=user, statement="User dislikes cilantro")
    assert not Memory.objects.filter(user=user).exists()


def test_turning_memory_off_and_keeping_empties_memory_md_but_keeps_memories(user, milo):
    memory_settings_set(user=user, enabled=False)
    assert MemorySettings.objects.get(user=user).enabled is False
    assert Memory.objects.filter(user=user).count() == 2
    assert memory_md_get(user=user) is None
    assert MemoryDocument.objects.get(user=user, persona=None).content == ""


def test_turning_memory_off_and_deleting_forgets_everything(user, milo):
    memory_settings_set(user=user, enabled=False, delete_existing=True)
    assert not Memory.objects.filter(user=user).exists()
    assert not DiaryEntry.objects.filter(user=user).exists()
    memory_settings_set(user=user, enabled=True)
    assert MemorySettings.objects.get(user=user).enabled is True


def test_deleting_a_conversation_forgets_memories_it_alone_taught(user):
    persona = PersonaFactory()
    session = ChatSessionFactory(user=user, persona=persona)
    other_session = ChatSessionFactory(user=user)
    here = MessageFactory(session=session, content="I have a dog named Milo and I like tea")
    elsewhere = MessageFactory(session=other_session, content="I really like tea")
    only_here = MemoryFactory(user=user, statement="User has a dog named Milo")
    MemorySourceFactory(memory=only_here, message=here, quote="I have a dog named Milo")
    both = MemoryFactory(user=user, statement="User likes tea", recurrence=2)
    MemorySourceFactory(memory=both, message=here, quote="I like tea")
    MemorySourceFactory(memory=both, message=elsewhere, quote="I really like tea")
    heard = CandidateFactory(user=user, session=session, message=here, status="pending")

    receipt = conversation_delete(session=session, by=user)

    assert not ChatSession.objects.filter(pk=session.pk).exists()
    assert not Message.objects.filter(pk=here.pk).exists()
    assert not Memory.objects.filter(pk=only_here.pk).exists()
    assert is_tombstoned(user=user, statement="User has a dog named Milo")
    both.refresh_from_db()
    assert [s.quote for s in both.sources.all()] == ["I really like tea"]
    assert both.recurrence == 1
    assert not Candidate.objects.filter(pk=heard.pk).exists()
    assert Message.objects.filter(pk=elsewhere.pk).exists()
    assert receipt.memories == 1


def test_narrative_scrub_handles_chinese_and_keeps_other_sentences():
    text = "今晚我记住了：用户住在上海。用户喜欢喝茶。"
    assert narrative_without(narrative=text, texts=["用户住在上海"]) == "用户喜欢喝茶。"


def test_narrative_scrub_catches_a_paraphrase():
    text = "Milo, the dog named after a cartoon, came up again. The weather was nice."
    kept = narrative_without(narrative=text, texts=["User has a dog named Milo"])
    assert kept == "The weather was nice."


def test_forget_keeps_an_older_superseded_version_visible_without_its_link(user):
    new = MemoryFactory(user=user, statement="User lives in Beijing")
    old = MemoryFactory(user=user, statement="User lives in Shanghai", status="superseded",
                        superseded_by=new, valid_to=timezone.now() - timedelta(days=30))
    memory_forget(memory=new, by=user)
    old.refresh_from_db()
    assert old.superseded_by_id is None


def test_forget_takes_the_duplicates_merged_into_it_along(user):
    winner = MemoryFactory(user=user, statement="User has a dog named Milo")
    merged = MemoryFactory(user=user, statement="User's dog is called Milo", status="archived", superseded_by=winner)
    MemorySourceFactory(memory=merged, quote="my dog is called Milo")
    unrelated_archived = MemoryFactory(user=user, statement="User liked skating", status="archived")
    memory_forget(memory=winner, by=user)
    assert not Memory.objects.filter(pk__in=[winner.pk, merged.pk]).exists()
    assert not MemorySource.objects.filter(quote="my dog is called Milo").exists()
    assert is_tombstoned(user=user, statement="User's dog is called Milo")
    assert Memory.objects.filter(pk=unrelated_archived.pk).exists()
