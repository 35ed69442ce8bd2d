"""A plan "in October" is dated "in October 2026" from when it was said, and the quote still supports it."""
from datetime import datetime, timezone

from dreaming.engine.quotes import statement_unsupported
from dreaming.providers.local import LocalDreamer
from dreaming.protocol import CallContext, Turn

SAID_AT = datetime(2026, 9, 20, 10, tzinfo=timezone.utc)


def test_a_month_said_without_its_year_supports_the_dated_statement():
    message = "Perfect. I'm planning a trip to Lisbon in October with my sister Jen."
    turns = [Turn(seq=0, role="assistant", content="Anything else?"),
             Turn(seq=1, role="user", content=message, created_at=SAID_AT)]
    trip = [c for c in LocalDreamer().extract(turns=turns, ctx=CallContext()) if "Lisbon" in c.statement]
    assert trip and "October 2026" in trip[0].statement
    assert statement_unsupported(statement=trip[0].statement, quote=trip[0].quote, message=message) is None


def test_a_year_the_quote_has_no_time_for_is_still_unsupported():
    assert statement_unsupported(statement="User moved to Lisbon in 2019", quote="I may move to Lisbon",
                                 message="I may move to Lisbon") is not None


def test_a_chinese_last_year_worked_out_to_its_year_is_the_quotes_own_time():
    # the year sits between two Chinese characters, with no word boundary around it
    message = "主要是想跟孙子视频，他在美国读书。我老伴去年走了，现在一个人住。"
    turns = [Turn(seq=0, role="assistant", content="您好"),
             Turn(seq=1, role="user", content=message, created_at=SAID_AT)]
    found = [c for c in LocalDreamer().extract(turns=turns, ctx=CallContext()) if "老伴" in c.statement]
    assert found and "2025" in found[0].statement
    assert statement_unsupported(statement=found[0].statement, quote=found[0].quote, message=message) is None
    assert statement_unsupported(statement="用户老伴2024年走了", quote="我老伴走了", message="我老伴走了") is not None
