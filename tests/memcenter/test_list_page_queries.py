"""The memory list stays a fixed number of queries however many memories and sources a user has."""
import time

import pytest
from django.urls import reverse
from django.utils import timezone

from chat.models import Message
from dreaming.memory.context import memory_md_render_all
from dreaming.models import Feedback, Memory, MemorySource
from tests.factories import ChatSessionFactory, PersonaFactory

pytestmark = pytest.mark.django_db


def _many_memories(user, n: int) -> None:
    now = timezone.now()
    persona = PersonaFactory()
    session = ChatSessionFactory(user=user, persona=persona)
    messages = Message.objects.bulk_create(
        Message(session=session, seq=i + 1, role="user", content=f"I said thing {i}", created_at=now) for i in range(n)
    )
    memories = Memory.objects.bulk_create(
        Memory(user=user, persona=persona if i % 3 == 0 else None, statement=f"User said thing {i}",
               confidence=(i % 100) / 100, importance=0.5, valid_from=now, first_seen=now, last_seen=now,
               score_breakdown={"importance": 0.5, "recurrence": 0.2})
        for i in range(n)
    )
    MemorySource.objects.bulk_create(
        MemorySource(memory=m, message=messages[i], quote=f"thing {i}", said_at=now)
        for i, m in enumerate(memories) for _ in range(2)
    )
    old = Memory.objects.bulk_create(
        Memory(user=user, statement=f"User once said {i}", status="superseded", superseded_by=memories[i],
               valid_from=now, valid_to=now, first_seen=now, last_seen=now)
        for i in range(0, n, 5)
    )
    assert old
    Feedback.objects.bulk_create(Feedback(user=user, memory=m, verdict="doubt") for m in memories[::4])
    memory_md_render_all(user=user)


def test_the_memory_list_uses_at_most_15_queries(client, user, django_assert_max_num_queries):
    _many_memories(user, 300)
    client.force_login(user)
    for params in ({}, {"sort": "recent", "page": 3}, {"status": "all", "q": "thing"}, {"scope": "profile"}):
        with django_assert_max_num_queries(15):
            response = client.get(reverse("memcenter:memories"), params)
        assert response.status_code == 200
        assert len(response.context["page"].object_list) == 25


def test_the_htmx_list_swap_uses_at_most_15_queries(client, user, django_assert_max_num_queries):
    _many_memories(user, 100)
    client.force_login(user)
    with django_assert_max_num_queries(15):
        response = client.get(reverse("memcenter:memories"), {"page": 2}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="memory-list")
    assert response.status_code == 200


@pytest.mark.slow
def test_the_memory_list_costs_the_same_queries_at_5000_memories(client, user, django_assert_max_num_queries):
    # Its speed is measured beside a floor in `make bench` (listpage row), not by a wall-clock assert here.
    _many_memories(user, 5000)
    client.force_login(user)
    client.get(reverse("memcenter:memories"))  # warm templates
    for page in (1, 50, 200):
        started = time.perf_counter()
        with django_assert_max_num_queries(15):
            response = client.get(reverse("memcenter:memories"), {"page": page})
        print(f"memory list, 5000 memories, page {page}: {round((time.perf_counter() - started) * 1000)} ms")
        assert response.status_code == 200
