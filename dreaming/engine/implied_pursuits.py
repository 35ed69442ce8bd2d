"""What a request for help shows the user is busy with, when they ask about their own studies, exams, applications,
classes or ventures without saying "I am …": "which is the best method to learn Spanish?" → "User is learning
Spanish"; "how do I prepare for the IELTS I'm taking in May?" → "User is preparing for the IELTS"; "help me with my
thesis on coral reefs" → "User is writing a thesis on coral reefs"; "write a cover letter for a nurse position" →
"User is applying for a nurse position"; "a quiz for my 5th graders" → "User teaches 5th graders"; "our startup's
landing page" → "User has a startup"; "我在准备考研" / "怎么学好日语" / "帮我改一下我的毕业论文" / "帮我写一封求职信，
应聘数据分析师岗位" / "做一个智宠U家创新创业的PPT".

Each shape is narrow: a closed list of what is learnt or sat, a named kind of letter, a "my" or an "our". Never when
the help is for someone else ("a cover letter for my son", "帮我儿子学英语", "her thesis"), nor a piece of writing
about the topic ("an essay on the best way to learn Spanish"). self_disclosure.weak_disclosures applies the other
guards (a story or a role-play, a supposition, a wish) and keeps these below a plain self-statement: an inference
stays pending until it recurs. Some statements say a word the request only implies ("applying" from a cover
letter); `INFERRED_WORDS` lists those with what licenses each, and the truth guard (quotes.py) accepts nothing else.
"""
from __future__ import annotations

import re

from dreaming.engine.language import sentences

LANGUAGES = (r"English|Spanish|French|German|Italian|Portuguese|Japanese|Chinese|Mandarin|Cantonese|Korean|Russian|"
             r"Arabic|Hindi|Urdu|Turkish|Dutch|Swedish|Norwegian|Danish|Finnish|Polish|Czech|Greek|Latin|Hebrew|"
             r"Vietnamese|Thai|Indonesian|Tagalog|Persian|Farsi|Ukrainian|Swahili|sign language|ASL|BSL")
_LEARNT = (rf"{LANGUAGES}|Python|JavaScript|Java|C\+\+|C#|Rust|Golang|SQL|React|TypeScript|Kotlin|Swift|Excel|"
           r"coding|programming|machine learning|data science|web development|calculus|statistics|accounting|"
           r"photography|chess|(?:the )?(?:piano|guitar|violin|drums|ukulele|bass guitar|cello|saxophone|flute)|"
           r"to (?:play the (?:piano|guitar|violin|drums|ukulele|cello|saxophone|flute)|swim|drive|cook|draw|paint|"
           r"sing|dance|code|program|knit|sew|ski|surf|skate|crochet)")
# "how can I learn Spanish faster", "the best method to learn Spanish", "tips for learning Japanese": the user asks
# how they themself might learn it (not "how do kids learn…", not "help my son learn…").
_LEARN_RE = re.compile(
    r"(?:\bhow (?:can|do|should|could|would|might) (?P<me>I|i) (?:best |quickly |effectively |efficiently |actually )?"
    r"|\bhow to (?:best |quickly |effectively |efficiently )?"
    r"|\b(?:best|fastest|quickest|easiest|good|effective|efficient|right) (?:way|ways|method|methods|approach|"
    r"resources|apps?|books?|courses?|strategy|strategies) (?:to|for) "
    r"|\btips (?:to|for|on) |\bplan (?:to|for) |\bhelp me |\bteach me to "
    r"|\b(?P<lead>(?:I (?:want|need|would like|wanna|have decided)|I(?: am|['’]m) trying|I['’]d like) to) )"
    r"(?:start |begin |get started |self-)?(?P<verb>learn(?:ing)?|study(?:ing)?|master(?:ing)?|practi[cs](?:e|ing)) "
    rf"(?P<what>{_LEARNT})(?![\w+#-])",
    re.IGNORECASE,
)
# "how do I improve my English speaking", "tips for practising my German": a language the user already works on.
_IMPROVE_MY_RE = re.compile(
    r"\b(?P<verb>improve|improving|practi[cs]e|practi[cs]ing|brush up on|brushing up on|polish|work on|working on) "
    rf"my (?P<what>(?-i:{LANGUAGES})(?: (?:speaking|writing|listening|reading|pronunciation|grammar|vocabulary|"
    r"accent|skills|level))?)\b",
    re.IGNORECASE,
)
EXAMS = (r"IELTS|TOEFL|TOEIC|GRE|GMAT|SAT|LSAT|MCAT|USMLE(?: Step \d)?|NCLEX|CFA(?: [Ll]evel (?:\d|I{1,3}|one|two|three))?|"
         r"CPA|ACCA|PMP|CCNA|JLPT(?: N\d)?|HSK(?: ?\d)?|DELE|DELF|DALF|TCF|GCSE|GCSEs|A[- ]levels?|JEE|NEET|UPSC|"
         r"Abitur|bar exam|driving test|driver['’]?s test|road test|citizenship test|entrance exams?|board exams?|"
         r"final exams?|finals|midterms?")
# "prepare for the IELTS", "help me study for my GRE", "revising for my finals", "pass the bar exam".
_EXAM_RE = re.compile(
    r"\b(?P<verb>prepare|preparing|prep|prepping|study|studying|revise|revising|cram|cramming|pass|passing|"
    r"(?:study|revision) (?:plan|schedule|timetable)|tips|[Mm]y) "
    r"(?P<for>for )?(?:(?:the|my|an?|this|next|upcoming|coming) )*(?P<exam>(?:[\w-]+ )?(?-i:" + EXAMS + r"))\b"
    r"(?: (?:is |are )?(?P<when>(?:in|on|next|this) (?:[A-Z][a-z]+|week|month|year|summer|spring|autumn|fall|winter)))?",
    re.IGNORECASE,
)
_DONE_RE = re.compile(r"\b(?:passed|failed|took|did|didn['’]t|did not|finished|completed|aced|flunked|after|since|"
                      r"results? (?:of|from|for)|scores? (?:on|in|from))\s+(?:\w+\s+)?$", re.IGNORECASE)
_ING = {"study plan": "studying", "study schedule": "studying", "study timetable": "studying",
        "revision plan": "revising", "revision schedule": "revising", "revision timetable": "revising",
        "tips": "preparing", "my": "preparing", "prepare": "preparing", "prep": "preparing", "study": "studying", "revise": "revising", "cram": "cramming",
        "pass": "preparing", "passing": "preparing", "prepping": "preparing", "improve": "improving",
        "practice": "practicing", "practise": "practising", "polish": "polishing", "learn": "learning",
        "master": "mastering", "brush up on": "brushing up on", "work on": "working on"}
# "my thesis on coral reefs", "my master's thesis about urban heat islands" (not "my thesis statement" of an essay).
_THESIS_RE = re.compile(
    r"\b[Mm]y (?P<what>(?:(?:master['’]?s|bachelor['’]?s|PhD|Ph\.D\.|doctoral|senior|honou?rs|undergraduate|graduate|"
    r"final[- ]year|MBA|MSc|MA|BA|BSc) )?(?:thesis|dissertation))(?! statement| defen[cs]e| advisor| supervisor)"
    r"(?: (?P<about>(?:on|about|regarding|titled|called|exploring|examining) [^.,;:!?\n\"“]{3,80}?))?"
    r"(?=\s*(?:[.,;:!?)\n\"“]|$)|\s+(?:and|but|so|because|please|pls|can|could|would|i|I|which|that|for|with)\b)"
)
# "a cover letter for a nurse position", "a statement of purpose for a master's in computer science".
_APPLICATION_RE = re.compile(
    r"\b(?:cover letter|motivation letter|application letter|letter of motivation|personal statement|"
    r"statement of purpose|SOP)s?\b[^.?!\n]{0,25}?\bfor (?P<role>(?:an? |the )?(?!(?:my|his|her|their|your|this|"
    r"that|him|me)\b)(?:[\w&'’/+.-]+ ){0,5}?(?:position|role|job|post|internship|vacancy|opening|program|programme|"
    r"master['’]?s|MBA|PhD|MS|MSc|MA|MEng|MPH|MFA|LLM|degree|scholarship|fellowship|residency|apprenticeship|exchange)"
    r"(?! (?:program|programme|degree|course|position|role|job|internship|scholarship)\b)"
    r"(?: (?:in|of|at|with) (?:[A-Z][\w&'’.-]*|[a-z][\w-]*)(?: (?:[A-Z][\w&'’.-]*|and [a-z]+|"
    r"(?!(?:and|or|but|to|for|with|please|that|which|who|so|because|as|from|at|in|i|me|my)\b)[a-z][\w-]*))"
    r"{0,3}(?: (?:at|in) [A-Z][\w&'’.-]*(?: (?:of |de |the )?[A-Z][\w&'’.-]*){0,3})?)?)(?![\w'’-])",
)
# "a quiz for my 5th graders", "report card comments for my kindergarten students": whom the user teaches.
_TAUGHT_RE = re.compile(
    r"\b[Mm]y (?P<who>(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
    r"eleventh|twelfth)[ -]graders|kindergarteners|kindergartners|preschoolers|pupils|"
    r"(?:kindergarten|preschool|nursery|K\d|year \d{1,2}|grade \d{1,2}|\d{1,2}(?:st|nd|rd|th)[ -]grade|ESL|EFL|"
    r"high school|middle school|elementary|primary|secondary) (?:students|pupils|learners))(?![\w-])"
)
# "our startup's landing page", "a name for our small bakery's new cake": a venture the user speaks for.
_OUR_VENTURE_RE = re.compile(
    r"\b[Oo]ur (?P<what>(?:(?:small|little|new|family|family-run|local|online|tiny|own) )?(?:startup|start-up|"
    r"small business|family business|bakery|caf[eé]|coffee shop|restaurant|food truck|online (?:store|shop)|"
    r"Etsy shop|nonprofit|non-profit|charity|band|podcast|YouTube channel|agency|brewery|winery|B&B))(?![\w-])"
)
# The help is for someone else: "a cover letter for my son", "her thesis", "my students want to learn Spanish".
_SOMEONE_ELSE_RE = re.compile(
    r"\b(?:he|she|him|her|his|hers|they're|someone|somebody|a friend|a student|an applicant|a candidate|people|"
    r"sample|example|template|generic)\b"
    r"|\b(?:my|our) (?:[\w-]+ )?(?:sons?|daughters?|kids?|children|child|wife|husband|partner|boyfriend|girlfriend|"
    r"friends?|brothers?|sisters?|mom|mum|mother|dad|father|parents?|cousins?|niece|nephew|clients?|customers?|"
    r"students?|pupils|boss|colleagues?|coworkers?|employees?|team|roommate)\b(?!['’]s (?:landing|new|website|menu))",
    re.IGNORECASE,
)
# Writing about the topic is not doing it: "an essay on the best way to learn Spanish", "a blog post about the IELTS".
_ABOUT_A_TOPIC_RE = re.compile(
    r"\b(?:essay|article|blog|post|paragraph|speech|story|poem|script|video|guide|lesson|presentation|thread|caption|"
    r"ad|advert\w*|e-?book|book|listicle|tweet|newsletter|quiz|worksheet|course|curriculum|brochure|flyer|slides?|"
    r"question|questions|survey|research)s?\b[^.?!\n]{0,40}\b(?:on|about|explaining|titled|called|describing|"
    r"for (?:people|beginners|students|learners|kids|children|adults))\b",
    re.IGNORECASE,
)

# Words a statement says that its request only implies, with what in the quote licenses each (quotes.py).
INFERRED_WORDS: dict[str, re.Pattern] = {
    "apply": re.compile(r"cover letter|motivation letter|application letter|letter of motivation|personal statement|"
                        r"statement of purpose|\bSOP\b", re.IGNORECASE),
    "writ": re.compile(r"\b(?:thesis|dissertation)\b", re.IGNORECASE),
    "teach": re.compile(_TAUGHT_RE.pattern),
    "revis": re.compile(r"\brevision\b", re.IGNORECASE),
    "prepar": re.compile(r"\b(?:pass|passing|prep|prepping|tips for|my)\b (?:(?:the|my|next|upcoming) )?(?:[\w-]+ )?"
                         rf"(?-i:{EXAMS})\b", re.IGNORECASE),
    "写": re.compile(r"论文"),
    # "I'm on Windows 11", "on my Raspberry Pi" → "User uses …" (own_projects.devices; "uses" stems to "us")
    "us": re.compile(r"\b(?:I|i)(?:'m| am|’m|m) (?:on|running|using)\b|\bon my\b"),
    "hope": re.compile(r"\bhopefully\b", re.IGNORECASE),  # hopes.py: "Hopefully I can …" → "User hopes to …"
}


def _sentence_of(text: str, at: int) -> str:
    return next((text[a:b] for a, b in sentences(text) if a <= at < b), text)


def _for_someone_else(text: str, at: int) -> bool:
    sentence = _sentence_of(text, at)
    return bool(_SOMEONE_ELSE_RE.search(sentence) or _ABOUT_A_TOPIC_RE.search(sentence[: max(0, at - text.find(sentence))]))


def learning(text: str) -> list[tuple[str, str, int]]:
    """(quote, statement, where) for a language, an instrument or a skill the user asks how to learn or improve."""
    found = []
    for m in _LEARN_RE.finditer(text):
        if _for_someone_else(text, m.start()):
            continue
        verb, what = m.group("verb").lower(), m.group("what")
        ing = verb if verb.endswith("ing") else _ING.get(verb, "studying" if verb == "study" else verb + "ing")
        lead = m.group("lead")
        if lead:
            wish = re.sub(r"^I['’]d like", "I would like", re.sub(r"^I['’]m trying", "I am trying", lead))
            said = re.sub(r"^I (want|need|wanna)", lambda w: f"User {'wants' if w.group(1) == 'wanna' else w.group(1) + 's'}",
                          wish)
            said = re.sub(r"^I (?:am|'m|’m) trying", "User is trying", re.sub(r"^I would", "User would", said))
            said = re.sub(r"^I have decided", "User has decided", said)
            found.append((m.group(0), f"{said} {verb} {what}", m.start()))
        else:
            at = m.start("me") if m.group("me") else m.start()  # "I learn guitar": not a quote that opens asking
            found.append((text[at: m.end()], f"User is {ing} {what}", at))
    for m in _IMPROVE_MY_RE.finditer(text):
        if not _for_someone_else(text, m.start()):
            verb = m.group("verb").lower()
            found.append((m.group(0), f"User is {_ING.get(verb, verb)} their {m.group('what')}", m.start()))
    return found


def exams(text: str) -> list[tuple[str, str, int]]:
    """(quote, statement, where) for a named exam the user asks how to prepare for, study for or pass."""
    found = []
    for m in _EXAM_RE.finditer(text):
        verb = m.group("verb").lower()
        if not m.group("for") and verb not in ("pass", "passing", "my") or _for_someone_else(text, m.start()):
            continue
        if _DONE_RE.search(text[max(0, m.start() - 30): m.start()]):
            continue  # "I passed my driving test", "after my finals": behind the user
        exam = m.group("exam")
        article = "" if re.match(r"(?:finals|midterms|GCSEs|A[- ]levels|entrance exams|board exams)$", exam) else "the "
        when = f" {m.group('when')}" if m.group("when") else ""
        found.append((m.group(0), f"User is {_ING.get(verb, verb)} for {article}{exam}{when}", m.start()))
    return found


def theses(text: str) -> list[tuple[str, str, int]]:
    """(quote, statement, where) for "my thesis on X" → "User is writing a thesis on X"."""
    found = []
    for m in _THESIS_RE.finditer(text):
        what = m.group("what")
        about = f" {m.group('about')}" if m.group("about") else ""
        found.append((m.group(0), f"User is writing {'an' if what[0].lower() in 'aeiou' else 'a'} {what}{about}",
                      m.start()))
    return found


def applications(text: str) -> list[tuple[str, str, int]]:
    """(quote, statement, where) for the role or the programme a cover letter or a statement of purpose is for."""
    found = []
    for m in _APPLICATION_RE.finditer(text):
        if _for_someone_else(text, m.start()):
            continue
        role = m.group("role")
        found.append((m.group(0), f"User is applying for {role}", m.start()))
    return found


def taught(text: str) -> list[tuple[str, str, int]]:
    """(quote, statement, where) for "my 5th graders" → "User teaches 5th graders"."""
    return [(m.group(0), f"User teaches {m.group('who')}", m.start()) for m in _TAUGHT_RE.finditer(text)]


def ventures(text: str) -> list[tuple[str, str, int]]:
    """(quote, statement, where) for "our startup" → "User has a startup" (the user speaks for it)."""
    found = []
    for m in _OUR_VENTURE_RE.finditer(text):
        what = m.group("what")
        has = "is in" if what.endswith("band") else "has"  # "our band's gig" → "User is in a band"
        found.append((m.group(0), f"User {has} {'an' if what[0].lower() in 'aeiou' else 'a'} {what}", m.start()))
    return found


# "my Google interview", "my interview at Deloitte", "my job interview with Amazon".
_INTERVIEW_RE = re.compile(
    r"\b[Mm]y (?:(?P<at_name>[A-Z][\w&.-]*) |(?:upcoming |next |first |second |final |phone |video |technical |coding |job )+)?"
    r"interview(?(at_name)|(?: (?:at|with|for) (?P<at>[A-Z][\w&.-]*(?: [A-Z][\w&.-]*){0,2}|the [\w-]+ (?:position|role|job)|"
    r"an? [\w-]+(?: [\w-]+)? (?:position|role|job)))?)(?![\w-])"
)
# "for my IT provider", "an email to my accountant": someone the user hires.
_HIRED_RE = re.compile(
    r"\b[Mm]y (?P<who>(?:IT|web|hosting|internet|cloud|software|energy|electricity|cleaning|marketing|SEO|payroll|"
    r"logistics|shipping) (?:provider|supplier|vendor|agency|company)|(?:suppliers?|vendors?|contractor|builder|"
    r"accountant|bookkeeper|lawyer|attorney|realtor|estate agent|tutor|web designer|wedding planner))(?![\w-])"
)


def interviews(text: str) -> list[tuple[str, str, int]]:
    """(quote, statement, where) for "my Google interview" → "User has a Google interview"."""
    found = []
    for m in _INTERVIEW_RE.finditer(text):
        if not (m.group("at_name") or m.group("at")) or _DONE_RE.search(text[max(0, m.start() - 30): m.start()]):
            continue  # a bare "my interview" says little; one behind the user is news of the day
        said = f"User has a {m.group('at_name')} interview" if m.group("at_name") else \
            f"User has an interview {m.group(0).split('interview ', 1)[1]}"
        found.append((m.group(0), said, m.start()))
    return found


def hired(text: str) -> list[tuple[str, str, int]]:
    """(quote, statement, where) for "my IT provider" → "User has an IT provider"."""
    found = []
    for m in _HIRED_RE.finditer(text):
        who = m.group("who")
        plural = who.endswith("s")
        found.append((m.group(0), f"User has {'' if plural else 'an ' if who[0] in 'aeiouAEIOU' and not who.startswith('IT') else 'a '}{who}"
                      .replace("a IT", "an IT"), m.start()))
    return found


_CLAUSE_TAIL = r"(?=\s*(?:[.,;:!?)\n]|$)|\s+(?:and (?:I|we|it|i)|but|so|how|what|which|can|could|is|are|please)\b)"
# "At work we use Django and Postgres", "for my job I maintain a legacy PHP app": the user's work, said beside a task.
_AT_WORK_RE = re.compile(
    r"(?:^|(?<=[.!?]\s)|(?<=\n)|(?<=,\s))\s*(?P<where>(?:[Aa]t|[Ff]or|[Ii]n) (?:work|my (?:job|work|company|office|workplace|"
    r"day job)))\s*,?\s*(?:I|we|i) (?P<verb>use|work with|run|build|maintain|develop|support|manage|deploy|sell|"
    r"write|handle) (?P<what>[^.,;:!?\n]{2,60}?)" + _CLAUSE_TAIL
)
_THIRD = {"work with": "works with", "manage": "manages"}
# "we are a small team building a CRM for dentists": what the user's team makes.
_TEAM_RE = re.compile(
    r"\b[Ww]e(?: are|'re|’re) an? (?P<team>(?:[\w-]+ ){0,2}team)(?: of [\w-]+)? (?P<doing>building|developing|creating|"
    r"making|working on|running|launching|designing) (?P<what>[^.,;:!?\n]{3,60}?)" + _CLAUSE_TAIL
)


def at_work(text: str) -> list[tuple[str, str, int]]:
    """(quote, statement, where) for "At work we use Django" → "User uses Django at work"; "we are a small team
    building a CRM for dentists" → "User's small team is building a CRM for dentists"."""
    found = []
    for m in _AT_WORK_RE.finditer(text):
        verb = m.group("verb")
        said = _THIRD.get(verb, verb + "s")
        where = re.sub(r"\bmy\b", "their", m.group("where")).lower()
        found.append((m.group(0).strip(), f"User {said} {m.group('what')} {where}", m.start("where")))
    for m in _TEAM_RE.finditer(text):
        found.append((m.group(0), f"User's {m.group('team')} is {m.group('doing')} {m.group('what')}", m.start()))
    return found


def implied(text: str) -> list[tuple[str, str, int]]:
    """Every shape above, English and Chinese, as (quote, statement, where it starts)."""
    return (learning(text) + exams(text) + theses(text) + applications(text) + taught(text) + ventures(text)
            + interviews(text) + hired(text) + at_work(text) + zh_implied(text))


_ZH_EXAMS = (r"考研|雅思|托福|高考|中考|英语四级|英语六级|四六级|四级|六级|公务员考试|国考|省考|教资|教师资格证|法考|"
             r"司法考试|注会|CPA|GRE|GMAT|期末考试|期中考试|驾照考试|科目[一二三四]")
# "我在准备考研", "怎么备考雅思", "复习四六级": an exam the user prepares for.
_ZH_EXAM_RE = re.compile(rf"(?P<verb>准备|备考|复习|备战)(?P<exam>{_ZH_EXAMS})")
_ZH_LEARNT = (r"英语口语|英语|英文|日语|韩语|法语|德语|西班牙语|俄语|意大利语|葡萄牙语|阿拉伯语|粤语|编程|Python|python|Java|"
              r"钢琴|吉他|小提琴|尤克里里|架子鼓|画画|绘画|素描|游泳|做饭|书法|摄影")
# "怎么才能快速学好日语", "我想学钢琴": what the user asks how to learn.
_ZH_LEARN_RE = re.compile(
    rf"(?P<lead>怎么|如何|怎样|想|要|开始|正在|打算)(?:才能|可以|能|去)?(?:快速|更好地?|高效地?|自学|好好|尽快)?"
    rf"(?P<verb>学好|学习|自学|学|练好|练习|练)(?P<what>{_ZH_LEARNT})"
)
# "我的毕业论文", "我的论文是关于人工智能伦理的", "帮我写硕士论文": the thesis the user writes.
_ZH_THESIS_RE = re.compile(
    r"(?:我的|帮我写(?:一篇|一下)?(?:我的)?(?=毕业|硕士|博士|本科|学位))(?P<level>毕业|硕士|博士|本科|学位|课程)?论文"
    r"(?:(?:是|的题目是|题目是)?关于(?P<about>[^，。！？,.!?]{2,30}?)的)?"
)
# "我写了一篇英语作文": what the user wrote and brings.
_ZH_WROTE_RE = re.compile(
    r"我(?:刚|刚刚|自己)?写了(?P<what>(?:一篇|一封|一份|篇|份)[^，。！？,.!?]{0,12}?(?:作文|文章|论文|报告|邮件|简历|求职信|演讲稿))"
)
# "帮我写一封求职信，应聘数据分析师岗位": the job the user applies for.
_ZH_APPLY_RE = re.compile(
    r"求职信|自荐信|申请信|(?P<verb>应聘|申请)(?P<role>[^，。！？,.!?]{2,20}?(?:岗位|职位|实习|项目|专业|硕士|博士|研究生)(?:项目|专业|课程)?)")
_ZH_LETTER_RE = re.compile(r"求职信|自荐信|申请信|简历|个人陈述|文书|推荐信")  # "申请…项目" only beside the letter for it
# "做一个智宠U家创新创业的PPT": the presentation the user has to give.
_ZH_SLIDES_RE = re.compile(r"(?:做|制作)(?:一个|一份|个|份)?(?P<what>[^，。！？,.!?的]{2,24})的(?:PPT|ppt|演示文稿|幻灯片)")
# Someone else's learning, exam or work, a story, or a supposition.
_ZH_NOT_THE_USER_RE = re.compile(r"儿子|女儿|孩子|朋友|同学|同事|老公|老婆|学生|客户|老板|妈妈|爸爸|父母|(?<!吉)他|她|别人|宝宝|"
                                 r"弟弟|妹妹|哥哥|姐姐|故事|小说|剧本|扮演|角色|如果|假如|假设|范文|例文")
_ZH_LEAD = {"想": "想", "要": "想", "打算": "打算", "开始": "开始"}  # "我想学钢琴": wanted, not yet begun
_ZH_SENTENCE_RE = re.compile(r"[^。！？!?\n]+")


def zh_implied(text: str) -> list[tuple[str, str, int]]:
    """(quote, statement, where) of the Chinese shapes: exams, learning, a thesis, what the user wrote, a job
    applied for, slides to make."""
    found = []
    for s in _ZH_SENTENCE_RE.finditer(text):
        sentence = s.group(0)
        if _ZH_NOT_THE_USER_RE.search(sentence):
            continue
        found += [(m.group(0), f"用户在{m.group('verb')}{m.group('exam')}", s.start() + m.start())
                  for m in _ZH_EXAM_RE.finditer(sentence)]
        found += [(m.group(0), f"用户{_ZH_LEAD.get(m.group('lead'), '在')}{m.group('verb').rstrip('好')}{m.group('what')}",
                   s.start() + m.start()) for m in _ZH_LEARN_RE.finditer(sentence)]
        found += [(m.group(0), f"用户在写{'关于' + m.group('about') + '的' if m.group('about') else ''}{m.group('level') or ''}论文",
                   s.start() + m.start()) for m in _ZH_THESIS_RE.finditer(sentence)]
        found += [(m.group(0), f"用户写了{m.group('what')}", s.start() + m.start()) for m in _ZH_WROTE_RE.finditer(sentence)]
        applied = [m for m in _ZH_APPLY_RE.finditer(sentence)] if _ZH_LETTER_RE.search(text) else []
        roles = [m for m in applied if m.group("role")]
        found += [(m.group(0), f"用户在{m.group('verb')}{m.group('role')}", s.start() + m.start()) for m in roles]
        if applied and not roles:
            found += [(m.group(0), "用户在求职", s.start() + m.start()) for m in applied[:1] if "求职" in m.group(0)]
        found += [(m.group(0), f"用户要做{m.group('what')}的PPT" if "PPT" in m.group(0).upper() else
                   f"用户要做{m.group('what')}的{m.group(0)[m.end('what') - m.start() + 1:]}", s.start() + m.start())
                  for m in _ZH_SLIDES_RE.finditer(sentence)]
    return found
