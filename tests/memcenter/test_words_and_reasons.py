"""The memory center speaks to its owner ("You have…"), stores one canonical form, and says why in sentences."""
from datetime import timedelta

import numpy as np
import pytest
from django.urls import reverse
from django.utils import timezone, translation

from dreaming.memory.context import memory_md_get, memory_md_render_all
from dreaming.engine.voice import canonical_statement, to_second_person
from dreaming.memory.reasons import memory_reasons
from dreaming.models import Memory
from tests.factories import (
    CandidateFactory,
    ChatSessionFactory,
    MemoryFactory,
    MemorySourceFactory,
    MessageFactory,
)

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.parametrize("canonical,shown", [
    ("User has a corgi named Mochi", "You have a corgi named Mochi"),
    ("User is from Ohio", "You are from Ohio"),
    ("User also likes green tea", "You also like green tea"),
    ("User's sister lives in Paris", "Your sister lives in Paris"),
    ("User watches anime with their brother", "You watch anime with your brother"),
    ("User doesn't eat pork", "You don't eat pork"),
    ("User is allergic to cats and hates it", "You are allergic to cats and hate it"),
    ("User studies law and flies often", "You study law and flies often"),  # "flies" is not a known second verb
    ("User misses them", "You miss them"),  # "them" is someone else
    ("Alice called User", "Alice called you"),
    ("Milo is a corgi", "Milo is a corgi"),
    ("用户养了一只叫 Mochi 的柯基", "你养了一只叫 Mochi 的柯基"),
    ("用户的猫叫咪咪", "你的猫叫咪咪"),
])
def test_a_canonical_statement_reads_in_the_second_person(canonical, shown):
    assert to_second_person(canonical) == shown


@pytest.mark.parametrize("typed,stored", [
    ("I became an aunt", "User became an aunt"),
    ("You have two cats", "User has two cats"),
    ("You're a teacher", "User is a teacher"),
    ("You were born in Lyon", "User was born in Lyon"),
    ("My sister lives in Paris", "User's sister lives in Paris"),
    ("You love your dog", "User loves their dog"),
    ("我养猫", "用户养猫"),
    ("你养猫", "用户养猫"),
    ("User likes jazz", "User likes jazz"),
])
def test_what_a_person_types_is_stored_in_the_canonical_third_person(typed, stored):
    assert canonical_statement(typed) == stored
    assert canonical_statement(to_second_person(stored)) == stored  # shown → edited unchanged → same row


@pytest.mark.django_db
def test_an_edit_is_stored_once_canonical_and_shown_in_each_voice(client_in, user):
    memory = MemoryFactory(user=user, statement="User has a sister", category="relation")
    form = client_in.get(reverse("memcenter:memory_edit", args=[memory.pk]), **HX).content.decode()
    assert "You have a sister" in form  # the person edits their own words
    response = client_in.post(reverse("memcenter:memory_edit", args=[memory.pk]),
                              {"statement": "I became an aunt", "category": "relation"}, **HX)
    memory.refresh_from_db()
    assert memory.statement == "User became an aunt"
    assert "You became an aunt" in response.content.decode() and "I became" not in response.content.decode()
    assert "- User became an aunt" in memory_md_get(user=user).content  # the model keeps its form


@pytest.mark.django_db
def test_the_page_speaks_to_its_owner_in_chinese_too(client_in, user):
    MemoryFactory(user=user, statement="用户养了一只叫 Mochi 的柯基")
    client_in.post(reverse("set_language"), {"language": "zh-hans"})
    html = client_in.get(reverse("memcenter:memories")).content.decode()
    assert "你养了一只叫 Mochi 的柯基" in html and "用户养了" not in html


@pytest.mark.django_db
def test_reasons_are_sentences_from_the_breakdown(user):
    now = timezone.now()
    memory = MemoryFactory(
        user=user, recurrence=3, importance=0.8, last_seen=now - timedelta(days=125), half_life_days=180,
        score_breakdown={
            "parts": {"user_initiated": 1.0, "specificity": 0.9, "stability": 1.0, "feedback": 0.5},
            "weights": {"user_initiated": 1.0}, "total": 0.76,
            "feedback_log": [{"verdict": "agree", "at": "2026-11-02T10:00:00+00:00", "delta": 0.1}],
            "decayed_at": "2026-11-29T04:00:00+00:00",
        },
    )
    with translation.override("en"):
        texts = [r.text for r in memory_reasons(memory, has_sources=True, now=now)]
    assert texts[:4] == ["You brought it up yourself", "Said in 3 conversations", "You agreed on November 2", "Specific"]
    assert "Matters a lot to you" in texts and "Fading: not mentioned for 4 months" in texts
    assert not any("{" in t or "0.76" in t for t in texts)


@pytest.mark.django_db
def test_a_hand_added_memory_says_added_by_you_not_said_in_one_conversation(client_in, user):
    client_in.post(reverse("memcenter:memory_add"), {"statement": "I play the cello", "category": "fact"})
    memory = Memory.objects.get(user=user)
    assert memory.statement == "User plays the cello"
    html = client_in.get(reverse("memcenter:memories")).content.decode()
    assert "You play the cello" in html and "Added by you" in html
    assert "Said in 1 conversation" not in html


@pytest.mark.django_db
def test_a_superseded_card_offers_no_verdicts_and_says_why(client_in, user):
    new = MemoryFactory(user=user, statement="User lives in Beijing")
    old = MemoryFactory(user=user, statement="User lives in Shanghai", status="superseded", superseded_by=new)
    html = client_in.get(reverse("memcenter:memory_detail", args=[old.pk])).content.decode()
    assert "Replaced by newer information." in html
    assert f'id="memory-{old.pk}-agree"' not in html and f'id="memory-{old.pk}-reject"' not in html
    assert "Delete" in html  # forgetting it stays possible
    active = client_in.get(reverse("memcenter:memory_detail", args=[new.pk])).content.decode()
    assert f'id="memory-{new.pk}-agree"' in active


@pytest.mark.django_db
def test_an_empty_archive_says_what_lands_there(client_in, user):
    MemoryFactory(user=user)
    html = client_in.get(reverse("memcenter:memories"), {"status": "archived"}).content.decode()
    assert "No archived memories." in html and "Nothing remembered yet" not in html


@pytest.mark.django_db
def test_pending_shows_a_percentage_like_memories(client_in, user):
    CandidateFactory(user=user, status="pending", statement="User might like jazz", score=0.43)
    html = client_in.get(reverse("memcenter:pending")).content.decode()
    assert "43%" in html and 'aria-valuenow="43"' in html and "score 0.43" not in html


@pytest.mark.django_db
def test_the_legend_says_what_a_percentage_means_and_what_puts_a_memory_in_memory_md(client_in, user):
    memory = MemoryFactory(user=user, confidence=0.27)
    memory_md_render_all(user=user)
    html = client_in.get(reverse("memcenter:memories")).content.decode()
    assert "below 45% <strong>unsure</strong>" in html
    assert "in MEMORY.md" in html and "confidence does not decide it" in html
    assert f'aria-valuenow="{round(memory.confidence * 100)}"' in html and "unsure" in html


@pytest.mark.django_db
def test_search_falls_back_to_meaning_when_no_statement_has_the_words(client_in, user, fake_openai, settings):
    fake_openai.configure(settings, llm=False, embeddings="openai")
    dim = settings.EMBEDDING_DIM
    corgi_vec, other_vec = np.zeros(dim), np.zeros(dim)
    corgi_vec[0], other_vec[1] = 1.0, 1.0
    corgi = MemoryFactory(user=user, statement="User has a corgi named Mochi", embedding=corgi_vec.tolist())
    MemoryFactory(user=user, statement="User studies law", embedding=other_vec.tolist())
    query = np.zeros(dim)
    query[0], query[2] = 0.8, 0.6  # "dog": near the corgi, unrelated to law
    fake_openai.queue_embeddings([query.tolist()])
    response = client_in.get(reverse("memcenter:memories"), {"q": "dog"})
    assert [m.pk for m in response.context["page"].object_list] == [corgi.pk]
    assert "No memory contains “dog”" in response.content.decode()
    assert fake_openai.embedding_requests[-1].body["input"] in (["dog"], "dog")


@pytest.mark.django_db
@pytest.mark.parametrize("query,expected", [
    ("dog", {"corgi"}), ("狗", {"corgi"}), ("kitten", {"ragdoll"}), ("my dogs", {"corgi"}),
    ("pet", {"corgi", "ragdoll", "cockatiel"}), ("宠物", {"corgi", "ragdoll", "cockatiel"}),
    ("cat", {"ragdoll"}), ("instrument", {"erhu", "guitar"}), ("乐器", {"erhu", "guitar"}),
    ("coffee", {"flat white"}), ("sport", {"volleyball"}), ("hello", set()),
])
def test_search_by_meaning_works_offline_through_the_kinds_of_things(client_in, user, query, expected):
    # The local hashing embedder knows no meaning: "dog" is found in a corgi through engine/kinds.py.
    statements = {
        "corgi": "User has a corgi named Mochi", "ragdoll": "用户养了一只布偶猫", "cockatiel": "User's cockatiel is called Kiwi",
        "erhu": "用户在学二胡", "guitar": "User plays the electric guitar", "flat white": "User orders a flat white daily",
        "volleyball": "User plays volleyball on Sundays", "law": "User studies law",
    }
    ids = {MemoryFactory(user=user, statement=statement).pk: name for name, statement in statements.items()}
    MemoryFactory(statement="User has a husky named Rex")  # someone else's dog stays theirs
    response = client_in.get(reverse("memcenter:memories"), {"q": query})
    found = {ids[m.pk] for m in response.context["page"].object_list}
    assert found == expected
    assert response.context["by_meaning"] is True


@pytest.mark.django_db
def test_a_statement_with_the_words_is_found_by_them_not_by_meaning(client_in, user):
    MemoryFactory(user=user, statement="User has a corgi named Mochi")
    dog = MemoryFactory(user=user, statement="User walks the neighbour's dog")
    response = client_in.get(reverse("memcenter:memories"), {"q": "dog"})
    assert [m.pk for m in response.context["page"].object_list] == [dog.pk] and not response.context["by_meaning"]


@pytest.mark.django_db
def test_words_found_in_a_statement_need_no_embedder(client_in, user, fake_openai, settings):
    fake_openai.configure(settings, llm=False, embeddings="openai")
    MemoryFactory(user=user, statement="User has a corgi named Mochi", embedding=None)
    response = client_in.get(reverse("memcenter:memories"), {"q": "corgi"})
    assert len(response.context["page"].object_list) == 1 and not fake_openai.embedding_requests


@pytest.mark.django_db
def test_the_count_updates_after_a_delete_from_the_list(client_in, user):
    first, _second, _third = (MemoryFactory(user=user) for _ in range(3))
    list_url = "http://testserver" + reverse("memcenter:memories") + "?sort=recent"
    response = client_in.post(reverse("memcenter:memory_delete", args=[first.pk]), **HX, HTTP_HX_CURRENT_URL=list_url)
    html = response.content.decode()
    assert 'id="memory-count" class="memory-list__count muted" hx-swap-oob="true">2 memories' in html
    assert not Memory.objects.filter(pk=first.pk).exists()


@pytest.mark.django_db
def test_the_compact_list_keeps_sources_one_click_away(client_in, user):
    session = ChatSessionFactory(user=user)
    memory = MemoryFactory(user=user)
    MemorySourceFactory(memory=memory, message=MessageFactory(session=session, seq=1), quote="I like it")
    compact = client_in.get(reverse("memcenter:memories")).content.decode()
    assert "memory-list--compact" in compact and '<details class="why">' in compact
    full = client_in.get(reverse("memcenter:memories"), {"view": "full"}).content.decode()
    assert "memory-list--compact" not in full and '<details class="why" open>' in full


@pytest.mark.django_db
def test_the_diary_page_speaks_to_its_owner_and_the_download_keeps_the_file(client_in, user):
    from tests.factories import DiaryEntryFactory

    DiaryEntryFactory(user=user, narrative="Tonight I learned 2 new things: “User has a corgi” and “User's sister is Ann”.")
    DiaryEntryFactory(user=user, narrative="今晚我记住了 1 件新事：“用户养了一只猫”。")
    html = client_in.get(reverse("memcenter:diary")).content.decode()
    assert "“You have a corgi” and “Your sister is Ann”" in html and "“你养了一只猫”" in html
    assert "User has a corgi" in client_in.get(reverse("memcenter:diary_download")).content.decode()


@pytest.mark.django_db
def test_the_confirmations_speak_to_their_owner(client_in, user):
    candidate = CandidateFactory(user=user, status="pending", statement="User might like jazz")
    memory = MemoryFactory(user=user, statement="User has a corgi named Mochi")
    MemoryFactory(user=user, statement="用户养了一只叫 Mochi 的柯基")  # offered as a near-duplicate to forget too
    dismiss = client_in.get(reverse("memcenter:candidate_dismiss", args=[candidate.pk])).content.decode()
    assert "You might like jazz" in dismiss and "User might" not in dismiss
    delete = client_in.get(reverse("memcenter:memory_delete", args=[memory.pk])).content.decode()
    assert "You have a corgi named Mochi" in delete and "User has" not in delete
    assert "你养了一只叫 Mochi 的柯基" in delete and "用户养" not in delete
