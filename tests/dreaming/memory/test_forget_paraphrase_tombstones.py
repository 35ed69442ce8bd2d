"""Tombstones stop paraphrases (other languages included) with nothing readable stored, and forgetting
offers the near-duplicates of a memory."""
import json

import pytest
from django.urls import reverse

from dreaming.memory.salient import near_duplicate, salient_units
from dreaming.models import Candidate, Memory, Tombstone
from dreaming.memory.selectors import memory_near_duplicates
from dreaming.memory.services import memory_create_by_user, memory_forget
from dreaming.memory.tombstones import is_tombstoned, tombstone_add, tombstoned_digests
from tests.factories import CandidateFactory, MemoryFactory

pytestmark = pytest.mark.django_db

LATTE = "User drinks an oat latte every morning"


@pytest.mark.parametrize("paraphrase", [
    "User drinks an oat latte every morning",
    "user drinks an OAT LATTE every morning!",
    "User has an oat latte each morning",
    "Every morning the user drinks oat lattes",
    "用户每天早上都喝燕麦拿铁",
])
def test_a_forgotten_statement_stops_its_paraphrases(user, paraphrase):
    tombstone_add(user=user, statement=LATTE)
    assert is_tombstoned(user=user, statement=paraphrase)


@pytest.mark.parametrize("different", [
    "User drinks oat milk",
    "User likes a latte after lunch",
    "User runs every morning",
    "用户喜欢喝茶",
])
def test_a_statement_sharing_a_word_or_two_still_gets_through(user, different):
    tombstone_add(user=user, statement=LATTE)
    assert not is_tombstoned(user=user, statement=different)


def test_names_and_numbers_carry_the_match_and_one_shared_name_is_not_enough(user):
    tombstone_add(user=user, statement="User's sister Ottoline lives in Berlin")
    index = tombstoned_digests(user=user)
    assert index.stops("Ottoline, the user's sister, lives in Berlin")
    assert not index.stops("User visited Berlin last year")
    assert not index.stops("User's dog is called Ottoline")


def test_a_tombstone_stores_no_readable_word(user):
    tombstone_add(user=user, statement="User made mapo tofu for Qiang on 12 May")
    stored = json.dumps(list(Tombstone.objects.values("digest", "keys")), ensure_ascii=False).casefold()
    for word in ("mapo", "tofu", "qiang", "may"):
        assert word not in stored
    keys = Tombstone.objects.get(user=user).keys
    assert len(keys) >= 4 and all(len(k) == 16 and int(k, 16) >= 0 for k in keys)  # hex hashes only
    assert not any(w in k for k in keys for w in ("mapo", "tofu", "qiang"))


def test_the_hashes_are_keyed(user, settings):
    tombstone_add(user=user, statement=LATTE)
    settings.TOMBSTONE_KEY = "another key"
    assert not is_tombstoned(user=user, statement="User has an oat latte each morning")


def test_forgetting_a_memory_drops_pending_paraphrases_in_other_words(user):
    memory = MemoryFactory(user=user, statement=LATTE)
    pending_zh = CandidateFactory(user=user, status="pending", statement="用户每天早上都喝燕麦拿铁")
    other = CandidateFactory(user=user, status="pending", statement="User drinks oat milk")

    memory_forget(memory=memory, by=user)

    assert not Candidate.objects.filter(pk=pending_zh.pk).exists()
    assert Candidate.objects.filter(pk=other.pk).exists()


def test_writing_it_by_hand_lifts_the_tombstones_that_would_stop_it(user):
    tombstone_add(user=user, statement=LATTE)
    memory_create_by_user(user=user, statement="User has an oat latte each morning")
    assert not Tombstone.objects.filter(user=user).exists()


def test_near_duplicates_include_the_other_language_and_leave_the_rest(user):
    memory = MemoryFactory(user=user, statement=LATTE)
    chinese = MemoryFactory(user=user, statement="用户每天早上都喝燕麦拿铁")
    english = MemoryFactory(user=user, statement="User has an oat latte each morning")
    MemoryFactory(user=user, statement="User drinks oat milk")
    MemoryFactory(statement="用户每天早上都喝燕麦拿铁")  # another user's

    assert [m.pk for m in memory_near_duplicates(memory=memory)] == [chinese.pk, english.pk]
    assert near_duplicate(salient_units(LATTE), salient_units("用户每天早上都喝燕麦拿铁"))


def test_the_forget_page_offers_near_duplicates_and_forgets_the_ones_ticked(client, user):
    client.force_login(user)
    memory = MemoryFactory(user=user, statement=LATTE)
    chinese = MemoryFactory(user=user, statement="用户每天早上都喝燕麦拿铁")
    english = MemoryFactory(user=user, statement="User has an oat latte each morning")
    url = reverse("memcenter:memory_delete", args=[memory.pk])

    html = client.get(url).content.decode()
    assert f'name="also" value="{chinese.pk}"' in html and f'name="also" value="{english.pk}"' in html

    response = client.post(url, {"confirm": "on", "also": [str(chinese.pk)]})

    assert response.status_code == 302
    assert set(Memory.objects.filter(user=user).values_list("pk", flat=True)) == {english.pk}


def test_the_htmx_receipt_offers_the_near_duplicates_left(client, user):
    client.force_login(user)
    memory = MemoryFactory(user=user, statement=LATTE)
    chinese = MemoryFactory(user=user, statement="用户每天早上都喝燕麦拿铁")

    response = client.post(reverse("memcenter:memory_delete", args=[memory.pk]), HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert "用户每天早上都喝燕麦拿铁" in html and reverse("memcenter:memory_delete", args=[chinese.pk]) in html
    assert Memory.objects.filter(pk=chinese.pk).exists()
