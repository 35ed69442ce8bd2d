"""Self-statements in Russian, Spanish, Portuguese, French, German, Dutch and Italian (multilingual.py), and
the sensitive zoo of every one of those languages (sensitive_languages.py): the sensitive clause of a turn never
becomes a candidate, the harmless clause said beside it does."""
import logging
from datetime import UTC, datetime

import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.engine.language import foreign_language
from dreaming.engine.multilingual import sentence_statement, turn_statements
from dreaming.engine.self_statements import self_statements
from dreaming.engine.sensitive import KINDS, redact_sensitive, sensitive_category
from dreaming.protocol import Turn

# language -> [(kind, the turn, a word of the sensitive clause, a word of the harmless clause)]
ZOO = {
    "ru": [
        ("health", "Я работаю учителем в Казани, и у меня диабет.", "диабет", "учителем"),
        ("religion", "Я хожу в церковь каждое воскресенье, а ещё я играю на гитаре.", "церковь", "гитаре"),
        ("sexual_orientation", "Я бисексуал, и моя сестра живёт в Минске.", "бисексуал", "Минске"),
        ("political", "Я голосовал за коммунистов, и у меня есть собака Бим.", "голосовал", "Бим"),
        ("ethnicity", "По национальности я татарин, а работаю я водителем.", "татарин", "водителем"),
        ("government_id", "Мой паспорт 4509 123456, я лечу в Сочи в июне.", "4509", "Сочи"),
        ("financial", "Номер карты 4111 1111 1111 1111, я коплю на велосипед.", "4111", "велосипед"),
        ("address", "Я живу на улице Ленина, дом 5, у меня две дочки.", "Ленина", "дочки"),
        ("phone", "Мой телефон +7 912 345-67-89, я играю в шахматы.", "345-67-89", "шахматы"),
        ("email", "Моя почта ivan.petrov@example.ru, я пеку хлеб по выходным.", "ivan.petrov", "хлеб"),
        ("credential", "Пароль от вайфая: кошка2023, мой кот Барсик спит на роутере.", "кошка2023", "Барсик"),
    ],
    "es": [
        ("health", "Trabajo de profesora en Sevilla, pero tengo diabetes.", "diabetes", "Sevilla"),
        ("religion", "Voy a misa cada domingo, y toco el violín en una orquesta.", "misa", "violín"),
        ("sexual_orientation", "Soy lesbiana, y mi hermana vive en Valencia.", "lesbiana", "Valencia"),
        ("political", "Voté por el partido verde, y tengo un perro llamado Toby.", "partido", "Toby"),
        ("ethnicity", "Soy de origen gitano, y trabajo como fontanero.", "gitano", "fontanero"),
        ("government_id", "Mi DNI es 12345678Z, y viajo a Lima en junio.", "12345678Z", "Lima"),
        ("financial", "Mi cuenta es 0049 1500 0512 3456, y corro maratones.", "0512", "maratones"),
        ("address", "Vivo en la calle Mayor 15, y tengo dos hijas.", "Mayor 15", "hijas"),
        ("phone", "Mi teléfono es +34 612 345 678, y toco el bajo en una banda.", "345 678", "bajo"),
        ("email", "Mi correo es ana.lopez@example.es, y soy diseñadora gráfica.", "ana.lopez", "diseñadora"),
        ("credential", "Mi contraseña es gatito123, y mi gata Luna duerme en el sofá.", "gatito123", "Luna"),
    ],
    "pt": [
        ("health", "Sou enfermeira em Lisboa, mas tenho depressão.", "depressão", "Lisboa"),
        ("religion", "Vou à igreja todo domingo, e toco violão.", "igreja", "violão"),
        ("sexual_orientation", "Sou bissexual, e minha irmã mora no Porto.", "bissexual", "Porto"),
        ("political", "Votei no partido socialista, e tenho um gato chamado Tom.", "partido", "Tom"),
        ("ethnicity", "Sou cigano, e trabalho como motorista.", "cigano", "motorista"),
        ("government_id", "Meu CPF é 123.456.789-09, e vou para Recife em junho.", "789-09", "Recife"),
        ("financial", "Meu cartão é 4111 1111 1111 1111, e eu corro maratonas.", "4111", "maratonas"),
        ("address", "Moro na Rua Augusta 120, e tenho dois filhos.", "Augusta", "filhos"),
        ("phone", "Meu telefone é +55 11 91234-5678, e toco baixo numa banda.", "91234", "baixo"),
        ("email", "Meu email é joao.silva@example.pt, e sou designer gráfico.", "joao.silva", "designer"),
        ("credential", "Minha senha é sol2024, e meu cachorro Rex dorme no sofá.", "sol2024", "Rex"),
    ],
    "fr": [
        ("health", "Je suis bibliothécaire à Lyon, mais je fais une dépression.", "dépression", "bibliothécaire"),
        ("religion", "Je suis musulmane et j'habite à Lille.", "musulmane", "Lille"),
        ("sexual_orientation", "Je suis homosexuel, et ma sœur vit à Nantes.", "homosexuel", "Nantes"),
        ("political", "J'ai voté pour le parti socialiste, et j'ai un chien qui s'appelle Filou.", "voté", "Filou"),
        ("ethnicity", "Mon origine ethnique est kabyle, et je suis plombier.", "kabyle", "plombier"),
        ("government_id", "Mon passeport est 12AB34567, et je pars à Lisbonne en juin.", "12AB34567", "Lisbonne"),
        ("financial", "Ma carte bancaire est 4111 1111 1111 1111, et je cours des marathons.", "4111", "marathons"),
        ("address", "J'habite au 12 rue de la Paix, et j'ai deux filles.", "Paix", "filles"),
        ("phone", "Mon téléphone est +33 6 12 34 56 78, et je joue de la basse.", "56 78", "basse"),
        ("email", "Mon mail est marie.dupont@example.fr, et je suis graphiste.", "marie.dupont", "graphiste"),
        ("credential", "Le mot de passe est soleil42, et mon chat Minou dort sur la box.", "soleil42", "Minou"),
    ],
    "de": [
        ("health", "Ich arbeite als Lehrerin in Bremen, aber ich habe Krebs.", "Krebs", "Bremen"),
        ("religion", "Ich gehe jeden Sonntag in die Kirche, und ich spiele Cello.", "Kirche", "Cello"),
        ("sexual_orientation", "Ich bin schwul, und meine Schwester wohnt in Graz.", "schwul", "Graz"),
        ("political", "Ich bin Parteimitglied der Grünen, aber mein Hund heißt Bello.", "Partei", "Bello"),
        ("ethnicity", "Meine Herkunft ist kurdisch, und ich bin Klempner.", "kurdisch", "Klempner"),
        ("government_id", "Mein Personalausweis ist L01X00T47, und ich fliege im Juni nach Wien.", "L01X00T47", "Wien"),
        ("financial", "Meine Kontonummer ist 0532013000, und ich laufe Marathon.", "0532013000", "Marathon"),
        ("address", "Ich wohne in der Musterstraße 12, und ich habe zwei Töchter.", "Musterstraße", "Töchter"),
        ("phone", "Meine Handynummer ist 0151 23456789, und ich spiele Bass.", "23456789", "Bass"),
        ("email", "Meine Mail ist jan.meier@example.de, und ich bin Grafikdesigner.", "jan.meier", "Grafikdesigner"),
        ("credential", "Mein Passwort ist Sonne123, und meine Katze Mia schläft auf dem Router.", "Sonne123", "Mia"),
    ],
    "nl": [
        ("health", "Ik werk als leraar in Utrecht, maar ik ben al een tijdje ziek.", "ziek", "Utrecht"),
        ("religion", "Ik ga elke zondag naar de kerk, en ik speel cello.", "kerk", "cello"),
        ("sexual_orientation", "Ik ben homoseksueel, en mijn zus woont in Gent.", "homoseksueel", "Gent"),
        ("political", "Ik heb gestemd op de partij van de arbeid, en mijn hond heet Max.", "partij", "Max"),
        ("ethnicity", "Mijn afkomst is Marokkaans, en ik ben loodgieter.", "afkomst", "loodgieter"),
        ("government_id", "Mijn paspoort is NW4RC2KL9, en ik vlieg in juni naar Lissabon.", "NW4RC2KL9", "Lissabon"),
        ("financial", "Mijn rekeningnummer is 0417164300, en ik loop marathons.", "0417164300", "marathons"),
        ("address", "Ik woon op de Kerkstraat 5, en ik heb twee dochters.", "Kerkstraat", "dochters"),
        ("phone", "Mijn telefoonnummer is 06 12345678, en ik speel bas.", "12345678", "bas"),
        ("email", "Mijn mail is piet.jansen@example.nl, en ik ben grafisch ontwerper.", "piet.jansen", "ontwerper"),
        ("credential", "Mijn wachtwoord is tulp2024, en mijn kat Poes slaapt op de router.", "tulp2024", "Poes"),
    ],
    "it": [
        ("health", "Lavoro come insegnante a Torino, ma ho una malattia cronica.", "malattia", "Torino"),
        ("religion", "Vado in chiesa ogni domenica, e suono il violoncello.", "chiesa", "violoncello"),
        ("sexual_orientation", "Sono bisessuale, e mia sorella vive a Bari.", "bisessuale", "Bari"),
        ("political", "Ho votato per il partito democratico, e ho un cane di nome Fido.", "partito", "Fido"),
        ("ethnicity", "La mia origine etnica è rom, e faccio l'idraulico.", "etnica", "idraulico"),
        ("government_id", "Il mio codice fiscale è RSSMRA80A01H501U, e vado a Lisbona a giugno.", "RSSMRA80A01H501U",
         "Lisbona"),
        ("financial", "Il mio conto è 000012345678, e corro le maratone.", "000012345678", "maratone"),
        ("address", "Abito in via Roma 10, e ho due figlie.", "Roma 10", "figlie"),
        ("phone", "Il mio cellulare è +39 347 123 4567, e suono il basso.", "123 4567", "basso"),
        ("email", "La mia mail è luca.rossi@example.it, e sono un grafico.", "luca.rossi", "grafico"),
        ("credential", "La mia password è pizza2024, e il mio gatto Micio dorme sul router.", "pizza2024", "Micio"),
    ],
}
CASES = [(lang, *case) for lang, cases in ZOO.items() for case in cases]


def test_the_zoo_covers_every_kind_in_every_language():
    for lang, cases in ZOO.items():
        assert {kind for kind, *_ in cases} == set(KINDS), lang


@pytest.mark.parametrize("lang, kind, text, sensitive, harmless", CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_the_sensitive_clause_is_taken_out_and_the_harmless_one_kept(lang, kind, text, sensitive, harmless):
    redaction = redact_sensitive(text)
    assert redaction.kinds == (kind,)
    assert sensitive not in redaction.text
    assert harmless in redaction.text


@pytest.mark.parametrize("lang, kind, text, sensitive, harmless", CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_sensitive_clause_never_becomes_a_candidate_while_the_harmless_one_does(lang, kind, text, sensitive, harmless):
    found = extract_candidates([Turn(seq=1, role="user", content=text)])
    said = " ".join(f"{c.quote} {c.statement}" for c in found)
    assert sensitive not in said
    assert harmless in said, found


@pytest.mark.parametrize("text, lang", [
    ("Моя дочь владеет земельным участком", "ru"), ("Me gusta nadar en el océano", "es"),
    ("Eu sou professora no Brasil", "pt"), ("nous sommes habitués à expédier partout dans le monde", "fr"),
    ("Ich arbeite als Lehrerin in Berlin", "de"), ("Ik woon al tien jaar in Utrecht", "nl"),
    ("Io sono un medico a Roma", "it"), ("I have a dog and a cat", None), ("我喜欢爬山", None),
    ("Я живу в Києві і працюю вчителькою", None),  # Ukrainian: no lexicon here, so nothing is read
])
def test_the_language_of_a_turn_is_recognised(text, lang):
    assert foreign_language(text) == lang


@pytest.mark.parametrize("sentence, lang", [
    ("Soy irlandesa, pero originaria de Letonia.", "es"),
    ("Моя дочь владеет земельным участком.", "ru"),
    ("Je travaille comme infirmière à Lyon.", "fr"),
    ("Mein Mann und ich haben einen kleinen Laden in Köln.", "de"),
])
def test_a_first_person_statement_is_kept_whole_in_the_users_words(sentence, lang):
    quote, statement = sentence_statement(sentence, language=lang)
    assert sentence.startswith(quote) and quote in statement
    assert statement == f'User said: "{quote}"'


@pytest.mark.parametrize("sentence, lang", [
    ("Напиши мне эссе про войну.", "ru"),  # a request
    ("Как мне выучить английский?", "ru"),  # a question
    ("Если бы у меня была собака, я бы с ней гулял.", "ru"),  # a hypothetical
    ("Мне нужно написать эссе о войне.", "ru"),  # the task at hand
    ("¿Puedes ayudarme con mi tarea?", "es"),
    ("Si yo fuera rico, compraría una casa.", "es"),
    ("Escribe un correo para mi jefe.", "es"),
    ("Peux-tu corriger mon texte ?", "fr"),
    ("Kannst du mir bitte einen Brief schreiben?", "de"),
    ("Schrijf een verhaal over mijn hond.", "nl"),
    ("Vorrei che tu scrivessi una lettera.", "it"),
    ("Voglio.", "it"),  # too short to say anything
    ("Todavía me debes mi libro, jaja", "es"),  # said to someone: "you owe me"
    ("les deux colonnes (notre équipe et nos prix => nous mettre en avant", "fr"),  # notes, not a spoken sentence
])
def test_questions_requests_hypotheticals_and_the_task_are_not_statements(sentence, lang):
    assert sentence_statement(sentence, language=lang) is None


def test_a_question_keeps_the_statement_it_opens_with():
    text = "Растолкуй ситуацию по законам РФ. Моя дочь владеет земельным участком, могу ли я построить дом?"
    assert [q for q, _ in turn_statements(text)] == ["Моя дочь владеет земельным участком"]


def test_a_sentence_introducing_a_paste_is_not_read():
    assert sentence_statement("Мой текст ниже:", language="ru") is None


def test_a_skipped_coding_session_keeps_who_the_user_is_and_nothing_of_the_code():
    turns = [Turn(seq=0, role="user", content=(
        "Я работаю бэкенд-разработчиком в банке. Почему этот код падает?\n```python\n# я пишу тут комментарий\n"
        "print('Я люблю котов')\n```")),
        Turn(seq=1, role="assistant", content="Ошибка в строке 2.")]
    found = self_statements(turns, kind="coding")
    assert [c.quote for c in found] == ["Я работаю бэкенд-разработчиком в банке"]


def test_fiction_in_another_language_gives_nothing_but_out_of_character_talk_does():
    turns = [Turn(seq=0, role="user", content=(
        "Я рыцарь и живу в замке у моря. (OOC: я работаю учителем в Казани)"))]
    assert [c.quote for c in self_statements(turns, kind="roleplay")] == ["я работаю учителем в Казани"]


def test_pasted_text_of_a_document_session_gives_nothing():
    turns = [Turn(seq=0, role="user", content=(
        "Сократи этот текст:\nЯ родился в Москве в 1950 году. Я работал инженером на заводе всю жизнь."))]
    assert self_statements(turns, kind="document") == []


@pytest.mark.parametrize("text", [
    "I ran a race last Sunday and went straight home.",
    "My sister works at a hospital in Leeds.",  # English: the first-person rule of sensitive.py decides
    "The hospital near the station is closing.",
    "Mi hermana es enfermera y vive en Bilbao.",
    "Ich wohne in Berlin und arbeite als Koch.",
    "Je travaille dans une boulangerie à Lyon.",
    "Мой кот любит спать на подоконнике.",
    "Mi contraseña es muy segura.",
    "Ich habe mein Passwort vergessen.",
])
def test_ordinary_talk_is_not_sensitive(text):
    assert sensitive_category(text) is None
    assert redact_sensitive(text).text == text


# --- through real nights, as the English and Chinese zoo (test_sensitive_clause_zoo.py) ------------------


@pytest.mark.django_db
@pytest.mark.parametrize("lang", list(ZOO))
def test_a_night_of_the_zoo_stores_no_sensitive_clause_and_keeps_the_harmless_facts(lang, caplog):
    from tests.dreaming.engine.test_sensitive_clause_zoo import (
        _everything_stored,
        _holds,
        _learned,
        _logs,
        _night_of_the_zoo,
    )

    caplog.set_level(logging.DEBUG)
    zoo = [(kind, text, [sensitive], harmless) for kind, text, sensitive, harmless in ZOO[lang]]
    user, light = _night_of_the_zoo(zoo, start=datetime(2026, 5, 4, 9, 0, tzinfo=UTC))

    stored, logs = _everything_stored(user), _logs(caplog)
    assert [(kind, word) for kind, _text, words, _ in zoo for word in words if _holds(stored, word) or _holds(logs, word)] == []
    kept = [harmless for *_, harmless in zoo if _learned(user, harmless)]
    assert len(kept) / len(zoo) >= 0.9, sorted({h for *_, h in zoo} - set(kept))
    assert light.sensitive_dropped == len(zoo)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", list(ZOO))
def test_no_sensitive_clause_of_any_language_reaches_an_openai_request(lang, openai_backend, caplog):
    from tests.dreaming.engine.test_sensitive_clause_zoo import (
        _greedy_model,
        _holds,
        _night_of_the_zoo,
    )

    caplog.set_level(logging.DEBUG)
    openai_backend.set_chat_responder(_greedy_model)
    zoo = [(kind, text, [sensitive], harmless) for kind, text, sensitive, harmless in ZOO[lang]]
    _night_of_the_zoo(zoo, start=datetime(2026, 5, 4, 9, 0, tzinfo=UTC))

    assert openai_backend.chat_requests, "the model was never asked: the checks below would prove nothing"
    sent = "\n".join(m["content"] for r in openai_backend.chat_requests for m in r.messages if m["role"] != "system")
    for kind, _text, words, harmless in zoo:
        assert not any(_holds(sent, word) for word in words), f"{kind}: {words} was sent to the model"
        assert harmless in sent, f"the harmless part ({harmless!r}) never reached the model"



def test_a_pasted_essay_and_a_quoted_line_give_nothing():
    essay = ("Attraverso una presenza attiva sui vari canali social, le imprese sono in grado di raggiungere segmenti "
             "di pubblico in precedenza non esplorati. ") * 8 + "I benefici che ne scaturiscono sono molteplici e tangibili."
    assert extract_candidates([Turn(seq=1, role="user", content=essay)]) == []
    story = "“Oh oui Marc, je ne marchais plus droit depuis des jours”, dit-elle."
    assert extract_candidates([Turn(seq=1, role="user", content=story)]) == []


@pytest.mark.parametrize("sentence, lang", [
    ("Mi sembra che un certo Markov abbia una teoria in merito", "it"),
    ("Мне кажется, что это неправильный ответ", "ru"),
    ("Me parece que la respuesta es incorrecta", "es"),
])
def test_an_opinion_about_the_conversation_is_not_a_statement(sentence, lang):
    assert sentence_statement(sentence, language=lang) is None
