"""What the user runs, builds or writes, said in passing inside a task (issue #16, "skip the task, keep the person").

A coding, document or translation session is skipped as a whole, but the user's framing words around the task often
say what they have made or are working on:

- "my Discord bot keeps crashing", "how do I back up my Minecraft server", "publish my Flutter app", "my Airbnb
  listing", "my GitHub repo" → "User has a Discord bot" (a thing named by its platform: a bare "my app" or "my server" says too little);
- "the title of my dissertation is …", "… following the title of this dissertation project: …" → "User is writing a
  dissertation titled …" ("this" only in a request to write for it: "summarize this thesis" brings someone else's);
- the machine the user works on, weighed weak (pending until it recurs): "I'm on Windows 11", "I use a MacBook Pro",
  "on my Raspberry Pi 4" → "User uses Windows 11", "User uses a MacBook Pro"; 我用的是Mac → 用户用的是Mac (a named
  system or device only: "I'm using pandas" is the task's state, and "my laptop" says nothing);
- Chinese: 我在写硕士论文 → 用户在写硕士论文; 我们公司是做跨境电商的 → 用户的公司是做跨境电商的; 我开了一家网店 →
  用户开了一家网店.

Each quote is a verbatim substring of the turn, and the statement repeats the quote's own words (the truth guard).
"""
from __future__ import annotations

import re

# A platform's name before the thing: "my Discord bot", "my Minecraft server", "my Shopify app".
_MY_BUILT_RE = re.compile(
    r"\b[Mm]y (?:own |new )?(?P<thing>(?:(?-i:[A-Z][\w.+-]*) ){1,2}"
    r"(?:bot|server|app|application|plugin|extension|mod|channel|page|listing|newsletter|podcast|repo|repository))\b(?![\w-])"
)
# Words that open a sentence or name the user's gear, not a platform they build on: "my Mac app" is theirs to use.
_NOT_PLATFORMS = frozenset("I The A An My This That New Old First Own Main Personal Company Mac iPhone Windows".split())
_TITLE_RE = re.compile(
    r"\b(?:[Tt]he )?title of (?P<whose>my|this|our) (?P<what>(?:master['’]?s |bachelor['’]?s |PhD |final[- ]year |undergraduate )?"
    r"(?:dissertation|thesis))(?: project)?(?: is)?\s*[:：]?\s*[\"“]?(?P<title>[A-Z][^\n\"”?!]{8,200}?)(?=\.\s|[.?!]?\s*$|[\n\"”?!])"
    r"|\b[Mm]y (?P<what2>(?:master['’]?s |bachelor['’]?s |PhD |final[- ]year )?(?:dissertation|thesis)) is (?:titled|called|entitled)\s*"
    r"[:：]?\s*[\"“]?(?P<title2>[A-Z][^\n\"”?!]{8,200}?)(?=\.\s|[.?!]?\s*$|[\n\"”?!])"
)
_WRITE_REQUEST_RE = re.compile(r"\b(?:write|draft|help me (?:write|with)|words? (?:for|on|about)|section|chapter|"
                                r"introduction|conclusion|literature review|methodology|ethical)\b", re.IGNORECASE)
_TITLE_WORDS = 14

_ZH_LEVEL = r"(?P<level>毕业|硕士|博士|本科|学位|课程)?"
_ZH_THESIS_RE = re.compile(rf"我(?:正|现在|目前|最近)?在写(?:我的)?{_ZH_LEVEL}论文(?:，(?:题目|主题)是(?P<about>[^，。！？,.!?\n]{{2,30}}))?")
_ZH_FIRM_RE = re.compile(r"我们(?P<firm>公司|店|工厂|工作室|厂)(?:主要)?(?:是)?(?:专门)?(?P<verb>做|卖|生产|经营)(?P<what>[^，。！？,.!?\n的]{2,20})的")
_ZH_OPENED_RE = re.compile(r"我(?:自己)?(?:开了|经营着?|开着)(?P<what>(?:一家|一个|家|个)[^，。！？,.!?\n]{1,12}?(?:店|网店|公司|工作室|餐厅|咖啡馆|"
                           r"奶茶店|诊所|培训班|工厂|民宿))")
# Named systems and devices ("Windows 10", "a MacBook Air", "an M1 Mac", "Ubuntu 22.04"); the article goes with a device.
_SYSTEMS = (r"Windows(?: \d{1,2}| XP| 7| 8\.1| Server \d{4})?|mac ?OS(?: [A-Z][a-z]+)?|Ubuntu(?: \d{2}\.\d{2})?|Linux Mint|Arch(?: Linux)?|"
            r"Debian(?: \d+)?|Fedora(?: \d+)?|Manjaro|Pop!_OS|Kali(?: Linux)?|CentOS(?: \d)?|ChromeOS|WSL2?|iOS(?: \d+)?|Android(?: \d+)?")
_DEVICES = (r"(?:(?:new|old|\d{4}) )?(?:(?:M\d|Intel|2\d{3}) )?(?:MacBook(?: Pro| Air)?|iMac|Mac(?: mini| Studio)?|Mac|iPhone(?: \d+)?(?: Pro(?: Max)?)?|"
            r"iPad(?: Pro| Air| mini)?|Chromebook|Raspberry Pi(?: \d)?|Steam Deck|Surface(?: Pro)?(?: \d)?|ThinkPad|"
            r"(?:Samsung )?Galaxy S\d+|Pixel \d+|Arduino(?: Uno| Nano)?|PS5|PS4|Xbox(?: Series [XS])?|Nintendo Switch)")
_DEVICE_RE = re.compile(
    rf"\b(?:I|i)(?:'m| am|’m|m) (?:using|on|running)(?: an?)? (?P<sys>(?i:{_SYSTEMS}))\b"
    rf"|\b(?:I|i) (?:use|run|have|own|work on|code on)(?: (?:an?|my))? (?P<dev>{_DEVICES})\b"
    rf"|\b(?:I|i)(?:'m| am|’m) (?:using|on|running) (?:an?|my) (?P<dev2>{_DEVICES})\b"
    rf"|\bon my (?P<dev3>{_DEVICES})\b"
)
_ZH_DEVICE_RE = re.compile(r"我(?:的电脑|的手机|的系统)?(?:用的是|是用的|的电脑是|的手机是|的系统是)(?P<what>(?:苹果|华为|小米|联想|Mac|MacBook|iPhone|"
                           r"[Ww]in(?:dows)? ?\d{1,2}|Windows|Ubuntu|Linux|安卓)[^，。！？,.!?\n]{0,12}?)(?=[，。！？,.!?\n]|系统|电脑|$)")

# someone else's or imagined: "如果我开了一家店", "故事里我们公司…"
_ZH_NOT_THE_USER_RE = re.compile(r"如果|假如|假设|要是|故事|小说|剧本|扮演|角色|想象")


def own_projects(text: str) -> list[tuple[str, str]]:
    """(quote, statement) of what one user turn says the user runs, builds or writes (module docstring)."""
    return _built(text) + _titled(text) + _zh_projects(text)


def devices(text: str) -> list[tuple[str, str]]:
    """(quote, statement) of the named system or device the user works on (module docstring; weak)."""
    found = []
    for m in _DEVICE_RE.finditer(text):
        if m.group("sys"):
            found.append((m.group(0), f"User uses {m.group('sys')}"))
            continue
        device = m.group("dev") or m.group("dev2") or m.group("dev3")
        verb = "has" if re.search(r"\b(?:have|own)\b", m.group(0)) else "uses"
        found.append((m.group(0), f"User {verb} {'an' if device[0].lower() in 'aeiou' else 'a'} {device}"))
    found += [(m.group(0), f"用户用的是{m.group('what')}") for m in _ZH_DEVICE_RE.finditer(text)
              if not _ZH_NOT_THE_USER_RE.search(text[max(0, m.start() - 10): m.start()])]
    return found


def _built(text: str) -> list[tuple[str, str]]:
    found = []
    for m in _MY_BUILT_RE.finditer(text):
        thing = m.group("thing")
        if thing.split()[0] in _NOT_PLATFORMS:
            continue
        found.append((m.group(0), f"User has {'an' if thing[0].lower() in 'aeiou' else 'a'} {thing}"))
    return found


def _titled(text: str) -> list[tuple[str, str]]:
    found = []
    for m in _TITLE_RE.finditer(text):
        what, title = m.group("what") or m.group("what2"), (m.group("title") or m.group("title2")).strip()
        if m.group("whose") == "this" and not _WRITE_REQUEST_RE.search(text):
            continue  # "summarize the title of this thesis" is about a text brought in
        words = title.split()
        if len(words) > _TITLE_WORDS:  # "X: An Insight into …": the main title
            title = title.split(":")[0] if ":" in title else " ".join(words[:_TITLE_WORDS])
        title = title.rstrip(" .,;")
        quote = text[m.start(): m.start() + m.group(0).find(title) + len(title)] if title in m.group(0) else m.group(0)
        found.append((quote, f'User is writing a {what} titled "{title}"'))
    return found


def _zh_projects(text: str) -> list[tuple[str, str]]:
    found = []
    for sentence in re.finditer(r"[^。！？!?\n]+", text):
        s = sentence.group(0)
        if _ZH_NOT_THE_USER_RE.search(s):
            continue
        for m in _ZH_THESIS_RE.finditer(s):
            about = f"，题目是{m.group('about')}" if m.group("about") else ""
            found.append((m.group(0), f"用户在写{m.group('level') or ''}论文{about}"))
        for m in _ZH_FIRM_RE.finditer(s):
            found.append((m.group(0), f"用户的{m.group('firm')}是{m.group('verb')}{m.group('what')}的"))
        for m in _ZH_OPENED_RE.finditer(s):
            found.append((m.group(0), f"用户开了{m.group('what')}" if "开" in m.group(0) else f"用户经营{m.group('what')}"))
    return found
