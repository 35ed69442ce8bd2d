"""Self-statements in the languages the rules have no grammar for: Russian, Spanish, Portuguese, French,
German, Dutch, Italian and Arabic (`language_of` says which one a turn is in; arabic.py has Arabic's words).

Without a parser there is no third-person rewrite ("Soy irlandesa" → "User is Irish" would be a
translation), so a statement sentence is kept whole, in the user's words, and the statement says only
what is true: `User said: "Soy irlandesa, pero originaria de Letonia."`. A sentence is kept when
1. it has a first-person word of its language ("я", "мой"; "soy", "tengo", "mi"; "je", "j'ai", "mon";
   "ich", "mein"; "ik", "mijn"; "io", "ho", "mio"; "eu", "meu"; or a "we" / "our");
2. it is a statement: no question mark or opening question word, no request to the assistant (an
   imperative, a "please", a "you"), no hypothetical ("если", "si", "wenn", "als"), not the task at
   hand (a task noun with a task verb: "мне нужно написать эссе");
3. it is not pasted text: three words at least, no longer than a spoken sentence.

sensitive.py (with sensitive_languages.py) has already taken the sensitive clauses out of the turn.
Kept sentences stay below triage's "personal" bar (they widen what is remembered of a session, never
decide whether it is dreamed), like the English sentences kept whole (extract._whole_sentence) — except one
that says who the user is (`is_self_statement`: work, home, family, business), which weighs as its English
reading would ("Nous sommes une petite entreprise…" keeps a session as "We are a small company…" does).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from dreaming.engine import arabic
from dreaming.engine.language import STOP_WORDS, foreign_language, sentences, words

SAID = "User said: "
IMPORTANCE = 0.4
MAX_SENTENCE_CHARS = 300
_E = r"(?![^\W\d_])"
_WORD_RE = re.compile(r"[^\W_]+")


# Spanish, Portuguese and Italian drop the subject: the common first-person verbs say "I" by themselves
# ("trabajo en un banco", "toco el violín", "vado a Roma").
_PRO_DROP = {
    "es": "trabajo|vivo|estudio|toco|corro|viajo|juego|hablo|voy|hago|enseño|cocino|escribo|leo|practico|nací|crecí|"
          "tuve|compré|adopté|cuido|colecciono|dirijo",
    "pt": "trabalho|moro|vivo|estudo|toco|corro|viajo|jogo|falo|vou|faço|ensino|cozinho|escrevo|leio|pratico|nasci|"
          "cresci|comprei|adotei|cuido|coleciono",
    "it": "lavoro|vivo|abito|studio|suono|corro|viaggio|vado|gioco|parlo|faccio|insegno|cucino|scrivo|leggo|pratico|"
          "sono nat[oa]|cresciut[oa]|ho comprato|colleziono|gestisco",
}


@dataclass(frozen=True)
class _Grammar:
    first_person: str  # words that make a sentence first person
    question: str  # words that open a question
    request: str  # words that address the assistant or ask it for something
    hypothetical: str  # a regex: what makes it a supposition (an opening "if", a conditional anywhere)
    task_noun: str
    task_verb: str
    filler: str  # greetings, yes / no, thanks, "and" / "but" at the start
    talk: str  # conversation, not disclosure: "I understand", "I mean", "I think", "sorry"
    self_words: str  # identity, work, study, home, family: what a skipped session still keeps


_GRAMMARS = {
    "ru": _Grammar(
        first_person=r"я|мне|меня|мной|мой|моя|моё|мое|мои|моего|моей|моих|моему|моим|мою|мы|нас|нам|наш\w*|"
                     r"работаю|живу|учусь|болею|лечусь|принимаю|молюсь|голосую|голосовал\w*|переехал\w*|родил\w*",
        question=r"как|что|почему|зачем|где|когда|куда|откуда|сколько|как\w+|кто|чем|ли|можно ли|могу ли",
        request=r"ты|тебя|тебе|тобой|вы|вас|вам|вами|ваш\w*|тво\w+|пожалуйста|напиши\w*|сделай\w*|помоги\w*|придумай\w*|"
                r"переведи\w*|объясни\w*|дай|дайте|расскажи\w*|составь\w*|перепиши\w*|исправь\w*|продолжи\w*|опиши\w*|"
                r"создай\w*|сгенерируй\w*|представь\w*|ответь\w*|перефразируй\w*|предложи\w*|подскажи\w*|оформи\w*|"
                r"нужн\w*|надо|хочу,?\s+чтобы|прошу",
        hypothetical=r"^\W*(?:если|допустим|предположим|вдруг)\b|\b(?:бы|может быть|возможно|наверное)\b",
        task_noun=r"эссе|сочинени\w*|текст\w*|стать\w+|письм\w*|код\w*|программ\w*|перевод\w*|презентаци\w*|пост\w*|"
                  r"доклад\w*|реферат\w*|курсов\w*|задач\w*|вопрос\w*|ответ\w*|рассказ\w*|стих\w*|функци\w*|скрипт\w*|слайд\w*",
        task_verb=r"написать|переписать|перевести|сделать|составить|исправить|улучшить|сократить|пересказать|"
                  r"оформить|дописать|создать|придумать|проверить|решить|отредактировать",
        filler=r"привет|здравствуйте|здравствуй|добрый день|да|нет|ну|спасибо|ок|хорошо|кстати|вообще|итак|так|и|но|а",
        talk=r"понимаю|понял\w*|поняла|имею в виду|думаю|кажется|по-моему|считаю|знаю|согласен|согласна|уверен\w*|извините|прости\w*",
        self_words=r"я\s+(?:работаю|живу|учусь|родил\w*|переехал\w*|занимаюсь|преподаю|владею|готовлюсь)|"
                   r"я\s+(?:студент\w*|учитель\w*|врач|инженер\w*|программист\w*|менеджер\w*|юрист\w*|дизайнер\w*)|"
                   r"(?:мой|моя|моё|мои)\s+(?:муж|жена|сын|дочь|дети|работа|профессия|компания|бизнес|магазин|"
                   r"специальность|семья|имя)|меня зовут|мне \d+ (?:год|лет)|"
                   r"я\s+(?:сейчас\s+)?(?:пишу|делаю|разрабатываю|готовлю|создаю|работаю над|открываю)|"
                   r"у меня (?:есть )?(?:(?:свой|своя|своё|небольш\w+)\s+)?(?:магазин|бизнес|компания|канал|блог|кафе|сын|дочь|собака|кошка)",
    ),
    "es": _Grammar(
        first_person=r"yo|soy|estoy|tengo|mi|mis|me|conmigo|vivo|trabajo|estudio|nosotr[oa]s|nuestr[oa]s?|somos|"
                     r"tenemos|he|fui|era|estaba|tuve|" + _PRO_DROP["es"],
        question=r"qué|cómo|cuál|cuáles|dónde|cuándo|por qué|quién|quiénes|cuánt[oa]s?|puedo|podría|debería|debo",
        request=r"tú|tu|te|ti|usted|ustedes|puedes|podrías|podrias|debes|tienes|quieres|sabes|eres|estás|necesitas|"
                r"por favor|porfa|escribe|escríbeme|hazme|haz|"
                r"ayúdame|ayudame|dame|dime|explica\w*|traduce|traduzca|redacta|genera|crea|corrige|reescribe|resume|"
                r"necesito que|quiero que|me gustaría que|quisiera que",
        hypothetical=r"^\W*si\b(?!\s*[,.!])|\b(?:supongamos|imagina|imagínate|quizás|quizá|tal vez|ojalá)\b",
        task_noun=r"ensayo|texto|artículo|carta|correo|código|programa|traducción|presentación|publicación|post|informe|"
                  r"resumen|párrafo|cuento|poema|canción|función|guion|guión",
        task_verb=r"escribir|reescribir|traducir|hacer|redactar|corregir|mejorar|resumir|crear|generar|preparar|revisar",
        filler=r"hola|buenas|sí|si|no|bueno|gracias|vale|ok|pues|bien|también|además|oye|y|pero",
        talk=r"entiendo|quiero decir|creo|pienso|sé|me parece|estoy de acuerdo|perdón|lo siento|disculpa",
        self_words=r"(?:yo\s+)?(?:soy|trabajo|vivo|estudio|nací|me mudé|enseño|tengo \d+ años)|me llamo|"
                   r"mis? (?:espos[oa]|marido|mujer|hij[oa]s?|trabajo|empresa|negocio|tienda|profesión|familia|nombre|"
                   r"tesis|clientes|alumnos|estudiantes|jefe)|estoy (?:trabajando|haciendo|escribiendo|preparando|"
                   r"desarrollando|creando|construyendo|diseñando|organizando|aprendiendo)|tengo (?:un|una) (?:pequeñ[oa] )?"
                   r"(?:tienda|negocio|empresa|restaurante|canal|blog|panadería|cafetería|marca|hij[oa]|perr[oa]|gat[oa])",
    ),
    "pt": _Grammar(
        first_person=r"eu|sou|estou|tenho|meu|minha|meus|minhas|me|mim|comigo|moro|trabalho|estudo|nós|nosso\w*|"
                     r"nossa\w*|somos|temos|" + _PRO_DROP["pt"],
        question=r"o que|que|como|qual|quais|onde|quando|por que|porque|quem|quant[oa]s?|posso|poderia|devo",
        request=r"você|voce|vc|tu|te|ti|seu|sua|pode|poderia|por favor|escreva|escreve|faça|faz|me ajude|ajude|dê|"
                r"explique|traduza|crie|gere|corrija|reescreva|resuma|preciso que|quero que|gostaria que",
        hypothetical=r"^\W*se\b|\b(?:suponha|imagine|talvez|quem sabe)\b",
        task_noun=r"redação|texto|artigo|carta|e-?mail|código|programa|tradução|apresentação|post|relatório|resumo|"
                  r"parágrafo|história|poema|música|função|roteiro",
        task_verb=r"escrever|reescrever|traduzir|fazer|redigir|corrigir|melhorar|resumir|criar|gerar|preparar|revisar",
        filler=r"olá|ola|oi|sim|não|bom|obrigad[oa]|ok|bem|então|também|e|mas",
        talk=r"entendo|quero dizer|acho|penso|sei|me parece|concordo|desculpa|desculpe",
        self_words=r"(?:eu\s+)?(?:sou|trabalho|moro|estudo|nasci|me mudei|ensino|tenho \d+ anos)|me chamo|meu nome|"
                   r"(?:meu|minha|meus|minhas) (?:marido|esposa|mulher|filh[oa]s?|trabalho|empresa|negócio|loja|família|"
                   r"tcc|tese|clientes|alunos)|estou (?:trabalhando|fazendo|escrevendo|preparando|desenvolvendo|criando|"
                   r"construindo|aprendendo)|tenho (?:um|uma) (?:pequen[oa] )?(?:loja|empresa|negócio|restaurante|canal|"
                   r"blog|marca|filh[oa]|cachorr[oa]|gat[oa])",
    ),
    "fr": _Grammar(
        first_person=r"je|j['’]|moi|me|m['’]|mon|ma|mes|nous|notre|nos",
        question=r"qu['’]est-ce|quel\w*|comment|pourquoi|où|quand|qui|combien|est-ce que|puis-je|dois-je",
        request=r"tu|toi|te|t['’]|vous|votre|vos|ton|ta|tes|peux-tu|pouvez-vous|s['’]il (?:te|vous) pla[iî]t|svp|stp|"
                r"écris|écrivez|rédige\w*|réécri\w*|fais|faites|aide|aidez|donne|donnez|explique\w*|tradui\w*|"
                r"corrige\w*|résume\w*|génère\w*|crée\w*|propose\w*|^\W*demande|je veux que|j['’]aimerais que|je voudrais que",
        hypothetical=r"^\W*si\b|\b(?:imagine|imaginons|supposons|peut-être|peut être)\b",
        task_noun=r"dissertation|texte|article|lettre|e-?mail|courriel|code|programme|traduction|présentation|post|"
                  r"rapport|résumé|paragraphe|histoire|poème|chanson|fonction|script",
        task_verb=r"écrire|réécrire|traduire|faire|rédiger|corriger|améliorer|résumer|créer|générer|préparer|relire|"
                  r"reformuler",
        filler=r"bonjour|salut|oui|non|bon|merci|ok|d['’]accord|alors|aussi|en fait|bref|et|mais",
        talk=r"comprends|veux dire|pense|crois|sais|me semble|suis d['’]accord|désolée?|excuse\w*|craign\w*",
        self_words=r"je suis|j['’]habite|je travaille|j['’]étudie|je vis|je m['’]appelle|je suis né\w*|j['’]ai \d+ ans|"
                   r"(?:mon|ma|mes) (?:mari|femme|fils|fille|enfants|travail|métier|entreprise|société|boutique|famille|"
                   r"client\w*|thèse|mémoire|élèves|étudiants|patron|prestataire\w*)|nous sommes|je suis en train de|"
                   r"je (?:travaille sur|crée|développe|prépare|rédige|construis|organise|lance)|"
                   r"j['’]ai (?:un|une) (?:petit\w* )?(?:entreprise|boutique|société|restaurant|chaîne|blog|magasin|"
                   r"commerce|fils|fille|chien|chat)",
    ),
    "de": _Grammar(
        first_person=r"ich|mich|mir|mein\w*|wir|uns|unser\w*",
        question=r"was|wie|warum|wieso|weshalb|wo|wann|wer|welche\w*|wieviel\w*|kann ich|soll ich|darf ich",
        request=r"du|dich|dir|dein\w*|(?-i:Sie|Ihnen|Ihr\w*)|bitte|schreib|schreibe|hilf|gib|erkläre\w*|erklär|"
                r"übersetze\w*|korrigiere\w*|fasse\w*|erstelle\w*|generiere\w*|kannst|könntest|können Sie|"
                r"ich möchte,? dass|ich will,? dass",
        hypothetical=r"^\W*(?:wenn|falls|angenommen)\b|\b(?:stell dir vor|vielleicht|würde\w*|hätte\w*|wäre\w*)\b",
        task_noun=r"aufsatz|text|artikel|brief|e-?mail|mail|code|programm|übersetzung|präsentation|post|bericht|"
                  r"zusammenfassung|absatz|geschichte|gedicht|lied|funktion|skript",
        task_verb=r"schreiben|umschreiben|übersetzen|machen|verfassen|korrigieren|verbessern|zusammenfassen|"
                  r"erstellen|generieren|vorbereiten|überarbeiten",
        filler=r"hallo|hi|ja|nein|gut|danke|ok|also|übrigens|naja|und|aber",
        talk=r"verstehe|scheint mir|mir scheint|ich meine(?=,| damit| das| dass)|denke|glaube|weiß|stimme zu|sorry|entschuldigung",
        self_words=r"ich (?:bin|arbeite|wohne|lebe|studiere|unterrichte|heiße|bin \d+)|"
                   r"mein\w* (?:mann|frau|sohn|tochter|kinder|arbeit|beruf|firma|unternehmen|laden|familie|name|"
                   r"bachelorarbeit|masterarbeit|doktorarbeit|kunden|schüler)|ich (?:arbeite an|schreibe|entwickle|baue)|"
                   r"ich habe (?:einen|eine|ein) (?:klein\w* )?(?:laden|firma|unternehmen|shop|restaurant|kanal|blog|"
                   r"sohn|tochter|hund|katze)",
    ),
    "nl": _Grammar(
        first_person=r"ik|mij|me|mijn|wij|we|ons|onze",
        question=r"wat|hoe|waarom|waar|wanneer|wie|welke|hoeveel|kan ik|mag ik|moet ik",
        request=r"je|jij|jou|jouw|u|uw|kun|kunt|wil je|wilt u|alsjeblieft|alstublieft|schrijf|help|geef|leg uit|"
                r"vertaal|verbeter|herschrijf|maak|vat samen|genereer",
        hypothetical=r"^\W*(?:als|stel|indien)\b|\b(?:misschien|zou|zouden)\b",
        task_noun=r"opstel|tekst|artikel|brief|e-?mail|mail|code|programma|vertaling|presentatie|post|verslag|"
                  r"samenvatting|alinea|verhaal|gedicht|lied|functie|script",
        task_verb=r"schrijven|herschrijven|vertalen|maken|opstellen|corrigeren|verbeteren|samenvatten|genereren|"
                  r"voorbereiden",
        filler=r"hallo|hoi|ja|nee|goed|bedankt|ok|oké|nou|trouwens|en|maar",
        talk=r"snap|begrijp|bedoel|denk|weet|lijkt me|sorry|excuses",
        self_words=r"ik (?:ben|werk|woon|studeer|geef les|heet)|mijn (?:man|vrouw|zoon|dochter|kinderen|werk|baan|"
                   r"beroep|bedrijf|winkel|familie|naam|bedrijfsarts)",
    ),
    "it": _Grammar(
        # "sono" is "I am" and "they are": only "sono un…", "sono nata…" say the first.
        first_person=r"io|sono (?:un|una|uno|un'|nat[oa]|cresciut[oa]|sposat[oa]|stat[oa]|appena|qui|di)|ho|mi|me|mio|"
                     r"mia|miei|mie|noi|nostr[oaie]|abbiamo|siamo|" + _PRO_DROP["it"],
        question=r"cosa|che cosa|come|perché|perche|dove|quando|chi|quale|quali|quant[oaie]|posso|potrei|dovrei",
        request=r"tu|te|ti|tuo|tua|tuoi|puoi|potresti|per favore|per piacere|scrivi\w*|aiutami|aiuta|dammi|dimmi|"
                r"spiega\w*|traduci\w*|correggi\w*|riassumi\w*|crea|genera|voglio che|vorrei che",
        hypothetical=r"^\W*se\b|\b(?:immagina|supponiamo|forse)\b",
        task_noun=r"saggio|tema|testo|articolo|lettera|e-?mail|mail|codice|programma|traduzione|presentazione|post|"
                  r"relazione|riassunto|paragrafo|storia|poesia|canzone|funzione|script",
        task_verb=r"scrivere|riscrivere|tradurre|fare|redigere|correggere|migliorare|riassumere|creare|generare|preparare",
        filler=r"ciao|salve|sì|si|no|bene|grazie|ok|allora|comunque|anche|e|ma",
        talk=r"capisco|intendo|penso|credo|so|mi sembra|mi pare|sono d['’]accordo|scusa\w*",
        self_words=r"(?:io\s+)?(?:sono|lavoro|vivo|abito|studio|insegno|ho \d+ anni)|mi chiamo|"
                   r"(?:mio|mia|miei|mie) (?:marito|moglie|figli[oa]?|lavoro|azienda|negozio|famiglia|nome|tesi|clienti|"
                   r"studenti|alunni)|sto (?:lavorando|facendo|scrivendo|preparando|sviluppando|creando|imparando)|"
                   r"ho (?:un|una|un') (?:piccol[oa] )?(?:negozio|azienda|attività|ristorante|canale|blog|figli[oa]|cane|gatto)",
    ),
    "ar": _Grammar(
        first_person=arabic.FIRST_PERSON, question=arabic.QUESTION, request=arabic.REQUEST,
        hypothetical=arabic.HYPOTHETICAL, task_noun=arabic.TASK_NOUN, task_verb=arabic.TASK_VERB, filler=arabic.FILLER,
        talk=arabic.TALK, self_words=arabic.SELF_WORDS,
    ),
}


@dataclass(frozen=True)
class _Compiled:
    first_person: re.Pattern
    question: re.Pattern
    not_a_statement: re.Pattern
    task_noun: re.Pattern
    task_verb: re.Pattern
    filler: re.Pattern
    self_words: re.Pattern


def _compile(g: _Grammar) -> _Compiled:
    word = lambda alternation: rf"(?<![^\W\d_])(?:{alternation}){_E}"
    return _Compiled(
        first_person=re.compile(rf"(?<![^\W\d_])(?:{g.first_person})(?:{_E}|(?<=['’]))", re.IGNORECASE),
        question=re.compile(rf"^\W*(?:{g.question}){_E}|[¿]|(?<![^\W\d_])ли{_E}", re.IGNORECASE),
        not_a_statement=re.compile(rf"{word(g.request)}|{g.hypothetical}|{word(g.talk)}|{_IMPERATIVE_ME}", re.IGNORECASE),
        task_noun=re.compile(word(g.task_noun), re.IGNORECASE),
        task_verb=re.compile(word(g.task_verb), re.IGNORECASE),
        filler=re.compile(rf"^(?:(?:{g.filler}){_E}[\s,،!.:;-]*)+", re.IGNORECASE),
        self_words=re.compile(rf"(?<![^\W\d_])(?:{g.self_words})", re.IGNORECASE),
    )


# An imperative with "me" fastened to it, as French, Spanish, Italian and Portuguese write them: "dis-moi",
# "aide-moi", "dime", "ayúdame", "dimmi", "aiutami", "diga-me".
_IMPERATIVE_ME = (r"(?<![^\W\d_])(?:[^\W\d_]+-(?:moi|nous|me)|dis moi|dit moi|dites moi|dime|d[aá]me|ay[uú]dame|"
                  r"expl[ií]came|escr[ií]beme|hazme|dimmi|dammi|aiutami|spiegami|scrivimi|fammi|mandami|"
                  r"me (?:diga|fale|ajude|explique|mostre))(?![^\W\d_])")


_COMPILED = {code: _compile(g) for code, g in _GRAMMARS.items()}
# A first-person word of any of these languages (sensitive_languages.py: a topic word is a disclosure beside one).
FIRST_PERSON_ANY_RE = re.compile(
    r"(?<![^\W\d_])(?:" + "|".join(g.first_person for g in _GRAMMARS.values()) + rf"|у\s+меня)(?:{_E}|(?<=['’]))",
    re.IGNORECASE,
)
LANGUAGES = tuple(_COMPILED)


def statement_of(quote: str) -> str:
    return f'{SAID}"{quote}"'


def is_verbatim(statement: str) -> bool:
    """A statement that only quotes the user (no rewrite to resolve, date or tidy)."""
    return statement.startswith(SAID)


# Notes, not a spoken sentence: an arrow, a bracket left open or closed alone ("… notre expertise) => nous présenter").
_NOT_SPOKEN_RE = re.compile(r"=>|->|→|\[|\]")


def sentence_statement(sentence: str, *, language: str) -> tuple[str, str] | None:
    """(quote, statement) for a first-person statement sentence of `language`, else None (module docstring)."""
    rules = _COMPILED.get(language)
    if rules is None:
        return None
    stripped = sentence.strip()
    if stripped.endswith(":"):
        return None  # what follows is pasted
    quote = rules.filler.sub("", stripped).strip(" ,،;:-–—").rstrip(" .!…")
    if len(_WORD_RE.findall(quote)) < 3:
        quote = stripped.strip(" ,;:-–—").rstrip(" .!…")  # "y corro maratones": the "and" keeps it long enough
    if "?" in quote or "؟" in quote:
        quote = _before_the_question(quote, rules)
    elif rules.not_a_statement.search(quote):
        # "Je suis infirmière, écris-moi un email…": who the user is, said before the request, is theirs
        head = _before_the_question(quote, rules)
        quote = head if rules.self_words.search(head) else quote
    if not quote or len(quote) > MAX_SENTENCE_CHARS or len(_WORD_RE.findall(quote)) < 3 or _NOT_SPOKEN_RE.search(quote) \
            or quote.count("(") != quote.count(")"):
        return None
    if not rules.first_person.search(quote) or rules.question.search(quote) or rules.not_a_statement.search(quote) \
            or rules.not_a_statement.search(stripped[: stripped.find(quote) + len(quote)]):  # with its opening "si"
        return None
    if rules.task_noun.search(quote) and rules.task_verb.search(quote):
        return None
    if language == "ar" and arabic.sensitive(quote):
        return None  # sensitive.py has no Arabic lexicon: the whole sentence stays out (arabic.py)
    return quote, statement_of(quote)


def _before_the_question(sentence: str, rules: _Compiled) -> str:
    """The statement a question or a request sentence opens with: "Моя дочь владеет земельным участком, могу ли я
    построить дом…?" → "Моя дочь владеет земельным участком" ("" when it opens with the question)."""
    end = 0
    for m in re.finditer(r"[^,;،]+", sentence):
        piece = m.group(0)
        if "?" in piece or "؟" in piece or rules.question.search(piece) or rules.not_a_statement.search(piece):
            break
        end = m.end()
    return sentence[:end].rstrip(" ,;")


def language_of(text: str) -> str | None:
    """The language of LANGUAGES `text` is written in, else None (English, Chinese, or one the rules do not read)."""
    return foreign_language(text) or ("ar" if arabic.is_arabic(text) else None)


def turn_statements(text: str, *, language: str | None = None) -> list[tuple[str, str]]:
    """(quote, statement) of every first-person statement sentence of a turn in one of LANGUAGES."""
    language = language or language_of(text)
    if language not in _COMPILED:
        return []
    found = []
    for start, end in sentences(text):
        said = sentence_statement(text[start:end], language=language)
        if said:
            found.append(said)
    return found


def is_self_statement(quote: str) -> bool:
    """True when a quote of another language says who the user is: their work, study, home, family, name,
    business (what a skipped session still keeps, as self_statements.py does in English)."""
    language = language_of(quote)
    return language in _COMPILED and bool(_COMPILED[language].self_words.search(quote))


def sentence_reading(sentence: str, *, turn: str, turn_language: str) -> tuple[str, str] | None:
    """extract.py's hook: the sentence of a turn in `turn_language` kept whole, or None (a sentence of the
    turn that is plainly English, "Thanks, I love it", is left to the English rules). Nothing of a pasted
    text (a long turn with hardly a first-person word) or of a quoted line is read."""
    language = language_of(sentence) or (None if plainly_english(sentence) else turn_language)
    if not language or _QUOTED_RE.match(sentence) or pasted(turn, language=turn_language):
        return None
    return sentence_statement(sentence, language=language)


# A line of someone's speech: it opens with a quote mark or a dialogue dash ("— Я устал, — сказал он").
_QUOTED_RE = re.compile(r"^\s*[\"“”„«»‹›'‘]|^\s*[—–-]\s*[^\W\d_]")
_PASTE_CHARS = 600
_PASTE_FIRST_PERSON = 0.02


@lru_cache(maxsize=32)
def pasted(turn: str, *, language: str) -> bool:
    """A long turn with hardly a first-person word is a text the user brought (an essay, an article), not the
    user talking: the same density triage uses to tell a paste from a message."""
    if len(turn) < _PASTE_CHARS or language not in _COMPILED:
        return False
    sample = turn[:20_000]
    return len(_COMPILED[language].first_person.findall(sample)) / max(1, len(_WORD_RE.findall(sample))) \
        < _PASTE_FIRST_PERSON


def plainly_english(sentence: str) -> bool:
    return foreign_language(sentence) is None and sum(1 for w in words(sentence) if w in STOP_WORDS) >= 2
