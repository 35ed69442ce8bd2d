"""The deep-sleep score of a candidate cluster, and how confidence fades: the formulas, in one place.

score = Σ weight[part] × part / Σ weight, every part in 0..1, weights in settings.DREAM_SCORE_WEIGHTS:

- importance      the highest importance light sleep gave any candidate of the cluster
- user_initiated  1 when the user raised it; an answer to the assistant's question about the user
                  counts ANSWER_CREDIT (0.6) when the statement is in the user's own words ("What are
                  your hobbies?" → "我喜欢爬山和游泳": genuine self-disclosure), 0 when the statement was
                  built from the assistant's words ("Are you a student?" → "I am!", "Me too!")
- recurrence      1 when it was said in more than one distinct session, else 0: this is what moves
                  a pending candidate over the promotion threshold when it comes up again later
- specificity     longer statements with a name or a number are more useful than "likes it"
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
from dreaming.engine.openings import later_own_clause, opening_reason
from dreaming.engine.resolve import trailing_address

CONFIDENCE_MIN = 0.05
CONFIDENCE_MAX = 0.98

_LATIN_WORD = re.compile(r"[A-Za-z0-9']+")
_FILLER = frozenset("user user's the a an as to in at of on is are was has have".split())
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
    r"有一个|有一只|有两个|开始|学|练|专业|毕业|姐姐|妹妹|哥哥|弟弟|妈|爸|老公|老婆|孩子|儿子|女儿|朋友",
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


# --- vagueness: a statement whose meaning hangs on what it does not say ------------------------
_EN_SUBJECT = r"^(?:the )?user(?:'s [a-z]+(?: [A-Z][\w-]+)?)?\s+"
_EN_ADVERBS = r"(?:(?:still|also|really|just|now|always|usually|often|sometimes|already|so|totally|truly|definitely|" \
              r"can't|cannot|could|would|will|is|was|has been|had been|does|did|doesn't|didn't)\s+)*"
_EN_TRAILING = (
    r"(?:\s+(?:a lot|so much|very much|too|again|anymore|any more|already|though|now|lol|sometimes|a bit|"
    r"a little|every day|all the time|badly|(?:last|next|this) (?:week|month|year|night|weekend|summer|winter)|"
    r"yesterday|today|tonight|tomorrow|(?:on|in) (?:the (?:week|weekend) (?:before|after|of) )?"
    r"(?:\d{1,2} )?[A-Z][a-z]+ \d{4}))*\s*$"  # the last line: a date from dreaming.engine.dates
)
_VAGUE_PRONOUN_EN = re.compile(
    _EN_SUBJECT + _EN_ADVERBS + r"(?:[a-z']+\s+){1,3}?(?P<p>her|him|it|them|that|this|these|those|there|here|a few|some|a couple)" + _EN_TRAILING,
    re.IGNORECASE,
)
# "User had to get rid of her": a person left unnamed further into the clause ("here" / "there" / "them" that
# far in are usually fine: "User has lived in Ohio since moving here").
_VAGUE_PERSON_EN = re.compile(
    _EN_SUBJECT + _EN_ADVERBS + r"(?:[a-z']+\s+){4,5}?(?P<p>her|him)" + _EN_TRAILING,
    re.IGNORECASE,
)
_VAGUE_NO_OBJECT_EN = re.compile(
    _EN_SUBJECT + _EN_ADVERBS
    + r"(?P<p>practi[cs](?:es|ed|ing|e)|plays|played|playing|misses|missed|missing|loves|loved|likes|liked|enjoys|enjoyed|"
      r"hates|hated|prefers|visits|visited|brings|brought|takes|took|makes|made|does|did|needs|wants|bought|got|"
      r"watches|watched|learns|learned|learning)"
    + r"(?:\s+(?:for (?:about |around |over |almost )?(?:\d+|a few|a couple|an?|one|two|three|four|five|ten|fifteen|"
      r"twenty|thirty|forty|fifty|sixty|several|many|hours|minutes|ages)|every|each|since|twice|once|daily|weekly|"
      r"a lot|so much|very much|too|again|on weekends|at (?:night|home|weekends)|in the (?:morning|evening|afternoon)|"
      # a number is a duration or a count only with its unit: "loves 5 Finger Death Punch" has an object
      r"\d+\s*(?:min(?:ute)?s?|h(?:ou)?rs?|times?|days?|weeks?|months?|years?|x))\b.*)?$",
    re.IGNORECASE,
)
_VAGUE_GOING_EN = re.compile(
    _EN_SUBJECT + _EN_ADVERBS + r"(?P<p>going|goes|go|went|headed|heading)\s+(?:with|in|at|next|this|tomorrow|soon|early|late)\b",
    re.IGNORECASE,
)
_ZH_ADVERBS = r"(?:很|非常|好|有点|有些|特别|超|真|真的|太|挺|比较|也|还|都|就|最近|已经|一直|蛮|十分|更|最|又|在|正在)*"
_VAGUE_PRONOUN_ZH = re.compile(r"^用户" + _ZH_ADVERBS + r"[\u4e00-\u9fff]{1,3}?(?P<p>她|他|它|这个|那个|这些|那些|那里|这里|那儿|这儿)[了啊呀吧！!。~]*$")
_VAGUE_BARE_ZH = re.compile(
    r"^用户" + _ZH_ADVERBS + r"(?P<p>期待|开心|高兴|难过|激动|紧张|想念|想|喜欢|爱|怀念|舍不得|满意|担心|害怕|感动|兴奋|羡慕|同意|"
    r"知道|明白|去|来|做|玩|练|学)[了啊呀吧！!。~]*$"
)


# --- standing on its own (round 5): what a pronoun at the end of a statement stands for ----------
# A pronoun object is resolved only when the statement itself names something, in an earlier clause, that
# the pronoun can stand for ("User submitted their screenplay to a contest to see how others like it"). When
# the pronoun's own clause is the only place the thing could be named, the statement is about something it
# does not say: "User has put lots of hard work into it", "User still can't believe they made so much money
# from it" (what the money came from is the point).
_END_PRONOUN_EN = re.compile(
    r"^(?P<body>(?:the )?user\b.*?)\s*\b(?P<p>it|this|that|these|those|them|one)" + _EN_TRAILING, re.IGNORECASE,
)
# Where a new clause starts inside a statement: the pronoun after one of these may lean on what came before.
_CLAUSE_START_EN = re.compile(r"\b(?:to|who|whom|which|that|where|when|how|what|why|and|but|so that|while|because|if|as|"
                              r"than|after|before|since|until|whether)\b", re.IGNORECASE)
# A thing named with a determiner, a number or a capital: what an it / this / one can stand for.
_NAMED_THING_EN = re.compile(
    r"\b(?:a|an|the|their|his|her|its|another|some|any|this|that|these|those|every|each|\d+|two|three|four|five|"
    r"several|many)\s+(?:[\w'-]+\s+){0,3}?(?!(?:one|ones|it|them|this|that|thing|things|stuff|lot|bit|way|time)\b)"
    r"[a-z][\w'-]{2,}|\b(?!User\b)[A-Z][a-z]{2,}"
    # a plain noun after a verb of having or liking: "User loves milk and wants to find a way to drink it"
    r"|\b(?:loves?|loved|likes?|liked|enjoys?|enjoyed|adores?|adored|prefers?|drinks?|eats?|tried|bought|owns?|has|"
    r"have|plays?|played|made|makes|cooks?|cooked|bakes?|baked|reads?|watch(?:es|ed)?|got|gets)\s+(?!(?:to|it|this|that|them|one|a|an|the|so|really|"
    r"being|doing|put|been|got|had|done|made|gone|taken|given|found|brought)\b)[a-z]{3,}",
)
# People cannot be what "it" / "this" / "that" stands for ("User wants their kids to learn that").
_PEOPLE_EN = re.compile(
    r"^(?:kids?|children|child|family|friends?|people|others|everyone|anyone|someone|folks|parents?|mom|mum|dad|"
    r"mother|father|sister|brother|sons?|daughters?|wife|husband|partner|boyfriend|girlfriend|generations?|team|"
    r"students?|fans?|community|group|audience|followers|teens?|adults?|nephews?|nieces?|cousins?|grand\w+|siblings?|"
    r"aunts?|uncles?|relatives|colleagues?|coworkers?|neighbou?rs?|classmates?|twins|babies|baby|toddlers?)$",
    re.IGNORECASE,
)
_AGE_ONE_EN = re.compile(r"\b(?:turned|turns|turn|turning|aged?|is|was)$", re.IGNORECASE)
# Another subject between the user and "them" ("people who support them", "where pottery takes them"): "them"
# may well be the user.
_OWN_SUBJECT_EN = re.compile(r"\b(?:who|that|which|where|what|when|how)\s+(?!(?:they|it|he|she|much|many|far|long|"
                             r"often)\b)\w+|\b\w+ing to$|"
                             # "a boss to frown at them", "a friend to help them" (not "a project to support them")
                             r"\b(?:(?:a|an|the|their)\s+(?:\w+\s+)?(?:boss|friend|teacher|coach|doctor|manager|mentor|"
                             r"neighbou?r|stranger|partner|parent|kid|child|person|guy|girl)s?|someone|anyone|"
                             r"people|others)\s+to\s+\w+(?:\s+\w+)?$|"
                             r"\b(?:let|lets|letting|make|makes|made|help|helps|helped)\s+(?!it\b)\w+(?:\s+or\s+\w+)?\s+\w+$",
                             re.IGNORECASE)
# An object pronoun right after the verb, followed by where / when / with what: vague when that rest says nothing
# of its own ("User did it on 19 October 2023", "User needed to do it for their biz"; not "User makes it with
# almond flour and honey").
_PRONOUN_OBJECT_FIRST_EN = re.compile(
    _EN_SUBJECT + r"(?:[a-z']+\s+){0,3}?(?P<p>it|this|that|those|these)\s+(?:in|into|on|at|with|without|for|after|"
    r"before|from|and|because|out|up|back|again|last|yesterday|today|tonight|so|all)\b",
    re.IGNORECASE,
)
# "User has Woohoo, Nate", "User has Have fun with that": an answer frame filled with an exclamation.
_EXCLAMATION_AS_STATEMENT = re.compile(
    r"^User(?:'s [a-z]+)? (?:[a-z']+ ){0,2}?(?P<p>woo+hoo+|woo+t|yay+|yippee|hooray|wow+|whoa|haha+|hehe|omg|lol|"
    r"have fun|have a (?:great|good|nice|blast)|good luck|take care|congrat\w*|thanks|thank you|let's|hang in there|"
    r"no worries|you got this|sounds (?:great|good|fun))\b",
    re.IGNORECASE,
)
# A list cut short after a comma: "User loves climbing, sliding", "User watches movies, hike".
_CUT_LIST_EN = re.compile(r"^User\b[^,]*,\s*(?P<p>(?!(?:too|though|lol|haha|again|now|then|anyway|either|also|thanks|please|"
                          r"sorry|right|yeah|yes|no|ok|okay)\b)(?![a-z]+ly\b)[a-z]+)\s*$")
_ZH_PRONOUN_END = re.compile(
    r"^用户(?P<body>.*?)(?P<p>它们|它|这个|那个|这些|那些|他们|她们|这样|那样|其中|[这那]种[\u4e00-\u9fff]{0,2})[了啊呀吧呢！!。~]*$"
)
# 这个 / 那个 as the subject of what the user thinks: "用户觉得这个很有意思".
_ZH_PRONOUN_TOPIC = re.compile(
    r"^用户(?:也|还|真的|一直)?(?:觉得|认为|感觉|发现|知道)?(?P<p>这个|那个|它)(?:很|真|太|挺|特别|非常|有点|也|都)"
)


_LIGHT_WORDS = frozenset(
    """the and for with without from into onto out off back again after before because all its their them they
    this that these those then than some any other others people person thing things stuff time day way lot bit
    doing done did does make made get got going gonna really just still also now tonight today yesterday biz
    last next week month year why what who how they're they've remember""".split()
)


def _pronoun_antecedent(body: str, pronoun: str) -> bool:
    """Does the statement before the pronoun name something it can stand for, in an earlier clause?"""
    if pronoun == "one":
        # "a family for kids who need one" (one = a family); "another one", "has one" name nothing
        body = re.sub(r"(?:\s+(?:a|an|the|their|another|his|her|its|new|old|last|first|next|other|same|big|"
                      r"little|small|good|great|favou?rite|only|such|this|that|every|each|any|no))+$", "", body, flags=re.I)
        return bool(_NAMED_THING_EN.search(body[4:]))
    starts = list(_CLAUSE_START_EN.finditer(body))
    if not starts:
        return False
    earlier = body[4: starts[-1].start()]  # past "User"
    for m in _NAMED_THING_EN.finditer(earlier):
        if not _PEOPLE_EN.match(m.group(0).split()[-1]):
            return True
    return False


# "around them", "like them": a plain pronoun may be the subject's own here ("User has a great community around
# them" = around the user). Elsewhere in the user's own clause "them" is someone else: the user would be
# "themself" (a pronoun object never means its own clause's subject).
def _them_is_the_user(body: str) -> bool:
    """"User has a great community around them", "User gets help from people who support them": yes."""
    if re.search(r"\b(?:around|like|near|behind|beside|ahead of|in front of)$", body, re.IGNORECASE):
        return True
    return bool(_OWN_SUBJECT_EN.search(body))


def dangling_reason(statement: str) -> str | None:
    """Why a statement does not stand on its own — its object is a pronoun it never names, an exclamation fills
    the place of the fact, a list was cut short, or a name addressed to someone trails it — or None."""
    text = statement.strip().rstrip(".!。！")
    if not text:
        return None
    if text.startswith("用户"):
        main = re.split(r"[,;，；]", text, maxsplit=1)[0]
        m = _ZH_PRONOUN_END.match(main) or _ZH_PRONOUN_TOPIC.match(main)
        return f"depends on '{m.group('p')}', which it does not name" if m else None
    if not re.match(r"(?i)(?:the )?user\b", text):
        return None
    exclamation = _EXCLAMATION_AS_STATEMENT.match(text)
    if exclamation:
        return f"an exclamation ('{exclamation.group('p')}'), not something about the user"
    address = trailing_address(text)
    if address:
        return f"ends with '{address}', said to someone, not about the user"
    bare = re.match(r"^User (?:still |also |really |just )?(?P<p>works|does|has|is|gets|goes|makes|takes|tries|did|had|"
                    r"was|knows|thinks|agrees|can|will|can't|won't)$", text)
    if bare:
        return f"'{bare.group('p')}' without saying what"
    cut = _CUT_LIST_EN.match(text)
    if cut:
        return f"a list cut short at '{cut.group('p')}'"
    main = re.split(r"[,;]", text, maxsplit=1)[0].strip()
    first = _PRONOUN_OBJECT_FIRST_EN.match(main)
    if first and not re.search(r"\b(?:made|make|makes|making) it (?:to|through|out|back|home)\b", main, re.I):
        # "User did it on 19 October 2023" says nothing; "User makes it with almond flour and honey" still does
        rest = DATE_PHRASE_RE.sub(" ", main[first.end("p"):])
        if len([w for w in _LATIN_WORD.findall(rest) if len(w) > 2 and w.lower() not in _LIGHT_WORDS]) < 2:
            return f"depends on '{first.group('p')}', which it does not name"
    end = _END_PRONOUN_EN.match(main)
    if not end:
        return None
    body, pronoun = end.group("body"), end.group("p").lower()
    if pronoun == "them":
        return None if _them_is_the_user(body) or _compares_with_the_user(main, pronoun) else (
            "depends on 'them', which it does not name")
    if pronoun == "one" and _AGE_ONE_EN.search(body):
        return None  # "User's son turned one"
    if pronoun in ("this", "that") and re.search(r"\blike$", body, re.IGNORECASE):
        return f"'like {pronoun}' points at something it does not show"
    if _pronoun_antecedent(body, pronoun):
        return None
    return f"depends on '{pronoun}', which it does not name"


def _compares_with_the_user(main: str, pronoun: str) -> bool:
    """"User's sister is older than them": in a statement about the user's relative, "them" after
    "than" is the user (statements speak of the user as they/them), not someone unnamed."""
    return pronoun.lower() == "them" and bool(re.match(r"(?i)user's\b.*\bthan them$", main))


def vague_reason(statement: str) -> str | None:
    """Why a statement says too little to remember on its own ("depends on 'her'"), or None.

    Only the main clause is judged: "User loves Studio Ghibli films, they always calm them down" says
    what it needs before the comma."""
    main = re.split(r"[,;，；]", statement.strip(), maxsplit=1)[0].strip().rstrip(".!。！")
    for pattern, why in (
        (_VAGUE_PRONOUN_EN, "depends on '{p}', which it does not name"),
        (_VAGUE_PRONOUN_ZH, "depends on '{p}', which it does not name"),
        (_VAGUE_PERSON_EN, "depends on '{p}', which it does not name"),
        (_VAGUE_GOING_EN, "'{p}' without saying where"),
        (_VAGUE_NO_OBJECT_EN, "'{p}' without saying what"),
        (_VAGUE_BARE_ZH, "'{p}' without saying what"),
    ):
        m = pattern.match(main)
        if m and not _compares_with_the_user(main, m.group("p")):
            return why.format(p=m.group("p"))
    reason = dangling_reason(statement) or opening_reason(statement)
    later = None if reason else later_own_clause(statement)
    return vague_reason(later) if later else reason


# --- initiative: who brought it up ------------------------------------------------------------
# An answer to "what are your hobbies?" is the user telling about themself, only prompted: partial
# credit. Not full credit: a volunteered statement is still the stronger signal.
ANSWER_CREDIT = 0.6


def initiative(*, user_initiated: bool, quote: str, statement: str) -> float:
    """1.0 volunteered; ANSWER_CREDIT for an answer whose statement is mostly the user's own words;
    0.0 for an answer whose content came from the assistant's question ("I am!", "Me too!")."""
    if user_initiated:
        return 1.0
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
    r"|\b(?:went|travel(?:l)?ed|flew|drove|moved|took a (?:road )?trip) to (?-i:[A-Z])",
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
        # A digit, or a capitalized word after the first (a name: Milo, Tokyo, Acme).
        named = 1.0 if any(ch.isdigit() for ch in statement) or any(w[:1].isupper() for w in words[1:]) else 0.0
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
