"""The deep-sleep score of a candidate cluster, and how confidence fades: the formulas, in one place.

score = Σ weight[part] × part / Σ weight, every part in 0..1, weights in settings.DREAM_SCORE_WEIGHTS:

- importance      the highest importance light sleep gave any candidate of the cluster
- user_initiated  1 when the user raised it; an answer to the assistant's question about the user
                  counts ANSWER_CREDIT (0.6) when the statement is in the user's own words ("What are
                  your hobbies?" → "我喜欢爬山和游泳": genuine self-disclosure), 0 when the statement was
                  built from the assistant's words ("Me too!"); 1 again for an answer telling a fact of the
                  user's life (marriage, family, job, home, age, diet: "Are you married?" → "Yes")
- recurrence      1 when it was said in more than one distinct session, else 0: this is what moves
                  a pending candidate over the promotion threshold when it comes up again later
- specificity     more content words (not fillers: "the", "has", the "do" of "does have") and a name or a
                  number (digits or words: "two huskies") are more useful than "likes it"
- timeliness      0.5 ** (age / half-life of the category); a plan older than the plan window halves
- feedback        0.5 when nobody said anything; the latest verdict on the memory it reinforces
                  (agree 1.0, doubt 0.25, reject 0)
- stability       how long the statement stays true: 1 for identity facts, relations, preferences and
                  habits ("lives in", "works as", "has a corgi named", "loves", "every morning") and a
                  pastime the user did (for now in Chinese: "今天我去了公园散步"), 0 for
                  a state of the moment ("can't stop smiling", "still unpacking", a passing feeling),
                  0.25 for the news of the day ("yesterday", "this morning"), 0.5 otherwise. A preference the user volunteered is promoted the first night; small
                  talk waits until it comes up again.

A vague statement, whose meaning hangs on something it does not say ("User misses her", "User
practices for twenty minutes every evening", "用户很期待"), is never promoted: its total is capped
below the pending threshold and the breakdown says why (`vague`). Since round 5 (docs/engine.md) that
includes a statement that does not stand on its own (`dangling_reason`): its only object is a pronoun it
never names ("User has put lots of hard work into it", 用户很喜欢这个), an exclamation fills the place of
the fact ("User has Woohoo, Nate"), a list was cut short, or it ends with a name said to someone.

The breakdown is stored on the memory and the candidate as {"parts", "weights", "total"}, so the
memory center can show why something was (or was not) remembered.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from dreaming.engine.dates import DATE_PHRASE_RE, DAY_PRECISE_RE, PLAN_WORDS, is_plan  # noqa: F401 — re-exported
from dreaming.engine.language import CJK_RE, in_own_words
from dreaming.engine.life_answers import ORIGIN_ZH, answers_about_own_life
from dreaming.engine.vagueness import vague_reason

CONFIDENCE_MIN = 0.05
CONFIDENCE_MAX = 0.98

_LATIN_WORD = re.compile(r"[A-Za-z0-9']+")
# Words that carry no content of their own: the subject, articles, "be" / "have" and the "do" of emphasis ("User does
# have two dogs" tells no more than "User has two dogs", which wording.py makes of it).
_FILLER = frozenset("user user's the a an as to in at of on is are was has have do does did".split())
# A count said in words is as precise as one in digits ("has two huskies" = "has 2 huskies"), whatever its case.
_NUMBER_WORD_RE = re.compile(r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
                             r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
                             r"eighty|ninety|hundred|thousand|dozen)\b", re.IGNORECASE)
_CJK_SPECIFIC = re.compile(r"[\d０-９]|[叫名是在于]")
FEEDBACK_PART = {None: 0.5, "agree": 1.0, "doubt": 0.25, "reject": 0.0}

# --- stability: how long a statement stays true ----------------------------------------------
_HABIT_RE = re.compile(
    r"\b(?:every (?:day|morning|evening|night|week|weekend|month|year|sunday|monday|tuesday|wednesday|thursday|"
    r"friday|saturday)|each (?:day|morning|evening|week)|on weekends|at weekends|usually|always|daily|weekly|"
    r"regularly|often)\b|每天|每周|每个?月|每年|每晚|每次|周末|平时|经常|常常|一直|总是|坚持|习惯",
    re.IGNORECASE,
)
_STABLE_RE = re.compile(
    r"\b(?:lives?|lived|living|moved|relocated|from|born|grew up|works?|worked|working as|job|career|profession|"
    r"stud(?:y|ies|ying)|graduated|degree|major|married|divorced|engaged|single|dating|name is|named|called|"
    # a state of life and a change the user says is for good ("is retired", "has given up knitting", "is training
    # for a half marathon in march"): they hold for months, like a job
    r"retired|widowed|self-employed|training for|gave up|given up|no longer|anymore|any more|"
    r"years old|has (?:a|an|two|three|four|five|\d+)\b|owns?|loves?|likes?|enjoys?|adores?|hates?|dislikes?|"
    r"prefers?|favou?rite|fan of|drawn to|is (?:a|an) [\w -]*(?:er|or|ist|ian|ant|ent|nurse|chef|student|teacher|mom|"
    r"dad|parent|aunt|uncle|vegetarian|vegan|fan|lover)\b|vegetarian|vegan|allergic|speaks|learning|"
    r"(?:started|began|took up|picked up) (?:learning|playing|running|practicing|taking|doing|going to|attending)|"
    r"signed up for (?:a|an) [\w' -]*(?:class|course|lessons?|program|team|club)|"
    r"(?:is|has been|started|began) (?:doing|practicing|practising|training in) (?:some )?(?:[a-z-]+ )?"
    r"(?:(?!(?:no|some|any|every)thing)[a-z-]+ing|yoga|pilates|karate|judo|taekwondo|crossfit|ballet|tai chi|zumba|"
    r"martial arts|parkour|archery)|"
    r"plays (?:the )?\w+|goes [a-z]+ing|"
    # what the user does as a rule, said in the present simple ("bakes desserts", "writes screenplays"), and an
    # activity that has been going on for a while ("has been running farther to de-stress")
    r"(?<=^User )(?:also |often |usually |sometimes )?(?:bakes|cooks|paints|draws|writes|knits|sews|grows|builds|designs|"
    r"collects|brews|runs|swims|hikes|reads|teaches|volunteers|coaches|dances|sings|practi[cs]es|trains|rides|"
    r"makes (?:\w+ )?(?:art|music|pottery|jewelry|videos|content|clothes|furniture|candles|desserts))\b|"
    r"has been (?!(?:feeling|thinking|wondering|waiting|trying|going through|having|dealing|struggling|worrying|"
    r"stressing|busy|sick|ill|tired|so|really|very|a bit|kind of)\b)[a-z]+ing\b|"
    # a diet the user keeps: "can't have dairy", "doesn't eat meat", "is lactose intolerant"
    r"(?:can't|cannot|can not|doesn't|does not|never) (?:have|eat|drink|digest)|lactose|gluten-free|dairy-free)\b"
    r"|住在|搬到|搬去|来自|出生|长大|工作|上班|职业|是一名|是个|叫|岁|结婚|离婚|单身|喜欢|爱|讨厌|不吃|养了|养着|"
    r"有一个|有一只|有两个|开始|学|练|专业|毕业|姐姐|妹妹|哥哥|弟弟|妈|爸|老公|老婆|孩子|儿子|女儿|朋友|"
    r"是(?:一名|一位)?[\u4e00-\u9fff]{0,4}(?:师|员|医生|护士|经理|会计|司机|老板|学生|工人|作家|主播|记者|编辑|警察|军人)|"
    + ORIGIN_ZH,
    re.IGNORECASE,
)
# A state of the moment: small talk that is not worth keeping unless it comes up again.
_MOMENT_RE = re.compile(
    r"\b(?:right now|at the moment|just now|can't stop|cannot stop|couldn't stop|"
    r"(?:is|are) (?:still )?(?:unpacking|waiting|sitting|eating|drinking|watching|looking|trying|feeling|getting ready)|"
    r"still hurts?|hurts?|sore|aches?|"
    r"is (?:so |very |a bit |really |kind of )?(?:tired|nervous|excited|bored|busy|hungry|sleepy|stressed|"
    r"happy|sad|upset|angry|worried|anxious|scared))\b"
    r"|这会儿|此刻|有点(?:累|困|饿|焦虑|紧张|烦)|睡不好|舍不得|很期待|好累",
    re.IGNORECASE,
)
# A pastime the user did ("今天我去了公园散步", "昨天我又跑步了"): done for its own sake, it tells what the user
# does for pleasure, which outlasts the day it was told on, unlike the news of the day ("去了一家新开的餐厅").
_PASTIME_ZH_RE = re.compile(
    r"散步|跑步|慢跑|晨跑|夜跑|游泳|爬山|登山|徒步|骑行|骑车|健身|瑜伽|攀岩|钓鱼|露营|滑雪|滑冰|冲浪|"
    r"打(?:篮球|羽毛球|乒乓球|网球|排球|高尔夫)|踢(?:足球|球)|摄影|画画|绘画|写生|练琴|弹(?:钢琴|吉他|琴)|唱歌|"
    r"跳舞|书法|下棋|演唱会|音乐会"
)
# A one-off happening, dated relative to when it was said: worth keeping a while, not for ever.
_DATED_RE = re.compile(
    r"\b(?:today|tonight|yesterday|this (?:morning|afternoon|evening))\b|今天|今晚|昨天|刚才|这周|这几天",
    re.IGNORECASE,
)


def stability(*, statement: str, category: str) -> float:
    """1.0 lasting (identity, relation, preference, habit, a milestone event, a pastime done), 0.0 a state of the
    moment or a feeling, 0.25 the news of the day ("yesterday", "this morning"), 0.5 anything else (events
    included: they fade by their own half-life)."""
    habit = bool(_HABIT_RE.search(statement))
    if _MOMENT_RE.search(statement) and not habit:
        return 0.0
    if category == "event" and is_milestone(statement):
        return 1.0  # "won their first tournament", "moved to Tokyo": part of the user's story from now on
    if habit or category in ("relation", "preference") or _STABLE_RE.search(statement):
        return 1.0
    if category in ("event", "fact") and _PASTIME_ZH_RE.search(statement):
        return 1.0
    if category == "emotion":
        return 0.0
    if _DATED_RE.search(statement) or DAY_PRECISE_RE.search(statement):
        return 0.25  # the news of the day ("made mapo tofu yesterday"); "went camping last weekend" is an event
    return 0.5


# --- initiative: who brought it up ------------------------------------------------------------
# An answer to "what are your hobbies?" is the user telling about themself, only prompted: partial
# credit. Not full credit: a volunteered statement is still the stronger signal.
ANSWER_CREDIT = 0.6


def initiative(*, user_initiated: bool, quote: str, statement: str) -> float:
    """1.0 volunteered, or an answer telling a fact of the user's life (engine.life_answers); ANSWER_CREDIT for an answer whose statement is mostly the user's own words;
    0.0 for an answer whose content came from the assistant's question ("I am!", "Me too!")."""
    if user_initiated or answers_about_own_life(quote=quote, statement=statement):
        return 1.0  # "Are you married?" → "Yes": the user's life, told as surely as if volunteered
    return ANSWER_CREDIT if in_own_words(quote=quote, statement=statement) else 0.0


@dataclass(frozen=True)
class ScoreInput:
    statement: str
    category: str
    importance: float
    user_initiated: bool
    distinct_sessions: int
    last_said_at: datetime
    feedback: str | None = None  # latest verdict on the memory this reinforces
    initiative: float | None = None  # see initiative(); None → 1/0 from user_initiated


def clip_confidence(value: float) -> float:
    return round(min(CONFIDENCE_MAX, max(CONFIDENCE_MIN, value)), 4)


# A milestone in the user's life — a win, a move, a new job, a trip to a named place, joining a group —
# stays part of their story long after the news of the week has faded: it fades like a fact.
_MILESTONE_RE = re.compile(
    r"\b(?:won|graduated|married|got engaged|adopted|moved|relocated|retired|got promoted|was promoted|"
    r"promoted to|hired|founded|launched|published|opened (?:a|an|their|the) [\w' -]*(?:store|shop|studio|"
    r"business|restaurant|cafe|bakery|company|gallery|salon)|joined|signed up for|enrolled in|"
    r"lost (?:their|a|the) job|quit (?:their|a|the) job|donated|volunteered at|ran (?:a|an|the|their first) "
    r"[\w' -]*(?:race|marathon|5k|10k)|"
    r"started (?:going to|doing|attending|hitting|taking|learning|playing|practicing|volunteering|working)|"
    r"took (?:a|an) [\w' -]*(?:class|course|workshop|lessons?)|"
    r"had (?:a|an|their) (?:job )?(?:interview|audition)|"
    r"(?:went to|attended) (?:a|an|the|their) [\w'+ -]*(?:conference|convention|festival|parade|concert|workshop|"
    r"retreat|meeting|rally|fundraiser|gala|ceremony|wedding|funeral|graduation|reunion|exhibition|expo|tournament|"
    r"competition|contest|group|class)|"
    r"(?:went on|took) (?:a|an|another|their|the) [\w' -]*(?:trip|vacation|holiday|cruise|road trip|getaway|retreat)|"
    r"took (?:their|the) (?:\w+ )?(?:kids|family|fam|children) (?:camping|hiking|to)|started (?:a|an|their) (?:new )?[\w' -]*(?:job|business|"
    r"company|course|degree|class|band|blog|channel|podcast|program|internship)|got (?:a|an|their|the) (?:new )?"
    r"(?:job|tattoo|puppy|dog|cat|kitten|degree|diploma|promotion|internship|scholarship|house|car)|"
    r"bought (?:a|an|their) (?:new )?(?:house|home|car|apartment|condo|flat)|had (?:a|their) (?:baby|son|daughter|"
    r"wedding)|gave birth|passed away|finished (?:a|an|their|the) [\w' -]*(?:degree|marathon|book|screenplay|"
    r"novel|album|course|program|script)|wrote (?:a|an|their|the|a few|some) [\w' -]*(?:book|novel|screenplay|"
    r"script|song|album|play|poem|article|story|stories))\b"
    r"|\b(?:went|travel(?:l)?ed|flew|drove|moved|took a (?:road )?trip) to (?-i:[A-Z])"
    # the same in Chinese: 生了二胎, 买了一只小狗, 领养了一只猫, 买了房, 搬到了上海, 毕业了, 升职了
    r"|生了(?:宝宝|孩子|儿子|女儿|二胎|三胎|一个)|(?:买了|养了|领养了|收养了)(?:一只|一条)?小?(?:狗|猫|兔|鹦鹉)"
    r"|买了(?:房|车|一套房|一辆车)|搬到了|搬家了|毕业了|升职了|入职了|订婚了|退休了"
    r"|去世|过世|病逝|(?:老伴|丈夫|妻子|老公|老婆|爸爸?|妈妈?|父亲|母亲|爷爷|奶奶|外公|外婆)[^，。]{0,6}走了",  # a death
    re.IGNORECASE,
)


def is_milestone(statement: str) -> bool:
    return bool(_MILESTONE_RE.search(statement))


def half_life_days(category: str, *, statement: str = "") -> float:
    """The category's half-life (settings.DREAM_HALF_LIFE_DAYS); a milestone event (is_milestone) fades
    like a fact."""
    if category == "event" and statement and is_milestone(statement):
        category = "fact"
    return float(settings.DREAM_HALF_LIFE_DAYS.get(category, settings.DREAM_HALF_LIFE_DAYS["fact"]))




def specificity(statement: str) -> float:
    if vague_reason(statement):
        return 0.0
    # "on 7 May 2023" worked out from "yesterday" (dreaming.engine.dates) is not a detail the user gave.
    statement = DATE_PHRASE_RE.sub(" then ", statement)  # one plain word, as "yesterday" was
    cjk_chars = len(CJK_RE.findall(statement))
    if cjk_chars > len(statement) / 3:
        length_part = min(1.0, cjk_chars / 12)
        named = 1.0 if _CJK_SPECIFIC.search(statement) else 0.0
    else:
        words = _LATIN_WORD.findall(statement)
        content = [w for w in words if w.lower() not in _FILLER]
        length_part = min(1.0, len(content) / 4)
        # A number (digits or words), or a capitalized word after the first (a name: Milo, Tokyo, Acme).
        number = any(ch.isdigit() for ch in statement) or _NUMBER_WORD_RE.search(statement)
        # ("User" itself is no name: "Where User comes from …")
        named = 1.0 if number or any(w[:1].isupper() and w.lower() not in _FILLER for w in words[1:]) else 0.0
    return round(0.6 * length_part + 0.4 * named, 4)


def timeliness(*, statement: str, category: str, last_said_at: datetime, now: datetime) -> float:
    age_days = max(0.0, (now - last_said_at).total_seconds() / 86400)
    value = 0.5 ** (age_days / half_life_days(category))
    if is_plan(statement) and age_days > settings.DREAM_PLAN_WINDOW_DAYS:
        value *= 0.5
    return round(value, 4)


def recurrence_part(distinct_sessions: int) -> float:
    return 1.0 if distinct_sessions > 1 else 0.0


def score_compute(*, item: ScoreInput, now: datetime) -> tuple[float, dict]:
    """The weighted score of one cluster and its visible breakdown."""
    weights = settings.DREAM_SCORE_WEIGHTS
    parts = {
        "importance": round(min(1.0, max(0.0, item.importance)), 4),
        "user_initiated": (
            (1.0 if item.user_initiated else 0.0) if item.initiative is None else round(item.initiative, 4)
        ),
        "recurrence": recurrence_part(item.distinct_sessions),
        "specificity": specificity(item.statement),
        "timeliness": timeliness(
            statement=item.statement, category=item.category, last_said_at=item.last_said_at, now=now
        ),
        "feedback": FEEDBACK_PART.get(item.feedback, 0.5),
        "stability": stability(statement=item.statement, category=item.category),
    }
    total_weight = sum(weights.get(name, 0.0) for name in parts) or 1.0
    total = round(sum(weights.get(name, 0.0) * value for name, value in parts.items()) / total_weight, 4)
    breakdown = {
        "parts": parts,
        "weights": {name: weights.get(name, 0.0) for name in parts},
        "total": total,
        "sessions": item.distinct_sessions,
    }
    vague = vague_reason(item.statement)
    if vague:
        # Recurrence cannot fix a missing object: "User misses her" twice is still about nobody.
        total = round(min(total, settings.DREAM_PENDING_THRESHOLD - 0.01), 4)
        breakdown.update(total=total, vague=vague)
    return total, breakdown


def score_decision(score: float) -> str:
    if score >= settings.DREAM_PROMOTE_THRESHOLD:
        return "promote"
    if score >= settings.DREAM_PENDING_THRESHOLD:
        return "pending"
    return "dismiss"


def decayed_confidence(*, confidence: float, half_life: float, since: datetime, now: datetime) -> float:
    """Confidence after `now - since` of exponential decay with the given half-life (days)."""
    days = max(0.0, (now - since).total_seconds() / 86400)
    return confidence * 0.5 ** (days / half_life)
