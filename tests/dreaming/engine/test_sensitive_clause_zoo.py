"""The sensitive-clause zoo: each turn holds one sensitive clause of a kind privacy law names (EN + ZH) next
to a harmless fact. Driven through real nights (light + deep sleep, the local engine) and through the OpenAI
path against the fake server: the sensitive clause reaches nothing — no model request, candidate, memory,
MEMORY.md, diary or log line — and the harmless fact said beside it is still learned."""
import json
import logging
import re
from datetime import datetime, timedelta
from datetime import timezone as tz

import pytest

from chat.models import ChatSession, Message
from dreaming.memory.context import memory_md_render
from dreaming.pipeline.deep import deep_sleep_user
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import Candidate, DiaryEntry, DreamRun, LLMCall, Memory, MemoryDocument, MemorySource
from dreaming.engine.credentials import mask_secrets
from dreaming.engine.sensitive import KINDS, redact_sensitive, sensitive_category
from tests.factories import UserFactory
from tests.support.fake_openai import default_chat_answer

# (kind, the turn, words of the sensitive clause that must be stored nowhere, a word of the harmless fact)
ZOO_EN = [
    ("health", "By the way, my new cat is called Pixel and I'm allergic to peanuts.", ["allergic", "peanut"], "Pixel"),
    ("health", "I work as a librarian in Leeds, but I was diagnosed with diabetes last year.", ["diabetes", "diagnosed"],
     "librarian"),
    ("religion", "I play the cello in a string quartet and I go to church every Sunday.", ["church", "Sunday"], "cello"),
    ("sexual_orientation", "I'm bisexual, and my sister Anna lives in Dublin.", ["bisexual"], "Dublin"),
    ("political", "I voted for the Green Party last year and I adopted a beagle named Toby.", ["voted", "Green"],
     "Toby"),
    ("ethnicity", "I'm half Japanese, and I collect vintage vinyl records.", ["Japanese", "half"], "vinyl"),
    ("government_id", "My passport number is X12345678 and I'm flying to Lisbon in June.", ["X12345678", "passport"],
     "Lisbon"),
    ("government_id", "My national ID number is 880712554, I teach yoga on weekends.", ["880712554", "national"],
     "yoga"),
    ("government_id", "I just bought a red Vespa, my driver's licence number is DL-4829-1173.", ["4829", "licence"],
     "Vespa"),
    ("government_id", "My SSN is 123-45-6789 and I love baking sourdough bread.", ["123-45-6789", "SSN"], "sourdough"),
    ("financial", "I'm saving up for a trip to Peru, my IBAN is DE89 3704 0044 0532 0130 00.", ["DE89", "IBAN"], "Peru"),
    ("financial", "My daughter Clara is seven and my card number is 4111 1111 1111 1111.", ["4111 1111", "card"], "Clara"),
    ("financial", "My bank account number is 12345678 and I run marathons.", ["12345678", "bank"], "marathons"),
    ("address", "I live at 42 Maple Street, Springfield and I have two daughters.", ["Maple", "42 Maple"], "daughters"),
    ("phone", "My phone number is 555-867-5309 and I play bass in a jazz band.", ["867", "5309"], "bass"),
    ("email", "You can email me at jen.dolan@example.com, I'm a graphic designer.", ["jen.dolan", "example.com"],
     "designer"),
    ("credential", "wifi pw: sunflower88, and my cat Luna sleeps on the router.", ["sunflower88"], "Luna"),
    ("credential", "The code for the door is 4721 and my neighbour Tom waters my plants.", ["4721", "door"], "Tom"),
    ("credential", "The password is tulip-garden-9 and I'm learning Portuguese.", ["tulip-garden", "password"],
     "Portuguese"),
    ("credential", "I have a dog named Biscuit. My password is hunter2.", ["hunter2", "password"], "Biscuit"),
    ("credential", ("My Netflix login is jen.dolan@example.com and the password starts with Tr0ub, I'm a big fan of "
                    "K-dramas."), ["Tr0ub", "jen.dolan", "login"], "K-dramas"),
]
ZOO_ZH = [
    ("health", "我最近养了一只柯基叫豆豆，我对花生过敏。", ["过敏", "花生"], "豆豆"),
    ("health", "我在杭州做设计师，我有抑郁症，每天都要吃药。", ["抑郁", "吃药"], "设计师"),
    ("religion", "我每周日去教堂做礼拜，我还喜欢弹吉他。", ["教堂", "礼拜"], "吉他"),
    ("sexual_orientation", "我是同性恋，我在学日语。", ["同性恋"], "日语"),
    ("political", "我是共产党员，我喜欢周末去爬山。", ["党员"], "爬山"),
    ("ethnicity", "我是回族，我老家在宁夏。", ["回族"], "宁夏"),
    ("government_id", "我的身份证号是110101199003071234，我下个月去成都旅游。", ["110101199003071234", "身份证"], "成都"),
    ("government_id", "我的护照号是E12345678，我喜欢拍风景照。", ["E12345678", "护照"], "风景"),
    ("government_id", "我的驾驶证号是D2849117，我刚买了一辆电动车。", ["D2849117", "驾驶证"], "电动车"),
    ("financial", "我的招商银行卡号是6225 8812 3456 7890，我每天早上去跑步。", ["6225", "银行卡"], "跑步"),
    ("financial", "我的银行账号是6217000010012345678，我女儿在读小学。", ["6217000010012345678", "账号"], "小学"),
    ("address", "我住在北京市朝阳区建国路88号3单元502室，我养了两只猫。", ["建国路", "502室"], "猫"),
    ("phone", "我的手机号是13812345678，我是一名护士。", ["13812345678", "手机"], "护士"),
    ("email", "我的邮箱是xiaoming@example.cn，我喜欢打羽毛球。", ["xiaoming", "example.cn"], "羽毛球"),
    ("credential", "我家wifi密码是sunflower88，我儿子今年五岁了。", ["sunflower88", "密码"], "五岁"),
    ("credential", "门禁密码是4721，我在一家咖啡店上班。", ["4721", "门禁"], "咖啡店"),
    ("credential", "我的密码前四位是tr0u，我最喜欢的电影是《千与千寻》。", ["tr0u", "密码"], "千与千寻"),
]
ZOO = ZOO_EN + ZOO_ZH


def test_the_zoo_covers_every_kind_in_both_languages():
    assert {kind for kind, *_ in ZOO_EN} == set(KINDS) == {kind for kind, *_ in ZOO_ZH}


@pytest.mark.parametrize("kind, text, sensitive, harmless", ZOO, ids=[f"{k}-{i}" for i, (k, *_) in enumerate(ZOO)])
def test_the_sensitive_clause_is_taken_out_and_the_rest_of_the_turn_kept(kind, text, sensitive, harmless):
    redaction = redact_sensitive(text)
    assert redaction.kinds == (kind,)
    for word in sensitive:
        assert word not in redaction.text
    assert harmless in redaction.text


@pytest.mark.parametrize(
    "text",
    [
        "password manager.",
        "my token expired.",
        "I use a password manager.",
        "I forgot my password again, so annoying.",
        "My order number is 1234 5678 9012 3456.",
        "I ran a race last Sunday and went straight home.",
        "I live in Leeds and my favourite colour is black.",
        "I'm from Ohio and I love the white cliffs of Dover.",
        "I have two cats and a dog.",
        "我住在杭州，养了一只猫。",
        "我忘了密码，只好重置。",
        "We moved to 3rd Avenue? No, just visited.",
        "I'm a part-time plumber.",
        "I'm painting my room white.",
        "I ran 5 miles down the road.",
        "I live at home with 2 cats.",
        "The combination of flavours was amazing.",
        "I ran into a group of religious conservatives who upset me.",
        "I'm studying liberal arts.",
        "My phone has 128 GB of storage.",
        "I renewed my passport in 2019.",
        "我的微博账号有很多粉丝。",
    ],
)
def test_ordinary_talk_is_left_whole(text):  # words near a sensitive kind, saying nothing sensitive
    assert sensitive_category(text) is None
    assert redact_sensitive(text).text == text
    assert mask_secrets(text) == text


# --- through real nights ----------------------------------------------------------------------------------


def _night_of_the_zoo(zoo, *, start):
    """One user, one session per zoo turn, then a light sweep and a deep sleep (the local engine)."""
    user = UserFactory()
    when = start
    for _kind, text, _sensitive, _harmless in zoo:
        session = ChatSession.objects.create(user=user, started_at=when, last_active_at=when + timedelta(minutes=2))
        Message.objects.create(session=session, seq=1, role="assistant", content="What's new with you?",
                               created_at=when)
        Message.objects.create(session=session, seq=2, role="user", content=text, created_at=when + timedelta(minutes=1))
        when += timedelta(minutes=10)
    light = light_sleep_sweep(now=when + timedelta(hours=5))
    deep = deep_sleep_user(user=user, now=when + timedelta(hours=17))
    assert light.status == "ok" and deep.status == "ok", (light.error, deep.error)
    return user, light


def _everything_stored(user) -> str:
    return "\n".join(
        [f"{c.quote} {c.statement} {c.reason}" for c in Candidate.objects.filter(user=user)]
        + [m.statement for m in Memory.objects.filter(user=user)]
        + [s.quote for s in MemorySource.objects.filter(memory__user=user)]
        + [d.narrative for d in DiaryEntry.objects.filter(user=user)]
        + [d.content for d in MemoryDocument.objects.filter(user=user)]
        + [memory_md_render(user=user).content]
        + [c.error for c in LLMCall.objects.all()]
        + [r.error or "" for r in DreamRun.objects.all()]
        + list(ChatSession.objects.filter(user=user).values_list("triage_reason", flat=True))
        + list(ChatSession.objects.filter(user=user).values_list("last_error", flat=True))
    )


def _logs(caplog) -> str:
    # factory_boy logs the test users' own passwords; the openai SDK logs each request (system prompt and all),
    # whose user content is checked as "sent" instead.
    return "\n".join(r.getMessage() for r in caplog.records if not r.name.startswith(("factory", "openai")))


def _holds(text: str, word: str) -> bool:
    """`word` in `text`; a number only as a whole number ("4721", not the port 47213)."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None if word[:1].isdigit() else word in text


def _learned(user, harmless: str) -> bool:
    said = [c.statement for c in Candidate.objects.filter(user=user, status__in=["pending", "promoted", "merged"])]
    return any(harmless in s for s in said + [m.statement for m in Memory.objects.filter(user=user)])


@pytest.mark.django_db
@pytest.mark.parametrize("zoo", [ZOO_EN, ZOO_ZH], ids=["en", "zh"])
def test_a_night_of_the_zoo_stores_no_sensitive_clause_and_keeps_the_harmless_facts(zoo, caplog):
    caplog.set_level(logging.DEBUG)
    user, light = _night_of_the_zoo(zoo, start=datetime(2026, 5, 4, 9, 0, tzinfo=tz.utc))

    stored, logs = _everything_stored(user), _logs(caplog)
    leaks = [(kind, word) for kind, _text, words, _ in zoo for word in words if _holds(stored, word) or _holds(logs, word)]
    kept = [harmless for *_, harmless in zoo if _learned(user, harmless)]
    print(f"\nzoo: {len(zoo)} turns, sensitive items stored {len(leaks)}, harmless facts kept "
          f"{len(kept)}/{len(zoo)} = {len(kept) / len(zoo):.2f}")
    assert leaks == []
    assert len(kept) / len(zoo) >= 0.9, sorted({h for *_, h in zoo} - set(kept))
    assert light.sensitive_dropped == len(zoo)
    expected: dict[str, int] = {}
    for kind, *_ in zoo:
        expected[kind] = expected.get(kind, 0) + 1
    assert light.sensitive_by_kind == expected


def _greedy_model(recorded):
    """A model that would keep every word it was sent."""
    body = recorded.body
    task = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
    if task == "extract" or "TASK: extract" in recorded.text():
        return json.dumps({"candidates": [
            {"seq": 2, "quote": line.split("] user: ", 1)[1], "statement": "User said: " + line.split("] user: ", 1)[1],
             "category": "fact", "importance": 0.9}
            for line in recorded.text().splitlines() if "] user: " in line
        ]})
    return default_chat_answer(body)


@pytest.mark.django_db
def test_no_sensitive_clause_reaches_an_openai_request(openai_backend, caplog):
    caplog.set_level(logging.DEBUG)
    openai_backend.set_chat_responder(_greedy_model)
    user, light = _night_of_the_zoo(ZOO, start=datetime(2026, 5, 4, 9, 0, tzinfo=tz.utc))

    assert openai_backend.chat_requests, "the model was never asked: the checks below would prove nothing"
    # Everything that carried the user's words (our own system prompts name "passwords" as a thing to skip).
    sent = "\n".join(
        [m["content"] for r in openai_backend.chat_requests for m in r.messages if m["role"] != "system"]
        + [json.dumps(r.body.get("input"), ensure_ascii=False) for r in openai_backend.embedding_requests]
    )
    stored, logs = _everything_stored(user), _logs(caplog)
    for kind, _text, words, harmless in ZOO:
        for word in words:
            assert not _holds(sent, word), f"{kind}: {word!r} was sent to the model"
            assert not _holds(stored, word) and not _holds(logs, word), f"{kind}: {word!r} was kept"
        assert harmless in sent, f"the harmless part ({harmless!r}) never reached the model"
    assert light.sensitive_dropped == len(ZOO)
