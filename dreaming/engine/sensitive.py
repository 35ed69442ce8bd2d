"""Sensitive-content rules, English and Chinese.

Two jobs, both deterministic and offline:
- `mask_secrets` replaces credentials (API keys, tokens, private keys, passwords, card numbers) with
  "[SECRET]" before any text leaves for a remote model or reaches a diary.
- `sensitive_category` says whether a piece of text discloses something about the user that must never
  become a memory: "health", "religion" or "credential".

The health and religion rules look for first-person disclosure ("I have diabetes", "我在吃抗抑郁药")
rather than any mention of a topic, so "I went to the gym" or "my dog is sick of the rain" stay ordinary.
"""
from __future__ import annotations

import re

SECRET = "[SECRET]"

# --- secrets -------------------------------------------------------------------------------------

_TOKEN_PATTERNS = [
    # PEM private key blocks (whole block, even across lines).
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)",
    # OpenAI / Anthropic style keys: sk-..., sk-proj-..., sk-ant-...
    r"\bsk-[A-Za-z0-9_\-]{16,}",
    # GitHub tokens.
    r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}",
    r"\bgithub_pat_[A-Za-z0-9_]{22,}",
    # AWS access key ids.
    r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    # Slack tokens.
    r"\bxox[abprs]-[A-Za-z0-9\-]{10,}",
    # Google API keys.
    r"\bAIza[0-9A-Za-z_\-]{35}",
    # Stripe keys.
    r"\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
    # JSON Web Tokens.
    r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
    # Bearer / token authorization headers.
    r"(?<=\bBearer )[A-Za-z0-9_\-\.=~+/]{12,}",
    r"(?<=\bbearer )[A-Za-z0-9_\-\.=~+/]{12,}",
    # URLs with credentials: scheme://user:password@host
    r"(?<=://)[^\s:/@]+:[^\s@/]+(?=@)",
]
_TOKEN_RE = re.compile("|".join(f"(?:{p})" for p in _TOKEN_PATTERNS))

# "password is X", "password: X", "pwd=X", "PIN 1234", "api_key = X", "密码是X", "验证码：123456".
_LABELLED_SECRET_RE = re.compile(
    r"(?P<label>(?:\b(?:my\s+)?(?:pass(?:word|wd|code|phrase)?|pwd|pin(?:\s*code)?|api[_\s-]?key|secret(?:[_\s-]?key)?|"
    r"access[_\s-]?token|auth[_\s-]?token|token|private[_\s-]?key|otp|verification\s+code|security\s+code|cvv|cvc)\b)"
    r"|(?:密码|口令|密钥|秘钥|验证码|支付密码|登录密码|银行卡密码|PIN码|pin码))"
    r"(?P<sep>\s*(?:is|was|are|=|:|：|是|为|:=|->|来着是|就是)?\s*[\"'“‘「]?)"
    r"(?P<value>[^\s\"'”’」，。,;；!！?？]{3,})",
    re.IGNORECASE,
)

# Card-like digit runs: 13–19 digits, optionally grouped by spaces or dashes.
_CARD_RE = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")

# Long hex (32+) or base64-ish (40+) blobs that carry no words.
_HEX_RE = re.compile(r"\b[0-9a-fA-F]{32,}\b")
_B64_RE = re.compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{40,}={0,2}(?![A-Za-z0-9+/=_\-])")

_NOT_A_SECRET_VALUE = {
    "a", "an", "the", "my", "your", "not", "too", "so", "very", "really", "wrong", "incorrect", "correct",
    "right", "weak", "strong", "long", "short", "secure", "reset", "expired", "changed", "required",
    "needed", "missing", "empty", "invalid", "valid", "same", "different", "protected", "for", "of",
    "that", "this", "it", "and", "or", "to", "in", "on", "with", "manager", "managers", "field", "policy",
    "reset", "hashing", "hash", "hashed", "strength", "length",
}


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _mask_card(match: re.Match) -> str:
    digits = re.sub(r"\D", "", match.group(0))
    if 13 <= len(digits) <= 19 and _luhn_ok(digits) and len(set(digits)) > 1:
        return SECRET
    return match.group(0)


def _mask_labelled(match: re.Match) -> str:
    value = match.group("value")
    if value.lower() in _NOT_A_SECRET_VALUE or value == SECRET:
        return match.group(0)
    return f"{match.group('label')}{match.group('sep')}{SECRET}"


def _mask_b64(match: re.Match) -> str:
    blob = match.group(0)
    # A real secret mixes character classes; a long word-ish path or identifier usually does not.
    segments = blob.strip("/").split("/")
    if len(segments) >= 3 and all(len(segment) < 20 for segment in segments):
        return blob  # a URL path such as /api/v1/users/12345/orders, not a key
    classes = sum(bool(re.search(p, blob)) for p in (r"[a-z]", r"[A-Z]", r"\d"))
    if classes >= 3 and not re.fullmatch(r"[A-Za-z_\-/]+", blob):
        return SECRET
    return blob


def mask_secrets(text: str) -> str:
    """Return `text` with every credential-looking span replaced by "[SECRET]"."""
    if not text:
        return text
    text = _TOKEN_RE.sub(SECRET, text)
    text = _LABELLED_SECRET_RE.sub(_mask_labelled, text)
    text = _CARD_RE.sub(_mask_card, text)
    text = _HEX_RE.sub(SECRET, text)
    text = _B64_RE.sub(_mask_b64, text)
    return text


# --- sensitive categories -------------------------------------------------------------------------

_I = r"(?:\bI\b|\bI'm\b|\bI’m\b|\bIm\b|\bI've\b|\bI’ve\b|\bI'd\b|\bmy\b|\bme\b|\bmyself\b)"

_HEALTH_TERMS_EN = (
    r"depress(?:ion|ed)|anxiety(?:\s+disorder)?|panic\s+attacks?|bipolar|schizophreni\w*|ptsd|ocd|adhd|autis(?:m|tic)|"
    r"eating\s+disorder|anorexi\w*|bulimi\w*|insomnia|suicid\w*|self[-\s]harm|"
    r"diabet\w*|cancer|tumou?r|chemo(?:therapy)?|leukemia|lymphoma|hiv|hepatitis|asthma|epilep\w*|seizures?|"
    r"arthritis|migraines?|high\s+blood\s+pressure|hypertension|heart\s+(?:disease|attack|condition|failure)|stroke|"
    r"multiple\s+sclerosis|parkinson'?s|alzheimer'?s|dementia|crohn'?s|ibs|celiac|thyroid|"
    r"covid|long\s+covid|pneumonia|tuberculosis|std|sti|herpes|infertil\w*|miscarriage|pregnan\w*|"
    r"disabilit\w*|chronic\s+(?:pain|illness|fatigue)|fibromyalgia|endometriosis|pcos|allerg(?:y|ies|ic)|"
    r"addict\w*|alcoholi\w*|rehab|sober|sobriety|surgery|diagnos\w*|prescri\w*|medication|meds|antidepressants?|"
    r"insulin|therap(?:y|ist)|psychiatrist|counsel(?:l)?or|counsel(?:l)?ing|illness|disease|disorder|syndrome|"
    r"blood\s+test|biopsy|mri|x-ray|hospitali[sz]ed|in\s+(?:the\s+)?hospital|ssris?|prozac|zoloft|xanax|adderall|lexapro|"
    r"wheelchair|hearing\s+aids?|mental\s+health|(?:an\s+)?std|in\s+remission|terminal(?:ly\s+ill)?"
)
_HEALTH_TERM_EN_RE = re.compile(rf"\b(?:{_HEALTH_TERMS_EN})\b", re.IGNORECASE)
# Words that make an otherwise first-person health word about something else.
_HEALTH_FALSE_EN_RE = re.compile(
    r"\b(?:sick\s+(?:of|and\s+tired)|tired\s+of|gym|workout|fitness|allergic\s+to\s+(?:work|mondays|nonsense|drama)|"
    r"(?:book|article|documentary|movie|film|show|class|course|paper|podcast)s?\s+(?:about|on)\b|"
    r"works?\s+(?:in|at|as)\b|shopping\s+addict|"
    # a field to work in or a cause to support, not the user's own condition: "working in mental health",
    # "counseling jobs", "a charity race for mental health", "raising awareness for mental health"
    r"(?:working|career|careers|jobs?|field|degree|charity|race|run|walk|fundraiser|awareness|advocacy|campaign)\s+"
    r"(?:in|for|as)\s+(?:a\s+)?(?:mental\s+health|counsel(?:l)?(?:ing|or)|therap(?:y|ist))\b|"
    r"(?:mental\s+health|counsel(?:l)?ing|therapy)\s+(?:jobs?|careers?|field|workshops?|degree|programs?|courses?|classes)|"
    r"addicted\s+to\s+(?:coffee|tea|chocolate|games?|this|netflix|tv|music|books?|reading|coding)|"
    r"retail\s+therapy|music\s+therapy\s+(?:class|course)|the\s+(?:disease|illness)\s+of|stroke\s+of)\b",
    re.IGNORECASE,
)
_FIRST_PERSON_EN_RE = re.compile(_I, re.IGNORECASE)
_WINDOW_BEFORE = 45
_WINDOW_AFTER = 30


def _first_person_near(text: str, term_re: re.Pattern, false_re: re.Pattern) -> bool:
    """A term with the user's first person shortly before it (or right after), within one sentence."""
    for m in term_re.finditer(text):
        before = re.split(r"[.!?\n]", text[max(0, m.start() - _WINDOW_BEFORE) : m.start()])[-1]
        after = re.split(r"[.!?\n]", text[m.end() : m.end() + _WINDOW_AFTER])[0]
        window = before + m.group(0) + after
        if false_re.search(window):
            continue
        if _FIRST_PERSON_EN_RE.search(before) or re.search(r"\b(?:I\s+have|I've\s+had|I\s+got|I'm\s+dealing)\b",
                                                              after):
            return True
    return False


_HEALTH_ZH_RE = re.compile(
    r"(?:抑郁症?|焦虑症|躁郁|双相|精神分裂|强迫症|多动症|自闭症|失眠症?|自杀|自残|轻生|"
    r"糖尿病|癌症?|肿瘤|化疗|放疗|白血病|艾滋|HIV|乙肝|肝炎|哮喘|癫痫|关节炎|偏头痛|高血压|心脏病|中风|"
    r"帕金森|老年痴呆|阿尔茨海默|甲状腺|甲亢|甲减|新冠|肺炎|结核|性病|不孕|不育|流产|怀孕|怀了|孕期|备孕|"
    r"残疾|慢性病|过敏|成瘾|戒酒|戒毒|手术|确诊|诊断|处方|抗抑郁药|吃药|服药|药物|胰岛素|心理咨询|心理医生|"
    r"精神科|看病|看医生|住院|体检报告|化验|活检|病情|病史|患了|患有|生病|病了|发烧|感冒|"
    r"心理治疗|治疗|复诊|挂号|去医院|在医院(?:看|检查|治疗|住)|得了\w{0,4}(?:病|症|癌|炎))"
)
# Chinese disclosures are first person when 我 appears near the term, or the sentence has no other subject.
_ZH_FIRST_PERSON_RE = re.compile(r"我(?!们)|本人|自己")
_HEALTH_ZH_FALSE_RE = re.compile(r"(?:健身|锻炼|治疗.{0,3}(?:拖延|懒)|吃药.{0,2}游戏|病毒式|毛病)")

_RELIGION_TERMS_EN = (
    r"christian(?:ity)?|catholic(?:ism)?|protestant|evangelical|baptist|methodist|lutheran|mormon|lds|"
    r"jehovah'?s\s+witness|orthodox|muslim|islam(?:ic)?|quran|koran|ramadan|hajj|mosque|imam|jewish|judaism|"
    r"synagogue|rabbi|kosher|torah|bar\s+mitzvah|bat\s+mitzvah|hindu(?:ism)?|temple|buddhis[mt]|sikh(?:ism)?|"
    r"gurdwara|jain|pagan|wiccan?|atheist|atheism|agnostic|religion|religious|faith|church|churchgoer|"
    r"pray(?:s|ed|ing|er|ers)?|bible|scripture|god|jesus|christ|allah|worship|sermon|pastor|priest|(?:go|goes|went|going|attend|attended)\s+to\s+mass|"
    r"baptized|baptised|convert(?:ed)?\s+to|born\s+again|spiritual(?:ity)?|meditat\w+\s+(?:at|in)\s+the\s+temple"
)
_RELIGION_TERM_EN_RE = re.compile(rf"\b(?:{_RELIGION_TERMS_EN})\b", re.IGNORECASE)
_RELIGION_FALSE_EN_RE = re.compile(
    r"\b(?:oh\s+my\s+god|my\s+god\b|thank\s+god|god\s+knows|for\s+god'?s\s+sake|god\s*damn\w*|"
    r"faith\s+in\s+(?:you|him|her|them|the\s+team|my\s+team|humanity|people|myself|yourself|ourselves)|church\s+street|"
    # faith as a virtue among others ("it stands for love, faith and strength"), or other people's religion
    r"(?:love|hope|strength|courage|trust),?\s+(?:and\s+)?faith|faith,?\s+(?:and\s+)?(?:strength|hope|love|courage|trust)|"
    r"religious\s+(?:conservatives|people|folks|groups?|leaders|extremists|right|zealots|fanatics|nuts)|i\s+pray\s+(?:it|that)\s+(?:works|compiles))",
    re.IGNORECASE,
)
_RELIGION_ZH_RE = re.compile(
    r"(?:信教|信仰|宗教|佛教|佛祖|拜佛|念佛|吃斋|皈依|基督|耶稣|上帝|教会|教堂|做礼拜|礼拜|主日|受洗|圣经|"
    r"天主教|新教|伊斯兰|穆斯林|清真寺|古兰经|斋月|道教|道观|犹太教|印度教|无神论|祷告|祈祷|信主|信佛|信神|"
    r"寺庙|烧香|菩萨)"
)

_CREDENTIAL_EN_RE = re.compile(
    r"\b(?:pass(?:word|wd|code|phrase)s?|pwd|pin(?:\s*code)?|api[_\s-]?keys?|secret\s+keys?|access\s+tokens?|"
    r"auth\s+tokens?|private\s+keys?|2fa|otp|one[-\s]time\s+code|verification\s+code|security\s+(?:code|question)|"
    r"cvv|cvc|credit\s+card\s+number|card\s+number|social\s+security\s+number|ssn|bank\s+account\s+number|"
    r"routing\s+number|login\s+credentials?|credentials?)\b",
    re.IGNORECASE,
)
_CREDENTIAL_ZH_RE = re.compile(
    r"(?:密码|口令|密钥|秘钥|验证码|支付密码|银行卡号|卡号|身份证号|社保号|PIN码|安全码|登录凭证|账号密码|私钥)"
)


# Cheap test first: most text has nothing that could be a secret.
_SECRETISH_RE = re.compile(
    r"[A-Za-z0-9+/_\-]{32,}|\d[\d -]{11,}\d|-----BEGIN|\bsk-|\bgh[pousr]_|github_pat_|\bAKIA|\bASIA|\bxox|"
    r"\bAIza|\beyJ|[Bb]earer\s|://[^\s/@]*:[^\s/@]*@|_(?:live|test)_"
)


def _has_secret(text: str) -> bool:
    if SECRET in text:
        return True
    if _SECRETISH_RE.search(text) is None and _LABELLED_SECRET_RE.search(text) is None:
        return False
    return mask_secrets(text) != text


def sensitive_category(text: str) -> str | None:
    """'credential', 'health' or 'religion' when `text` discloses such content about the user, else None."""
    if not text:
        return None
    if _CREDENTIAL_EN_RE.search(text) or _CREDENTIAL_ZH_RE.search(text) or _has_secret(text):
        return "credential"
    if _is_health(text):
        return "health"
    if _is_religion(text):
        return "religion"
    return None


def _is_health(text: str) -> bool:
    if _first_person_near(text, _HEALTH_TERM_EN_RE, _HEALTH_FALSE_EN_RE):
        return True
    return _zh_first_person_near(text, _HEALTH_ZH_RE) and not _HEALTH_ZH_FALSE_RE.search(text)


def _zh_first_person_near(text: str, term_re: re.Pattern) -> bool:
    """我 / 本人 / 自己 within the same clause shortly before the term ("我最近在吃抗抑郁药")."""
    for m in term_re.finditer(text):
        before = re.split(r"[，。！？,.!?；;\n]", text[max(0, m.start() - 12) : m.start()])[-1]
        if _ZH_FIRST_PERSON_RE.search(before) or _ZH_FIRST_PERSON_RE.search(m.group(0)):
            return True
    return False


def _is_religion(text: str) -> bool:
    if _first_person_near(text, _RELIGION_TERM_EN_RE, _RELIGION_FALSE_EN_RE):
        return True
    return _zh_first_person_near(text, _RELIGION_ZH_RE)
