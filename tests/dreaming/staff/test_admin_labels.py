"""The admin in Chinese: every label of the project's models and admins (and django-axes') has a Chinese translation."""
from django.utils import translation

from dreaming.staff.admin import CandidateAdmin
from tests.support.admin_labels import admin_labels, untranslated_labels


def test_every_admin_label_of_chat_dreaming_and_axes_reads_in_chinese():
    assert len(admin_labels()) > 300  # the registry was read (fields, columns, filters, actions of every admin)
    assert untranslated_labels() == set()


def test_the_candidate_page_fieldsets_and_actions_are_chinese():
    with translation.override("zh-hans"):
        titles = [str(title) for title, _options in CandidateAdmin.fieldsets]
        assert titles == ["听到了什么", "来自哪里", "决定", "审核"]
        assert str(CandidateAdmin.promote.short_description) == "采纳为记忆（仅限待定且已核实）"
