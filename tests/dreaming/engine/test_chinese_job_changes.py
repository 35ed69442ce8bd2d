"""A new job said in everyday Chinese (做产品经理, 在银行上班) is the same slot as the old one, in either language."""
import pytest

from dreaming.engine.slots import facts_of, single_valued_change


@pytest.mark.parametrize("new, old", [
    ("用户现在在一家外企做产品经理", "用户在北京一家银行上班"),
    ("User is a product manager at a foreign company now", "User works at a bank so mornings are busy"),
    ("用户现在是公务员", "用户在一家银行工作"),
])
def test_a_new_job_changes_the_job_slot(new, old):
    assert single_valued_change(new, old)


def test_a_job_done_is_work_not_cooking():
    assert "work" in facts_of("用户在一家外企做产品经理").kinds


def test_a_name_said_with_a_closing_le_is_the_name_alone():
    assert facts_of("用户家猫改名叫团子了").names == {"团子"}
