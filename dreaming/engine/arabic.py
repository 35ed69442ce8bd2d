"""Arabic, read as multilingual.py reads the other languages without a grammar: a first-person statement sentence
is kept whole in the user's words (`User said: "أنا مهندس في شركة اتصالات"`), never rewritten.

What this module gives multilingual.py:
- `is_arabic(text)`: most of the letters are Arabic (language.foreign_language reads only Latin and Cyrillic
  scripts);
- the word lists of its `_Grammar`: first-person words ("أنا", "لدي", "عندي", "نحن", the common first-person
  verbs "أعمل", "أعيش", "أدرس", the possessives "زوجتي", "ابني", "عملي"), question words, requests to the
  assistant, suppositions, the task's words — each with the conjunction or preposition Arabic writes onto the word
  ("وأنا", "لابني");
- `sensitive(sentence)`: the kinds sensitive.py holds back (health, religion, sexual orientation, political
  opinion, ethnicity; a long number) found in an Arabic sentence. sensitive.py has no Arabic lexicon, so the
  light-sleep filter lets such a clause through: multilingual.py refuses the whole sentence instead, so none of it
  becomes a candidate. Wider than needed on purpose (a term anywhere in the sentence, with its article or a
  suffix), as sensitive_languages.py is for the other languages.
"""
from __future__ import annotations

import re

_LETTER_RE = re.compile(r"[^\W\d_]")
_ARABIC_LETTER_RE = re.compile(r"[\u0621-\u064A\u0671-\u06D3]")
# What Arabic writes onto the front of a word: "and", "so", "with / in", "for", "like", the article.
_PREFIX = r"(?:و|ف|ب|ل|ك)?"
_ARTICLE = r"(?:و|ف|ب|ل|ك)?(?:ال|لل)?"
_SUFFIX = r"(?:ي|ه|ها|ك|نا|هم|ة|ات|ين|ون|ان|ية)?"


def is_arabic(text: str) -> bool:
    """Most of the letters of `text` are Arabic."""
    sample = text[:3000]
    letters = len(_LETTER_RE.findall(sample))
    return letters > 0 and len(_ARABIC_LETTER_RE.findall(sample)) / letters >= 0.6


_I = r"أنا|انا|إني|اني|لدي|لديّ|عندي|لي|نحن|احنا|إحنا|لدينا|عندنا|اسمي|عمري|نفسي"
_MY_VERBS = (r"أعمل|اعمل|أشتغل|اشتغل|أعيش|اعيش|أسكن|اسكن|أدرس|ادرس|أدرّس|أحب|احب|أملك|املك|أمتلك|أربي|أدير|ادير|"
             r"ولدت|وُلدت|تخرجت|درست|عملت|انتقلت|تزوجت|سافرت|أسافر|اسافر|ألعب|العب|أقرأ|اقرأ|أكتب|أطبخ|أمارس|امارس|"
             r"نعمل|نعيش|نسكن|نملك|نبيع|نقدم")
_MY_NOUNS = (r"زوجي|زوجتي|ابني|ابنتي|بنتي|أبنائي|ابنائي|أطفالي|اطفالي|أولادي|اولادي|عائلتي|أسرتي|اسرتي|عملي|وظيفتي|"
             r"شركتي|شركتنا|متجري|محلي|مشروعي|أمي|امي|أبي|ابي|والدي|والدتي|أخي|اخي|أختي|اختي|صديقي|صديقتي|"
             r"مدينتي|بلدي|جامعتي|مدرستي|تخصصي|هوايتي|هواياتي|كلبي|قطتي|طلابي|زملائي|مديري")
FIRST_PERSON = rf"{_PREFIX}(?:{_I}|{_MY_VERBS}|{_MY_NOUNS})"
QUESTION = r"هل|ما|ماذا|كيف|لماذا|ليش|متى|أين|اين|وين|من|كم|أي|اي|ايش|شو"
REQUEST = (r"أنت|انت|أنتِ|لك|عليك|يمكنك|تستطيع|بإمكانك|ممكن|أرجو|ارجو|رجاء|من فضلك|لو سمحت|يرجى|اكتب|أكتب لي|"
           r"ساعدني|اعطني|أعطني|عطني|ترجم|لخص|اشرح|صحح|حسن|أعد|اعد|اقترح|قدم لي|أريدك|اريدك|أريد منك|اريد منك|"
           r"أريد أن تكتب|اريد ان تكتب|أخبرني|اخبرني|قل لي")
HYPOTHETICAL = r"^\W*(?:إذا|اذا|لو|إن|عندما|لنفترض|تخيل)(?![^\W\d_])|(?<![^\W\d_])(?:ربما|قد يكون|لعل)(?![^\W\d_])"
TASK_NOUN = _ARTICLE + r"(?:مقال|مقالة|نص|رسالة|بريد|كود|برنامج|ترجمة|عرض|تقرير|ملخص|فقرة|قصة|قصيدة|أغنية|دالة|سكربت|بحث|موضوع|تعبير)"
TASK_VERB = r"كتابة|أكتب|اكتب|ترجمة|أترجم|تلخيص|تصحيح|تحسين|إنشاء|انشاء|تحضير|إعداد|اعداد|مراجعة"
FILLER = r"مرحبا|مرحباً|أهلا|اهلا|السلام عليكم|نعم|لا|شكرا|شكراً|حسنا|طيب|أيضا|ايضا|و|لكن|بس"
TALK = r"أفهم|افهم|أقصد|اقصد|أعتقد|اعتقد|أظن|اظن|أعرف|اعرف|آسف|اسف|عذرا"
SELF_WORDS = (rf"{_PREFIX}(?:أنا|انا)\s+(?:\S+\s+)?(?:أعمل|اعمل|طالب|طالبة|مهندس|مهندسة|معلم|معلمة|مدرس|مدرسة|"
              rf"طبيب|طبيبة|موظف|موظفة|محامي|محامية|من|متزوج|متزوجة|أم|اب|أب)|{_PREFIX}(?:{_MY_VERBS})|"
              rf"{_PREFIX}(?:زوجي|زوجتي|ابني|ابنتي|أطفالي|اطفالي|أولادي|اولادي|عائلتي|عملي|وظيفتي|شركتي|متجري|اسمي|عمري)")

# kind -> terms; matched with the letters Arabic writes onto a word's front and back.
_SENSITIVE = {
    "health": r"مرض|مريض|أمراض|امراض|سكري|سكر الدم|سرطان|ورم|اكتئاب|قلق|توتر|نوبات هلع|دواء|أدوية|ادوية|علاج|"
              r"مستشفى|مستشفيات|طبيب نفسي|معالج|حامل|حمل|إجهاض|اجهاض|إعاقة|اعاقة|معاق|تشخيص|ضغط الدم|ربو|صرع|جلطة|"
              r"جراحة|عملية|صداع|حساسية|كورونا|كوفيد|إدمان|ادمان|مخدرات|كحول|انتحار|أرق|ارق|توحد|فصام|ألم|آلام|أوجاع|"
              r"أعاني|يعاني|تعاني|معاناة|غير طبيعي|حالة نفسية|نفسيا|نفسية",  # "I suffer from…", "not normal"
    "religion": r"مسلم|مسيحي|يهودي|ملحد|إسلام|اسلام|دين|ديني|صلاة|أصلي|اصلي|مسجد|كنيسة|صائم|أصوم|اصوم|صيام|"
                r"شيعي|سني|قرآن|قران|حجاب|محجبة|إيمان|ايمان|الله",  # not "جامع": الجامعة is the university
    # and the sex life with it: attraction, desire, a fetish
    "sexual_orientation": r"مثلي|مثلية|مثليين|ثنائي الجنس|متحول|متحولة|ميول|ميولي|جنس|جنسي|جنسية|انجذاب|منجذب|"
                          r"شهوة|شهوتي|إثارة|اثارة|فيتيش|عذرية|علاقة حميمة",
    "political": r"حزب|سياسي|انتخبت|أصوت|اصوت|تصويت|شيوعي|ليبرالي|معارضة|الإخوان|الاخوان",
    "ethnicity": r"عرق|عرقي|كردي|أمازيغي|امازيغي|بربري|قبيلة|قبيلتي|أصولي",
}
# Arabic spells the same word several ways (أ / إ / آ / ا, ى / ي, ة / ه): terms and sentences are compared spelled one way.
_ONE_SPELLING = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ى": "ي", "ة": "ه", "ـ": None})


def _spelled_one_way(text: str) -> str:
    return text.translate(_ONE_SPELLING)


_SENSITIVE_RES = {kind: re.compile(_spelled_one_way(rf"(?<![^\W\d_]){_ARTICLE}(?:{terms}){_SUFFIX}(?![^\W\d_])"))
                  for kind, terms in _SENSITIVE.items()}
_LONG_NUMBER_RE = re.compile(r"[\d٠-٩][\d٠-٩ -]{5,}[\d٠-٩]")  # an id, a phone or an account number


def sensitive(sentence: str) -> str | None:
    """The first sensitive kind an Arabic sentence names (module docstring), else None."""
    spelled = _spelled_one_way(sentence)
    for kind, pattern in _SENSITIVE_RES.items():
        if pattern.search(spelled):
            return kind
    return "identifier" if _LONG_NUMBER_RE.search(sentence) else None
