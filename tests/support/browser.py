"""What every page test in a real browser checks: axe-core, no sideways scroll, a nav that fits, a logged-in context."""
from pathlib import Path

from django.test import Client

AXE = Path(__file__).resolve().parent.parent / "browser" / "vendor" / "axe-4.14.1.min.js"
CONFIGS = [("en", 1280), ("en", 390), ("zh-hans", 1280), ("zh-hans", 390)]


def axe_serious(page) -> list[dict]:
    """Serious and critical axe-core violations of the page as it is now."""
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"
    )
    return [v for v in violations if v["impact"] in ("serious", "critical")]


def no_sideways_scroll(page):
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"{page.url} is {overflow}px wider than the window"


def nav_fits(page, width):
    """Every nav link is inside the window and not covered by anything (Chat, Settings, Dashboard too)."""
    links = page.locator(".site-nav a")
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, links.nth(i).inner_text()
        on_top = page.evaluate(
            "([x, y]) => { const e = document.elementFromPoint(x, y); return e && e.closest('.site-nav a') ? e.closest('.site-nav a').textContent : null }",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert on_top == links.nth(i).inner_text(), f"{links.nth(i).inner_text()} is covered at {width}px"


def logged_in_context(browser, live_server, user, lang, width):
    """A browser context logged in as `user`, in `lang`, `width` px wide (a phone's height below 500 px)."""
    client = Client()
    client.force_login(user)
    # bypass_csp: axe-core is injected as a script, which the Content-Security-Policy rightly refuses;
    # CSP itself is checked by test_csp_browser.py.
    context = browser.new_context(bypass_csp=True, viewport={"width": width, "height": 900 if width > 500 else 844},
                                  locale="zh-CN" if lang != "en" else "en-US")
    context.add_cookies([
        {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url},
        {"name": "django_language", "value": lang, "url": live_server.url},
    ])
    return context
