"""The sensitive-content rules: secrets are masked, health / religion / credentials are recognised."""
import pytest

from dreaming.engine.credentials import SECRET, mask_secrets
from dreaming.engine.sensitive import redact_sensitive, sensitive_category


@pytest.mark.parametrize(
    "text, secret",
    [
        ("my key is sk-proj-4f9QzX2bLmN8pR7sT1uV3wY5 thanks", "sk-proj-4f9QzX2bLmN8pR7sT1uV3wY5"),
        ("token ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 here", "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"),
        ("aws AKIAIOSFODNN7EXAMPLE in the config", "AKIAIOSFODNN7EXAMPLE"),
        (
            "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ),
        ("Authorization: Bearer abcDEF123456ghiJKL789", "abcDEF123456ghiJKL789"),
        ("my password is hunter2!x", "hunter2!x"),
        ("密码是qwe12345", "qwe12345"),
        ("验证码：834921", "834921"),
        ("card 4111 1111 1111 1111 exp 12/29", "4111 1111 1111 1111"),
        ("blob Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MEFCQ0RFRkdISUpLTE1OT1BR end", "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MEFCQ0RFRkdISUpLTE1OT1BR"),
        ("secret 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
        ("postgres://admin:s3cretpw@db.example.com/app", "s3cretpw"),
    ],
)
def test_it_masks_each_kind_of_secret(text, secret):
    masked = mask_secrets(text)
    assert secret not in masked
    assert SECRET in masked
    # Light sleep masks only the turns that lost a clause: every secret must also be a sensitive span.
    assert redact_sensitive(text).kinds and redact_sensitive(text, anyone=True).kinds


def test_it_masks_a_private_key_block_entirely():
    text = "here:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc\n-----END RSA PRIVATE KEY-----\nbye"
    masked = mask_secrets(text)
    assert "MIIEowIBAAKCAQEA7" not in masked
    assert masked.startswith("here:") and masked.endswith("bye")


@pytest.mark.parametrize(
    "text",
    [
        "I moved to Berlin in 2021 and my sister lives in Munich.",
        "Call me at 3pm, the meeting is in room 1204.",
        "My order number is 1234 5678 9012 3456",  # fails the Luhn check: not a card
        "I think the password policy at work is too strict.",
        "我住在上海，养了一只猫。",
        "see https://example.com/api/v1/users/12345/orders/ABCdef9/items for details",
    ],
)
def test_it_leaves_ordinary_text_alone(text):
    assert mask_secrets(text) == text


@pytest.mark.parametrize(
    "text, category",
    [
        ("I was diagnosed with diabetes last year", "health"),
        ("I'm on antidepressants since March", "health"),
        ("my therapist says I should rest more", "health"),
        ("我有抑郁症，一直在吃药", "health"),
        ("我怀孕三个月了", "health"),
        ("我经常感觉到胃部不适", "health"),  # a symptom, and the body's figures
        ("我的体重有所增加", "health"),
        # a condition named by a longer or misspelt form of a listed word is still a condition
        ("I have insuline resistance and hyperthyroid", "health"),
        ("my doctor says I'm prediabetic", "health"),
        ("I have high cholesterol so I cook at home", "health"),
        ("I go to church every Sunday with my mom", "religion"),
        ("I'm a practicing Muslim", "religion"),
        ("我信佛很多年了", "religion"),
        ("my password is hunter2!x", "credential"),
        ("我的银行卡密码是123456", "credential"),
        ("here is my API key sk-proj-4f9QzX2bLmN8pR7sT1uV3wY5", "credential"),
    ],
)
def test_it_recognises_sensitive_disclosures(text, category):
    assert sensitive_category(text) == category


@pytest.mark.parametrize(
    "text",
    [
        "I went to the gym this morning",
        "my dog is sick of the rain",
        "Oh my god, that movie was great",
        "I read a book about autism for my class",
        "I wrote an essay about ulcers in horses",
        "My mother works in nursing at a hospital",
        "我今天去健身了",
        "这个问题让我很头疼",  # "a headache" said of a problem
        "My query takes 200 ms on my laptop",
        "I gained a lot of muscle mass this year",
        "I had a stroke of luck at the casino",
        "I love hiking with my sister",
    ],
)
def test_it_does_not_flag_ordinary_talk(text):
    assert sensitive_category(text) is None


def test_a_pasted_document_read_twice_in_a_row_is_redacted_once(monkeypatch):
    # Light sleep redacts a turn and the engine reads the same text again at once: a turn longer than the
    # main cache's 2,000 characters is remembered too, a huge one is not (memory stays bounded).
    from dreaming.engine import sensitive

    calls = []
    real = sensitive._redact
    monkeypatch.setattr(sensitive, "_redact", lambda text, anyone: calls.append(len(text)) or real(text, anyone))
    sensitive._redact_long_cached.cache_clear()
    document = "I have diabetes and I take insulin. " + "The quarterly report covers sales in every region. " * 80
    huge = "The quarterly report covers sales in every region. " * 1_200

    first = sensitive.redact_sensitive(document)
    assert sensitive.redact_sensitive(document) == first
    assert first.kinds == ("health",) and "diabetes" not in first.text
    sensitive.redact_sensitive(huge)
    sensitive.redact_sensitive(huge)
    assert calls == [len(document), len(huge), len(huge)]


@pytest.mark.parametrize("text", ["I have diabetes", "my password is hunter22", "I love hiking", "x" * 2500 + " I have asthma"])
def test_a_category_asked_again_is_the_same_answer_cached_or_not(text):
    from dreaming.engine.sensitive import _category

    assert sensitive_category(text) == _category(text)
    assert sensitive_category(text) == sensitive_category(str(text))  # the cached answer, asked again


@pytest.mark.parametrize("text", [
    "Diagnosed with diabetes last year.",  # chat leaves its "I" out
    "Been on insulin since May.",
    "Yeah, allergic to peanuts.",
    "Taking antidepressants for a year now.",
    "User has diabetes",  # a statement names the user "User"
    "User enjoys Diagnosed with diabetes last year",
])
def test_a_health_sentence_without_its_i_or_about_user_is_sensitive(text):
    assert sensitive_category(text) == "health"


@pytest.mark.parametrize("text", [
    "Diabetes is a common disease.",
    "Depression is common among students.",
    "The book is about depression.",
])
def test_health_talked_about_in_general_is_not_the_users(text):
    assert sensitive_category(text) is None


def test_an_answer_that_leaves_its_i_out_gives_no_health_candidate():
    from dreaming.protocol import SessionInfo, Turn
    from dreaming.providers.local import LocalDreamer

    turns = [Turn(seq=0, role="assistant", content="What do you do for fun?"),
             Turn(seq=1, role="user", content="Been on insulin since May. I like chess.")]
    statements = [c.statement for c in LocalDreamer().read_session(turns=turns, info=SessionInfo(new_from_seq=-1)).candidates]
    assert statements == ["User likes chess"]
    assert redact_sensitive("Got diagnosed with ADHD in May, but I love chess.").text == "I love chess."


@pytest.mark.parametrize("text", [
    "I want to be a physical therapist",
    "I work as a counselor at a middle school",
    "I am a psychiatrist",
    "我想当心理咨询师",
    "我是一名心理医生",
])
def test_a_therapist_or_counselor_the_user_is_or_wants_to_be_is_a_job_not_a_condition(text):
    assert sensitive_category(text) is None


@pytest.mark.parametrize("text", [
    "my therapist says I should rest more",
    "I see a therapist every week",
    "I am in physical therapy for my knee",
    "I have been seeing a counselor since May",
    "I became a therapist after my depression",  # the job word passes, the condition beside it does not
    "我的心理医生说我要多休息",
    "我在做心理咨询",
    "我在接受治疗",
])
def test_a_therapist_the_user_sees_is_still_health(text):
    assert sensitive_category(text) == "health"


@pytest.mark.parametrize("text", [
    "I've been off sick for a while",
    "I'm on sick leave until June",
    "I called in sick twice this week",
    "I still don't feel well",
    "I have mood swings",
    "Been feeling unwell since Monday",
    "我最近请了病假",
    "我情绪波动很大",
    "我身体不舒服，今天不去了",
    "I've been having headaches every day",
    "My back hurts all the time",
    "I get dizzy when I stand up",
    "I've had a fever since Sunday",
    "my knees are killing me after the stairs",
    "Je ne me sens pas bien depuis lundi",
    "terwijl ik mij nog steeds niet goed voel",
    "No me siento bien desde ayer",
    "Ich fühle mich nicht wohl",
    "I'm always sneezing in spring",
    "I've tried antihistamines but they don't help",
    "I take ibuprofen for my knee",
])
def test_being_ill_and_how_it_shows_are_health(text):
    assert sensitive_category(text) == "health"


@pytest.mark.parametrize("text", [
    "I don't feel good about the election",
    "I work with patients who describe their symptoms",
    "I'm sick of the rain",
    "这个安排让我不舒服",  # uneasy, not unwell
    "My new job is a pain in the neck but I love it",
    "I feel good about the move",
])
def test_a_feeling_or_a_job_near_those_words_is_not_health(text):
    assert sensitive_category(text) is None


def test_the_ill_users_turn_keeps_its_other_facts_and_loses_the_symptoms():
    kept = redact_sensitive("I've been off sick for a while and I still don't feel well. I have mood swings. "
                            "My new cat is called Pixel.").text
    assert kept == "My new cat is called Pixel."


def test_a_symptom_is_taken_out_and_the_turns_other_fact_kept():
    assert redact_sensitive("My back hurts all the time, and I live in Paris now.").text.strip() == "I live in Paris now."
    assert redact_sensitive("Ik voel me nog steeds niet goed. Mijn kat heet Pixel.").text.strip() == "Mijn kat heet Pixel."
