"""Sensitive-content rules, English and Chinese.

Three jobs, all deterministic and offline:
- `mask_secrets` replaces credentials (API keys, tokens, private keys, passwords, card numbers) with
  "[SECRET]" before any text leaves for a remote model or reaches a diary.
- `redact_sensitive` takes out every clause that discloses what privacy law treats as sensitive or
  identifying (see KINDS) and keeps the rest of the text verbatim: "my new cat is called Pixel and I'm
  allergic to peanuts" → "my new cat is called Pixel". The clauses taken out are counted per kind.
- `sensitive_category` says whether a piece of text holds such a disclosure at all (its first kind).

The health and religion rules look for first-person disclosure ("I have diabetes", "我在吃抗抑郁药")
rather than any mention of a topic, so "I went to the gym" or "my dog is sick of the rain" stay ordinary.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from dreaming.engine.credentials import SECRET, card_spans, secret_spans
from dreaming.engine.sensitive_languages import (
    FOREIGN_CLAUSE_START_RE,
    foreign_sensitive_spans,
    foreign_sentence,
)

# --- sensitive categories -------------------------------------------------------------------------

# The user's first person, and the "User" a statement names them by ("User has diabetes").
_I = r"(?:\bI\b|\bI'm\b|\bI’m\b|\bIm\b|\bI've\b|\bI’ve\b|\bI'd\b|\bmy\b|\bme\b|\bmyself\b|\bUser(?:'s|’s)?\b)"
# A sentence that leaves its "I" out, as chat does: "Diagnosed with diabetes last year", "Been on insulin since May",
# "Yeah, allergic to peanuts".
_DROPPED_I_RE = re.compile(
    r"^\W*(?:(?:and|but|so|also|just|recently|still|finally|yeah|yes|yep|no|well|oh|lol|honestly|actually)\b\W*)*"
    r"(?:got\s+|was\s+|been\s+|being\s+|just\s+)?(?:diagnosed|been|have|having|had|got|getting|suffer(?:ing|ed)?|"
    r"living|taking|took|on|struggling|struggled|dealing|dealt|recovering|recovered|tested|treated|prescribed|"
    r"allergic|started|starting|going\s+through|went\s+through|fighting|battling|born)\b",
    re.IGNORECASE,
)

_HEALTH_TERMS_EN = (
    r"depress(?:ion|ed)|anxiety(?:\s+disorder)?|panic\s+attacks?|bipolar|schizophreni\w*|ptsd|ocd|adhd|autis(?:m|tic)|"
    r"eating\s+disorder|anorexi\w*|bulimi\w*|insomnia|suicid\w*|self[-\s]harm|"
    r"(?:pre-?)?diabet\w*|cancer|tumou?r|chemo(?:therapy)?|leukemia|lymphoma|hiv|hepatitis|asthma|epilep\w*|seizures?|"
    r"arthritis|migraines?|high\s+blood\s+pressure|hypertension|heart\s+(?:disease|attack|condition|failure)|stroke|"
    r"multiple\s+sclerosis|parkinson'?s|alzheimer'?s|dementia|crohn'?s|ibs|c[oa]?eliac|(?:hyper|hypo)?thyroid\w*|"
    r"covid|long\s+covid|pneumonia|tuberculosis|std|sti|herpes|infertil\w*|miscarriage|pregnan\w*|"
    r"disabilit\w*|chronic\s+(?:pain|illness|fatigue)|fibromyalgia|endometriosis|pcos|allerg(?:y|ies|ic)|"
    r"addict\w*|alcoholi\w*|rehab|sober|sobriety|surgery|diagnos\w*|prescri\w*|medication|meds|antidepressants?|"
    r"insulin\w*|(?:high\s+)?cholesterol|obes(?:e|ity)|anemi[ac]\w*|kidney\s+(?:disease|stones?|failure)|"
    r"sleep\s+apnea|osteoporosis|lupus|psoriasis|eczema|gout|ulcers?|concussion|hypoglyc\w*|hyperglyc\w*|"
    r"therap(?:y|ist)|psychiatrist|counsel(?:l)?or|counsel(?:l)?ing|illness|disease|disorder|syndrome|"
    r"blood\s+test|biopsy|mri|x-ray|hospitali[sz]ed|in\s+(?:the\s+)?hospital|ssris?|prozac|zoloft|xanax|adderall|lexapro|"
    r"wheelchair|hearing\s+aids?|mental\s+health|(?:an\s+)?std|in\s+remission|terminal(?:ly\s+ill)?|"
    # being ill at all and how it shows, symptoms, common medicines: "I've been off sick", "on sick leave", "I don't
    # feel well", "mood swings", "I've been having headaches", "my back hurts", "I feel dizzy", "I tried antihistamines"
    r"off\s+sick|(?:on\s+)?sick\s+(?:leave|note)|called\s+in\s+sick|unwell|mood\s+swings|"
    r"(?:(?:do(?:es)?|did)(?:n[’']?t|\s+not)|not)\s+feel(?:ing)?\s+well|"
    r"headaches?|fever|nause\w*|vomit\w*|dizz(?:y|iness)|short(?:ness)?\s+of\s+breath|sore\s+throat|sneez\w*|cough\w*|antihistamines?|inhalers?|painkillers?|ibuprofen|paracetamol|acetaminophen|tylenol|advil|aspirin|antibiotics?|"
    r"(?:back|neck|chest|stomach|joint|knee|tooth|ear|shoulder)\s*(?:pains?|aches?)|(?:back|neck|head|chest|stomach|"
    r"knees?|joints?|tooth|teeth|shoulders?|hips?|legs?|feet|foot|throat|eyes?)\s+(?:hurts?|(?:is|are)\s+(?:hurting|sore|killing\s+me)|aches?|aching)"
)
_HEALTH_TERM_EN_RE = re.compile(rf"\b(?:{_HEALTH_TERMS_EN})\b", re.IGNORECASE)
# Words that make an otherwise first-person health word about something else.
_HEALTH_FALSE_EN_RE = re.compile(
    r"\b(?:sick\s+(?:of|and\s+tired)|tired\s+of|gym|workout|fitness|allergic\s+to\s+(?:work|mondays|nonsense|drama)|"
    r"(?:book|article|documentary|movie|film|show|class|course|paper|podcast|essay|report|thesis|project|presentation)s?"
    r"\s+(?:about|on)\b|"
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
# A job, not a condition: "I want to be a physical therapist", "I work as a counselor", "我想当心理咨询师". Only the
# job word itself is let through ("my therapist", "I see a counselor", "I'm in physical therapy" stay health, and so
# does any other health word near the job: "I became a therapist after my depression").
_JOB_WORD_RE = re.compile(r"(?:therapist|psychiatrist|counsel(?:l)?or)s?|心理咨询|心理医生|心理治疗|治疗", re.IGNORECASE)
_JOB_FRAME_BEFORE_RE = re.compile(
    r"(?:\b(?:be|become|becoming|became|am|I'm|I’m|Im|been|work(?:s|ed|ing)?\s+as|jobs?\s+as|career\s+as|"
    r"studying\s+to\s+be|training\s+to\s+be)\s+(?:an?\s+)?(?:[a-z]+\s+)?"
    r"|(?:是|当|做|成为|想当)(?:一名|一个|一位)?(?:心理)?)$",
    re.IGNORECASE,
)


def _names_a_job(text: str, m: re.Match) -> bool:
    """The health term `m` is the name of a job the user has or wants, not a condition or a treatment."""
    if not _JOB_WORD_RE.fullmatch(m.group(0)):
        return False
    if not _JOB_FRAME_BEFORE_RE.search(text[max(0, m.start() - 40) : m.start()]):
        return False
    # "心理咨询" names a job only as "心理咨询师"; "心理医生" is one.
    return m.group(0).isascii() or m.group(0) == "心理医生" or text[m.end() : m.end() + 1] == "师"


_FIRST_PERSON_EN_RE = re.compile(_I, re.IGNORECASE)
_WINDOW_BEFORE = 45
_WINDOW_AFTER = 30


_HEALTH_ZH_RE = re.compile(
    r"(?:抑郁症?|焦虑症|躁郁|双相|精神分裂|强迫症|多动症|自闭症|失眠症?|自杀|自残|轻生|"
    r"糖尿病|癌症?|肿瘤|化疗|放疗|白血病|艾滋|HIV|乙肝|肝炎|哮喘|癫痫|关节炎|偏头痛|高血压|心脏病|中风|"
    r"帕金森|老年痴呆|阿尔茨海默|甲状腺|甲亢|甲减|新冠|肺炎|结核|性病|不孕|不育|流产|怀孕|怀了|孕期|备孕|"
    r"残疾|慢性病|过敏|成瘾|戒酒|戒毒|手术|确诊|诊断|处方|抗抑郁药|吃药|服药|药物|胰岛素|心理咨询|心理医生|"
    r"精神科|看病|看医生|住院|体检报告|化验|活检|病情|病史|患了|患有|生病|病了|发烧|感冒|"
    r"心理治疗|治疗|复诊|挂号|去医院|在医院(?:看|检查|治疗|住)|得了\w{0,4}(?:病|症|癌|炎)|"
    r"胃(?:部)?(?:不适|疼|痛|病|炎)|肚子(?:疼|痛)|头晕|腰(?:疼|痛)|体重|肥胖|血压|血糖|"
    r"病假|情绪波动|身体不舒服)"  # symptoms and the body's figures
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


# --- the other kinds privacy law names: orientation, political opinion, ethnicity ------------------

_ORIENTATION_EN_RE = re.compile(
    r"\b(?:gay|lesbian|bisexual|bi(?=\s*(?:[.!,]|$|and\b))|queer|pansexual|asexual|homosexual|heterosexual|"
    r"transgender|trans\s+(?:man|woman|guy|girl|person)|non-?binary|genderqueer|lgbtq?\+?|sexual\s+orientation|"
    r"sexuality|came\s+out\s+(?:as|to\s+(?:my|our|the)\s+\w+)|coming\s+out\s+(?:as|to)|out\s+of\s+the\s+closet|"
    r"straight(?=\s*(?:[.!,]|$|and\b|(?:guy|man|woman|girl)\b)))",
    re.IGNORECASE,
)
_ORIENTATION_FALSE_EN_RE = re.compile(r"\b(?:went|go|going|came|come|drove|walked|ran|head(?:ed)?)\s+straight\b|"
                                      r"\bstraight\s+(?:home|to|away|after|back|up|a's|as)\b", re.IGNORECASE)
_ORIENTATION_ZH_RE = re.compile(r"同性恋|双性恋|异性恋|无性恋|泛性恋|拉拉|出柜|跨性别|变性|性取向|性向|同志(?!们)|(?<![A-Za-z])gay(?![A-Za-z])")

_PARTIES = (r"labou?r|tory|tories|republicans?|democrats?|conservatives?|liberals?|greens?|green\s+party|trump|biden|"
            r"harris|brexit|remain|reform|the\s+\w+\s+party")
# An opinion the user holds: a vote, support, membership, or calling themself one ("I'm a lifelong Democrat").
# "a group of religious conservatives" is about other people, so a bare "conservatives" is not enough.
_POLITICAL_EN_RE = re.compile(
    rf"\b(?:vot(?:e|ed|ing)\s+(?:for\s+|against\s+)?(?:{_PARTIES})|(?:support|back)(?:s|ed|ing)?\s+(?:the\s+)?(?:{_PARTIES})|"
    r"pro-(?:life|choice)|maga|member\s+of\s+the\s+[\w ]{1,30}\s+party|party\s+member|"
    r"political\s+(?:views?|leanings?|opinions?|beliefs?)|my\s+politics|politically\s+(?:left|right|conservative|liberal)|"
    r"(?:I'm|I’m|I\s+am|Im|I've\s+always\s+been|I\s+was|I\s+identify\s+as|I\s+consider\s+myself|as)\s+(?:a\s+|an\s+)?"
    r"(?:\w+\s+)?(?:democrat|republican|tory|socialist|communist|libertarian|anarchist|marxist|leftist|left-wing|right-wing|"
    r"far-left|far-right|progressive|conservative|liberal|labou?r\s+voter)(?!\s+(?:arts?|with|about|amount|estimate|"
    r"portion|use|dose|approach|side)\b))\b",
    re.IGNORECASE,
)
_POLITICAL_ZH_RE = re.compile(
    r"党员|入党|共产党|国民党|民进党|民主党|共和党|工党|保守党|政治立场|政治观点|政治倾向|投票给|投了[\u4e00-\u9fff]{0,6}一票|"
    r"左派|右派|自由派|保守派|支持[\u4e00-\u9fff]{0,6}(?:党|总统|候选人)"
)

_ETHNICITY_EN_RE = re.compile(
    r"(?:\b(?:of|with)\s+(?-i:[A-Z]\w+(?:\s+[A-Z]\w+)?)\s+(?:descent|heritage|ancestry|origin|roots)\b|"
    r"\b(?:my\s+)?ethnic(?:ity|ally)?\b|\bmy\s+race\b|\bbiracial\b|\bmixed[-\s]race\b|"
    r"\b(?-i:[A-Z][a-z]+-American)\b|\b(?:african|asian|mexican|chinese|korean|japanese|indian|arab)\s+american\b|"
    r"\bnative\s+american\b|\bindigenous\b|\baboriginal\b|\bfirst\s+nations\b|\bhispanic\b|\blatin[oax]\b|\bcaucasian\b|"
    # a colour or "half X" says an ethnicity only of a person said to be it: "I'm Black", not "my car is black"
    r"(?:\b(?:I'm|I’m|I\s+am|Im|i'm|i\s+am|as\s+an?|my\s+(?:family|parents|mom|dad|mother|father)\s+(?:is|are|was|were))\s+"
    r"(?:(?:a|an|proud|mostly|also)\s+)*(?:(?:black|white|brown|asian)(?=\s*(?:[.!,]|$|and\b|(?:woman|man|guy|girl|person|"
    r"british|american|family)\b))|(?-i:half[-\s][A-Z][a-z]+))))",
    re.IGNORECASE,
)
_ETHNICITY_ZH_RE = re.compile(
    r"汉族|回族|藏族|维吾尔族|维族|蒙古族|壮族|苗族|满族|彝族|土家族|朝鲜族|侗族|瑶族|白族|傣族|黎族|哈萨克族|少数民族|"
    r"(?:我的)?民族是|混血"
)
# --- identifiers: government ids, bank details, address, phone, e-mail ---------------------------

# An id: letters and digits, groups joined by a dash or a space only when the next group has a digit.
_ID_VALUE = r"(?=[A-Za-z-]{0,4}\d)[A-Za-z0-9]+(?:[ -][A-Za-z]*\d[A-Za-z0-9]*)*"
_GOV_ID_EN_RE = re.compile(
    r"\b(?:passport|national\s+(?:id|identity|insurance)|(?:personal|citizen)\s+id|id\s+card|(?:driver'?s?|driving|drivers)\s+"
    r"licen[cs]e|licen[cs]e|social\s+security|ssn|sin|tax\s+(?:id|file)|tfn|nino|medicare|nhs|aadhaar|"
    r"residence\s+permit|visa)(?:\s+(?:card\s+)?(?:number|no\.?|num|#|id))?\s*(?:is|was|:|=|-|reads|of)?\s*"
    rf"(?P<v>{_ID_VALUE})",
    re.IGNORECASE,
)
_SSN_RE = re.compile(r"(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)")
_CN_ID_RE = re.compile(r"(?<![0-9A-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx]"
                       r"(?![0-9A-Za-z])")
_GOV_ID_ZH_RE = re.compile(r"(?:身份证|护照|驾照|驾驶证|社保卡?|医保卡|居住证|签证|港澳通行证)(?:号码?|编号)?(?:是|为|：|:|就是)?\s*"
                           r"[A-Za-z0-9]{5,}")

_IBAN_RE = re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30}\b")
_BANK_LABEL_RE = re.compile(
    r"(?:\b(?:bank\s+account|account|acct|routing|sort\s+code|iban|swift|bic|card|debit\s+card|credit\s+card|"
    r"bank\s+details?)(?:\s+(?:number|no\.?|num|#|code))?\s*(?:is|was|:|=)?\s*|"
    r"(?:银行卡|银行账户|银行账号|卡号|账号|账户|户号|开户行|储蓄卡|信用卡|借记卡)(?:号码?|是|为|：|:|\s)*)"
    r"(?P<v>\d[\d -]{5,30}\d)",
    re.IGNORECASE,
)
# A long digit run where the words say it is an account or a card: "招商银行 6225 8812 3456 7890 123".
_LONG_DIGITS_RE = re.compile(r"(?<![\d-])\d(?:[ -]?\d){11,29}(?![\d-])")
_BANKISH_RE = re.compile(r"bank|account|acct|card|transfer|iban|银行|卡|账|户|转账|汇款", re.IGNORECASE)

_STREET = (r"(?:street|st|road|rd|avenue|ave|lane|ln|drive|dr|boulevard|blvd|way|court|ct|place|pl|terrace|close|"
           r"crescent|square|sq|parkway|pkwy|highway|hwy|row|gardens|grove|walk|mews|strasse|straße|rue|via|calle)")
_ADDRESS_EN_RE = re.compile(
    # "42 Maple Street", "221B Baker St." (a name in capitals: "5 miles down the road" is no address)
    rf"\b\d{{1,5}}[A-Za-z]?,?\s+(?:[A-Z][\w'.-]*\s+){{1,3}}(?i:{_STREET})\b\.?|"
    r"(?i:\b(?:apt|apartment|flat|suite|unit\s*#)\s*#?\s*\d+[A-Za-z]?\b|"
    r"\bmy\s+(?:home\s+|street\s+|mailing\s+|postal\s+)?address\s+(?:is|:)[^.!?\n]*\d|"
    r"\b(?:I|we)\s+live\s+at\s+(?:number\s+|no\.?\s+)?\d)",
)
_ADDRESS_ZH_RE = re.compile(
    r"[\u4e00-\u9fff]{1,12}(?:路|街|大街|大道|巷|弄|胡同|里)\s*\d+\s*号|\d+\s*(?:号楼|栋|幢|单元|室|号院)|"
    r"(?:地址|住址|家住|家在|住在)(?:是|为|：|:)?[^，。！？,!?\n]*\d+\s*(?:号|室|栋|幢|单元|楼|弄)"
)

_EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_PHONE_PATTERN_RE = re.compile(
    r"(?<![\w+])\+\d{1,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4}(?!\d)|"
    r"(?<!\d)\(\d{3}\)\s?\d{3}[\s.-]?\d{4}(?!\d)|(?<![\d-])\d{3}[-.]\d{3}[-.]\d{4}(?![\d-])|"
    r"(?<!\d)1[3-9]\d(?:[\s-]?\d{4}){2}(?!\d)"
)
_PHONE_LABEL_RE = re.compile(
    r"(?:\b(?:phone|cell|mobile|tel|telephone|landline|whatsapp|my\s+number|call\s+me|text\s+me|reach\s+me)\b"
    r"|手机|电话|联系方式|微信号?)[^\d\n]{0,20}(?P<v>\+?\d[\d ()-]{5,18}\d)",
    re.IGNORECASE,
)

# --- credentials, with or without a label --------------------------------------------------------

_NOT_A_VALUE = (r"(?:too|so|very|really|wrong|incorrect|correct|weak|strong|expired|required|changed|reset|not|"
                r"different|the\s+same|case[-\s]sensitive|long|short|saved|stored|working|broken|invalid|valid|secure|"
                r"safe|fine|ok|okay|easy|hard|simple|complicated|annoying|protected|encrypted|hashed|missing|empty|"
                r"gone|lost|forgotten|a\s+pain|manager|managers|policy|field|length|strength|reset)\b")
_CRED_NOUN_EN = (
    r"(?:pass(?:word|wd|code|phrase)s?|pw|pwd|pin(?:\s*(?:code|number))?|log-?in(?:\s+details)?|"
    r"api[_\s-]?keys?|secret\s+keys?|(?:access|auth|api|bearer)\s+tokens?|security\s+answer|"
    r"(?:lock|safe|locker|padlock|bike\s+lock)\s+(?:combination|combo)|"
    r"(?:door|gate|alarm|garage|lock|locker|safe|entry|building|keypad|access|wi-?fi|lockbox)\s+(?:code|key|pin)|"
    r"code\s+(?:for|to|of)\s+(?:the\s+|my\s+|our\s+)?(?:front\s+|back\s+|main\s+)?(?:door|gate|garage|alarm|safe|"
    r"building|lock|locker|lockbox|apartment|flat|house|wi-?fi))"
)
_CREDENTIAL_EN_RE = re.compile(
    rf"\b{_CRED_NOUN_EN}(?:\s+(?:for|to|of|on)\s+(?:the\s+|my\s+|our\s+)?[\w-]+(?:\s+[\w-]+)?)?"
    rf"(?:\s*(?:is|was|are|were|'s|’s|=|:|：|->)\s*(?!{_NOT_A_VALUE})[^\s.,!?]"
    r"|\s+(?:starts?|begins?|ends?|contains?)\s+(?:with|in)\b)",
    re.IGNORECASE,
)
_CREDENTIAL_ZH_RE = re.compile(
    r"(?:密码|口令|密钥|秘钥|私钥|验证码|门禁(?:码|密码|卡号)?|开门密码|[Pp][Ii][Nn]码|(?:wifi|WiFi|WIFI|无线)密码|安全码|"
    r"登录密码|支付密码|账号密码)(?:都)?(?:是|为|：|:|就是|设的是|设成了?|改成了?|(?:的)?(?:前|后)[\u4e00-\u9fff\d]{1,3}位(?:是)?|"
    r"开头是|结尾是)\s*\S|"
    r"(?:密码|验证码|门禁码|口令)[A-Za-z0-9]{3,}"
)


def _iban_ok(value: str) -> bool:
    value = value.replace(" ", "")
    moved = value[4:] + value[:4]
    digits = "".join(str(int(ch, 36)) for ch in moved)
    return 15 <= len(value) <= 34 and int(digits) % 97 == 1


def _identifier_spans(text: str) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    found += [(*m.span(), "email") for m in _EMAIL_RE.finditer(text)]
    found += [(*m.span(), "phone") for m in _PHONE_PATTERN_RE.finditer(text)]
    found += [(*m.span(), "phone") for m in _PHONE_LABEL_RE.finditer(text)]
    found += [(*m.span(), "government_id") for regex in (_SSN_RE, _CN_ID_RE, _GOV_ID_ZH_RE) for m in regex.finditer(text)]
    found += [(*m.span(), "government_id") for m in _GOV_ID_EN_RE.finditer(text)
              if len(re.sub(r"\W", "", m.group("v"))) >= 5]
    found += [(*m.span(), "financial") for m in _IBAN_RE.finditer(text) if _iban_ok(m.group(0))]
    found += [(*m.span(), "financial") for m in _BANK_LABEL_RE.finditer(text)
              if len(re.sub(r"\D", "", m.group("v"))) >= 6]
    found += [(*span, "financial") for span in card_spans(text)]
    for m in _LONG_DIGITS_RE.finditer(text):
        if _BANKISH_RE.search(text[max(0, m.start() - 30) : m.end() + 10]):
            found.append((*m.span(), "financial"))
    found += [(*m.span(), "address") for regex in (_ADDRESS_EN_RE, _ADDRESS_ZH_RE) for m in regex.finditer(text)]
    found += [(*m.span(), "credential") for regex in (_CREDENTIAL_EN_RE, _CREDENTIAL_ZH_RE) for m in regex.finditer(text)]
    found += [(a, b, "credential") for a, b in secret_spans(text)]
    return found


# --- spans of every kind, then clauses -----------------------------------------------------------

KINDS = ("health", "religion", "sexual_orientation", "political", "ethnicity", "government_id", "financial",
         "address", "phone", "email", "credential")

_NEVER = re.compile(r"(?!x)x")
# (kind, English terms, English false friends, Chinese terms, Chinese false friends)
_TOPICS = (
    ("health", _HEALTH_TERM_EN_RE, _HEALTH_FALSE_EN_RE, _HEALTH_ZH_RE, _HEALTH_ZH_FALSE_RE),
    ("religion", _RELIGION_TERM_EN_RE, _RELIGION_FALSE_EN_RE, _RELIGION_ZH_RE, _NEVER),
    ("sexual_orientation", _ORIENTATION_EN_RE, _ORIENTATION_FALSE_EN_RE, _ORIENTATION_ZH_RE, _NEVER),
    ("political", _POLITICAL_EN_RE, _NEVER, _POLITICAL_ZH_RE, _NEVER),
    ("ethnicity", _ETHNICITY_EN_RE, _NEVER, _ETHNICITY_ZH_RE, _NEVER),
)


def _topic_spans(text: str, *, anyone: bool) -> list[tuple[int, int, str]]:
    """Health, religion, orientation, politics and ethnicity said about the user (or, with anyone=True, about
    anybody: the assistant's echo "your peanut allergy" is as telling as the user's own words)."""
    found = []
    chinese = _CJK.search(text) is not None
    for kind, term_en, false_en, term_zh, false_zh in _TOPICS:
        for m in _first_person_terms(text, term_en, false_en, anyone=anyone):
            found.append((*m.span(), kind))
        for m in term_zh.finditer(text) if chinese else ():
            clause = _sentence_around(text, m, stops="，。！？,.!?；;\n")
            if false_zh.search(clause) or _names_a_job(text, m):
                continue
            if anyone or _zh_first_person_before(text, m):
                found.append((*m.span(), kind))
    return found


def _sentence_around(text: str, m: re.Match, stops: str = ".!?\n") -> str:
    start = max((text.rfind(ch, 0, m.start()) for ch in stops), default=-1) + 1
    ends = [i for i in (text.find(ch, m.end()) for ch in stops) if i >= 0]
    return text[start : min(ends) if ends else len(text)]


def _first_person_terms(text: str, term_re: re.Pattern, false_re: re.Pattern, *, anyone: bool = False):
    """Each term with the user's first person shortly before it (or "I have" right after), within one sentence."""
    for m in term_re.finditer(text):
        before = re.split(r"[.!?\n]", text[max(0, m.start() - _WINDOW_BEFORE) : m.start()])[-1]
        after = re.split(r"[.!?\n]", text[m.end() : m.end() + _WINDOW_AFTER])[0]
        if false_re.search(before + m.group(0) + after) or _names_a_job(text, m):
            continue
        if anyone or _FIRST_PERSON_EN_RE.search(before) or _FIRST_PERSON_EN_RE.match(m.group(0)) or re.search(
                r"\b(?:I\s+have|I've\s+had|I\s+got|I'm\s+dealing)\b", after) or _DROPPED_I_RE.match(
                re.split(r"[.!?\n]", text[max(0, m.start() - 200) : m.start()])[-1] + m.group(0)):
            yield m


def _zh_first_person_before(text: str, m: re.Match) -> bool:
    """我 / 本人 / 自己 within the same clause shortly before the term ("我最近在吃抗抑郁药")."""
    before = re.split(r"[，。！？,.!?；;\n]", text[max(0, m.start() - 12) : m.start()])[-1]
    return bool(_ZH_FIRST_PERSON_RE.search(before) or _ZH_FIRST_PERSON_RE.search(m.group(0)))


def sensitive_spans(text: str, *, anyone: bool = False) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every sensitive piece of `text`, in order."""
    if not text:
        return []
    return sorted(_identifier_spans(text) + _topic_spans(text, anyone=anyone) + foreign_sensitive_spans(text))


def sensitive_category(text: str) -> str | None:
    """The first sensitive kind `text` discloses about the user (see KINDS), else None; cached (below)."""
    if not text:
        return None
    return _category_cached(text) if len(text) <= _CACHED_CHARS else _category(text)


# The engine asks about a clause when it reads it (self-disclosures, whole sentences) and light sleep's
# verification asks again about the same quote, then about the statement twice (as said, in the first
# person): one answer per text serves them all. Short texts only (a quote, a statement, a clause).
@lru_cache(maxsize=8192)
def _category_cached(text: str) -> str | None:
    return _category(text)


def _category(text: str) -> str | None:
    if SECRET in text:
        return "credential"
    spans = sensitive_spans(text)
    return spans[0][2] if spans else None


# Sentences end at . ! ? (before a space or the end: "bob@x.com" and "3.5" stay whole) and at Chinese stops.
_SENTENCE_END_RE = re.compile(r"[.!?…]+(?=\s|$)|[。！？；\n]+")
_SUBJECT_EN = (r"(?:I|I'm|I’m|Im|I've|I’ve|I'd|I’d|I'll|I’ll|i|i'm|my|My|me|we|We|our|Our|he|He|she|She|they|They|"
               r"his|His|her|Her|their|Their|it|It|it's|It's|the|The|this|This|that|That|there|There|your|Your|"
               r"you|You|a|A|an|An)")
# Where one clause ends and the next begins: a comma or a conjunction before a new subject in English, every
# comma in Chinese. The separator belongs to the clause after it, so taking a clause out takes its "and" with it.
_CLAUSE_START_RE = re.compile(
    rf"(?:\s*[,;]\s*(?:(?:and|but|so|because|cause|since|though|although|plus|while|also|btw|by\s+the\s+way)\s+)?"
    rf"|\s+(?:and|but|so|because|cause|since|though|although|plus|while|whereas|also|btw)\s+|\s+[-–—]\s+)(?={_SUBJECT_EN}\b)"
    r"|[，；]|(?<=[\u4e00-\u9fff])\s*[,;]|[,;](?=\s*[\u4e00-\u9fff])"
)
_ZH_SUBJECT_RE = re.compile(r"^\s*(?:[其但而且所以然后还有另外不过可是]{0,4})(?:我|你|他|她|它|这|那|咱|大家|[A-Za-z]+|[\u4e00-\u9fff]{1,3}(?:说|叫|是))")
_LEADING_JOINT_RE = re.compile(r"^[\s,;:，；：、]*(?:(?:and|but|so|because|cause|since|though|although|plus|while|"
                               r"whereas|also|btw)\s+)?", re.IGNORECASE)
_CJK = re.compile(r"[\u4e00-\u9fff]")
# What follows a sensitive clause as its consequence is about it too: "I have asthma, so I carry an inhaler".
_CAUSAL_RE = re.compile(r"^[\s,;]*(?:so|because|cause|since|therefore|which|that's\s+why|and\s+so)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Redaction:
    text: str  # what may be read further: the sensitive clauses taken out, everything else verbatim
    kinds: tuple[str, ...] = ()  # one per run of clauses taken out, in order

    @property
    def dropped(self) -> int:
        return len(self.kinds)


def _clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    splitter = FOREIGN_CLAUSE_START_RE if foreign_sentence(text[start:end]) else _CLAUSE_START_RE
    cuts = [start] + [m.start() for m in splitter.finditer(text, start, end) if m.start() > start] + [end]
    return [(a, b) for a, b in pairwise(cuts) if b > a]


def _sentences(text: str):
    """(start, end of the words, end with the end mark) of each sentence."""
    start = 0
    for m in _SENTENCE_END_RE.finditer(text):
        yield start, m.start(), m.end()
        start = m.end()
    if start < len(text):
        yield start, len(text), len(text)


# Light sleep redacts a batch's turns, the local engine reads the same texts again and the excerpt index
# once more at the batch's end: the cache holds a batch (~50 sessions), turns up to 2,000 characters
# (a few MB at most). A longer turn (a pasted document) is read twice in a row, by light sleep and
# then by the engine on the same session: a second, small cache holds the last few of them (32 texts up
# to 50,000 characters, ~13 MB at most); a text longer still is redacted each time it is read.
_CACHED_CHARS = 2000
_LONG_CACHED_CHARS = 50_000


def redact_sensitive(text: str, *, anyone: bool = False) -> Redaction:
    """`text` without the clauses that disclose a sensitive kind (see `_redact`); cached but for huge texts."""
    if len(text) <= _CACHED_CHARS:
        return _redact_cached(text, anyone)
    if len(text) <= _LONG_CACHED_CHARS:
        return _redact_long_cached(text, anyone)
    return _redact(text, anyone)


@lru_cache(maxsize=4096)
def _redact_cached(text: str, anyone: bool) -> Redaction:
    return _redact(text, anyone)


@lru_cache(maxsize=32)
def _redact_long_cached(text: str, anyone: bool) -> Redaction:
    return _redact(text, anyone)


def _redact(text: str, anyone: bool) -> Redaction:
    """`text` without the clauses that disclose a sensitive kind; the rest kept verbatim.

    1. find every sensitive span in the whole text (judged with its sentence, so the "I" three words
       before "allergic" still counts);
    2. cut each sentence into clauses at a comma or conjunction before a new subject (every comma in Chinese);
    3. drop each clause a span touches, and in Chinese the subject-less clauses that continue one
       ("我有糖尿病，每天打胰岛素");
    4. glue the kept clauses back; a sentence with nothing kept goes with its end mark.
    """
    spans = sensitive_spans(text, anyone=anyone)
    if not spans:
        return Redaction(text)
    kinds: list[str] = []
    out = ""
    for s_start, s_end, s_next in _sentences(text):
        kept = ""
        dropping = False
        for c_start, c_end in _clauses(text, s_start, s_end):
            piece = text[c_start:c_end]
            hit = [k for a, b, k in spans if a < c_end and b > c_start]
            continues = dropping and (
                _CAUSAL_RE.match(piece) if not _CJK.search(piece)
                else not _ZH_SUBJECT_RE.match(_LEADING_JOINT_RE.sub("", piece)))
            if hit or continues:
                if not dropping:
                    kinds.append(hit[0] if hit else kinds[-1])
                dropping = True
                continue
            dropping = False
            kept += _LEADING_JOINT_RE.sub("", piece) if not kept.strip() and c_start > s_start else piece
        if not kept.strip():
            continue
        if out and not out[-1].isspace() and not kept[0].isspace() and not _CJK.match(kept[0]):
            out += " "
        out += kept + text[s_end:s_next]
    return Redaction(out.strip() if kinds else text, tuple(kinds))
