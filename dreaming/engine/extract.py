"""Clause-level self-disclosure extraction from the user's turns, English and Chinese.

For each user turn:
1. split it into sentences, then into clauses at the points where a new first-person clause starts
   ("…, but I live in Ohio", "…，我还喜欢读书");
2. keep a clause only when it is the user saying something about themself: a first-person subject
   and a disclosure verb, not a question, a hypothetical, a request to the assistant, a clause about
   the task at hand, small talk without content, or sensitive content (health, religion, credentials);
3. quote = the verbatim clause (a substring of the message), statement = the clause in the third
   person, with category and importance from rules;
4. keep the ten most important per session.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from dreaming.engine.language import CJK_RE, content_tokens, sentences
from dreaming.engine.third_person import conjugate, to_third_person_en, to_third_person_zh
from dreaming.providers.base import ExtractedCandidate, Turn
from dreaming.sensitive import sensitive_category

MAX_CANDIDATES = 10

# ---------------------------------------------------------------------------------------------
# English
# ---------------------------------------------------------------------------------------------

_SUBJ = r"(?:I|i|I'm|I’m|i'm|Im|im|I m|[Ii]am|I've|I’ve|i've|Ive|I'd|I’d|I'll|I’ll|[Mm]y|MY)"
# Where a new first-person clause starts inside a sentence.
_EN_CLAUSE_SPLIT_RE = re.compile(
    rf"(?:,|;|:|\s-\s|\s–\s)\s*(?:(?:and|but|so|because|cause|since|though|although|plus|then|now)\s+)?(?={_SUBJ}\b)"
    rf"|\s+(?:and|but|so|because|cause|since|though|although|plus|while|as|where|&)\s+(?:(?:yes|yeah|no|well|also|now),?\s+)?(?=(?:{_SUBJ}|[Ww]e|[Ww]e've)\b)"
    r"|\s+and\s+(?=(?:also\s+|usually\s+|often\s+|really\s+)?(?:am|have|love|like|enjoy|hate|prefer|play|watch|"
    r"listen|read|work|live|own|go|do|take|spend|make|cook|bake|write|run|ride|drive|teach|study|collect|sing|"
    r"dance|draw|paint|travel|hike|swim|fish|hunt|volunteer|got|went|moved|started|bought)\b)"
    r"|,?\s+but\s+|,\s*(?:do|did|are|have|what|how|where|which|who|would|can|could|is)\s+you\b.*$"
    r"|[,\s]+(?:what|how) about you\b.*$|,\s*(?:and )?(?:you|yours|u)\s*\?.*$",
)
_LEAD_FILLER_RE = re.compile(
    r"^(?:(?:oh|ah|aw|aww|wow|haha+|hah|lol|lmao|hehe|well|yes|yeah|yea|yep|yup|no|nope|nah|hi|hello|hey|"
    r"cool|nice|neat|great|awesome|sure|ok|okay|alright|hmm+|um+|uh|so|and|but|also|actually|honestly|"
    r"anyway|anyways|really|true|right|same|me too|same here|good|thanks|thank you|that's cool|that's great|"
    r"that's awesome|that is cool|that sounds (?:fun|great|nice|awesome)|i see|interesting|oh wow|"
    r"definitely|absolutely|of course|exactly|indeed|wait|hmm|fair enough|not really|not much|sounds good|"
    r"i agree|to be honest|tbh|personally|funny|ha|omg|gosh|yikes|sorry|i know|you know|i mean|"
    r"i think|i guess|i believe|i suppose|i feel like|i would say|i'd say|i have to say|i must say|"
    r"that's why|thats why|which is why|that is why|now|then|because|cause|since|though|although|"
    r"i get that|i hear you|i feel you|i know right|i'm sure|i am sure|i bet|i'm great thanks|"
    r"i see what you mean|i understand|doing (?:ok|okay|good|great|well|fine|alright|pretty good)(?: here)?|"
    r"not bad|pretty good|not much|i'm (?:good|great|fine|ok|okay|doing (?:well|good|great|ok|okay|fine))|"
    r"i am (?:good|great|fine|ok|okay|doing (?:well|good|great|ok|okay|fine))|hi there|hello there|hey there|maybe that's why|maybe thats why|"
    r"that's probably why|probably because|well then|good to know|thank you|thanks)"
    r"(?:[\s,!.…:;-]+|$))+",
    re.IGNORECASE,
)
_EN_START_RE = re.compile(rf"^{_SUBJ}\b")
# In English the word after "I" is (nearly always) a verb or an adverb before one: "I fix computers",
# "I immigrated from Britain". Opinion and conversation verbs are turned away by _EN_GENERIC_RE.
_EN_ANY_VERB_RE = re.compile(r"^(?:I|i)\s+[A-Za-z]{2,}\b")
_EN_GENERIC_RE = re.compile(
    r"^(?:I|i)(?:'m|’m| am)?\s+(?:(?:really|just|so|very|totally|also|too)\s+)*"
    r"(?:think|guess|see|know|agree|mean|understand|believe|suppose|bet|wonder|was wondering|hear|heard|"
    r"can imagine|can't imagine|cannot imagine|can see|can tell|get it|get that|feel you|hope so|"
    r"hope you|love that|like that|love it|like it|love this|like this|love those|love them|"
    r"sure|not sure|glad|sorry|afraid|kidding|joking|fine|good|ok|okay|great|well|doing|"
    r"have a question|have an idea|have no idea|have to go|have to say|have to ask|must say|would say|"
    r"don't know|dont know|do not know|didn't know|did not know|don't think|dont think|can't wait|"
    r"can relate|totally agree|have heard|hadn't|haven't heard|forgot|remember that|'m here|am here|"
    r"was going to|'m going to ask|am going to ask|appreciate|thank|would love to hear|"
    r"would like to know|want to know|'d like to know|wanted to ask|want to ask|have never heard|"
    r"have not heard|hope that|hope it|hope they|hope he|hope she|do too|am too|have too|did too|"
    r"am a big fan|am a fan|'m a big fan|'m a fan|am the same|'m the same|was the same|was thinking|"
    r"do as well|do!?$|am!?$|have!?$|did!?$|love!?$|like!?$|dunno|reckon|assume|doubt|admit|promise|swear|"
    r"apologi[sz]e|recommend|suggest|realize|realise|notice|noticed|gotta go|love you|hate to say|"
    r"say|said|told you|mean it|was just (?:saying|kidding|joking|wondering|asking|curious)|"
    r"hope|could|would|should|might|may|must|will have to|'ll have to|’ll have to|'ll (?:check|look|try|give)|"
    r"will (?:check|look|try|give)|'ll be (?:more than )?happy|will be (?:more than )?happy)\b",
    re.IGNORECASE,
)
# A state of the moment is small talk, not something to remember: "I'm so jealous", "I am busy today".
_EN_MOMENT_RE = re.compile(
    r"^(?:I|i)(?:'m|’m| am| m|m| was)\s+(?:(?:so|very|really|pretty|just|a bit|a little|kinda|too|quite|"
    r"super|totally|not)\s+)*(?:busy|tired|jealous|bored|excited|happy|sad|sorry|glad|good|great|fine|ok|okay|"
    r"well|hungry|sleepy|exhausted|stressed|curious|confused|impressed|surprised|envious|lucky|"
    r"relaxing|chilling|here|back|home|ready|done|listening|thinking|wondering|waiting|trying|sure|"
    r"too old for that|old|scared|afraid|nervous|worried|jealous|sick of it)\b"
    r"(?:\s+(?:right now|today|tonight|now|at the moment|lol|haha|to hear that|about that|for you))?\s*$",
    re.IGNORECASE,
)
# What the user is doing this minute: "I'm just looking out at the desert", "I was just watching a movie".
_EN_RIGHT_NOW_RE = re.compile(
    r"^(?:I|i)(?:'m|’m| am| m|m| was)\s+just\s+(?!started|moved|got|graduated|finished school)\w+ing\b|"
    r"^(?:I|i)(?:'ll|’ll| will| am going to|'m going to|’m going to|'m gonna| am gonna)\s+(?:go\s+)?"
    r"(?:go|head|get|grab|make|take|watch|eat|have|try|sleep|rest|relax)\b.*\b(?:now|tonight|later|today|soon)\b",
    re.IGNORECASE,
)
_EN_QUESTION_INSIDE_RE = re.compile(
    r"[,\s]+(?:what|how|where|which|who|why|when|can you|could you|would you|do you|did you|are you|have you|"
    r"any (?:tips|ideas|advice|suggestions))\b",
    re.IGNORECASE,
)
_EN_QUESTION_START_RE = re.compile(
    r"^(?:do|does|did|are|is|was|were|have|has|can|could|would|will|should|what|why|how|where|when|who|"
    r"which|whats|what's|how's|any)\b",
    re.IGNORECASE,
)
_EN_HYPOTHETICAL_RE = re.compile(
    r"^(?:if|unless|suppose|imagine|what if|pretend|in case|maybe|perhaps)\b|"
    r"\b(?:suppose|imagine|what if|pretend|maybe|perhaps|someday)\b|"
    r"^(?:I|i)(?:'d|’d| would| could| might| may| should)\b(?! (?:been|had|gone|lived))|"
    r"^(?:I|i) (?:want|wanna|need|would like|'d like|plan|hope) (?:to )?(?:know|see|ask|say|hear|tell|thank|"
    r"check|make sure|try it|try that|try this|look)\b",
    re.IGNORECASE,
)
_EN_REQUEST_RE = re.compile(
    r"\b(?:(?:want|need|would like|'d like|’d like|wanted) (?:you|u|someone|somebody|it|this|that)\b|"
    r"can you|could you|would you|will you|help me|for me\b|please|pls|plz|tell me|show me|give me|"
    r"let me know|write me|make me|explain|suggest|recommend me)",
    re.IGNORECASE,
)
_EN_TASK_NOUN_RE = re.compile(
    r"\b(?:poem|story|essay|article|email|e-mail|letter|code|script|function|program|prompt|paragraph|"
    r"sentence|summary|translation|caption|title|outline|response|reply|answer|example|examples|list|"
    r"slogan|description|lyrics|speech|joke|riddle|word count|words|file|files|error|bug|question|"
    r"questions|chatbot|this chat|assistant|ai|gpt|chatgpt|your answer|the text|the following|output|"
    r"input|table|chart|formula|macro|column|row|variable|class|method|compile|install|api|project|"
    r"assignment|homework|task|exam question|quiz)\b",
    re.IGNORECASE,
)
_EN_TASK_VERB_RE = re.compile(
    r"\b(?:need|want|'m looking for|am looking for|looking for|trying to (?:write|make|fix|get|build|code|"
    r"create|find|understand)|wrote|writing|have written|created|running|ran|getting|got|tried|used|using|"
    r"have|had|see|saw)\b",
    re.IGNORECASE,
)
_EN_NOT_ABOUT_USER_RE = re.compile(r"\b(?:you|your|yours|u)\b", re.IGNORECASE)
_EN_FILLER_WORDS_RE = re.compile(
    r"\s*\b(?:really|actually|just|pretty|totally|definitely|absolutely|basically|literally|honestly|"
    r"seriously|kinda|sorta|lol|haha+|hehe|lmao)\b",
    re.IGNORECASE,
)
_EN_TRAILING_RE = re.compile(
    r"(?:[\s,;:]+(?:too|as well|also|though|lol|haha+|either|anyway|anyways|in my (?:free|spare) time|"
    r"these days|nowadays|currently|right now|at the moment|sometimes|a lot|alot|all the time|so much|"
    r"very much|for sure|on the side|still|still though))+\s*$",
    re.IGNORECASE,
)
_EN_PRONOUN_ONLY = frozenset("it that this those these them one ones so too much lot".split())

_RELATION_EN_RE = re.compile(
    r"\b(?:wife|husband|spouse|partner|boyfriend|girlfriend|fiance|fiancee|fiancé|fiancée|sisters?|brothers?|"
    r"sibling|siblings|mom|mum|mother|dad|father|parents|son|sons|daughter|daughters|kid|kids|child|children|"
    r"baby|babies|grandma|grandpa|grandmother|grandfather|grandparents|grandson|granddaughter|grandkids|"
    r"grandchildren|aunt|uncle|cousin|cousins|niece|nephew|family|friend|friends|best friend|roommate|"
    r"neighbor|neighbour|boss|coworker|co-worker|colleague|in-laws|stepmom|stepdad|twin|married|divorced|"
    r"engaged|single|widowed|dating)\b",
    re.IGNORECASE,
)
_PREFERENCE_EN_RE = re.compile(
    r"\b(?:like|likes|liked|love|loves|loved|adore|enjoy|enjoys|enjoyed|hate|hates|dislike|dislikes|prefer|"
    r"prefers|favorite|favourite|fan of|into|can't stand|cannot stand|passion|passionate|obsessed|"
    r"addicted to|big on|crazy about)\b",
    re.IGNORECASE,
)
_EMOTION_EN_RE = re.compile(
    r"\b(?:feel|feels|feeling|felt|happy|sad|stressed|excited|nervous|worried|scared|afraid|tired|"
    r"exhausted|lonely|angry|upset|frustrated|overwhelmed|proud|grateful|bored|anxious|heartbroken|"
    r"thrilled|relieved|disappointed|jealous|homesick|miserable|content|hopeful|ashamed|embarrassed)\b",
    re.IGNORECASE,
)
_EVENT_EN_RE = re.compile(
    r"\b(?:yesterday|today|tonight|last (?:week|month|year|night|weekend|summer|winter)|this (?:week|month|"
    r"year|weekend|morning)|recently|just (?:got|moved|started|finished|bought|came|went|had|graduated)|"
    r"went|moved|got|started|finished|graduated|retired|bought|visited|traveled|travelled|adopted|met|won|"
    r"lost|quit|joined|married|will|going to|gonna|next (?:week|month|year))\b",
    re.IGNORECASE,
)
_LONG_LIVED_EN_RE = re.compile(
    r"\b(?:live|lives|lived|from|born|grew up|work|works|worked|job|career|profession|name is|named|"
    r"years old|married|kids|children|son|daughter|wife|husband|degree|college|university|school|"
    r"teacher|nurse|engineer|doctor|student|retired|own|owns|dog|cat|pet|vegan|vegetarian|moving|move|moved)\b",
    re.IGNORECASE,
)
_SPECIFIC_EN_RE = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|hundred|first|"
    r"second|third)\b|\b(?:named|called)\b|\b(?:in|at|from|to) [A-Z]\w+|(?<!^)(?<![.!?] )\b[A-Z][a-z]{2,}",
)

# ---------------------------------------------------------------------------------------------
# Chinese
# ---------------------------------------------------------------------------------------------

_ZH_CLAUSE_SPLIT_RE = re.compile(r"[，,：:]")
_ZH_LEAD_FILLER_RE = re.compile(
    r"^(?:(?:你好|您好|嗨|哈喽|哈哈+|嘿|嗯+|啊|哦|噢|哇|好的|好吧|是的|是啊|对|对啊|对呀|没错|当然|谢谢你?|"
    r"AI伴侣|ai伴侣|AI|小助手|其实|而且|所以|但是|不过|可是|然后|还有|另外|说实话|老实说|因为|并且|"
    r"我跟你说|跟你说|告诉你)[，,！!。~～\s]*)+"
)
_ZH_FIRST_PERSON_RE = re.compile(r"^(?:(?![我你他她它这那])[\u4e00-\u9fff]){0,6}?(?<![自忘])我(?!们)")
_ZH_OBJECT_ME_RE = re.compile(r"[给对让帮跟和叫告诉陪教问带替向]我(?!们)")
_ZH_QUESTION_RE = re.compile(r"[？?]$|吗$|呢$|什么|怎么|为什么|哪|吗[，。！]|你觉得|你认为|你有没有|能不能|可不可以|是不是|有没有")
_ZH_REQUEST_RE = re.compile(r"请你|帮我|给我|你能|你可以|麻烦你|推荐|建议我|告诉我|请教|想问|问你|和你聊|跟你聊|想听听")
_ZH_GENERIC_RE = re.compile(
    r"^我(?:也|还|一定|就|真的)*(?:觉得|认为|想想|知道了?|明白了?|懂了?|同意|同感|也是|会去看|会的|会试|会注意|"
    r"会努力|会加油|相信你|理解|猜|希望你|谢谢|很好|挺好|还好|没事|不知道|不太清楚|不确定|看看|试试|"
    r"已经记下|记下来|记住了|会(?:好好|去试|试着|尝试|努力|注意|考虑|坚持|按照|参考|去找|记住|多|先|认真)|"
    r"(?:准备|要|先|得)?去(?:吃|睡|洗|休息)|该去)|再见|晚安|拜拜"
)
_ZH_HYPOTHETICAL_RE = re.compile(r"如果|假如|要是|假设|万一|但愿|以后有机会")
_ZH_TASK_RE = re.compile(
    r"写一篇|写一首|写个|帮我写|翻译|作文|论文|文章|邮件|题目|作业|这段话|报错|代码|"
    r"(?:写|改|修改|调试|运行|跑)(?:一下)?(?:这个|这段|我的)?程序|这个程序|程序(?:报错|出错|有问题)"
)
_ZH_DISCLOSURE_RE = re.compile(
    r"我(?:[\u4e00-\u9fff]{0,4}?)(?:是|叫|住|在|喜欢|爱|讨厌|不喜欢|养|有|去|来自|搬|学|做|当|开|买|看|读|听|玩|"
    r"练|跑|打|弹|画|唱|跳|写|拍|参加|加入|结婚|离婚|毕业|工作|上班|上学|出生|长大|最近|今天|昨天|刚|已经|"
    r"一直|经常|每天|每周|周末|平时|从小|特别|很|非常|超|挺|比较|更|还|也|都|正在|打算|计划|准备|想去|想学|"
    r"热爱|迷上|爱上|擅长|会|感到|觉得自己|心情|有点|好|终于|决定|换了|辞职|退休|怀念|想念|成为|变得|家|老家|"
    r"妈|爸|父母|男朋友|女朋友|老公|老婆|孩子|儿子|女儿|哥|姐|弟|妹|朋友|同事|室友|的)"
)
_ZH_CONTINUATION_RE = re.compile(
    r"^(?:也|还|都|又|就|现在|目前|平时|每天|经常|一直|已经)*(?:在[\u4e00-\u9fffA-Za-z]{1,12}(?:工作|上班|上学|读书|住)|"
    r"住在|喜欢|爱上|讨厌|养了|是一名|是个|当了?|开了|买了|打算|准备|计划|正在学|学了|有一个|有两个|有一只)"
)
_ZH_TRAILING_RE = re.compile(r"[啊呀呢吧哦啦哈嘛噢~～！!。，,…\s]+$")

_RELATION_ZH_RE = re.compile(
    r"妈|爸|父母|男朋友|女朋友|男友|女友|老公|老婆|丈夫|妻子|爱人|对象|孩子|儿子|女儿|哥|姐|弟|妹|爷爷|奶奶|"
    r"外公|外婆|姥姥|姥爷|家人|朋友|闺蜜|同事|室友|同学|结婚|离婚|恋爱|分手"
)
_PREFERENCE_ZH_RE = re.compile(r"喜欢|爱|讨厌|最爱|热爱|偏爱|爱好|受不了|着迷|迷上|感兴趣|兴趣")
_EMOTION_ZH_RE = re.compile(
    r"开心|高兴|快乐|难过|伤心|焦虑|紧张|压力|累|孤独|寂寞|生气|烦|郁闷|兴奋|感动|失望|担心|害怕|心情|沮丧|委屈|幸福|满足"
)
_EVENT_ZH_RE = re.compile(r"今天|昨天|前天|上周|上个月|去年|最近|刚才|刚刚|刚|周末|下周|明天|[去到参加看学买做玩完]了")
_LONG_LIVED_ZH_RE = re.compile(r"住在|来自|出生|长大|工作|上班|职业|毕业|大学|学校|专业|结婚|孩子|养了|老家|叫|岁|搬")
_SPECIFIC_ZH_RE = re.compile(r"\d|[一二两三四五六七八九十百千万]+(?:年|岁|个|只|次|天|本|家)|《|叫|[A-Za-z]{2,}")


@dataclass(frozen=True)
class _Clause:
    quote: str
    statement: str
    category: str
    importance: float
    user_initiated: bool
    seq: int
    order: int


def _category_en(text: str) -> str:
    if _RELATION_EN_RE.search(text):
        return "relation"
    if _PREFERENCE_EN_RE.search(text):
        return "preference"
    if _EMOTION_EN_RE.search(text):
        return "emotion"
    if _EVENT_EN_RE.search(text):
        return "event"
    return "fact"


def _category_zh(text: str) -> str:
    if _RELATION_ZH_RE.search(text):
        return "relation"
    if _PREFERENCE_ZH_RE.search(text):
        return "preference"
    if _EMOTION_ZH_RE.search(text):
        return "emotion"
    if _EVENT_ZH_RE.search(text):
        return "event"
    return "fact"


_BASE_IMPORTANCE = {"relation": 0.6, "fact": 0.55, "preference": 0.5, "event": 0.4, "emotion": 0.35}


def _importance(*, category: str, quote: str, chinese: bool, user_initiated: bool) -> float:
    value = _BASE_IMPORTANCE[category]
    specific = _SPECIFIC_ZH_RE if chinese else _SPECIFIC_EN_RE
    long_lived = _LONG_LIVED_ZH_RE if chinese else _LONG_LIVED_EN_RE
    value += min(0.2, 0.1 * len(specific.findall(quote)))
    if long_lived.search(quote):
        value += 0.1
    size = len(content_tokens(quote))
    if size >= 4:
        value += 0.05
    if size <= 1:
        value -= 0.1
    if not user_initiated:
        value -= 0.1
    if not chinese and _EN_RIGHT_NOW_RE.match(quote):
        value -= 0.15  # what the user is doing this minute is small talk
    return round(min(0.95, max(0.05, value)), 2)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] in ",;:-–—\"'“”()"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ",;:-–—\"“”(.!…。！~"):
        end -= 1
    return start, end


_ZH_NOT_LIST_ITEM_RE = re.compile(r"[我你他她它很是了吗呢吧真太也都就还]|感觉|非常|认识|谢谢")
_ZH_LISTING_RE = re.compile(r"、|喜欢|爱好|兴趣|热爱|会|比如|包括|像是|擅长|养了|有")
_ZH_LIST_ITEM_RE = re.compile(r"^[\u4e00-\u9fff、和与及等]{1,8}$")


def _split_clauses(text: str, start: int, end: int, splitter: re.Pattern) -> list[tuple[int, int]]:
    pieces, cursor = [], start
    for m in splitter.finditer(text, start, end):
        if m.start() > cursor:
            pieces.append((cursor, m.start()))
        cursor = max(cursor, m.end())
    pieces.append((cursor, end))
    pieces = [p for p in (_trim(text, s, e) for s, e in pieces) if p[1] > p[0]]
    # "我喜欢唱歌跳舞，健身，旅游" — short Chinese list items continue the clause before them.
    merged: list[tuple[int, int]] = []
    for s, e in pieces:
        if (
            merged
            and _ZH_LIST_ITEM_RE.match(text[s:e])
            and not _ZH_NOT_LIST_ITEM_RE.search(text[s:e])
            and _ZH_LISTING_RE.search(text[merged[-1][0] : merged[-1][1]])
        ):
            merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return merged


# Where the main clause ends and a subordinate tail begins ("… so if he ever needs …", "… when I was a boy").
_EN_TAIL_RE = re.compile(
    r"\s+(?:so|as|and|because|cause|since|while|when|whenever|until|unless|if|though|although|whereas|"
    r"which|who|that)\s+(?=(?:if|I|i|he|she|we|they|it|you|my|his|her|their|our|there|this|that)\b)"
    r"|\s+(?:because|cause|since|if|unless|although|though|whereas|which|whenever)\s+"
    r"|\s+(?:that|who)\s+(?=(?:likes|loves|enjoys|is|was|has|makes|takes|goes|works|lives)\b)"
    r"|,\s*(?=(?:\w+\s+){0,2}(?:is|are|was|were|it's|its)\b)"
    r"|,\s*(?=(?:maybe|perhaps|so|which|but|though|because|since|and|or|except|unless|nice|how|what)\b)"
    r"|\s*\((?:[^)]*)\)|\s+[—–]\s*|\s+-\s+|\s*[:;]-?[()DPp]\B|\s*[\U0001F300-\U0001FAFF]",
)
_EN_PRONOUN_OBJECT_RE = re.compile(
    r"^(?:I|i)\s+(?:\w+\s+){0,2}?(?:\w+)\s+(?:to\s+do\s+|doing\s+)?(?:it|that|this|them|those|these|one|so|"
    r"too|four|three|two|five)(?:\s+(?:anyway|too|as well|a lot|so much|very much|alot|either|also))?$",
    re.IGNORECASE,
)


_IMPLICIT_SUBJECT_RE = re.compile(
    r"^(?:(?:also|usually|often|really)\s+)?(?:am|have|love|like|enjoy|hate|prefer|play|watch|listen|read|work|"
    r"live|own|go|do|take|spend|make|cook|bake|write|run|ride|drive|teach|study|collect|sing|dance|draw|"
    r"paint|travel|hike|swim|fish|hunt|volunteer|got|went|moved|started|bought)\b"
)


# Chat often drops the "I": "Just got home from work", "Thinking about quitting my job".
_PRO_DROP_RE = re.compile(
    r"^(?:just\s+|recently\s+|finally\s+)?(?:got|finished|came|went|started|moved|bought|adopted|graduated|"
    r"retired|quit|joined|love|like|enjoy|hate|prefer|work|live|"
    r"moving|thinking about|heading|planning|getting|training|studying|working on|learning|saving up|"
    r"looking forward to)\b(?!\s+(?:it|that|this|them|you|your|to hear|hearing|the idea|that idea)\b)",
    re.IGNORECASE,
)


# "We have a dog and a cat" / "We live in Ohio": the user's household.
_WE_RE = re.compile(
    r"^(?:[Ww]e|[Ww]e've|[Ww]e’ve)\s+(?:(?:also|still|just|recently|now)\s+)?"
    r"(?:(?P<verb>live|moved|rent)\b(?P<rest>.*)|(?P<verb2>have|own|bought|adopted|got|raise)\b"
    r"(?P<rest2>.*\b(?:kids?|children|sons?|daughters?|babies|baby|twins|dogs?|cats?|pets?|puppy|horses?|chickens|"
    r"house|home|apartment|flat|farm|garden|cabin|boat|car|cars|truck)\b.*))$"
)


def _cut_tail(text: str) -> str:
    m = _EN_TAIL_RE.search(text)
    if m and len(text[: m.start()].split()) >= 2:
        return text[: m.start()].rstrip(" ,;:-")
    return text


def _en_clause(clause: str, *, sentence: str) -> str | None:
    """The disclosure part of an English clause (a prefix of it), or None when it is not one."""
    stripped = _LEAD_FILLER_RE.sub("", clause)
    if not _EN_START_RE.match(stripped):
        return None
    if sentence.endswith("?") and _EN_QUESTION_START_RE.match(sentence):
        return None
    if stripped.endswith("?"):
        # "I am just a homemaker, seen any good movies recently?" → the statement before the question.
        asking = _EN_QUESTION_INSIDE_RE.search(stripped)
        cut = asking.start() if asking else max(stripped.rfind(","), stripped.rfind(" and "))
        if cut <= 0:
            return None
        stripped = stripped[:cut]
    stripped = _cut_tail(stripped).rstrip(" ,;:-.!")
    if _EN_PRONOUN_OBJECT_RE.match(stripped):
        return None
    if re.match(r"^(?:[Mm]y|MY)\b", stripped):
        # "my sister lives in Berlin", "my favorite color is blue" — needs a verb after the noun phrase.
        if not re.match(r"^(?:[Mm]y|MY)\s+name\s+\w|^(?:[Mm]y|MY)\s+(?:[\w'-]+\s+){0,3}?(?:is|are|was|were|has|have|had|just|will|"
                        r"used to|got|died|passed|went|came|took|made|[a-z]{2,}(?<!s)s|[a-z]{3,}ed|'s|’s|s)\b",
                        stripped):
            return None
    elif not re.match(r"^(?:I|i)(?:'m|’m| m|'ve|’ve| ve|'d|’d|'ll|’ll)\b|^(?:Im|im|Ive|[Ii]am)\b", stripped) and not (
        _EN_ANY_VERB_RE.match(stripped)
    ):
        return None
    if _EN_GENERIC_RE.match(stripped) or _EN_MOMENT_RE.match(stripped):
        return None
    if _EN_HYPOTHETICAL_RE.search(stripped):
        return None
    if _EN_REQUEST_RE.search(stripped):
        return None
    if _EN_TASK_NOUN_RE.search(stripped) and _EN_TASK_VERB_RE.search(stripped):
        return None
    words = re.findall(r"[A-Za-z0-9'’]+", stripped)
    if len(words) < 2 or (len(words) == 2 and not re.match(r"^(?:I'm|I’m|Im)\s", stripped)):
        return None
    rest = [w.lower() for w in words[1:]]
    meaningful = [w for w in content_tokens(" ".join(rest)) if w not in _EN_PRONOUN_ONLY]
    if not meaningful:
        return None
    # "I love your idea" is about the assistant, not the user.
    if _EN_NOT_ABOUT_USER_RE.search(stripped) and not _RELATION_EN_RE.search(stripped):
        return None
    return stripped


def _en_statement(quote: str) -> str:
    text = _EN_FILLER_WORDS_RE.sub("", quote)
    text = re.sub(r"\s+myself\s*$", "", text)
    text = _EN_TRAILING_RE.sub("", text)
    text = re.sub(r"\s+", " ", text).strip(" ,;:-")
    text = to_third_person_en(text)
    return text[:1].upper() + text[1:]


def _zh_clause(clause: str) -> str | None:
    stripped = _ZH_LEAD_FILLER_RE.sub("", clause)
    stripped = _ZH_TRAILING_RE.sub("", stripped)
    if not _ZH_FIRST_PERSON_RE.match(stripped):
        return None
    first_me = stripped.find("我")
    if first_me > 0 and _ZH_OBJECT_ME_RE.search(stripped[: first_me + 1]):
        return None
    if _ZH_QUESTION_RE.search(stripped) or _ZH_REQUEST_RE.search(stripped):
        return None
    if _ZH_GENERIC_RE.match(stripped[first_me:]) or _ZH_HYPOTHETICAL_RE.search(stripped):
        return None
    if _ZH_TASK_RE.search(stripped):
        return None
    if not _ZH_DISCLOSURE_RE.search(stripped):
        return None
    if len(CJK_RE.findall(stripped)) < 4:
        return None
    return stripped


def _zh_statement(quote: str) -> str:
    return to_third_person_zh(quote)


_VOLUNTEERED_RE = re.compile(r"\b(?:by the way|btw|anyway|oh and|also|fun fact)\b|顺便|对了|另外|说起来", re.I)


def _answers_a_question(previous_assistant: str | None, user_text: str, *, chinese: bool) -> bool:
    """A short user turn right after an assistant question is an answer, not something volunteered."""
    if not previous_assistant:
        return False
    tail = previous_assistant.strip()[-200:]
    if not re.search(r"[?？]|吗|呢", tail):
        return False
    if _VOLUNTEERED_RE.search(user_text[:40]):
        return False
    size = len(CJK_RE.findall(user_text)) if chinese else len(user_text.split())
    return size <= (30 if chinese else 15)


# "Do you like to paint?" / "Are you a student?" / "Have you been to Paris?" — what a short answer refers to.
_QUESTION_FRAME_RE = re.compile(
    r"\b(?P<aux>do|did|are|were|have)\s+you\s+(?:ever\s+|also\s+|still\s+|really\s+|guys\s+)?"
    r"(?P<rest>[^?.!]{2,70}?)\s*\?",
    re.IGNORECASE,
)
_SHORT_ANSWER_RE = re.compile(
    r"^(?:I|i)\s+(?:(?:really|definitely|sure|also|certainly|absolutely|totally)\s+)?"
    r"(?P<polarity>do|did|am|was|have|don't|dont|do not|didn't|didnt|did not|am not|'m not|haven't|have not)"
    r"(?:\s+(?:too|as well|also|not))?\s*$",
    re.IGNORECASE,
)
_PRONOUN_ANSWER_RE = re.compile(
    r"^(?P<head>(?:I|i)\s+(?:[\w']+\s+){0,2}?[\w']+)\s+(?P<pronoun>it|them|those|one|that)"
    r"(?P<tail>(?:\s+(?:too|a lot|so much|very much|alot))?)\s*$",
    re.IGNORECASE,
)
_FAVOURITE_RE = re.compile(
    r"^(?P<x>[\w'’ ,&-]{2,60}?)\s+(?:is|are)\s+(?:(?:probably|definitely|really|totally|still)\s+)?"
    r"my\s+(?:all[- ]time\s+)?(?:favou?rite|fav)(?:\s+(?P<k>[a-z]+(?:\s+[a-z]+)?))?\s*$",
    re.IGNORECASE,
)


def _you_to_them(text: str) -> str:
    text = re.sub(r"\byour\b", "their", text, flags=re.I)
    text = re.sub(r"\byourself\b", "themself", text, flags=re.I)
    return re.sub(r"\byou\b", "them", text, flags=re.I)


# A sentence without any first-person word (or a dropped-subject start) cannot disclose anything.
_WORTH_A_LOOK_RE = re.compile(
    r"\b(?:I|i|I'm|I’m|Im|im|[Ii]am|my|My|MY|me|we|We|mine|Mine)\b|我|^\W*(?:[Jj]ust|[Rr]ecently|[Ff]inally|\d+|[Tt]wo|"
    r"[Tt]hree|[Ff]our|[Ff]ive|[Ll]ove|[Ll]ike|[Ee]njoy|[Hh]ate|[Pp]refer|[Ww]ork|[Ll]ive|[Mm]oving|[Tt]hinking|"
    r"[Gg]ot|[Ff]inished|[Ss]tarted|[Mm]oved|[Hh]eading|[Pp]lanning|[Gg]etting|[Tt]raining|[Ss]tudying|[Ll]earning)\b"
)


def _question_before(frames: list[re.Match], position: int) -> tuple[str, str] | None:
    before = [m for m in frames if m.end() <= position]
    return _frame(before[-1]) if before else None


def _last_question(text: str) -> tuple[str, str] | None:
    frames = list(_QUESTION_FRAME_RE.finditer(text))
    return _frame(frames[-1]) if frames else None


def _frame(m: re.Match) -> tuple[str, str] | None:
    rest = m.group("rest").strip()
    if re.search(r"\b(?:think|mean|know|want me|need me|agree)\b", rest, re.I):
        return None
    return m.group("aux").lower(), rest


def _resolve_answer(quote: str, question: tuple[str, str] | None) -> str | None:
    """A statement for "I do" / "I adore them" given the question it answers, or None."""
    if question is None:
        return None
    aux, rest = question
    rest = _you_to_them(rest)
    short = _SHORT_ANSWER_RE.match(quote)
    if short:
        negative = bool(re.search(r"n't|\bnot\b", short.group(0)))
        if aux in ("do", "did"):
            verb, _, obj = rest.partition(" ")
            if not obj or not re.fullmatch(r"[a-z]+", verb.lower()):
                return None
            if aux == "did":
                return f"User {'did not ' + verb if negative else 'did ' + verb} {obj}"
            return f"User {'does not ' + verb if negative else conjugate(verb)} {obj}"
        if aux in ("are", "were"):
            return f"User {'is' if aux == 'are' else 'was'}{' not' if negative else ''} {rest}"
        if aux == "have":
            return f"User {'has not' if negative else 'has'} {rest}"
    counted = re.match(r"^(?:I|i) (?:have|had|own) (?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten)$", quote)
    if counted and aux in ("do", "have"):
        m = re.match(r"(?:have|own|got)\s+(?:any\s+)?(?P<obj>[a-z ]{2,40})$", rest, re.I)
        if m:
            return f"User has {counted.group('n')} {m.group('obj')}"
    pronoun = _PRONOUN_ANSWER_RE.match(quote)
    if pronoun and aux in ("do", "did"):
        _, _, obj = rest.partition(" ")
        if obj and len(obj.split()) <= 6:
            return _en_statement(f"{pronoun.group('head')} {obj}")
    return None


# Short answers to the assistant's wh-questions: "Where are you from?" → "Ohio." → "User is from Ohio".
_ANSWER_FRAMES = [
    (re.compile(r"where (?:are|were) you (?:originally )?from\b", re.I), "User is from {f}"),
    (re.compile(r"where do you (?:live|stay|reside)\b|where are you (?:based|living)\b", re.I), "User lives in {f}"),
    (re.compile(r"where do you work\b", re.I), "User works at {f}"),
    (re.compile(r"how old are you\b", re.I), "User is {f}"),
    (re.compile(r"what do you do (?:for (?:a )?(?:living|work|job)|professionally)|"
                r"what(?:'s| is) your (?:job|profession|occupation|line of work)|what do you work", re.I),
     "User works in {f}"),
    (re.compile(r"what do you (?:do|like to do) (?:for fun|in your (?:free|spare) time)|"
                r"what (?:are|is) your (?:hobbies|hobby|interests|passion)", re.I), "User enjoys {f}"),
    (re.compile(r"what(?:'s| is| are) your (?:favou?rite|fav) (?P<k>[a-z]+(?: [a-z]+)?)", re.I),
     "User's favorite {k} is {f}"),
    (re.compile(r"what (?:kind|type|sort)s? of (?P<k>[a-z]+(?: [a-z]+)?) do you (?P<v>[a-z]+)", re.I), "User {v} {f}"),
    (re.compile(r"what (?P<k>[a-z]+) do you (?P<v>drive|play|watch|read|own|have|like|love|eat|speak|study|teach)\b",
                re.I), "User {v} {f}"),
    (re.compile(r"do you have any (?:hobbies|interests|passions)|what do you like to do\b", re.I), "User enjoys {f}"),
    (re.compile(r"do you play any (?:sports|instruments?|games)", re.I), "User plays {f}"),
    (re.compile(r"do you have any (?P<k>[a-z]+(?: [a-z]+)?)", re.I), "User has {f} {k}"),
    (re.compile(r"\bdo you (?:\w+ )?(?P<v>like|love|enjoy|play|have|own|watch|read|listen to|eat|drink|cook|speak|"
                r"drive|ride|collect|go to|work|live)\b", re.I), "User {v} {f}"),
    (re.compile(r"are you (?:a |an )?[a-z]+(?: [a-z]+)? or (?:a |an )?[a-z]+", re.I), "User is {f}"),
    (re.compile(r"what(?:'s| is) your name\b", re.I), "User's name is {f}"),
]
_FRAGMENT_REJECT_RE = re.compile(
    r"^(?:you|he|she|it|it's|its|that|that's|thats|this|they|we|there|what|how|why|who|when|where|yes|no|"
    r"yeah|yep|nope|nah|sure|ok|okay|thanks|thank|sounds|wow|lol|haha|hi|hello|hey|not|nothing|none|me|"
    r"same|i|i'm|my)\b|\b(?:is|are|was|were|sounds|seems|looks|do|does|did|can|will|would|should|you|your)\b",
    re.I,
)
_NUMBER_RE = re.compile(r"^(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a few|several|many)\b", re.I)


def _answer_to_wh_question(fragment: str, question_text: str | None) -> str | None:
    """A statement for a verbless short answer to the assistant's last question, or None."""
    if not question_text or "?" not in question_text:
        return None
    fragment = fragment.strip(" .!…,")
    size = len(fragment.split())
    if not fragment or size > 8 or fragment.endswith("?") or _FRAGMENT_REJECT_RE.search(fragment):
        return None
    last_question = re.split(r"(?<=[.!?])\s+", question_text.strip())
    asked = next((q for q in reversed(last_question) if q.rstrip(". ").endswith("?")), "")
    for pattern, template in _ANSWER_FRAMES:
        m = pattern.search(asked)
        if not m:
            continue
        groups = m.groupdict()
        if template == "User has {f} {k}" and not re.fullmatch(r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)",
                                                             fragment, re.I):
            template = "User has {f}"
        if template == "User is {f}" and "old" in asked.lower() and not re.search(r"\d|ty\b|teen", fragment):
            return None
        verb = ""
        if groups.get("v"):
            head, _, particle = groups["v"].lower().partition(" ")
            verb = f"{conjugate(head)} {particle}".strip()
        statement = template.format(f=to_third_person_en(fragment), k=groups.get("k") or "", v=verb)
        return re.sub(r"\s+", " ", statement).strip()
    return None


# "my two older brothers were …" says the user has two older brothers.
_IMPLIED_HAVE_RE = re.compile(
    r"\b[Mm]y\s+(?P<mods>(?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten|older|younger|little|big|baby|"
    r"twin|new|oldest|youngest|eldest|teenage|adult|grown)\s+){0,2})"
    r"(?P<noun>kids|children|sons?|daughters?|grandchildren|grandkids|grandsons?|granddaughters?|sisters?|"
    r"brothers?|wife|husband|boyfriend|girlfriend|fianc[eé]e?|dogs?|cats?|puppy|puppies|kittens?|horses?|"
    r"baby|twins|pets?)\b"
)
_PLURAL_NOUNS = re.compile(r"(?:s|children|grandchildren|puppies|twins)$")


_COUNTED_FRAGMENT_RE = re.compile(
    r"^(?P<q>(?P<n>\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(?:(?:older|younger|little|grown)\s+)?"
    r"(?:kids|children|sons|daughters|grandchildren|grandkids|grandsons|granddaughters|sisters|brothers|"
    r"siblings|dogs|cats|horses|pets|chickens|birds))\b(?:\s+(?:now|already|so far))?[.!]*$",
    re.IGNORECASE,
)


def _implied_possessions(sentence: str) -> list[tuple[str, str]]:
    found = []
    counted = _COUNTED_FRAGMENT_RE.match(_LEAD_FILLER_RE.sub("", sentence.strip()))
    if counted:
        found.append((counted.group("q"), f"User has {counted.group('q')}"))
    for m in _IMPLIED_HAVE_RE.finditer(sentence):
        mods, noun = m.group("mods").strip(), m.group("noun").lower()
        counted = bool(re.match(r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b", mods))
        if counted or _PLURAL_NOUNS.search(noun):
            phrase = f"{mods} {noun}".strip()
        else:
            phrase = f"{'an' if (mods or noun)[0] in 'aeiou' else 'a'} {(mods + ' ' + noun).strip()}"
        found.append((m.group(0), f"User has {phrase}"))
    return found


# Past this many characters a message is a paste, not a conversation: the rest is not read for memories.
MAX_CHARS_READ = 30_000


# "Me too!" / "Same here" after the assistant said something about itself: the user says it of themself.
_ECHO_RE = re.compile(r"^\W*(?P<echo>me too|same here|so do i|i do too|i am too|i'm the same|same for me)\b", re.I)


def _echoed_statement(previous: str) -> str | None:
    spans = sentences(previous[-400:])
    for s_start, s_end in reversed(spans):
        sentence = previous[-400:][s_start:s_end]
        if sentence.rstrip().endswith("?"):
            continue
        quote = _en_clause(sentence, sentence=sentence.strip())
        if quote and not sensitive_category(sentence):
            return _en_statement(quote)
    return None


def _turn_clauses(turn: Turn, *, previous_assistant: str | None, order_start: int) -> list[_Clause]:
    text = turn.content[:MAX_CHARS_READ]
    chinese = bool(CJK_RE.search(text)) and len(CJK_RE.findall(text)) >= len(re.findall(r"[A-Za-z]", text)) / 2
    user_initiated = not _answers_a_question(previous_assistant, text, chinese=chinese)
    found: list[_Clause] = []
    order = order_start
    # Text inside code fences is never about the user.
    fenced = [(m.start(), m.end()) for m in re.finditer(r"```[\s\S]*?(?:```|$)", text)]
    spans = sentences(text)
    first_start = spans[0][0] if spans else 0
    # Questions are found once per turn (a long paste would make a per-sentence search quadratic).
    frames = list(_QUESTION_FRAME_RE.finditer(text))
    assistant_question = _last_question(previous_assistant[-300:]) if previous_assistant else None
    for s_start, s_end in spans:
        if any(a <= s_start < b for a, b in fenced):
            continue
        sentence = text[s_start:s_end]
        if s_start != first_start and not _WORTH_A_LOOK_RE.search(sentence):
            continue
        is_zh_sentence = bool(CJK_RE.search(sentence))
        splitter = _ZH_CLAUSE_SPLIT_RE if is_zh_sentence else _EN_CLAUSE_SPLIT_RE
        # The question a short answer in this sentence refers to: an earlier one of the user's own, or the
        # assistant's last one.
        question = _question_before(frames, s_start) or assistant_question
        first_sentence = s_start == first_start
        if first_sentence and previous_assistant and not CJK_RE.search(sentence):
            echo = _ECHO_RE.match(sentence)
            echoed = _echoed_statement(previous_assistant) if echo else None
            if echoed:
                order += 1
                importance = _importance(category=_category_en(echoed), quote=echoed, chinese=False,
                                         user_initiated=False)
                found.append(_Clause(echo.group("echo"), echoed, _category_en(echoed), importance, False,
                                     turn.seq, order))
        previous_zh_first_person = False
        zh_hypothetical = is_zh_sentence and bool(_ZH_HYPOTHETICAL_RE.search(sentence))
        starts_first_person = bool(_EN_START_RE.match(_LEAD_FILLER_RE.sub("", sentence[:80])))
        # Sensitive content is judged on the whole sentence: "I take insulin, my doctor says…" drops it all.
        if sensitive_category(sentence):
            continue
        for c_start, c_end in _split_clauses(text, s_start, s_end, splitter):
            clause = text[c_start:c_end]
            statement = None
            answer = None
            resolved_from_question = False
            if first_sentence and not is_zh_sentence and c_start == s_start:
                answer = _answer_to_wh_question(_LEAD_FILLER_RE.sub("", sentence), previous_assistant)
            if answer:
                quote, statement = _LEAD_FILLER_RE.sub("", sentence).strip(" .!…,"), answer
                resolved_from_question = True
            elif is_zh_sentence:
                quote = _zh_clause(clause) if not zh_hypothetical else None
                if quote is None and previous_zh_first_person and _ZH_CONTINUATION_RE.match(clause):
                    # "我最近搬到了杭州，在一家游戏公司工作": the second clause keeps the first one's 我.
                    candidate = _zh_clause("我" + clause)
                    if candidate:
                        quote, statement = clause.rstrip("。！!~～ "), _zh_statement(candidate)
                previous_zh_first_person = quote is not None
            elif _WE_RE.match(_LEAD_FILLER_RE.sub("", clause)):
                we = _WE_RE.match(_cut_tail(_LEAD_FILLER_RE.sub("", clause)).rstrip(" ,;:-.!"))
                rest = (we.group("rest") or we.group("rest2") or "") if we else ""
                if we and content_tokens(rest) and not _EN_HYPOTHETICAL_RE.search(clause):
                    quote = we.group(0)
                    verb = we.group("verb") or we.group("verb2")
                    verb = {"have": "has", "own": "owns", "live": "lives", "raise": "raises", "rent": "rents"}.get(verb, verb)
                    statement = f"User's household {verb}{to_third_person_en(rest)}"
                else:
                    quote = None
            elif c_start == s_start and _PRO_DROP_RE.match(_LEAD_FILLER_RE.sub("", clause)):
                dropped = _LEAD_FILLER_RE.sub("", clause)
                dropped = dropped[:1].lower() + dropped[1:]
                implicit = _en_clause(
                    ("I am " if re.match(r"^(?:just\s+)?\w+ing\b", dropped, re.I) else "I ") + dropped,
                    sentence=sentence.strip(),
                )
                quote = dropped if implicit else None
                if implicit:
                    quote = _cut_tail(dropped).rstrip(" ,;:-.!")
                    statement = _en_statement(implicit[:5] + implicit[5:6].lower() + implicit[6:])
            elif _IMPLICIT_SUBJECT_RE.match(clause) and c_start > s_start and starts_first_person:
                # "I am quiet and love to browse the web": the second verb shares the sentence's "I".
                implicit = _en_clause("I " + clause, sentence=sentence.strip())
                quote = implicit[2:] if implicit else None
                statement = _en_statement(implicit) if implicit else None
            else:
                bare = _LEAD_FILLER_RE.sub("", clause).rstrip(" .!…")
                resolved = _resolve_answer(bare, question)
                favourite = _FAVOURITE_RE.match(bare)
                if resolved:
                    quote, statement = bare, resolved
                    resolved_from_question = True
                elif favourite and not re.match(r"^(?:it|that|this|they|those|these|he|she|I|i|my)\b", bare):
                    kind = f" {favourite.group('k')}" if favourite.group("k") else ""
                    quote, statement = bare, f"User's favorite{kind} is {favourite.group('x').strip()}"
                else:
                    quote = _en_clause(clause, sentence=sentence.strip())
            if not quote:
                continue
            if is_zh_sentence:
                statement, category = statement or _zh_statement(quote), _category_zh(quote)
            elif statement:
                category = _category_en(statement)
            else:
                statement, category = _en_statement(quote), _category_en(quote)
            if resolved_from_question and sensitive_category(statement):
                continue
            importance = _importance(
                category=category, quote=quote, chinese=is_zh_sentence, user_initiated=user_initiated
            )
            order += 1
            found.append(_Clause(quote, statement, category, importance, user_initiated, turn.seq, order))
        if not is_zh_sentence and not sentence.rstrip().endswith("?") and not _EN_HYPOTHETICAL_RE.search(sentence):
            stated = " ".join(c.statement.lower() for c in found)
            for quote, statement in _implied_possessions(sentence):
                noun = statement.split()[-1].lower()
                # Already said: "User has two sons", or the clause is about them: "User's son is a pilot".
                if re.search(rf"\b(?:has|have|had|owns|own)\b[^.]*\b{re.escape(noun)}\b|user's {re.escape(noun)}\b",
                             stated):
                    continue
                order += 1
                importance = _importance(category="relation", quote=quote, chinese=False,
                                         user_initiated=user_initiated)
                found.append(_Clause(quote, statement, "relation", round(importance - 0.1, 2), user_initiated,
                                     turn.seq, order))
    return found


def extract_candidates(turns: list[Turn], *, limit: int = MAX_CANDIDATES) -> list[ExtractedCandidate]:
    clauses: list[_Clause] = []
    previous_assistant: str | None = None
    seen: set[str] = set()
    for turn in turns:
        if turn.role == "assistant":
            previous_assistant = turn.content
            continue
        if turn.role != "user" or not turn.content.strip():
            continue
        for clause in _turn_clauses(turn, previous_assistant=previous_assistant, order_start=len(clauses)):
            key = " ".join(content_tokens(clause.statement))
            if key in seen:
                continue
            seen.add(key)
            clauses.append(clause)
        previous_assistant = None
    found = [
        ExtractedCandidate(
            quote=c.quote,
            statement=c.statement,
            category=c.category,
            importance=c.importance,
            user_initiated=c.user_initiated,
            seq=c.seq,
        )
        for c in clauses
    ]
    return most_important(found, limit=limit)


def most_important(candidates: list[ExtractedCandidate], *, limit: int = MAX_CANDIDATES) -> list[ExtractedCandidate]:
    """The `limit` most important candidates, in the order they were said."""
    ranked = sorted(range(len(candidates)), key=lambda i: (-candidates[i].importance, i))[:limit]
    return [candidates[i] for i in sorted(ranked)]
