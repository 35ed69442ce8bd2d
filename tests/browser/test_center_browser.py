"""The memory center in a real browser: log in, judge, delete, watch MEMORY.md change, read it in Chinese."""
import re
from datetime import datetime, timezone

import pytest
from playwright.sync_api import expect

from dreaming.memory.context import memory_md_render_all
from dreaming.models import Feedback, Memory
from dreaming.memory.tombstones import is_tombstoned
from tests.factories import (
    CandidateFactory,
    ChatSessionFactory,
    DiaryEntryFactory,
    MemoryFactory,
    MemorySourceFactory,
    MessageFactory,
    PersonaFactory,
    UserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pw-for-tests-123"


@pytest.fixture
def world():
    user = UserFactory(username="ada")
    persona = PersonaFactory(name="Luna")
    session = ChatSessionFactory(user=user, title="Sunday walk", persona=persona)
    said = MessageFactory(session=session, seq=3, content="Oh by the way, I have a dog named Milo. He loves the park.")
    MessageFactory(session=session, seq=4, role="assistant", content="Milo sounds lovely!")
    said2 = MessageFactory(session=session, seq=5, content="我住在上海，在一家设计公司工作。")
    milo = MemoryFactory(user=user, statement="User has a dog named Milo", category="fact", confidence=0.86,
                         importance=0.7, recurrence=2,
                         score_breakdown={"importance": 0.7, "recurrence": 0.5, "specificity": 0.6, "timeliness": 0.4})
    MemorySourceFactory(memory=milo, message=said, quote="I have a dog named Milo")
    city = MemoryFactory(user=user, statement="用户住在上海", category="fact", confidence=0.64)
    MemorySourceFactory(memory=city, message=said2, quote="我住在上海")
    MemoryFactory(user=user, statement="User lived in Hangzhou", status="superseded", superseded_by=city,
                  valid_to=datetime(2026, 5, 1, tzinfo=timezone.utc))
    tea = MemoryFactory(user=user, statement="User prefers green tea over coffee", category="preference", confidence=0.38)
    MemoryFactory(user=user, persona=persona, statement="User likes Luna's bedtime stories", category="emotion", confidence=0.55)
    CandidateFactory(user=user, session=session, message=said, status="pending", statement="User goes to the park often",
                     quote="He loves the park")
    DiaryEntryFactory(user=user, narrative="Tonight I learned that User has a dog named Milo. "
                      "The move from Hangzhou to Shanghai changed an old memory.")
    memory_md_render_all(user=user)
    return {"user": user, "milo": milo, "city": city, "tea": tea}


def _log_in(page, live_server):
    page.goto(f"{live_server.url}/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="What I remember about you")).to_be_visible()


def test_judge_delete_and_read_in_chinese(page, live_server, world, artifacts):
    page.set_default_timeout(8000)
    page.set_viewport_size({"width": 1200, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/")
    page.screenshot(path=artifacts / "center-login.png", full_page=True)
    _log_in(page, live_server)
    page.screenshot(path=artifacts / "center-memories.png", full_page=True)

    milo, city, tea = world["milo"], world["city"], world["tea"]
    # Agree / doubt / reject swap one card in place (no page load: the URL and the others stay).
    for memory, verdict in ((milo, "Agree"), (city, "Doubt"), (tea, "Reject")):
        card = page.locator(f"#memory-{memory.pk}")
        card.get_by_role("button", name=verdict).click()
        expect(page.locator(f"#memory-{memory.pk}")).to_contain_text(f"You said: {verdict} (pending)")
        expect(page.locator(f"#memory-{memory.pk}").get_by_role("button", name=verdict)).to_have_attribute("aria-pressed", "true")
        expect(page.locator(f"#memory-{memory.pk}-{verdict.lower()}")).to_be_focused()  # focus survives the swap
    expect(page.locator("#live-region")).to_have_text("Thanks — your verdict is applied at the next deep sleep.")
    assert {f.memory_id: f.verdict for f in Feedback.objects.all()} == {milo.pk: "agree", city.pk: "doubt", tea.pk: "reject"}
    page.locator(f"#memory-{milo.pk} details summary").click()
    page.locator(f"#memory-{milo.pk}").screenshot(path=artifacts / "center-card-why.png")

    # The quote links to the conversation, the quoted words highlighted.
    page.locator(f"#memory-{milo.pk}").get_by_role("link", name=re.compile("see the conversation")).click()
    expect(page.locator("mark")).to_have_text("I have a dog named Milo")
    page.screenshot(path=artifacts / "center-conversation.png", full_page=True)

    # MEMORY.md shows Milo; delete it (hx-confirm dialog accepted); MEMORY.md no longer does.
    page.get_by_role("link", name="MEMORY.md").click()
    expect(page.locator("pre.memory-md")).to_contain_text("User has a dog named Milo")
    page.screenshot(path=artifacts / "center-memory-md-before.png", full_page=True)
    page.get_by_role("link", name="Memories").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f"#memory-{milo.pk}").get_by_role("link", name="Delete").click()
    expect(page.locator(f"#memory-{milo.pk}")).to_contain_text("Forgotten for good")
    assert not Memory.objects.filter(pk=milo.pk).exists()
    assert is_tombstoned(user=world["user"], statement="User has a dog named Milo")
    page.get_by_role("link", name="MEMORY.md").click()
    expect(page.locator("pre.memory-md")).not_to_contain_text("Milo")
    expect(page.locator("pre.memory-md")).to_contain_text("用户住在上海")
    page.screenshot(path=artifacts / "center-memory-md-after.png", full_page=True)

    # Search filters the list in place.
    page.get_by_role("link", name="Memories").click()
    page.get_by_label("Search").fill("上海")
    expect(page.locator("#memory-list article")).to_have_count(1)
    expect(page).to_have_url(re.compile(r"q=%E4%B8%8A%E6%B5%B7"))
    page.get_by_label("Category").select_option("preference")
    expect(page.locator("#memory-list")).to_contain_text("No memory matches these filters.")
    page.get_by_label("Category").select_option("")
    expect(page.locator("#memory-list article")).to_have_count(1)

    # Edit in place: the textarea gets focus, saving swaps the card back with the new words.
    page.locator(f"#memory-{city.pk}").get_by_role("link", name="Edit").click()
    statement = page.locator(f"#memory-{city.pk} textarea")
    expect(statement).to_be_focused()
    expect(statement).to_have_value("你住在上海")  # the person edits in their own voice…
    statement.fill("我住在上海浦东")
    page.locator(f"#memory-{city.pk}").screenshot(path=artifacts / "center-card-edit.png")
    page.locator(f"#memory-{city.pk}").get_by_role("button", name="Save").click()
    expect(page.locator(f"#memory-{city.pk}")).to_contain_text("set by you")
    expect(page.locator(f"#memory-{city.pk} h3")).to_have_text("你住在上海浦东")
    assert Memory.objects.get(pk=city.pk).statement == "用户住在上海浦东"  # …stored once, canonical

    # Pending: remember one now.
    page.get_by_role("link", name="Pending", exact=True).click()
    page.get_by_role("button", name="Remember it").click()
    expect(page.locator(".candidate-card")).to_contain_text("Remembered.")
    assert Memory.objects.filter(statement="User goes to the park often").exists()

    for name, shot in (("Pending", "pending"), ("Diary", "diary"), ("Settings", "settings")):
        page.get_by_role("link", name=name, exact=True).click()
        page.screenshot(path=artifacts / f"center-{shot}.png", full_page=True)
    expect(page.locator("body")).not_to_contain_text("dog named Milo")  # the diary sentence went too

    # Switch to Chinese with the language form.
    page.get_by_label("Language").select_option("zh-hans")
    page.get_by_role("button", name="Switch").click()
    expect(page.get_by_role("heading", name="设置")).to_be_visible()
    page.get_by_role("link", name="记忆", exact=True).click()
    expect(page.get_by_role("heading", name="我记得的关于你的事")).to_be_visible()
    page.screenshot(path=artifacts / "center-memories-zh.png", full_page=True)

    # Phone width.
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=artifacts / "center-memories-phone.png", full_page=True)
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=artifacts / "center-memories-phone-dark.png", full_page=True)


def test_the_delete_confirm_page_works_without_javascript(browser, live_server, world, artifacts):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(8000)
    _log_in(page, live_server)
    tea = world["tea"]
    page.locator(f"#memory-{tea.pk}").get_by_role("link", name="Delete").click()
    expect(page.get_by_role("heading", name="Forget this memory?")).to_be_visible()
    page.screenshot(path=artifacts / "center-confirm-delete-nojs.png", full_page=True)
    page.get_by_label("Yes, delete it for good").check()
    page.get_by_role("button", name="Delete for good").click()
    expect(page.locator(".flash")).to_contain_text("Forgotten for good")
    assert not Memory.objects.filter(pk=tea.pk).exists()
    context.close()
