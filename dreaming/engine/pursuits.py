"""What a request says the user is doing, plays, uses or has, in the request's own words.

self_disclosure.py reads who the user says they are inside a request; this module gives it the shapes of what they
are busy with, each a statement the request's words support (the truth guard, quotes.statement_unsupported, checks
every one after):

- what the user is working on, said in the progressive: "I am enhancing the existing ecommerce page to …",
  "I'm building a web app for my bakery", "where I am developing a Flutter app" (DOING: the verbs; the caller cuts
  the clause where the request starts and rewrites it, "User is building a web app for their bakery");
- a game or an instrument the user wants to play better: "settings to play better csgo", "how can I play the guitar
  better" → "User plays csgo" (wanting to play it better says they play it; "how to learn X" says nothing of the
  kind and gives nothing);
- a platform the user is on: "a girl on tinder" in a first-person sentence → "User is on Tinder", "my Instagram
  account" → "User has an Instagram account";
- a belonging named by "my": "it's for my license plate" → "User has a license plate", "my 2015 Honda Civic" →
  "User has a 2015 Honda Civic" (a bare "my phone" or "my laptop" says nothing worth keeping: those need a
  brand, a model or a kind before them).

These are weak readings: the caller keeps them below the importance of a plain self-statement, so they stay pending
until they come up again.
"""
from __future__ import annotations

import re

from dreaming.engine.possessions import NOT_HELD_MODS

# "I am <doing> …": the work or the project the user is on, not the task's state ("I'm getting an error", "I'm
# using node.js", "I'm trying to fix it").
DOING = (
    r"(?:working on|building|developing|developping|creating|designing|enhancing|improving|redesigning|"
    r"rebuilding|implementing|coding|programming|writing|drafting|editing|publishing|producing|directing|filming|"
    r"recording|composing|preparing|planning|organi[sz]ing|running|researching|starting|launching|opening|"
    r"setting up|renovating|migrating|teaching|coaching|training|practi[cs]ing|translating|hosting|raising|"
    # not "doing my best / my part", "making a difference / a mistake": what one does, not a piece of work
    r"doing (?:an?|my|our|some)(?! (?:best|part|thing|own thing|bit|job|research)\b)|"
    r"making (?:an?|my|our)(?! (?:difference|mistake|living|change|point|decision|choice|effort|fool)\b)|"
    r"moving to|relocating to|"
    r"trying to (?:learn|build|start|develop|create|become|write|launch|open|grow|get into))"
    # … but not the text or the code of the task at hand: "I'm writing an email to my landlord", "I am creating a function"
    r"(?!\s+(?:an?|the|this|that|my|some)\s+(?:[\w-]+\s+)?(?:e-?mails?|letters?|messages?|repl(?:y|ies)|responses?|comments?|"
    r"texts?|prompts?|query|queries|functions?|scripts?|methods?|class|loop|variables?|code|questions?|lists?|tables?|"
    r"summary|paragraphs?|sentences?|captions?|tweets?|posts?|descriptions?)\b)"
)

# "settings to play better csgo", "play the guitar better", "how do I play better at chess".
_PLAY_BETTER_RE = re.compile(
    r"\bplay(?:ing)?\s+(?:better\s+(?:at\s+|in\s+)?(?P<after>(?:the\s+)?[\w:'-]+(?:\s+[\w:'-]+)?)"
    r"|(?P<before>(?:the\s+)?[\w:'-]+(?:\s+[\w:'-]+)?)\s+better)\b",
    re.IGNORECASE,
)
_NOT_PLAYED_RE = re.compile(r"^(?:the\s+)?(?:it|this|that|them|a|an|my|your|his|her|their|our|much|way|game|games|"
                            r"role|part|music|song|songs|safe|against|with|than|and|or|to|for|\w+ly)$", re.IGNORECASE)
_PLAY_END_RE = re.compile(r"\s+(?:and|or|but|with|on|in|at|for|so|than|if|when|because|please|lol)$", re.IGNORECASE)

_DATING_APPS = r"tinder|bumble|hinge|okcupid|grindr|badoo|happn|feeld|match\.com"
_PLATFORMS = (r"instagram|insta|tiktok|youtube|twitter|facebook|linkedin|reddit|twitch|etsy|ebay|amazon|fiverr|upwork|"
              r"shopify|patreon|pinterest|snapchat|discord|spotify|soundcloud|substack|medium|github|steam|"
              + _DATING_APPS)
_PLATFORM_NAMES = {"insta": "Instagram", "youtube": "YouTube", "tiktok": "TikTok", "linkedin": "LinkedIn",
                   "okcupid": "OkCupid", "github": "GitHub", "soundcloud": "SoundCloud", "match.com": "Match.com"}
# "a girl on tinder", "a guy I met on hinge": someone the user deals with on a dating app.
_ON_DATING_APP_RE = re.compile(
    rf"\b(?:girl|guy|woman|man|lady|boy|match|someone|person|people|date|chick|dude)\b[^.!?\n]{{0,30}}?"
    rf"\bon (?P<app>{_DATING_APPS})\b",
    re.IGNORECASE,
)
_MY_PLATFORM_RE = re.compile(
    rf"\b[Mm]y (?P<platform>{_PLATFORMS})\s+(?P<thing>account|profile|page|channel|bio|store|shop|server|"
    rf"followers|subscribers|audience|posts?|videos?|reels|content|listings?)\b",
    re.IGNORECASE,
)
_FIRST_PERSON_RE = re.compile(r"\b(?:I|i|I'm|i'm|I’m|im|me|my|My)\b")

# "my license plate", "my 2015 Honda Civic", "my gaming PC": a thing the user has (a generic device needs a word before).
_BELONGING = (r"cars?|truck|pickup|jeep|van|suv|motorcycle|motorbike|scooter|bike|bicycle|boat|yacht|rv|caravan|"
              r"camper|licen[cs]e plate|number plate|house|apartment|flat|condo|cabin|cottage|garden|backyard|"
              r"farm|pool|aquarium|guitar|piano|violin|drum kit|drums|ukulele|saxophone|cello|telescope|drone|"
              r"(?:(?-i:[A-Z0-9])[\w-]*|gaming|new|old|work|own) (?:laptop|pc|computer|desktop|phone|tablet|camera|console)|"
              r"iphone(?: \d+\w*)?|macbook(?: (?:pro|air))?|ipad|playstation|ps[45]|xbox|nintendo switch")
_MY_BELONGING_RE = re.compile(
    rf"\b[Mm]y (?P<thing>(?:(?:[A-Z0-9][\w'-]*|[a-z][\w-]*) (?=(?:[\w'-]+ )?(?:{_BELONGING})\b)){{0,2}}(?:{_BELONGING}))"
    r"(?![\w-])",
    re.IGNORECASE,
)
# Words before the thing that make it not the user's own, or not a thing: "my dream car", "my dad's car".
_NOT_OWN_MODIFIER_RE = re.compile(rf"\b(?:{'|'.join(sorted(NOT_HELD_MODS))}|\w+['’]s)(?!\w)", re.IGNORECASE)


def plays(text: str) -> list[tuple[str, str]]:
    """(quote, statement) for a game or an instrument the user wants to play better."""
    found = []
    for m in _PLAY_BETTER_RE.finditer(text):
        game = _PLAY_END_RE.sub("", (m.group("after") or m.group("before")).strip())
        if not game or any(_NOT_PLAYED_RE.match(w) for w in game.split()[-1:]) or _NOT_PLAYED_RE.match(game):
            continue
        found.append((m.group(0), f"User plays {game}"))
    return found


def platforms(text: str) -> list[tuple[str, str]]:
    """(quote, statement) for a dating app the user is on, or a platform account they have."""
    found = []
    for m in _ON_DATING_APP_RE.finditer(text):
        if _FIRST_PERSON_RE.search(_sentence_of(text, m.start())):
            found.append((m.group(0), f"User is on {_platform_name(m.group('app'))}"))
    for m in _MY_PLATFORM_RE.finditer(text):
        thing = m.group("thing").lower()
        if thing in ("followers", "subscribers", "audience", "posts", "videos", "reels", "content", "listings"):
            said = f"User has {_platform_name(m.group('platform'))} {thing}"
        else:
            name = _platform_name(m.group("platform"))
            said = f"User has {'an' if name[0] in 'AEIOU' else 'a'} {name} {thing}"
        found.append((m.group(0), said))
    return found


def belongings(text: str) -> list[tuple[str, str, int]]:
    """(the words from "my" on, statement, where they start) for each belonging named by "my"."""
    found = []
    for m in _MY_BELONGING_RE.finditer(text):
        thing = m.group("thing")
        if _NOT_OWN_MODIFIER_RE.search(thing):
            continue
        plural = thing.lower().endswith(("cars", "drums"))
        article = "" if plural else ("an" if thing[0].lower() in "aeiou" or re.match(r"(?:rv|suv|8)\b", thing, re.I) else "a")
        found.append((m.group(0), f"User has {article} {thing}".replace("  ", " "), m.start()))
    return found


def _platform_name(word: str) -> str:
    low = word.lower()
    return _PLATFORM_NAMES.get(low, low[:1].upper() + low[1:])


def _sentence_of(text: str, at: int) -> str:
    start = max(text.rfind(ch, 0, at) for ch in ".!?\n") + 1
    ends = [i for i in (text.find(ch, at) for ch in ".!?\n") if i >= 0]
    return text[start: min(ends) if ends else len(text)]


# "my chemistry homework", "my final year project", "my python project": school or own work named by its subject.
_MY_SCHOOLWORK_RE = re.compile(
    r"\b[Mm]y (?P<work>(?!(?:next|last|first|previous|new|own|whole|entire|other|current|upcoming|dream|unit|test|"
    r"this|that|daily|weekly|big|little|small|latest|recent|old)\b)(?!final (?!year))"
    r"(?:(?!(?:for|the|a|an|of|to|in|on|at|with|and|or|my|this|that|about|from|by|is|was)\b)[\w&+#-]+ ){1,3}?"
    r"(?:homework|assignment|coursework|exam|midterm|quiz|project|essay|"
    r"term paper|research paper|lab report|presentation))\b(?![\w-])"
)
_UNCOUNTED = ("homework", "coursework")
# "my job as a school principal", "in my role as a project manager": what the user works as.
_MY_JOB_AS_RE = re.compile(
    r"\b[Mm]y (?P<what>job|role|position|career|work) as (?P<role>an? (?:[\w'-]+ ){0,3}?[\w'-]+)"
    r"(?=\s*(?:[,.;:!?)\n]|$)|\s+(?:at|in|for|with|and|but|so|which|that|who|where|how|i|I)\b)"
)


def schoolwork(text: str) -> list[tuple[str, str, int]]:
    """(the words from "my" on, statement, where they start) for school or own work named by its subject."""
    found = []
    for m in _MY_SCHOOLWORK_RE.finditer(text):
        work = m.group("work")
        article = "" if work.endswith(_UNCOUNTED) else ("an" if work[0].lower() in "aeiou" else "a")
        found.append((m.group(0), f"User has {article} {work}".replace("  ", " "), m.start()))
    return found


def jobs_as(text: str) -> list[tuple[str, str]]:
    """(quote, statement) for "my job as a school principal" → "User has a job as a school principal"."""
    found = []
    for m in _MY_JOB_AS_RE.finditer(text):
        what, role = m.group("what"), m.group("role")
        said = f"User works as {role}" if what == "work" else f"User has a {what} as {role}"
        found.append((m.group(0), said))
    return found


# "帮我给我的客户写一封邮件", "给我的淘宝店起个名字": whom or what the user has, named inside a Chinese request.
_ZH_MY_RE = re.compile(
    r"(?:给|为|帮|跟|和|对|向|让|替)我(?:的)?(?P<thing>客户|学生|员工|同事|老板|领导|导师|孩子|儿子|女儿|老公|老婆|丈夫|妻子|"
    r"男朋友|女朋友|宝宝|爸妈|父母|狗|猫|网店|淘宝店|店铺|小店|工作室|餐厅|公众号|抖音号|小红书|频道|博客|团队)"
)
_ZH_NOT_HAD_RE = re.compile(r"(?:如果|假如|假设|未来的|以后的|梦想中的|理想的)[^，。！？,.!?]{0,6}$")
_ZH_FICTION_RE = re.compile(r"故事|小说|剧本|扮演|同人|角色|主角|剧情")


def zh_possessions(text: str) -> list[tuple[str, str]]:
    """(quote, statement) for "给我的客户" → "用户有客户" (the words from 我 on, with the verb before when short)."""
    if _ZH_FICTION_RE.search(text[:2000]):
        return []  # a story's "我"
    found = []
    for m in _ZH_MY_RE.finditer(text):
        if _ZH_NOT_HAD_RE.search(text[max(0, m.start() - 10): m.start()]):
            continue
        quote = m.group(0)[1:]  # "我的客户"
        found.append((quote if len(quote) >= 4 else m.group(0), f"用户有{m.group('thing')}"))
    return found
