"""The chat page in a real browser: htmx swaps the conversation in place; the reply answers from memory."""
import re

import pytest
from playwright.sync_api import expect

from chat.models import ChatSession
from dreaming.providers.local_embedder import LocalEmbedder
from tests.factories import MemoryFactory, MemorySourceFactory, PersonaFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_user_chats_and_the_reply_swaps_in_without_a_page_load(page, live_server, settings, artifacts):
    settings.LLM_BACKEND, settings.EMBEDDING_BACKEND = "local", "local"
    user = UserFactory(username="ada")
    PersonaFactory(slug="luna", name="Luna")
    statement = "User has a dog named Milo"
    milo = MemoryFactory(user=user, statement=statement, embedding=LocalEmbedder(512).embed([statement])[0])
    MemorySourceFactory(memory=milo, quote="I have a dog named Milo")

    page.goto(f"{live_server.url}/accounts/login/?next=/chat/")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill("pw-for-tests-123")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Chat")).to_be_visible()

    page.get_by_label("Your message").fill("What is my dog called?")
    page.get_by_role("button", name="Send").click()

    reply = page.locator("#turns .msg--assistant")
    expect(reply).to_contain_text("You have a dog named Milo")
    expect(reply).not_to_contain_text("LLM_API_KEY")
    expect(page).to_have_url(re.compile(r"/chat/$"))  # swapped in place, no redirect
    expect(page.get_by_label("Your message")).to_have_value("")
    page.screenshot(path=str(artifacts / "context-chat.png"), full_page=True)

    page.get_by_label("Your message").fill("Thanks!")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#turns .msg")).to_have_count(4)
    session = ChatSession.objects.get(user=user)
    assert session.source == "chat" and session.messages.count() == 4
