"""Hard delete: after forgetting, a pg_dump of the real database no longer holds the words, and three
more dream cycles over the same and new conversations do not learn them again (tombstones)."""
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat.models import ChatSession, Message
from dreaming.memory.context import memory_md_get
from dreaming.pipeline.deep import deep_sleep_user
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import Candidate, DiaryEntry, Memory, MemorySource, Tombstone
from dreaming.memory.selectors import diary_markdown
from dreaming.memory.services import memory_forget
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

DOG = "I have a dog named Zephyrine"  # only the doomed memory holds "Zephyrine"
JOB = "I work as a baker in Quillabamba"
SISTER = "My sister Ottoline lives in Berlin"


def _say(user, *sentences, hours_ago=3, session=None):
    quiet = timezone.now() - timedelta(hours=hours_ago)
    if session is None:
        session = ChatSession.objects.create(user=user, started_at=quiet, last_active_at=quiet)
    start = (session.messages.order_by("-seq").values_list("seq", flat=True).first() or 0) + 1
    for i, sentence in enumerate(sentences):
        Message.objects.create(session=session, seq=start + 2 * i, role="user", content=sentence + ".", created_at=quiet)
        Message.objects.create(session=session, seq=start + 2 * i + 1, role="assistant", content="Tell me more!",
                               created_at=quiet)
    ChatSession.objects.filter(pk=session.pk).update(last_active_at=quiet)
    return session


def _dream(user):
    light = light_sleep_sweep(user=user, worker="hard-delete")
    deep = deep_sleep_user(user=user, now=timezone.now())
    assert light.status == "ok" and deep.status == "ok", (light.error, deep.error)
    return light, deep


def _everywhere(user, word: str) -> list[str]:
    """Where the memory side still mentions `word` (empty = nowhere)."""
    places = []
    if Memory.objects.filter(user=user, statement__icontains=word).exists():
        places.append("memory")
    if MemorySource.objects.filter(memory__user=user, quote__icontains=word).exists():
        places.append("source")
    if Candidate.objects.filter(user=user, statement__icontains=word).exists():
        places.append("candidate")
    if DiaryEntry.objects.filter(user=user, narrative__icontains=word).exists() or word in diary_markdown(user=user):
        places.append("DREAMS.md")
    document = memory_md_get(user=user)
    if document is not None and word in document.content:
        places.append("MEMORY.md")
    return places


def test_a_forgotten_memory_is_gone_from_a_pg_dump_and_never_learned_again(pg_dump):
    user = UserFactory()
    first = _say(user, DOG, JOB)
    _dream(user)
    dog = Memory.objects.get(user=user, statement__icontains="Zephyrine")
    assert {"memory", "source", "MEMORY.md", "DREAMS.md"} <= set(_everywhere(user, "Zephyrine"))
    assert "Zephyrine" in pg_dump(exclude_messages=True)  # the check below can fail

    receipt = memory_forget(memory=dog, by=user)

    assert receipt.memory_ids == [dog.pk]
    assert _everywhere(user, "Zephyrine") == []
    assert "Zephyrine" not in pg_dump(exclude_messages=True)  # statement, quote, MEMORY.md, diary: all gone
    assert Memory.objects.filter(user=user, statement__icontains="Quillabamba").exists()  # nothing else lost
    assert Message.objects.filter(session=first, content__contains="Zephyrine").exists()  # the chat log stays

    # Three more nights: the same sentence again in the old conversation and in new ones.
    dropped = 0
    for night in range(3):
        _say(user, DOG, f"I play chess on night {night}", session=first if night == 0 else None, hours_ago=2)
        light, _ = _dream(user)
        dropped += light.tombstoned_dropped
    assert _everywhere(user, "Zephyrine") == []
    assert dropped == 3  # heard every night, refused every night
    assert "Zephyrine" not in pg_dump(exclude_messages=True)
    print(f"\nhard delete: statement gone from pg_dump; re-learn attempts refused {dropped}/3")


def test_forget_everything_from_the_memory_center_leaves_no_trace_in_a_pg_dump(pg_dump):
    user, other = UserFactory(), UserFactory()
    _say(user, JOB, SISTER)
    _say(other, "I have a dog named Pemberton")
    _dream(user)
    _dream(other)
    assert Memory.objects.filter(user=user).count() >= 2
    client = Client()
    client.force_login(user)

    response = client.post(reverse("memcenter:forget_all"), {"confirm": "on"})

    assert response.status_code == 302
    dump = pg_dump(exclude_messages=True)
    for word in ("Quillabamba", "Ottoline"):
        assert word not in dump
        assert _everywhere(user, word) == []
    assert "Pemberton" in dump  # the other user's memory is untouched
    assert Tombstone.objects.filter(user=user).count() >= 2
    for _ in range(3):
        _say(user, JOB, SISTER, hours_ago=2)
        _dream(user)
    assert not Memory.objects.filter(user=user).exists() and _everywhere(user, "Ottoline") == []
    assert "Ottoline" not in pg_dump(exclude_messages=True)


def test_deleting_a_memory_and_then_its_conversation_from_the_pages_leaves_nothing_in_the_whole_dump(pg_dump):
    user = UserFactory()
    session = _say(user, DOG, JOB)
    _dream(user)
    dog = Memory.objects.get(user=user, statement__icontains="Zephyrine")
    client = Client()
    client.force_login(user)

    response = client.post(reverse("memcenter:memory_delete", args=[dog.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and not Memory.objects.filter(pk=dog.pk).exists()
    assert "Zephyrine" not in pg_dump(exclude_messages=True)
    assert "Zephyrine" in pg_dump(exclude_messages=False)  # still in the user's own chat log

    response = client.post(reverse("memcenter:conversation_delete", args=[session.pk]), {"confirm": "on"})

    assert response.status_code == 302
    dump = pg_dump(exclude_messages=False)  # the WHOLE database now
    assert "Zephyrine" not in dump and "Quillabamba" not in dump
    assert not ChatSession.objects.filter(pk=session.pk).exists()
