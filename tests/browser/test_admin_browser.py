"""Django admin as staff, in a real browser: the dreaming models' lists, change forms and delete confirmations,
in English and Chinese at 1280 and 390 px, screenshots saved, 0 serious or critical axe-core violations."""
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from dreaming.models import Memory
from tests.factories import (
    CandidateFactory,
    ChatSessionFactory,
    DiaryEntryFactory,
    DreamRunFactory,
    FeedbackFactory,
    LLMCallFactory,
    MemoryFactory,
    MemorySourceFactory,
    MessageFactory,
    UserFactory,
)
from tests.support.admin_labels import english_labels
from tests.support.browser import CONFIGS, axe_serious, logged_in_context, no_sideways_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def staff_world():
    staff = UserFactory(username="root", is_staff=True, is_superuser=True)
    ada = UserFactory(username="ada")
    session = ChatSessionFactory(user=ada, title="Sunday walk", triage_kind="normal")
    said = MessageFactory(session=session, seq=1, content="Oh by the way, I have a corgi named Mochi. She snores!")
    MessageFactory(session=session, seq=2, role="assistant", content="Mochi sounds lovely!")
    run = DreamRunFactory(phase="light", sessions_done=1, promoted=1)
    memory = MemoryFactory(user=ada, statement="User has a corgi named Mochi", category="fact", confidence=0.9,
                           score_breakdown={"parts": {"importance": 0.8}, "total": 0.8})
    MemorySourceFactory(memory=memory, message=said, quote="I have a corgi named Mochi")
    candidate = CandidateFactory(user=ada, session=session, message=said, run=run, memory=memory, status="promoted",
                                 reason="Promoted with score 0.81.", score=0.81, verified=True)
    feedback = FeedbackFactory(memory=memory)
    DiaryEntryFactory(user=ada, run=run)
    call = LLMCallFactory(phase="light", run=run)
    return {"staff": staff, "memory": memory, "candidate": candidate, "session": session, "run": run, "call": call,
            "feedback": feedback}


# Where the admin prints a label (column and filter titles, field labels, fieldsets, help, actions) or a
# choice's label (a cell, a read-only value): read in Chinese, none of them may be an English label.
LABELS = ("thead th, label, fieldset h2, .inline-group h2, #changelist-filter h2, #changelist-filter h3, "
          "#changelist-filter summary, #changelist-filter li a, select[name=action] option, .help, h1, caption, "
          "#nav-sidebar a, .breadcrumbs a, td, .readonly, .messagelist li")


def english_on_page(page, english: set[str]) -> list[str]:
    texts = page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].map(e => e.innerText.trim().replace(/[:：]$/, ''))", LABELS
    )
    return sorted({text for text in texts if text.casefold() in english})


def _admin_pages(world) -> list[tuple[str, str]]:
    """(name, path) of every admin page a staff member reads while auditing dreaming."""
    memory, candidate, session = world["memory"], world["candidate"], world["session"]
    pages = [("index", reverse("admin:index")), ("dreaming", reverse("admin:app_list", args=["dreaming"]))]
    for model in ("memory", "candidate", "memorysource", "feedback", "diaryentry", "memorydocument", "tombstone",
                  "memorysettings", "dreamrun", "llmcall"):
        pages.append((f"{model}-list", reverse(f"admin:dreaming_{model}_changelist")))
    pages += [
        ("memory-change", reverse("admin:dreaming_memory_change", args=[memory.pk])),
        ("memory-delete", reverse("admin:dreaming_memory_delete", args=[memory.pk])),
        ("candidate-change", reverse("admin:dreaming_candidate_change", args=[candidate.pk])),
        ("candidate-delete", reverse("admin:dreaming_candidate_delete", args=[candidate.pk])),
        ("dreamrun-change", reverse("admin:dreaming_dreamrun_change", args=[world["run"].pk])),
        ("chatsession-list", reverse("admin:chat_chatsession_changelist")),
        ("chatsession-change", reverse("admin:chat_chatsession_change", args=[session.pk])),
        ("chatsession-delete", reverse("admin:chat_chatsession_delete", args=[session.pk])),
        ("llmcall-change", reverse("admin:dreaming_llmcall_change", args=[world["call"].pk])),
        ("feedback-change", reverse("admin:dreaming_feedback_change", args=[world["feedback"].pk])),
        ("dashboard", reverse("dreaming:dashboard")),
    ]
    pages += [(f"{model}-list", reverse(f"admin:chat_{model}_changelist"))
              for model in ("message", "persona", "client", "clientuser", "apikey")]
    pages += [("axes-accessattempt-list", reverse("admin:axes_accessattempt_changelist"))]
    return pages


@pytest.mark.parametrize("lang,width", CONFIGS)
def test_the_admin_pages_read_well(browser, live_server, staff_world, artifacts, lang, width):
    context = logged_in_context(browser, live_server, staff_world["staff"], lang, width)
    page = context.new_page()
    page.set_default_timeout(10000)
    serious, wide, english = {}, {}, {}
    labels = english_labels()
    for name, path in _admin_pages(staff_world):
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, f"{path} answered {response.status}"
        page.screenshot(path=str(artifacts / f"admin-{name}-{lang}-{width}.png"), full_page=True)
        serious[name] = axe_serious(page)
        wide[name] = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        if lang != "en":
            english[name] = english_on_page(page, labels)
    # The delete confirmation really deletes (through the forget service).
    page.goto(f"{live_server.url}{reverse('admin:dreaming_memory_delete', args=[staff_world['memory'].pk])}")
    page.locator("form input[type=submit]").click()
    expect(page.locator(".messagelist")).to_be_visible()
    assert not Memory.objects.filter(pk=staff_world["memory"].pk).exists()
    context.close()
    assert {name: found for name, found in serious.items() if found} == {}
    assert {name: found for name, found in english.items() if found} == {}, "English labels in the Chinese admin"
    assert {name: px for name, px in wide.items() if px > 1} == {}, "admin pages wider than the window"
