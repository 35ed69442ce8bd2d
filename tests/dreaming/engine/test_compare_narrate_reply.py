"""Local compare / merge / narrate / reply."""
from datetime import datetime, timezone

from dreaming.providers.local import LocalDreamer
from dreaming.protocol import CallContext, MemoryRef, NightChanges, Turn

CTX = CallContext(phase="deep")


def _compare(statements, memories):
    return LocalDreamer().compare(statements=statements, memories=memories, ctx=CTX)


MEMORIES = [
    MemoryRef(id=1, statement="User lives in Berlin", category="fact"),
    MemoryRef(id=2, statement="User works at Siemens as an engineer", category="fact"),
    MemoryRef(id=3, statement="User likes jazz music", category="preference"),
    MemoryRef(id=4, statement="用户住在北京", category="fact"),
]


def test_a_restatement_reinforces_the_memory_it_repeats():
    (result,) = _compare(["User lives in Berlin, Germany"], MEMORIES)
    assert (result.relation, result.memory_id, result.index) == ("reinforces", 1, 0)


def test_a_new_value_for_the_same_slot_contradicts():
    moved, job, zh = _compare(["User moved to Lisbon", "User works at Bosch", "用户搬到了上海"], MEMORIES)
    assert (moved.relation, moved.memory_id) == ("contradicts", 1)
    assert "residence" in moved.reason
    assert (job.relation, job.memory_id) == ("contradicts", 2)
    assert (zh.relation, zh.memory_id) == ("contradicts", 4)


def test_an_explicit_negation_contradicts():
    (result,) = _compare(["User no longer likes jazz music"], MEMORIES)
    assert (result.relation, result.memory_id) == ("contradicts", 3)


def test_similar_but_compatible_statements_are_never_contradictions():
    results = _compare(["User likes jazz and blues", "User has a dog named Milo", "User visited Berlin in May"], MEMORIES)
    assert [r.relation for r in results] != [] and all(r.relation != "contradicts" for r in results)
    assert results[1].relation == "new" and results[1].memory_id is None


def test_merge_keeps_the_best_supported_most_specific_statement():
    merged = LocalDreamer().merge(
        statements=["User has a dog", "User has a dog named Milo", "User has a beagle named Milo"], ctx=CTX
    )
    assert merged == "User has a dog named Milo"


def test_narrate_is_deterministic_and_mentions_every_kind_of_change():
    changes = NightChanges(
        learned=["User has a dog named Milo"],
        reinforced=["User lives in Berlin"],
        changed=[("User works at Siemens", "User works at Bosch")],
        pending=["User may like opera"],
        forgotten=2,
    )
    first = LocalDreamer().narrate(changes=changes, ctx=CTX)
    assert first == LocalDreamer().narrate(changes=changes, ctx=CTX)
    for text in ("Milo", "Berlin", "Siemens", "Bosch", "opera", "2 memories"):
        assert text in first


def test_narrate_never_writes_secrets_and_speaks_chinese_when_asked():
    changes = NightChanges(learned=["用户的密码是 hunter2!x", "用户养了一只猫"], language="zh")
    text = LocalDreamer().narrate(changes=changes, ctx=CTX)
    assert "hunter2" not in text
    assert "用户养了一只猫" in text and "今晚" in text
    assert LocalDreamer().narrate(changes=NightChanges(), ctx=CTX).startswith("A quiet night")


def test_reply_says_what_it_recalls_with_the_date_and_that_no_chat_model_is_configured():
    asked = []

    def recall(query):
        asked.append(query)
        return [
            {
                "id": 7,
                "statement": "User has a dog named Milo",
                "sources": [{"quote": "I have a dog named Milo", "said_at": datetime(2024, 5, 3, tzinfo=timezone.utc).isoformat()}],
            }
        ]

    turns = [Turn(seq=0, role="user", content="hi"), Turn(seq=1, role="assistant", content="hello"),
             Turn(seq=2, role="user", content="What is my dog called?")]
    answer = LocalDreamer().reply(turns=turns, memory_md="", recall=recall, ctx=CTX)
    assert asked == ["What is my dog called?"]
    assert "You have a dog named Milo" in answer and "2024-05-03" in answer  # spoken to the user
    assert "LLM_API_KEY" not in answer and "chat model" not in answer  # no developer text for end users


def test_reply_without_memories_says_so_honestly_in_the_users_language():
    answer = LocalDreamer().reply(
        turns=[Turn(seq=0, role="user", content="我的猫叫什么名字？")], memory_md="", recall=lambda q: [], ctx=CTX
    )
    assert "还没有相关的记忆" in answer and "LLM_API_KEY" not in answer and "聊天模型" not in answer


def test_a_negation_about_something_else_is_not_a_contradiction():
    memories = [MemoryRef(id=9, statement="User has two cats", category="fact")]
    (result,) = _compare(["User is not a fan of cats"], memories)
    assert result.relation == "new"


def test_a_job_the_user_says_is_over_contradicts_the_memory_of_it():
    teacher = [MemoryRef(id=7, statement="User is a teacher in Boston", category="fact"),
               MemoryRef(id=8, statement="用户是一名老师", category="fact")]
    over, over_zh, fridays = _compare(["User doesn't teach anymore", "用户不再当老师了", "User doesn't teach on Fridays"],
                                      teacher)
    assert (over.relation, over.memory_id) == ("contradicts", 7)
    assert (over_zh.relation, over_zh.memory_id) == ("contradicts", 8)
    assert fridays.relation != "contradicts"


def test_the_same_pet_said_another_way_reinforces_and_another_pet_stays_new():
    milo = [MemoryRef(id=5, statement="User has a dog named Milo", category="fact")]
    named, bare, rex, dog_rex = _compare(["User's dog is named Milo", "User has a dog", "User has a dog named Rex",
                                          "User's dog is named Rex"], milo)
    assert (named.relation, named.memory_id) == ("reinforces", 5)
    assert (bare.relation, bare.memory_id) == ("reinforces", 5)
    assert rex.relation == "new" and dog_rex.relation == "new"


def test_the_same_pet_said_another_way_in_chinese_reinforces():
    tuanzi = [MemoryRef(id=6, statement="用户养了一只猫叫团子", category="fact")]
    named, bare, other = _compare(["用户的猫叫团子", "用户有一只猫", "用户的猫叫年糕"], tuanzi)
    assert (named.relation, named.memory_id) == ("reinforces", 6)
    assert (bare.relation, bare.memory_id) == ("reinforces", 6)
    assert other.relation == "new"


def test_marriage_said_in_either_language_is_one_memory_and_a_divorce_supersedes_it():
    married = [MemoryRef(id=9, statement="User is married", category="relation")]
    zh, divorced, single_room = _compare(["用户结婚了", "用户离婚了", "User lives in a single room"], married)
    assert (zh.relation, zh.memory_id) == ("reinforces", 9)
    assert (divorced.relation, divorced.memory_id) == ("contradicts", 9)
    assert single_room.relation == "new"
