"""Vagueness: a statement whose meaning hangs on something it does not say.

Deep sleep never promotes such a statement: `dreaming.memory.scoring` caps its total below the pending
threshold and the score's breakdown says why (`vague`). The shapes, each a rule of the words, not a topic:

- the object is a pronoun or a bare verb with nothing named ("User misses her", "User practices for twenty
  minutes every evening", 用户很期待);
- the statement does not stand on its own (`dangling_reason`, round 5 in docs/engine.md): its only object is
  a pronoun it never names ("User has put lots of hard work into it", 用户很喜欢这个), an exclamation fills
  the place of the fact ("User has Woohoo, Nate"), a list was cut short, it ends with a name said to someone;
- its opening leans on what it does not say (`dreaming.engine.openings`: "They're User's biggest motivation");
- small talk (`dreaming.engine.small_talk`): how things go with nothing named ("User has been doing great lately"),
  someone only pointed at ("User will cherish that little guy").
"""
from __future__ import annotations

import re

from dreaming.engine.dates import DATE_PHRASE_RE
from dreaming.engine.openings import later_own_clause, opening_reason
from dreaming.engine.resolve import trailing_address
from dreaming.engine.small_talk import how_it_goes_reason, pointed_at_reason

_LATIN_WORD = re.compile(r"[A-Za-z0-9']+")

# --- vagueness: a statement whose meaning hangs on what it does not say ------------------------
_EN_SUBJECT = r"^(?:the )?user(?:'s [a-z]+(?: [A-Z][\w-]+)?)?\s+"
_EN_ADVERBS = r"(?:(?:still|also|really|just|now|always|usually|often|sometimes|already|so|totally|truly|definitely|" \
              r"can't|cannot|could|would|will|is|was|has been|had been|does|did|doesn't|didn't)\s+)*"
_EN_TRAILING = (
    r"(?:\s+(?:a lot|so much|very much|too|again|anymore|any more|already|though|now|lol|sometimes|a bit|yet|either|lately|recently|"
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
_VAGUE_PRONOUN_ZH = re.compile(r"^用户" + _ZH_ADVERBS + r"[\u4e00-\u9fff]{1,3}?(?P<p>她|(?<![吉其])他|它|这个|那个|这些|那些|那里|这里|那儿|这儿)[了啊呀吧！!。~]*$")
# "用户喜欢它的胶片色调": an "it" the main clause never names, wherever it stands (其它 is "other").
_VAGUE_IT_ZH = re.compile(r"^用户[^，,]*?(?P<p>(?<!其)它们?)")
_VAGUE_BARE_ZH = re.compile(
    r"^用户" + _ZH_ADVERBS + r"(?P<p>期待|开心|高兴|难过|激动|紧张|想念|想|喜欢|爱|怀念|舍不得|满意|担心|害怕|感动|兴奋|羡慕|同意|"
    r"知道|明白|去|来|做|玩|练|学|考虑|决定|打算|犹豫|纠结|试试|答应|后悔)[了啊呀吧！!。~]*$"
)


# "User won't let this bring them down", "User lets them play outside": someone or something unnamed made to do.
# Only with the user as the subject: in "User's dog makes them happy" or "User finds it helps them relax" them is
# the user.
_VAGUE_CAUSATIVE_EN = re.compile(
    r"^(?:the )?user\s+" + _EN_ADVERBS + r"(?:(?!(?:it|this|that|they|he|she)\b)[a-z']+\s+){0,2}?(?:(?:let|lets|letting)\s+(?P<p>this|that|it|them|him|her)|"
    # after "make" / "see", "this" and "that" are mostly determiners ("made this apple pie", "see that band"), and
    # "make it" an idiom of its own ("make it big", "make it back"), but for "make it happen / work"
    r"(?:make|makes|made|making|help|helps|helped|helping|watch|watched|watches|watching|see|saw|sees|seeing|hear|heard|"
    r"hears|hearing)\s+(?P<q>them|him|her|'em|’em)|(?:make|makes|made|making)\s+(?P<r>it|this)(?=\s+(?:happen|work)\b))\s+(?!(?:a|an|the|to|and|or|but|so|more|less|very|really|too|as|for|of|in|on|at|with)\b)"
    r"[a-z]+",
    re.IGNORECASE,
)
# "User wants 'em to feel like they're in a cool oasis", "User asked them to help": whom the user wants something of
# was said before.
_VAGUE_WANTED_OF_EN = re.compile(
    r"^(?:the )?user\s+" + _EN_ADVERBS + r"(?:want|wants|wanted|wanting|need|needs|needed|ask|asks|asked|remind|"
    r"reminds|reminded|encourage|encourages|encouraged|get|gets|got|told|tell|tells)\s+(?P<p>them|him|her|'em|’em)\s+to\b",
    re.IGNORECASE,
)
# "User tries to find things", "User does stuff": things of no kind (the kind was in a relative clause cut off).
_VAGUE_THINGS_EN = re.compile(
    _EN_SUBJECT + _EN_ADVERBS + r"(?:(?:tries|tried|likes|loves|wants|needs) to )?(?:find|finds|found|do|does|did|get|gets|"
    r"got|see|sees|saw|try|tries|tried|buy|buys|bought)\s+(?P<p>things|stuff|some things|some stuff)" + _EN_TRAILING,
    re.IGNORECASE,
)
# "User's family, exercise, and spending time with friends": an answer's list, with no verb to say what of it.
_VERBLESS_LIST_EN = re.compile(r"^User's (?P<p>[a-z]+(?: [a-z]+)?, [a-z]+(?: [a-z]+)?,? and [a-z ]+)$")
# "User's a lot going on music is loud" ("Oh my a lot going on …"): "my" read as the user's, before no noun.
_NO_ONES_EN = re.compile(r"^User's (?P<p>(?!a cappella)(?:a|an|the|so|very|not|been|going|gonna) [a-z]+)")
# "User is still figuring out the details", "User loves the idea", "User's mind doesn't work that way": a definite
# thing that was said before, not here.
_VAGUE_DEFINITE_END_EN = re.compile(
    _EN_SUBJECT + _EN_ADVERBS + r"(?:[a-z']+\s+){1,6}?(?P<p>the (?:details|rest|plan|plans|idea|thing|things|situation|"
    r"news|result|results|process|same|logistics|stuff|whole thing|outcome|decision|change|changes|issue|problem|"
    r"problems|one|ones|other one|others|(?:right|perfect|best) (?:spot|place|one|time|moment|fit))|(?:that|this) way|"
    r"anything else|everything else|anything then)" + _EN_TRAILING,
    re.IGNORECASE,
)
# "User loves the color and texture", "User loves the view": a quality of a thing shown or talked of, not named.
_VAGUE_QUALITY_EN = re.compile(
    _EN_SUBJECT + _EN_ADVERBS + r"(?:loves|likes|enjoys|adores|loved|liked|enjoyed|adored|hates|hated|appreciates)\s+"
    r"(?P<p>the (?:colou?rs?|texture|look|looks|taste|smell|sound|design|vibes?|atmosphere|views?|scenery|feel|energy|"
    r"concept|message|ending|details|pattern|shape|style))(?:\s+and\s+(?:the\s+)?[a-z]+)?" + _EN_TRAILING,
    re.IGNORECASE,
)
# "User hiked and swam": what the user did on a day out, and nothing of where or when (the trip was told before).
# (Not "User hikes and swims": done as a rule, that is a pastime.)
_PAST = r"(?:[a-z]+ed|swam|ran|rode|ate|drank|sang|went out|hung out)"
_BARE_PAST_ACTIVITIES_EN = re.compile(r"^User (?P<p>" + _PAST + r"(?:(?:,| and|, and) " + _PAST + r")+)$", re.IGNORECASE)
# "User is working on a new project", "User has some cool ideas": a thing of a kind, and not what it is.
_VAGUE_A_PROJECT_EN = re.compile(
    _EN_SUBJECT + _EN_ADVERBS + r"(?:[a-z']+\s+){1,3}?(?P<p>(?:a|an|some|another|few|a few) (?:(?:new|big|cool|secret|little|"
    r"exciting|fun|side|great|interesting|special)\s+)*(?:project|projects|idea|ideas))" + _EN_TRAILING,
    re.IGNORECASE,
)
# "User has been exploring options": which options, the statement does not say ("their career options" does).
_VAGUE_OPTIONS_EN = re.compile(
    _EN_SUBJECT + _EN_ADVERBS + r"(?:[a-z']+\s+){0,3}?(?:exploring|weighing|considering|researching|checking out|"
    r"looking at|looking into)\s+(?P<p>(?:some |other |their |all the |all their |new |a few |the |my )?options)"
    + _EN_TRAILING,
    re.IGNORECASE,
)

# "User likes with ruffled sleeves", "User loves and doing crafts": a verb of liking whose object was cut off, only
# its circumstance or the rest of a list left.
_VAGUE_LIKING_CUT_EN = re.compile(
    _EN_SUBJECT + _EN_ADVERBS + r"(?P<p>likes|loves|enjoys|hates|prefers|adores|liked|loved|enjoyed|hated|preferred)\s+"
    r"(?=(?:with|without|especially|during|because|but|and \w+ing)\b)",
    re.IGNORECASE,
)
# "User finds it really rewarding", "User loves how peaceful it is", "User likes to hear": a feeling about a thing the
# statement never names. (Not "User finds it hard to sleep": that "it" stands for what follows.)
_VAGUE_FEELING_ABOUT_IT_EN = re.compile(
    # (not "User finds it helps them sleep", a thing it does: kept for what it does, as a pronoun object is)
    _EN_SUBJECT + _EN_ADVERBS + r"(?:(?P<p>(?:finds|found|find) it)\s+(?![a-z]+s\b)(?:[a-z]+\s+){0,5}?[a-z]+$"
    r"|(?:loves|likes|loved|liked|enjoys|enjoyed|adores|hates|hated) (?P<q>how (?:[a-z]+ ){1,3}?it (?:is|was|feels|looks))$"
    r"|(?:loves|likes) to (?P<r>hear|see)$)",
    re.IGNORECASE,
)
_TO_OR_CLAUSE_AFTER_IT_EN = re.compile(r"\b(?:finds?|found) it\b.*\b(?:to|when|that|if|how|being)\b", re.IGNORECASE)
# "User's favorite season": the favourite, not what it is.
_FAVOURITE_ONLY_EN = re.compile(r"^User's (?P<p>(?:favou?rite|fave|dream) [a-z]+)$", re.IGNORECASE)
# "User made something to catch the eye", "User bought something for their mom": the thing is the point, and it is
# not said. (Not "something like hiking" or "something about space": those name it; not "looking for something new to
# read": the looking is the fact.)
_VAGUE_SOMETHING_EN = re.compile(
    _EN_SUBJECT + _EN_ADVERBS + r"(?:[a-z']+\s+){1,3}?(?<!\bfor\s)(?<!\bto\s)(?P<p>something)"
    r"(?:\s+(?:special|new|else|nice|cool|fun|similar|different|big|small|little|great|good))?"
    r"(?:\s+(?:to|for|that|which|so|and|at|on|in)\b.*)?$",
    re.IGNORECASE,
)
# "User had a lot in common and hit it off", "User is going to get along well": the other one of a "we" the statement
# dropped. (Not "User has a lot in common with their sister", "User and Sam get along".)
_VAGUE_RECIPROCAL_EN = re.compile(
    r"^(?:the )?user\s+(?!and\b)(?:(?!\bwith\b)[^,;])*?\b(?P<p>in common|hit it off|each other|one another|get along|"
    r"gets along|got along)\b(?:(?!\bwith\b)[^,;])*$",
    re.IGNORECASE,
)
# "User is much happier being around those who accept": a relative clause cut at its "and" ("… who accept and love
# me"), its verb left without the object it needs.
_CUT_RELATIVE_EN = re.compile(
    _EN_SUBJECT + r".*\b(?:who|that|which)\s+(?:\w+\s+)?(?P<p>accept|accepts|love|loves|support|supports|understand|"
    r"understands|respect|respects|appreciate|appreciates|value|values|encourage|encourages|inspire|inspires|need|"
    r"needs|trust|trusts|hurt|hurts|treat|treats|believe in|care about)$",
    re.IGNORECASE,
)

# "User won't give up", "User is gonna keep going and reach their dreams no matter what", "User is ready for a shake
# up": a resolve said to a friend who cheers the user on, with nothing in the world in it (what the user keeps going
# at was said elsewhere, and is remembered there).
_RESOLVE_EN = re.compile(
    r"^(?:the )?user\s+(?:(?:still|also|really|just|definitely|totally|truly|is|will|won't|will not|never|is gonna|"
    r"is going to|am|gonna|can't|cannot)\s+)*(?P<p>give up|gives up|quit|quits|keep(?:s)? (?:on )?(?:going|pushing)|"
    r"stepping into the unknown|hoping for the best|ready for (?:a|the) (?:change|shake ?-?up|new chapter|next chapter)|"
    r"makes? (?:all )?their dreams? (?:come )?true|make (?:all )?their dreams? (?:come )?true|"
    r"(?:keep |keeps )?(?:stay|stays|staying) positive|(?:keep |keeps )?(?:grinding|pushing forward|moving (?:ahead|forward))|"
    r"determined to make a difference|(?:keeps? )?facing (?:new |more |some )?challenges)"
    r"\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_RESOLVE_WORDS = frozenset("""and never quit give up keep going pushing forward on through believing in reach their dreams dream
    no matter what whatever comes way it all one day someday positive grinding moving ahead staying find finds a""".split())


def _resolve_only(main: str) -> str | None:
    m = _RESOLVE_EN.match(main)
    if not m or set(w.lower() for w in _LATIN_WORD.findall(m.group("rest"))) - _RESOLVE_WORDS:
        return None
    return f"'{m.group('p')}' is a resolve with nothing named in it"


# --- standing on its own (round 5): what a pronoun at the end of a statement stands for ----------
# A pronoun object is resolved only when the statement itself names something, in an earlier clause, that
# the pronoun can stand for ("User submitted their screenplay to a contest to see how others like it"). When
# the pronoun's own clause is the only place the thing could be named, the statement is about something it
# does not say: "User has put lots of hard work into it", "User still can't believe they made so much money
# from it" (what the money came from is the point).
_END_PRONOUN_EN = re.compile(
    r"^(?P<body>(?:the )?user\b.*?)\s*\b(?P<p>it|this|that|these|those|them|one|theirs|yours|hers)" + _EN_TRAILING,
    re.IGNORECASE,
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
    _EN_SUBJECT + r"(?:[a-z']+\s+){0,3}?(?P<p>it|this|that|those|these|them|him|her)\s+(?:in|into|on|at|to|with|without|for|after|"
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
    last next week weeks month months year years day days hour hours ago since ever one two three four five six seven
    eight nine ten few couple why what who how they're they've remember""".split()
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


def _them_is_me(main: str, pointer: str) -> bool:
    """"User's boyfriend Miguel is moving in with them": after a preposition, another subject's "them" is what the
    user said as "me" (third_person.py); "User's kids love them" still names nothing."""
    return pointer.lower() == "them" and bool(re.match(r"(?i)(?:the )?user's\b", main)) and bool(
        re.search(r"\b(?:with|to|for|at|from|about|behind|beside) them\b", main, re.IGNORECASE))


# "User enjoys yourself" ("Enjoy yourself!"): a wish said to someone, rewritten as if it were the user's.
_SECOND_PERSON_EN = re.compile(r"\b(?P<p>yourself|yourselves)\b", re.IGNORECASE)
# "User rode a bike to work, speaking of", "User still remembers this story from": a phrase cut before its noun. (Not "and" / "but" / "with": "User lives in
# ohio but" still says where, "User's wife and kids come with" is how people talk.)
_CUT_AT_END_EN = re.compile(
    r"\s(?P<p>the|a|an|their|his|my|of|into|called|named)$"
    # "this story from", "excited about": a preposition right after its noun or its feeling. (Not one a relative
    # clause left at the end: "something they're passionate about", "a lot of books to choose from".)
    r"|\b(?:this|that|these|those|the|a|an|their|his|her|some)\s+(?:[\w'-]+\s+)?"
    r"(?!(?:came|come|comes|went|got|grew|heard|learned|learnt|bought|took|moved|escaped|talk|talked|cares?|cared|"
    r"knows?|knew|thinks?|thought|wrote|read)\b)[\w'-]+\s+(?P<q>from|about)$"
    r"|\b(?:is|are|was|were|feels?|felt)\s+(?:\w+\s+)?(?:excited|nervous|worried|curious|sure|unsure|happy|sad|"
    r"thinking|talking|passionate|serious|crazy|mad)\s+(?P<r>about)$"
    # "User has been working on for a while": the thing worked on was said before, its place left empty
    r"|\b(?:working|worked|work|works|waiting|waited|planning|saving|practicing|practising|studying|training)\s+"
    r"(?P<s>on|for|at|up)\s+(?=(?:for|since)\b)",
    re.IGNORECASE,
)
# "User was a kid": the time of a story ("when I was a kid"), not a fact.
_ONLY_A_TIME_EN = re.compile(r"^User (?:was|were) (?P<p>(?:a |just a |only a )?(?:kid|child|teenager|teen|baby|little|young|"
                             r"younger|small))$", re.IGNORECASE)


# "User does they've two dogs" ("I do I've two dogs"): an answer's "I do" run into the next sentence.
_RUN_INTO_EN = re.compile(r"^User (?:does|did|do|is|was|has|can|will)(?: not|n't)? (?P<p>they(?:'ve|'re|'ll|'d)?|you)\b")


# "User's students to dance safely" ("… for me & my students to dance safely"): who, and an infinitive, with no verb.
_VERB_WORDS = r"(?:is|are|was|were|has|have|had|will|can|would|makes?|helps?|keeps?|means?|wants?|needs?|likes?|loves?|used|got|gets)"
_WHO_TO_EN = re.compile(rf"^User's (?!{_VERB_WORDS}\b)(?![a-z]+ed\b)[a-z]+ to (?P<p>[a-z]+)\b(?!.*\b(?:{_VERB_WORDS}|[a-z]+ed)\b)")


# "User got from their walk" ("a pic I got from my walk"): what was got is the noun before the "I", not read.
_GOT_NOTHING_EN = re.compile(r"^User (?:just )?(?:got|took|bought|brought|made|found|saw) (?P<p>from|during) ")


def _cut_or_misread(text: str) -> str | None:
    """A statement cut before its end, a wish said to someone, or only the time of a story — or None."""
    if m := _GOT_NOTHING_EN.match(text):
        return f"nothing before '{m.group('p')}'"
    if re.search(r"User means$", text):
        return "'I mean' is how the user talks, not what"  # "From a distance I mean"
    if m := _WHO_TO_EN.match(text):
        return f"'to {m.group('p')}' with no verb of its own"
    if m := _RUN_INTO_EN.match(text):
        return f"'{m.group('p')}' runs another sentence into the answer"
    if m := _SECOND_PERSON_EN.search(text):
        return f"speaks to someone ('{m.group('p')}'), not about the user"
    if m := _CUT_AT_END_EN.search(text):
        return f"cut short after '{m.group('p') or m.group('q') or m.group('r') or m.group('s')}'"
    if m := _ONLY_A_TIME_EN.match(text):
        return f"'{m.group('p')}' is when, not what"
    return None


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
    if cut := _cut_or_misread(text):
        return cut
    exclamation = _EXCLAMATION_AS_STATEMENT.match(text)
    if exclamation:
        return f"an exclamation ('{exclamation.group('p')}'), not something about the user"
    address = trailing_address(text)
    if address:
        return f"ends with '{address}', said to someone, not about the user"
    bare = re.match(r"^User (?:still |also |really |just |only )?(?P<p>works|does|has|is|gets|goes|makes|takes|tries|did|had|"
                    r"joined|started|finished|tried|went|left|signed up|"
                    r"was|knows|thinks|agrees|can|will|can't|won't|"
                    # talk about the talk: "User can't say", "User doesn't know", "User isn't sure"
                    r"can't (?:say|tell|remember|complain|wait)|doesn't (?:know|remember)|isn't sure|is not sure|"
                    r"has no idea)$", text) or re.match(
        # "User does not, but they'd still be glad to help": the answer to a question the memory does not have
        r"^User (?P<p>(?:does|did|is|was|has|had|can|will|would|do)(?: not|n't))\s*[,;]", text)
    if bare:
        return f"'{bare.group('p')}' without saying what"
    cut = _CUT_LIST_EN.match(text)
    if cut:
        return f"a list cut short at '{cut.group('p')}'"
    main = re.split(r"[,;]", text, maxsplit=1)[0].strip()
    first = _PRONOUN_OBJECT_FIRST_EN.match(main)
    if first and first.group("p").lower() == "them" and (
            re.match(r"(?i)(?:the )?user's\b", main) or _them_is_the_user(main[:first.start("p")].rstrip())):
        first = None  # "User's friends support them in everything": them = the user
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
        return None if _them_is_me(main, pronoun) or _them_is_the_user(body) or _compares_with_the_user(main, pronoun) else (
            "depends on 'them', which it does not name")
    if pronoun == "one" and _AGE_ONE_EN.search(body):
        return None  # "User's son turned one"
    if pronoun in ("this", "that") and re.search(r"\blike$", body, re.IGNORECASE):
        return f"'like {pronoun}' points at something it does not show"
    if _pronoun_antecedent(body, pronoun):
        return None
    return f"depends on '{pronoun}', which it does not name"


# "User's wife divorced them", "User's mom visits them every sunday": what someone of the user's did to "me" (the
# user, as statements speak of them). Only verbs done to a person: "User's kids love them" may be cookies.
_DONE_TO_THE_USER_EN = re.compile(
    r"(?i)^user's (?:[\w-]+ ){0,2}?(?:wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|ex|mom|mum|mother|dad|"
    r"father|parents|sister|brother|siblings?|son|daughter|kids|children|grand\w+|aunt|uncle|cousin|friends?|boss|"
    r"family|in-laws|coworkers?|teacher|doctor|therapist|neighbou?r)\s+(?:\w+\s+)?"
    r"(?:divorced|left|dumped|married|called|calls|visited|visits|texted|texts|helped|helps|supports|supported|hugged|"
    r"raised|adopted|taught|teaches|told|tells|asked|asks|invited|invites|cheated on|broke up with|met|ignores|ignored|"
    r"bullied|bullies|abandoned|kicked out|encouraged|encourages|inspired|inspires|trusts|trusted|misses|missed|"
    r"blames|blamed|understands|understood|drove|drives|picked up|surprised|surprises|spoils|spoiled|took care of|"
    r"takes care of|looks after|looked after|hired|fired|promoted|introduced|warned|forgave|forgives|believes in|"
    r"believed in|stood by|stands by|checks on|checked on)\s+them\b"
)


def _compares_with_the_user(main: str, pronoun: str) -> bool:
    """"User's sister is older than them", "User's wife divorced them": in a statement about the user's relative,
    "them" after "than" or a verb done to a person is the user (statements speak of the user as they/them), not
    someone unnamed."""
    return pronoun.lower() == "them" and bool(re.match(r"(?i)user's\b.*\bthan them$", main)
                                              or _DONE_TO_THE_USER_EN.match(main))


def vague_reason(statement: str) -> str | None:
    """Why a statement says too little to remember on its own ("depends on 'her'"), or None.

    Only the main clause is judged: "User loves Studio Ghibli films, they always calm them down" says
    what it needs before the comma."""
    if listed := _VERBLESS_LIST_EN.match(statement.strip().rstrip(".!")):
        return f"'{listed.group('p')}' is a list with no verb"
    if re.search(r"\bUser means$", statement.strip().rstrip(".!")):
        return "'I mean' is how the user talks, not what"  # "From a distance I mean"
    main = re.split(r"[,;，；]", statement.strip(), maxsplit=1)[0].strip().rstrip(".!。！")
    for pattern, why in (
        (_VAGUE_PRONOUN_EN, "depends on '{p}', which it does not name"),
        (_VAGUE_PRONOUN_ZH, "depends on '{p}', which it does not name"),
        (_VAGUE_IT_ZH, "depends on '{p}', which it does not name"),
        (_VAGUE_PERSON_EN, "depends on '{p}', which it does not name"),
        (_VAGUE_GOING_EN, "'{p}' without saying where"),
        (_VAGUE_NO_OBJECT_EN, "'{p}' without saying what"),
        (_VAGUE_CAUSATIVE_EN, "depends on '{p}', which it does not name"),
        (_VAGUE_WANTED_OF_EN, "depends on '{p}', which it does not name"),
        (_VAGUE_THINGS_EN, "'{p}' without saying what"),
        (_NO_ONES_EN, "'User's {p}' is no one's thing"),
        (_VAGUE_DEFINITE_END_EN, "depends on '{p}', which it does not say"),
        (_VAGUE_BARE_ZH, "'{p}' without saying what"),
        (_VAGUE_LIKING_CUT_EN, "'{p}' without saying what"),
        (_VAGUE_SOMETHING_EN, "'{p}' without saying what"),
        (_VAGUE_RECIPROCAL_EN, "'{p}' with others it does not name"),
        (_CUT_RELATIVE_EN, "'{p}' without saying what"),
        (_FAVOURITE_ONLY_EN, "'{p}' without saying what"),
        (_VAGUE_OPTIONS_EN, "'{p}' without saying which"),
        (_VAGUE_A_PROJECT_EN, "'{p}' without saying what"),
        (_BARE_PAST_ACTIVITIES_EN, "'{p}' without saying where or when"),
        (_VAGUE_QUALITY_EN, "'{p}' of a thing it does not name"),
    ):
        m = pattern.match(main)
        pointer = m and (m.group("p") or m.groupdict().get("q") or m.groupdict().get("r"))
        if pointer and not _compares_with_the_user(main, pointer) and not _them_is_me(main, pointer):
            return why.format(p=pointer)
    feeling = _VAGUE_FEELING_ABOUT_IT_EN.match(main)
    if feeling and not _TO_OR_CLAUSE_AFTER_IT_EN.search(main):
        return f"'{feeling.group('p') or feeling.group('q') or feeling.group('r')}' about a thing it does not name"
    reason = (_resolve_only(main) or dangling_reason(statement) or opening_reason(statement)
              or how_it_goes_reason(statement) or pointed_at_reason(statement))
    later = None if reason else later_own_clause(statement)
    return vague_reason(later) if later else reason
