"""Arabic, read as the other languages without a grammar: a first-person statement is kept whole in the user's
words; a question, a request, a supposition, the task, and any sentence naming a sensitive kind (sensitive.py has
no Arabic lexicon) never become a candidate."""
import pytest

from dreaming.engine.arabic import is_arabic, sensitive
from dreaming.engine.extract import extract_candidates
from dreaming.engine.multilingual import turn_statements
from dreaming.engine.self_statements import self_statements
from dreaming.protocol import Turn


@pytest.mark.parametrize(("text", "quote"), [
    ("أنا ممرضة في مستوصف صغير في الرباط.", None),  # "مستوصف" is not in the health lexicon, the sentence is kept
    ("أعمل محاسبا في شركة نقل منذ خمس سنوات", "أعمل محاسبا في شركة نقل منذ خمس سنوات"),
    ("ابنتي تدرس الهندسة في جامعة بغداد", "ابنتي تدرس الهندسة في جامعة بغداد"),
    ("مرحبا، اسمي سارة وأسكن في بيروت مع أسرتي", "اسمي سارة وأسكن في بيروت مع أسرتي"),
    ("أنا طالب في الجامعة، هل يمكنك مساعدتي في البحث؟", "أنا طالب في الجامعة"),  # the question after it is cut off
    ("أدير متجرا صغيرا للعطور، اكتب لي وصفا للمنتج", "أدير متجرا صغيرا للعطور"),  # the request after it is cut off
])
def test_a_first_person_statement_is_kept_in_the_users_words(text, quote):
    found = turn_statements(text)
    if quote is None:
        assert found and all(q in text for q, _ in found)
    else:
        assert (quote, f'User said: "{quote}"') in found, found


@pytest.mark.parametrize("text", [
    "هل يمكنك أن تكتب لي رسالة إلى مديري؟",  # a question
    "اكتب لي مقالا عن التغير المناخي",  # a request
    "إذا كنت طالبا في الطب، ماذا أدرس أولا؟",  # a supposition
    "الطقس جميل اليوم في المدينة",  # no first person
])
def test_a_question_a_request_or_a_sentence_without_i_says_nothing(text):
    assert turn_statements(text) == []


@pytest.mark.parametrize(("text", "kind"), [
    ("أنا مريض بالسكري منذ سنتين", "health"),
    ("أعاني من الاكتئاب والقلق", "health"),
    ("أنا مسلم وأصلي في المسجد كل جمعة", "religion"),
    ("زوجتي حامل في الشهر الخامس", "health"),
    ("أنا عضو في حزب المعارضة", "political"),
    ("رقم هاتفي 0791234567 وأنا أسكن في عمان", "identifier"),
])
def test_a_sensitive_sentence_is_never_kept(text, kind):
    assert sensitive(text) == kind
    assert turn_statements(text) == []
    assert extract_candidates([Turn(seq=0, role="user", content=text)], limit=50) == []


def test_the_university_is_not_a_mosque():
    assert sensitive("أدرس في الجامعة الأردنية") is None


def test_two_statements_of_one_turn_stay_two_candidates():
    text = "أعمل مهندسا في عمان. عندي كلب صغير اسمه ريكس. أنا مريض بالربو."
    found = extract_candidates([Turn(seq=0, role="user", content=text)], limit=50)
    assert [c.statement for c in found] == ['User said: "أعمل مهندسا في عمان"', 'User said: "عندي كلب صغير اسمه ريكس"']


def test_who_the_user_is_is_kept_in_a_coding_session():
    text = "أنا مهندس برمجيات في بنك، لماذا لا يعمل هذا الكود؟\n```python\nprint(1)\n```"
    found = self_statements([Turn(seq=0, role="user", content=text)], kind="coding")
    assert [c.statement for c in found] == ['User said: "أنا مهندس برمجيات في بنك"']


def test_a_mostly_english_turn_is_not_arabic():
    assert is_arabic("مرحبا") and not is_arabic("Thanks! I live in Amman, شكرا")


@pytest.mark.parametrize(("text", "kind"), [
    ("انا اعانى من الارق كل ليلة", "health"),  # spelled without hamza and with ى
    ("أشعر بانجذاب غريب ولا أعرف إن كان هذا طبيعيا", "sexual_orientation"),
    ("عندي ميول لا أفهمها", "sexual_orientation"),
])
def test_a_sensitive_term_is_found_however_it_is_spelled(text, kind):
    assert sensitive(text) == kind
    assert turn_statements(text) == []
