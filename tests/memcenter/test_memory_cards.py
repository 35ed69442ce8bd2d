"""The list page's card cache (memcenter/cards.py): a card is rendered once per version and any change shows."""
import re
from datetime import timedelta

import pytest
from django.test.signals import template_rendered
from django.urls import reverse
from django.utils import timezone

from chat.models import Message
from dreaming.memory.context import memory_md_render_all
from dreaming.models import Feedback, Memory, MemoryDocument, MemorySource
from tests.factories import (
    ChatSessionFactory,
    FeedbackFactory,
    MemoryFactory,
    MemorySourceFactory,
    MessageFactory,
    PersonaFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def milo(user):
    session = ChatSessionFactory(user=user)
    message = MessageFactory(session=session, seq=4, content="Oh, I have a dog named Milo")
    memory = MemoryFactory(user=user, statement="User has a dog named Milo", category="fact", confidence=0.82)
    MemorySourceFactory(memory=memory, message=message, quote="I have a dog named Milo")
    memory_md_render_all(user=user)
    return memory


def _list(client, **params) -> tuple[str, int]:
    """The list page's HTML and how many cards were rendered (not taken from the cache) to make it."""
    rendered = []
    record = lambda sender, template, **kw: rendered.append(template.name)  # noqa: E731
    template_rendered.connect(record)
    try:
        html = client.get(reverse("memcenter:memories"), params).content.decode()
    finally:
        template_rendered.disconnect(record)
    return html, rendered.count("_memory_card.html")


def _card(html: str, memory) -> str:
    match = re.search(rf'<article id="memory-{memory.pk}".*?</article>', html, flags=re.S)
    assert match, f"no card for memory {memory.pk}"
    return match.group(0)


def test_a_card_is_rendered_once_and_then_served_from_the_cache(client_in, user, milo):
    MemoryFactory(user=user, statement="User likes green tea")
    first, rendered = _list(client_in)
    assert rendered == 2
    again, rendered = _list(client_in)
    assert rendered == 0
    masked = lambda html: re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", _card(html, milo))  # noqa: E731
    assert masked(again) == masked(first)  # the same card; each response masks the CSRF token anew


def test_a_cached_card_carries_this_requests_csrf_token_and_address(client, user, milo):
    client.force_login(user)
    _list(client)  # cached with this session's token
    client.logout()
    client.force_login(user)  # a new session: a new CSRF secret
    html, rendered = _list(client, sort="recent")
    assert rendered == 0
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', _card(html, milo)).group(1)
    response = client.post(reverse("memcenter:memory_feedback", args=[milo.pk]), {"verdict": "agree", "csrfmiddlewaretoken": token},
                           enforce_csrf_checks=True)
    assert response.status_code in (200, 302)
    assert Feedback.objects.filter(memory=milo, verdict="agree").exists()
    assert 'name="next" value="/?sort=recent#memory-' in _card(html, milo)
    assert "\x00" not in html


def test_a_card_shows_every_change_to_its_row_even_one_that_skips_save(client_in, milo):
    _list(client_in)
    Memory.objects.filter(pk=milo.pk).update(statement="User has a dog named Rex", confidence=0.31, user_set=True)
    card = _card(_list(client_in)[0], milo)
    assert "You have a dog named Rex" in card and "31%" in card and "set by you" in card


def test_a_card_shows_changes_to_its_sources_verdicts_and_history(client_in, user, milo):
    _list(client_in)
    MemorySource.objects.filter(memory=milo).update(quote="my dog Milo, a good boy")
    assert "my dog Milo, a good boy" in _card(_list(client_in)[0], milo)
    FeedbackFactory(memory=milo, verdict="doubt")
    assert "You said: Doubt (pending)" in _card(_list(client_in)[0], milo)
    Feedback.objects.filter(memory=milo).update(applied_at=timezone.now())
    assert "(pending)" not in _card(_list(client_in)[0], milo)
    MemoryFactory(user=user, statement="User had a cat", status="superseded", superseded_by=milo)
    assert "You had a cat" in _card(_list(client_in)[0], milo)
    Message.objects.filter(session__user=user).delete()  # the source's message goes: no link any more
    assert "conversation deleted" in _card(_list(client_in)[0], milo)


def test_a_card_shows_its_memory_md_badge_persona_and_language(client_in, user, milo):
    badge = '<span class="badge badge--md"'
    assert badge in _card(_list(client_in)[0], milo)
    MemoryDocument.objects.filter(user=user).update(memory_ids=[])
    assert badge not in _card(_list(client_in)[0], milo)
    persona = PersonaFactory(name="Luna")
    Memory.objects.filter(pk=milo.pk).update(persona=persona)
    _list(client_in)
    persona.name = "Stella"
    persona.save()
    assert "Stella" in _card(_list(client_in)[0], milo)
    client_in.cookies["django_language"] = "zh-hans"
    assert "可信度" in _card(_list(client_in)[0], milo)


def test_a_card_is_drawn_again_on_a_new_day(client_in, milo, monkeypatch):
    _list(client_in)
    tomorrow = timezone.localdate() + timedelta(days=1)
    monkeypatch.setattr("memcenter.cards.timezone.localdate", lambda: tomorrow)
    assert _list(client_in)[1] == 1
