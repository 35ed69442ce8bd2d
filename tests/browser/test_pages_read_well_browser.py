"""Every page in a real browser, in English and Chinese, at 1280 and 390 px: words, reasons, layout, axe-core.

Screenshots go to tests/artifacts/pages-<page>-<lang>-<width>.png. The accessibility check injects the
vendored axe-core (tests/browser/vendor, MPL-2.0) and fails on any serious or critical violation.
"""
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from chat.models import ChatSession
from dreaming.memory.context import memory_md_render_all
from dreaming.models import Memory
from tests.factories import (
    CandidateFactory,
    ChatSessionFactory,
    DiaryEntryFactory,
    DreamRunFactory,
    LLMCallFactory,
    MemoryFactory,
    MemorySourceFactory,
    MessageFactory,
    UserFactory,
)
from tests.support.browser import CONFIGS, axe_serious, logged_in_context, nav_fits, no_sideways_scroll


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WORDS = {
    "en": {"corgi": "You have a corgi named Mochi", "legend": "Confidence is how sure I am", "why": "Why is this remembered?",
           "reason": "You brought it up yourself", "taught": "What it taught me", "skipped": "Skipped: a coding session",
           "fact": "I have a cat named Tom", "ack": "I'll remember this tonight", "ask": "What did I just tell you about my cat?",
           "earlier": "“I have a cat named Tom”", "next": "Next", "archived": "No archived memories.",
           "dog": "dog", "no-words": "No memory contains “dog”"},
    "zh-hans": {"corgi": "你养了一只叫 Mochi 的柯基", "legend": "可信度表示我有多确定", "why": "为什么记得这个？",
                "reason": "是你主动提起的", "taught": "它让我记住了什么", "skipped": "已跳过：编程会话",
                "fact": "我养了一只猫叫咪咪", "ack": "今晚整理记忆时我会记住", "ask": "我刚才跟你说我的猫什么了？",
                "earlier": "“我养了一只猫叫咪咪”", "next": "下一页", "archived": "没有已归档的记忆。",
                "dog": "狗", "no-words": "“狗”"},
}


@pytest.fixture
def world():
    user = UserFactory(username="ada")
    now = timezone.now()
    dreamed = ChatSessionFactory(user=user, title="", dreamed_at=now, triage_kind="normal",
                                 last_active_at=now - timedelta(days=2))
    said = MessageFactory(session=dreamed, seq=1, content="Oh by the way, I have a corgi named Mochi. She snores!")
    MessageFactory(session=dreamed, seq=2, role="assistant", content="Mochi sounds lovely!")
    said_zh = MessageFactory(session=dreamed, seq=3, content="我养了一只叫 Mochi 的柯基。")
    ChatSessionFactory(user=user, title="Fix my regex", dreamed_at=now, skipped=True, triage_kind="coding",
                       last_active_at=now - timedelta(days=1))
    parts = {"user_initiated": 1.0, "specificity": 0.9, "stability": 1.0, "feedback": 0.5, "importance": 0.8}
    corgi = MemoryFactory(user=user, statement="User has a corgi named Mochi", category="fact", confidence=0.91,
                          importance=0.9, recurrence=3, score_breakdown={"parts": parts, "total": 0.81})
    MemorySourceFactory(memory=corgi, message=said, quote="I have a corgi named Mochi")
    corgi_zh = MemoryFactory(user=user, statement="用户养了一只叫 Mochi 的柯基", category="fact", confidence=0.9,
                             importance=0.9, score_breakdown={"parts": parts, "total": 0.8})
    MemorySourceFactory(memory=corgi_zh, message=said_zh, quote="我养了一只叫 Mochi 的柯基")
    MemoryFactory(user=user, statement="User lived in Hangzhou", status="superseded", superseded_by=corgi_zh)
    for n in range(28):  # enough for two pages of 25
        memory = MemoryFactory(user=user, statement=f"User visited museum number {n} in Berlin", category="event",
                               confidence=0.3 + (n % 7) / 10, importance=0.5,
                               last_seen=now - timedelta(days=10 * n), score_breakdown={"parts": parts})
        MemorySourceFactory(memory=memory, message=said, quote=f"I went to museum {n}")
    pending = CandidateFactory(user=user, session=dreamed, message=said, status="pending",
                               statement="User might like jazz", quote="jazz is nice", score=0.43)
    DiaryEntryFactory(user=user, narrative="Tonight I learned that you have a corgi named Mochi.")
    memory_md_render_all(user=user)
    return {"user": user, "corgi": corgi, "dreamed": dreamed, "pending": pending}


@pytest.mark.parametrize("lang,width", CONFIGS)
def test_memory_center_reads_well(browser, live_server, world, artifacts, settings, lang, width):
    settings.LLM_BACKEND, settings.EMBEDDING_BACKEND = "local", "local"
    words, shot = WORDS[lang], lambda name: str(artifacts / f"pages-{name}-{lang}-{width}.png")
    context = logged_in_context(browser, live_server, world["user"], lang, width)
    page = context.new_page()
    page.set_default_timeout(10000)
    serious: dict[str, list] = {}

    # Memories: second person, a legend, reasons as sentences, a compact list.
    page.goto(f"{live_server.url}/")
    statement = words["corgi"]
    expect(page.get_by_role("heading", name=statement)).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("User has a corgi")
    expect(page.locator("#confidence-legend")).to_contain_text(words["legend"])
    nav_fits(page, width)
    no_sideways_scroll(page)
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height < (6500 if width > 500 else 5800), f"25 memories make a {height}px page"  # 7,860 px on a phone before the compact phone card
    page.screenshot(path=shot("memories"), full_page=True)
    serious["memories"] = axe_serious(page)
    card = page.locator(f"#memory-{world['corgi'].pk}") if lang == "en" else page.locator(".memory-card").filter(has_text=statement).first
    card.locator("summary").click()
    expect(card.locator(".reasons")).to_contain_text(words["reason"])
    expect(card).not_to_contain_text("{'")
    card.screenshot(path=shot("card-why"))

    # Search by meaning with the offline embedder: "dog" / "狗" finds the corgi (engine/kinds.py), both languages.
    page.locator("#id_q").fill(words["dog"])
    page.locator("#id_q").press("Enter")
    expect(page.locator("#memory-count")).to_contain_text(words["no-words"])
    expect(page.locator(".memory-card").filter(has_text=statement).first).to_be_visible()
    expect(page.locator(".memory-card").filter(has_text="Mochi")).to_have_count(2)  # the English and the Chinese one
    expect(page.locator(".memory-card").filter(has_text="museum")).to_have_count(0)
    page.screenshot(path=shot("search-dog"), full_page=True)
    serious["search"] = axe_serious(page)
    page.goto(f"{live_server.url}/")

    # Page 2 by htmx: the list's top is in view, not the bottom of the page.
    page.locator("#memory-list nav.pagination a[rel=next]").click()
    expect(page).to_have_url(re.compile(r"page=2"))
    page.wait_for_function(  # htmx scrolls once the new list has settled
        "() => { const t = document.getElementById('memory-list').getBoundingClientRect().top; return t > -5 && t < 300 }",
        timeout=3000,
    )

    # Delete from the list: the count follows without a reload.
    page.goto(f"{live_server.url}/?sort=recent")
    count_before = Memory.objects.filter(user=world["user"], status="active").count()
    first = page.locator(".memory-card").filter(has_text="museum number 0 ").first
    page.once("dialog", lambda dialog: dialog.accept())
    first.locator(".btn--danger").click()
    expect(page.locator("#memory-count")).to_contain_text(str(count_before - 1))

    # Superseded: no verdicts; an empty archive says so.
    page.goto(f"{live_server.url}/?status=superseded")
    expect(page.locator(".memory-card .verdicts")).to_have_count(0)
    page.goto(f"{live_server.url}/?status=archived")
    expect(page.locator("#memory-list")).to_contain_text(words["archived"])

    # Pending shows a percentage.
    page.goto(f"{live_server.url}/pending/")
    expect(page.locator(".candidate-card .confidence__value")).to_have_text("43%")
    page.screenshot(path=shot("pending"), full_page=True)
    serious["pending"] = axe_serious(page)

    # Conversations: in the nav, titled by the first line, triage and what each taught.
    page.goto(f"{live_server.url}/conversations/")
    expect(page.locator(".site-nav a[aria-current=page]")).to_have_attribute("href", "/conversations/")
    expect(page.locator(".conversation-list")).to_contain_text("Oh by the way, I have a corgi")
    expect(page.locator(".conversation-list")).to_contain_text(words["skipped"])
    no_sideways_scroll(page)
    page.screenshot(path=shot("conversations"), full_page=True)
    serious["conversations"] = axe_serious(page)
    page.goto(f"{live_server.url}/conversations/{world['dreamed'].pk}/")
    expect(page.locator("#taught")).to_contain_text(words["taught"])
    expect(page.locator("#taught a").first).to_be_visible()
    page.screenshot(path=shot("conversation"), full_page=True)
    serious["conversation"] = axe_serious(page)
    page.goto(f"{live_server.url}/conversations/{world['dreamed'].pk}/delete/")
    expect(page.locator("main")).to_contain_text(statement)
    serious["conversation-delete"] = axe_serious(page)

    # Chat: acknowledges a fact, uses the current conversation, keeps the composer in view.
    page.goto(f"{live_server.url}/chat/?new=1")
    composer = page.locator("#composer textarea")
    composer.fill(words["fact"])
    page.locator("#composer button[type=submit]").click()
    expect(page.locator("#turns .msg--assistant").last).to_contain_text(words["ack"])
    for n in range(4):
        page.locator("#composer textarea").fill(f"{n}")
        page.locator("#composer button[type=submit]").click()
        expect(page.locator("#turns .msg--assistant")).to_have_count(n + 2)
    page.locator("#composer textarea").fill(words["ask"])
    page.locator("#composer button[type=submit]").click()
    expect(page.locator("#turns .msg--assistant").last).to_contain_text(words["earlier"])
    expect(page.locator("#turns")).not_to_contain_text("LLM_API_KEY")
    box = page.locator("#composer button[type=submit]").bounding_box()
    assert box["y"] + box["height"] <= page.viewport_size["height"], "the composer fell below the fold"
    session = ChatSession.objects.filter(user=world["user"], source="chat").latest("pk")
    assert session.title == words["fact"]
    no_sideways_scroll(page)
    page.screenshot(path=shot("chat"))
    serious["chat"] = axe_serious(page)

    corgi, pending = world["corgi"].pk, world["pending"].pk
    for path, name in (("/diary/", "diary"), ("/memory-md/", "memory-md"), ("/settings/", "settings"),
                       ("/memories/add/", "add"), (f"/memories/{corgi}/", "detail"), (f"/memories/{corgi}/edit/", "edit"),
                       (f"/memories/{corgi}/delete/", "delete-confirm"), ("/forget-all/", "forget-all"),
                       (f"/pending/{pending}/dismiss/", "dismiss-confirm"), ("/accounts/password_change/", "password")):
        page.goto(f"{live_server.url}{path}")
        nav_fits(page, width)
        no_sideways_scroll(page)
        page.screenshot(path=shot(name), full_page=True)
        serious[name] = axe_serious(page)
    context.close()
    assert {name: found for name, found in serious.items() if found} == {}


@pytest.mark.parametrize("lang,width", CONFIGS)
def test_the_staff_dashboard_reads_well(browser, live_server, artifacts, lang, width):
    staff = UserFactory(username="root", is_staff=True, is_superuser=True)
    now = timezone.now()
    for hours, phase in ((2, "light"), (5, "deep"), (30, "weekly"), (50, "deep")):
        DreamRunFactory(phase=phase, started_at=now - timedelta(hours=hours), finished_at=now - timedelta(hours=hours - 1),
                        sessions_done=4, promoted=3, pending=1, llm_calls=5, cost_usd="0.0123")
    DreamRunFactory(phase="deep", status="failed", started_at=now - timedelta(hours=3),
                    error="ProviderUnavailable: upstream 502 " + "x" * 200)
    for days in range(6):
        LLMCallFactory(phase="deep", at=now - timedelta(days=days), cost_usd="0.010000")
    ChatSessionFactory(user=staff, triage_kind="normal", dreamed_at=now - timedelta(hours=4))
    ChatSessionFactory(user=staff, triage_kind="coding", skipped=True, dreamed_at=now - timedelta(hours=4))
    context = logged_in_context(browser, live_server, staff, lang, width)
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{live_server.url}/staff/")
    expect(page.locator("h1")).to_have_text("Dreaming dashboard" if lang == "en" else "做梦仪表盘")
    expect(page.locator(".chart-title")).to_have_count(4)
    no_sideways_scroll(page)
    nav_fits(page, width)
    # Chart text: its font size in a 400-unit viewBox, drawn at the figure's width, is at least 11 px.
    smallest = page.evaluate(
        "() => Math.min(...[...document.querySelectorAll('svg.chart')].map(s => s.getBoundingClientRect().width / 400"
        " * parseFloat(getComputedStyle(s.querySelector('.tick')).fontSize)))"
    )
    assert smallest >= 11, f"chart labels are {smallest:.1f}px"
    for table in page.locator(".table-scroll").all():  # a wide table scrolls in its panel, never clips the page
        assert table.evaluate("e => e.getBoundingClientRect().right") <= width + 1
    page.screenshot(path=str(artifacts / f"pages-dashboard-{lang}-{width}.png"), full_page=True)
    serious = axe_serious(page)
    for other in (1024, 1440):
        page.set_viewport_size({"width": other, "height": 900})
        nav_fits(page, other)
        expect(page.locator(".site-nav a[href='/staff/']")).to_be_visible()
    context.close()
    assert serious == []


@pytest.mark.parametrize("lang,width", CONFIGS)
def test_the_login_and_signup_pages_read_well(browser, live_server, artifacts, lang, width):
    # bypass_csp: axe-core is injected as a script, which the Content-Security-Policy rightly refuses;
    # CSP itself is checked by test_csp_browser.py.
    context = browser.new_context(bypass_csp=True, viewport={"width": width, "height": 844}, locale="zh-CN" if lang != "en" else "en-US")
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    serious = {}
    for path, name in (("/accounts/login/", "login"), ("/accounts/signup/", "signup")):
        page.goto(f"{live_server.url}{path}")
        no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"pages-{name}-{lang}-{width}.png"), full_page=True)
        serious[name] = axe_serious(page)
    context.close()
    assert {name: found for name, found in serious.items() if found} == {}
