"""Staff pages read well: admin labels spelled right, reasons grouped by kind, one-click audit, a translated dashboard."""
import pytest
from django.urls import reverse

from dreaming.staff.charts import bar_chart, hbar_chart, line_chart
from dreaming.models import Candidate, LLMCall, MemorySettings
from tests.factories import CandidateFactory, DreamRunFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(username="auditor", is_staff=True, is_superuser=True))
    return client


def test_admin_names_are_spelled_right(staff_client):
    assert str(MemorySettings._meta.verbose_name_plural) == "memory settings"
    assert str(LLMCall._meta.verbose_name_plural) == "LLM calls"
    html = staff_client.get(reverse("admin:index")).content.decode()
    assert "Memory settings" in html and "LLM calls" in html
    assert "settingss" not in html and "Llm calls" not in html


def test_the_reason_filter_groups_reasons_by_kind(staff_client):
    for score in ("0.54", "0.61", "0.77"):
        CandidateFactory(reason=f"Promoted with score {score}.")
    CandidateFactory(reason="Reinforces memory #12.")
    CandidateFactory(reason="Reinforces memory #340.")
    CandidateFactory(reason="Dismissed: score 0.12 is below the pending threshold (vague: no object).")
    changelist = staff_client.get(reverse("admin:dreaming_candidate_changelist"))
    html = changelist.content.decode()
    assert "Promoted with score N. (3)" in html and "Reinforces memory #N. (2)" in html
    assert "Promoted with score 0.54" not in html.split('id="changelist-filter"')[1].split("</nav>")[0]
    filtered = staff_client.get(reverse("admin:dreaming_candidate_changelist"), {"reason": "Promoted with score N."})
    assert filtered.context["cl"].result_count == 3
    dismissed = staff_client.get(reverse("admin:dreaming_candidate_changelist"),
                                 {"reason": "Dismissed: score N is below the pending threshold"})
    assert dismissed.context["cl"].result_count == 1


def test_one_click_audit_labels_and_opens_the_next_unaudited_candidate(staff_client):
    older, newer = CandidateFactory(), CandidateFactory()
    url = reverse("admin:dreaming_candidate_change", args=[newer.pk])
    page = staff_client.get(url).content.decode()
    assert 'name="_audit" value="correct"' in page and 'name="_audit" value="extraction_error"' in page
    response = staff_client.post(url, {"audit": "", "audit_note": "", "_audit": "extraction_error"})
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:dreaming_candidate_change", args=[older.pk])
    assert Candidate.objects.get(pk=newer.pk).audit == Candidate.Audit.EXTRACTION_ERROR
    assert Candidate.objects.get(pk=older.pk).audit == ""  # only the one clicked
    last = staff_client.post(reverse("admin:dreaming_candidate_change", args=[older.pk]),
                             {"audit": "", "audit_note": "", "_audit": "correct"})
    assert last["Location"] == reverse("admin:dreaming_candidate_changelist")
    assert Candidate.objects.get(pk=older.pk).audit == Candidate.Audit.CORRECT


def test_the_dashboard_is_translated_with_chart_titles_and_a_text_alternative(staff_client):
    DreamRunFactory(phase="deep")
    staff_client.post(reverse("set_language"), {"language": "zh-hans"})
    html = staff_client.get(reverse("dreaming:dashboard")).content.decode()
    assert "做梦仪表盘" in html and "最慢的运行" in html and "Slowest runs" not in html
    assert html.count('class="chart-title"') == 4 and html.count('<details class="chart-data">') == 4


def test_charts_draw_readable_labels_and_carry_their_numbers():
    bars = bar_chart(title="Cost", labels=[f"11-{d:02d}" for d in range(1, 31)], series={"cost": list(range(30))})
    assert bars.count('class="tick"') <= 2 + 6  # y axis + at most 6 x labels on 30 days
    assert bars.count("<th scope=\"row\">") == 30  # …and the table has every day
    line = line_chart(title="Tokens", labels=["a", "b"], series={"prompt": [1, 2], "completion": [3, 4]})
    assert 'class="chart-legend"' in line and "prompt" in line
    triage = hbar_chart(title="Triage", labels=["normal", "coding"], values=[4, 0], name="sessions")
    assert triage.count("<rect") == 2 and "<th scope=\"row\">coding</th><td>0</td>" in triage
    assert 'viewBox="0 0 400 ' in triage


def test_the_chinese_catalogue_is_complete_and_compiled():
    import gettext
    import re
    from pathlib import Path

    folder = Path(__file__).resolve().parents[3] / "locale" / "zh_Hans" / "LC_MESSAGES"
    po = (folder / "django.po").read_text(encoding="utf-8")
    entries = po.split("\n\n")[1:]  # the first block is the header
    assert not [e for e in entries if "#, fuzzy" in e]
    untranslated = [e for e in entries if re.search(r'^msgstr(?:\[0\])? ""$(?!\n")', e, re.MULTILINE)
                    and not e.lstrip().startswith("#~")]
    assert untranslated == []
    compiled = gettext.GNUTranslations((folder / "django.mo").open("rb"))
    for msgid in re.findall(r'^msgid "(.+)"$', po, re.MULTILINE):
        if "\\" not in msgid:
            assert compiled.gettext(msgid) != msgid or msgid in ("MEMORY.md",), f"not compiled: {msgid}"
