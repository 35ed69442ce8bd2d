"""What the user says they know, or do not, of a technical skill: said around a coding task, it is who they are
("skip the task, keep the person", issue #16), and it tells an assistant how to explain the next time.

- "I know HTML and CSS but not JavaScript" → "User knows HTML and CSS";
- "I have basic knowledge of Python", "I have no experience with Docker" → "User has basic knowledge of Python";
- "I've never used Docker before" → "User has never used Docker"; "I don't know much about programming" → "User
  doesn't know much about programming";
- "We use Jira at work" → "User uses Jira at work";
- 我完全不懂编程 → 用户完全不懂编程; 我对Python不太熟悉 → 用户对Python不太熟悉; 我会Java和Go → 用户会Java和Go.

Only a named skill from the closed list below, said by the user in the first person and ending its clause: "I know
Python has a GIL" says something about Python, "I know this code is wrong" about the code.
"""
from __future__ import annotations

import re

_TECH = (
    r"Python|JavaScript|TypeScript|Java|C\+\+|C#|C|Go|Golang|Rust|Ruby|PHP|Perl|Swift|Kotlin|Dart|Scala|R|MATLAB|Lua|"
    r"Haskell|Bash|PowerShell|VBA|SQL|MySQL|PostgreSQL|MongoDB|HTML|CSS|Sass|React|Vue|Angular|Svelte|Next\.js|"
    r"Node(?:\.js|js)?|Express|Django|Flask|FastAPI|Spring(?: Boot)?|Laravel|Rails|\.NET|Flutter|React Native|Unity|"
    r"Unreal(?: Engine)?|Godot|Docker|Kubernetes|Git|GitHub|Linux|AWS|Azure|GCP|Terraform|Excel|Power BI|Tableau|"
    r"pandas|NumPy|TensorFlow|PyTorch|Photoshop|Blender|Figma|WordPress|Arduino|LaTeX|jQuery|Bootstrap|Tailwind(?:CSS)?|"
    r"programming|coding|computers|web development|machine learning|networking|databases|regex|algorithms"
)
_TECHS = rf"(?-i:{_TECH})(?:(?:,\s*|\s+(?:and|&|or)\s+)(?:(?:a (?:little )?bit of|some|basic) )?(?-i:{_TECH}))*"
_END = r"(?=\s*(?:[.,;:!?)\n]|$)|\s+(?:and|but|so|though|yet|well|very|pretty|quite|a bit|a little|too|either|before|yet|at all)\b)"
_I = r"(?:I|i)"
_SKILL_RE = re.compile(
    rf"\b{_I} (?:only |just |already |also |mostly )?know (?P<how>(?:a (?:little|bit)(?: bit)? of |some |basic |the basics of |a lot of )?)"
    rf"(?P<knows>{_TECHS}){_END}"
    rf"|\b{_I} (?:have|'ve got|’ve got) (?P<level>basic|some|little|no|zero|limited|good|solid|decent|intermediate|advanced|"
    rf"beginner|a basic|a good|a solid|a little) (?P<kind>knowledge|experience|understanding|background) (?:of|in|with) "
    rf"(?P<of>{_TECHS}){_END}"
    rf"|\b{_I}(?:'ve| have|’ve) never (?P<never>used|worked with|touched|coded in|programmed in|learned|written) (?P<used>{_TECHS})"
    rf"(?: before)?{_END}"
    rf"|\b{_I} (?:don't|do not|don’t|dont) know (?P<much>much|anything|a lot|a thing) about (?P<about>{_TECHS}){_END}"
    rf"|\b(?-i:[Ww]e) use (?P<tool>{_TECHS}|(?-i:[A-Z][\w.+-]+)(?: and (?-i:[A-Z][\w.+-]+))?) at (?P<where>work|my job|my company|the office)\b",
    re.IGNORECASE,
)
_ZH_TECH = rf"(?:(?:{_TECH})(?![A-Za-z+#.])|编程|代码|电脑|计算机|前端|后端|数据库|网页|算法|Excel|PS)"
_ZH_SKILL_RE = re.compile(
    rf"我(?P<deg>完全|一点都|一点也|根本|不太|不怎么|比较|很|只)?(?P<verb>不懂|不会|懂|会|熟悉|不熟悉|精通)(?:一点|一些)?(?P<what>{_ZH_TECH}(?:和{_ZH_TECH})*)"
    rf"|我对(?P<what2>{_ZH_TECH})(?P<deg2>完全|不太|不怎么|比较|很|还算)?(?P<verb2>不熟悉|熟悉|不了解|了解|陌生)"
)
# a supposition or someone else: "if I knew Python", "my son doesn't know much about computers"
_NOT_THE_USER_RE = re.compile(r"\b(?:if|whether|wish|pretend|imagine|suppose)\b[^.!?\n]{0,40}$|如果|假如|假设|要是", re.IGNORECASE)


def skills(text: str) -> list[tuple[str, str]]:
    """(quote, statement) of each skill the user says they have or lack (module docstring)."""
    found = []
    for m in _SKILL_RE.finditer(text):
        if _NOT_THE_USER_RE.search(text[max(0, m.start() - 60): m.start()]):
            continue
        found.append((m.group(0).rstrip(), _statement(m)))
    for m in _ZH_SKILL_RE.finditer(text):
        if _NOT_THE_USER_RE.search(text[max(0, m.start() - 10): m.start()]):
            continue
        if m.group("what2"):
            found.append((m.group(0), f"用户对{m.group('what2')}{m.group('deg2') or ''}{m.group('verb2')}"))
        else:
            found.append((m.group(0), f"用户{m.group('deg') or ''}{m.group('verb')}{m.group('what')}"))
    return found


def _statement(m: re.Match) -> str:
    if m.group("knows"):
        return f"User knows {m.group('how')}{m.group('knows')}"
    if m.group("of"):
        return f"User has {m.group('level')} {m.group('kind')} {m.group(0)[m.end('kind') - m.start():].split()[0]} {m.group('of')}"
    if m.group("used"):
        return f"User has never {m.group('never')} {m.group('used')}"
    if m.group("about"):
        return f"User doesn't know {m.group('much')} about {m.group('about')}"
    where = m.group("where").replace("my ", "their ")
    return f"User uses {m.group('tool')} at {where}"
