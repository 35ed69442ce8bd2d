"""Destructive actions ask first, with and without JavaScript, in real Chromium: Don't remember,
memory off + delete everything, and the forget page offering a near-duplicate in Chinese."""
import re

import pytest
from playwright.sync_api import expect

from dreaming.memory.diary import DiaryLines, diary_append
from dreaming.models import Candidate, Memory, MemorySettings
from dreaming.protocol import NightChanges
from dreaming.memory.services import memory_forget
from tests.factories import CandidateFactory, MemoryFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pw-for-tests-123"


def _log_in(page, live_server, username):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))


@pytest.fixture
def no_js_page(browser):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def test_dont_remember_asks_in_the_browser_and_a_cancel_keeps_it(page, live_server, artifacts):
    user = UserFactory(username="bea")
    candidate = CandidateFactory(user=user, status="pending", statement="User made mapo tofu for Qiang",
                                 quote="I made mapo tofu for Qiang")
    _log_in(page, live_server, "bea")
    page.goto(live_server.url)
    page.get_by_role("link", name="Pending", exact=True).click()
    asked = []

    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Don't remember").click()
    expect(page.locator(f"#candidate-{candidate.pk}")).to_contain_text("mapo tofu")
    assert asked and "Don't remember this?" in asked[0]
    assert Candidate.objects.filter(pk=candidate.pk).exists()

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Don't remember").click()
    expect(page.locator(f"#candidate-{candidate.pk}")).to_contain_text("Dismissed")
    page.screenshot(path=artifacts / "forget-dont-remember.png", full_page=True)
    assert not Candidate.objects.filter(pk=candidate.pk).exists()


def test_memory_off_with_delete_everything_asks_first_without_javascript(no_js_page, live_server, artifacts):
    page = no_js_page
    user = UserFactory(username="cy")
    MemoryFactory(user=user, statement="User keeps bees in Wolfhausen")
    _log_in(page, live_server, "cy")
    page.get_by_role("link", name="Settings", exact=True).click()

    page.get_by_label("Remember things from my conversations").uncheck()
    page.get_by_label("Delete everything now").check()
    page.get_by_role("button", name="Save").click()

    expect(page.get_by_role("heading", name="Turn memory off and delete everything?")).to_be_visible()
    expect(page.locator("main, body").first).to_contain_text("1 memory")
    page.screenshot(path=artifacts / "forget-settings-confirm.png", full_page=True)
    assert Memory.objects.filter(user=user).exists() and not MemorySettings.objects.filter(user=user).exists()

    page.get_by_label("Yes, delete it for good").check()
    page.get_by_role("button", name="Delete for good").click()

    expect(page.get_by_text("everything remembered was deleted")).to_be_visible()
    assert not Memory.objects.filter(user=user).exists()
    assert MemorySettings.objects.get(user=user).enabled is False


def test_the_forget_page_offers_the_chinese_near_duplicate_without_javascript(no_js_page, live_server, artifacts):
    page = no_js_page
    user = UserFactory(username="dee")
    latte = MemoryFactory(user=user, statement="User drinks an oat latte every morning", confidence=0.9)
    chinese = MemoryFactory(user=user, statement="用户每天早上都喝燕麦拿铁", confidence=0.8)
    kept = MemoryFactory(user=user, statement="User drinks oat milk", confidence=0.7)
    _log_in(page, live_server, "dee")

    page.locator(f"#memory-{latte.pk}").get_by_role("link", name="Delete").click()
    expect(page.get_by_role("heading", name="Forget this memory?")).to_be_visible()
    page.get_by_label("你每天早上都喝燕麦拿铁").check()  # spoken to its owner, like the card
    page.screenshot(path=artifacts / "forget-near-duplicates.png", full_page=True)
    page.get_by_label("Yes, delete it for good").check()
    page.get_by_role("button", name="Delete for good").click()

    expect(page.get_by_text("Forgotten for good")).to_be_visible()
    assert set(Memory.objects.filter(user=user).values_list("pk", flat=True)) == {kept.pk}
    assert chinese.pk not in set(Memory.objects.values_list("pk", flat=True))


def test_the_diary_reads_line_by_line_and_forgetting_takes_one_line(page, live_server, artifacts):
    user = UserFactory(username="eve")
    keep = MemoryFactory(user=user, statement="User works as a baker in Quillabamba")
    doomed = MemoryFactory(user=user, statement="User has a dog named Zephyrine")
    lines = DiaryLines()
    for memory in (keep, doomed):
        lines.add("learned", [memory.statement], memory_ids=[memory.pk])
    lines.add("let_go", ["User lives in Hangzhou"], memory_ids=[MemoryFactory(user=user, status="archived").pk])
    diary_append(user=user, run=None, now=keep.last_seen, changes=NightChanges(), lines=lines, memories=[keep, doomed])
    _log_in(page, live_server, "eve")
    page.get_by_role("link", name="Diary", exact=True).click()
    expect(page.locator("main, body").first).to_contain_text("I learned 2 new things")
    page.screenshot(path=artifacts / "forget-diary-before.png", full_page=True)

    memory_forget(memory=doomed, by=user)
    page.reload()

    expect(page.locator("main, body").first).to_contain_text("I learned 1 new thing")
    expect(page.locator("main, body").first).not_to_contain_text("Zephyrine")
    expect(page.locator("main, body").first).to_contain_text("I let go of 1 memory")
    page.screenshot(path=artifacts / "forget-diary-after.png", full_page=True)
