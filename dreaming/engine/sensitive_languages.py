"""Sensitive-content lexicons for the languages the rules read besides English and Chinese: Russian,
Spanish, Portuguese, French, German, Dutch and Italian (multilingual.py extracts from exactly these).

sensitive.py asks `foreign_sensitive_spans` for every text, next to its own English and Chinese rules;
the language-independent patterns there (e-mail, phone numbers, IBAN, Luhn-valid card numbers, tokens
and keys) already hold for any language. What is added here, per language:
- health, religion, sexual orientation, political opinion, ethnicity: a term of the lexicon in a
  sentence that has a first-person word of any of these languages ("я", "mi", "tengo", "ik", "mijn"…).
  That is wider than the English rules (which look for the subject of the term): without a grammar of
  the language, holding back "mi hermana trabaja en un hospital" is the price of never keeping
  "estuve en el hospital un mes". multilingual.py reads only sentences with such a word, so none of
  its candidates can hold a topic word this rule let through;
- government ids, bank accounts, phone numbers and addresses said with their label ("паспорт 4509
  123456", "mi DNI es 12345678Z", "Musterstraße 12"), and credentials with or without a label
  ("пароль: кошка123", "mot de passe est soleil", "el código de la puerta es 4721").

Stems end in \\w* where the language inflects ("диабет\\w*" holds диабетом, диабета). The terms are
chosen not to be English words, since every lexicon reads every text (a Spanish clause inside an
English turn is still the user's).
"""
from __future__ import annotations

import re

from dreaming.engine.language import (
    CJK_RE,
    STOP_WORDS,
    foreign_language,
    sentences,
    words,
)
from dreaming.engine.multilingual import FIRST_PERSON_ANY_RE

_W = r"[^\W\d_]"  # a letter of any script
_B, _E = rf"(?<!{_W})", rf"(?!{_W})"  # word edges that know Cyrillic and accented letters

# kind -> terms of every language (ru, es, pt, fr, de, nl, it), one alternation per kind.
_TOPICS = {
    "health": [
        # ru
        r"диабет\w*", r"рак(?:ом|а|у)?", r"онколог\w*", r"опухол\w*", r"химиотерап\w*", r"депресси\w*", r"тревожн\w+ расстройств\w*",
        r"паническ\w+ атак\w*", r"биполяр\w*", r"шизофрени\w*", r"аутиз\w*", r"астм\w*", r"эпилепси\w*", r"инсульт\w*",
        r"инфаркт\w*", r"гипертони\w*", r"давлени\w+", r"аллерги\w*", r"беремен\w*", r"выкидыш\w*", r"бесплоди\w*",
        r"инвалид\w*", r"болезн\w*", r"болею", r"болеет", r"болел\w*", r"заболе\w*", r"болит", r"болят", r"боли\b",
        r"диагноз\w*", r"лекарств\w*", r"таблетк\w*", r"антидепрессант\w*", r"инсулин\w*", r"операци[яиюей]\b",
        r"больниц\w*", r"госпитал\w*", r"психотерап\w*", r"психиатр\w*", r"психолог\w*", r"лечени\w*", r"лечусь", r"лечит\w*",
        r"зависимост\w*", r"алкогол\w*", r"наркот\w*", r"вич", r"спид\w*", r"гепатит\w*", r"ковид\w*", r"коронавирус\w*",
        r"больничн\w*", r"бессонниц\w*", r"мигрен\w*", r"суицид\w*", r"самоубийств\w*", 
        # es / pt / it
        r"diabétic[oa]s?", r"diabétic[oa]s?", r"cáncer", r"câncer", r"cancro", r"tumor(?:es)?", r"tumore",
        r"quimioterapia", r"chemioterapia", r"depresión", r"depressão", r"depressione", r"deprimid[oa]s?", r"depress[oa]",
        r"ansiedad", r"ansiedade", r"ansia", r"ataques? de pánico", r"esquizofrenia", r"schizofrenia", r"autismo",
        r"epilepsia", r"epilessia", r"infarto", r"ictus", r"derrame", r"hipertensión", r"hipertensão", r"ipertensione",
        r"alergia", r"alérgic[oa]s?", r"allergi[ac]\w*", r"embarazad[ao]s?", r"embarazo", r"grávida", r"gravidez", r"incinta",
        r"gravidanza", r"aborto", r"discapacidad", r"deficiência", r"disabilità", r"enfermedad(?:es)?", r"enferm[oa]s?",
        r"doença", r"doente", r"malattia", r"malat[oa]", r"diagnóstico", r"diagnosticad[oa]", r"diagnosi",
        r"medicamentos?", r"medicación", r"medicação", r"farmac[oi]", r"pastillas?", r"comprimidos?", r"antidepresivos?",
        r"antidepressivos?", r"insulina", r"cirugía", r"cirurgia", r"operad[oa]", r"ospedale",
        r"psicólog[oa]", r"psicolog[oa]", r"psiquiatra", r"psichiatra", r"adicción", r"dependência",
        r"alcoholismo", r"alcolismo", r"drogas", r"vih", r"insomnio", r"insônia", r"migraña", r"emicrania",
        r"suicidio", r"suicídio", r"salud mental", r"saúde mental", r"salute mentale", r"baja médica", r"licença médica",
        r"malattia", r"dolor(?:es)? de", r"dor(?:es)? de", r"dolore",
        # not feeling well, as English "I don't feel well" is: es / pt / it / fr / de / nl
        r"no me siento bien", r"não me sinto bem", r"non mi sento bene", r"me\s+sens\s+pas\s+bien",
        r"fühlt?e\s+mich\s+(?:nicht\s+gut|nicht\s+wohl|krank|unwohl)", r"niet\s+(?:goed|lekker|fit)\s+voel\w*",
        r"voel\w*\s+(?:me|mij)\s+(?:nog\s+steeds\s+)?(?:niet\s+goed|niet\s+lekker|niet\s+fit|ziek|beroerd)",
        # fr
        r"diabète", r"diabétique", r"chimiothérapie", r"dépression", r"déprimée?", r"anxiété", r"crises? d'angoisse",
        r"schizophrénie", r"autisme", r"asthme", r"épilepsie", r"infarctus", r"avc", r"allergi\w*",
        r"enceinte", r"grossesse", r"fausse couche", r"maladie", r"malade", r"diagnostiqué\w*",
        r"médicaments?", r"traitement", r"antidépresseurs?", r"opéré\w*", r"hôpital", r"psychiatre", r"psychologue",
        r"thérapie", r"alcoolisme", r"insomnie", r"arrêt maladie", r"santé mentale",
        # de
        r"krebs\w*", r"depressiv\w*", r"angststörung\w*",
        r"panikattacke\w*", r"epilepsie", r"herzinfarkt", r"schlaganfall",
        r"bluthochdruck", r"schwanger\w*", r"fehlgeburt", r"behinder\w*", r"krankheit\w*", r"krank",
        r"erkrank\w*", r"medikament\w*", r"tabletten", r"antidepressiv\w*", r"operiert",
        r"krankenhaus\w*", r"klinik\w*", r"psychiater\w*", r"psychologe", r"psychologin", r"therapie\w*", r"therapeut\w*", r"sucht",
        r"süchtig", r"alkoholiker\w*", r"schlafstörung\w*", r"migräne", r"krankgeschrieben", r"arzt", r"ärztin",
        # nl
        r"kanker", r"depressie\w*", r"depressief", r"neerslachtig", r"angststoornis", r"paniekaanval\w*",
        r"angstig", r"stemmingswisseling\w*", r"oververmoeid", r"burn-?out", r"astma", r"beroerte", r"hartaanval",
        r"miskraam", r"gehandicapt", r"ziekte\w*", r"ziek", r"ziektewet", r"bedrijfsarts", r"huisarts",
        r"medicijn\w*", r"pillen", r"ziekenhuis", r"psychiater", r"psycholoog", r"therapie", r"verslaving",
        r"verslaafd", r"slapeloosheid", r"prikkelbaar", r"uitgeput", r"somber\w*", r"concentratieproblemen", 
    ],
    "religion": [
        r"православ\w*", r"христиан\w*", r"католи\w*", r"протестант\w*", r"мусульман\w*", r"ислам\w*", r"иуде\w*",
        r"буддизм\w*", r"буддист\w*", r"атеист\w*", r"верующ\w*", r"церк\w+", r"храм\w*", r"мечет\w*", r"синагог\w*",
        r"молю\w*", r"молитв\w*", r"молюсь", r"бог(?:а|у|ом|е)?", r"религи\w*", r"крещ\w*", r"пост(?:ом|им|а)?\s+(?:великий|в рамадан)",
        r"cristian[oa]s?", r"cristã", r"cristão", r"católic[oa]s?", r"cattolic[oa]", r"protestante", r"evangélic[oa]s?",
        r"musulmán", r"musulman[ae]?", r"muçulman[oa]", r"judí[oa]", r"judeu", r"judia", r"ebre[oa]", r"budista",
        r"ateo", r"atea", r"ateu", r"ateia", r"creyente", r"iglesia", r"igreja", r"chiesa", r"mezquita", r"mesquita",
        r"moschea", r"sinagoga", r"rezo", r"rezar", r"oração", r"pregare", r"deus", r"religión",
        r"religião", r"religione", r"misa", r"missa", r"bautizad[oa]", r"batizad[oa]",
        r"chrétien\w*", r"catholique", r"musulman\w*", r"juif", r"juive", r"bouddhiste", r"athée",
        r"croyant\w*", r"église", r"mosquée", r"prie", r"prière", r"dieu", r"baptisé\w*",
        r"katholisch\w*", r"evangelisch\w*", r"jüdisch\w*", r"jude", r"jüdin", 
        r"gläubig\w*", r"kirche\w*", r"moschee", r"synagoge", r"bete", r"gebet\w*", r"religion",
        r"getauft", r"christelijk\w*", r"katholiek\w*", r"moslim\w*", r"joods\w*", r"gelovig\w*", r"kerk\w*", r"moskee",
        r"bidden", r"gebed\w*", r"religie",
    ],
    "sexual_orientation": [
        r"гей\w*", r"лесбиян\w*", r"бисексуал\w*", r"гомосексуал\w*", r"трансгендер\w*", r"ориентаци\w*", r"каминг-?аут\w*",
        r"lesbiana", r"lésbica", r"lesbica", r"lesbienne", r"lesbisch\w*", r"lesbienne", r"bissexual",
        r"bisessuale", r"bisexuel\w*", r"biseksue\w*", r"homosexuel\w*", r"homoseksue\w*", r"homosexual\w*", r"homossexual", r"omosessuale",
        r"transgénero", r"transgênero", r"orientación sexual", r"orientação sexual", r"orientamento sessuale",
        r"orientation sexuelle", r"sexuelle orientierung", r"seksuele geaardheid", r"salí del armario", r"schwul\w*",
        r"no binari[oa]", r"non binaire", r"nicht-?binär",
    ],
    "political": [
        r"голосова\w*\s+за", r"проголосова\w*", r"партии?", r"коммунист\w*", r"либерал\w*", r"оппозици\w*", r"путин\w*",
        r"навальн\w*", r"политическ\w+ (?:взгляд|убеждени)\w*",
        r"vot[eé]\s+(?:por|a|al|para)", r"votei", r"voté", r"votato", r"partido", r"partito", r"parti\s+(?:socialiste|communiste)",
        r"socialista", r"comunista", r"communiste", r"kommunist\w*", r"izquierdista", r"derechista", r"militante",
        r"ideología política", r"ideologia política", r"opinione politica", r"opinion politique", r"j'ai voté",
        r"gewählt\s+(?:die|habe)", r"partei\w*", r"partij\w*", r"gestemd\s+op", r"stemde\s+op", r"politieke\s+voorkeur",
        r"politische\s+(?:meinung|einstellung)",
    ],
    "ethnicity": [
        r"национальност\w*", r"этническ\w*", r"по происхождению", r"еврей\w*", r"цыган\w*", r"татар\w*",
        r"etnia", r"étnic[oa]", r"etnic[oa]", r"ethnique", r"ethnie", r"ethnisch\w*", r"etnisch\w*", r"origen\s+(?:étnico|racial)",
        r"de origen", r"origine", r"raza", r"raça", r"razza", r"gitano", r"cigano", r"afrodescendiente",
        r"herkunft", r"afkomst", r"allochtoon",
    ],
}


# Terms that are English words too ("diabetes", "hospital", "religion"): the English rules read them with a
# first-person subject, so here they count only in a sentence written in one of these languages.
_SHARED = {
    "health": [r"diabetes", r"cancer", r"tumou?r(?:es|en)?", r"asthma", r"asma", r"bipolar", r"covid", r"hospital",
               r"depression", r"autismus", r"allergie", r"migraine", r"terapia", r"sida", r"chemo", r"operation",
               r"zwanger", r"burn-?out", r"handicap", r"hypertension", r"addiction", r"diagnose"],
    "religion": [r"islam", r"religion", r"synagogue", r"protestant", r"muslim", r"christ", r"atheist", r"buddhist",
                 r"dios", r"gott", r"god", r"allah", r"ramadan", r"bible", r"bibel", r"biblia", r"bijbel", r"koran", r"corán"],
    "sexual_orientation": [r"gay", r"queer", r"lgbtq?\+?", r"transgender", r"bisexual", r"homosexual", r"lesbian"],
    "political": [r"communist", r"socialist", r"liberal", r"conservative"],
    "ethnicity": [r"race", r"ethnic", r"caucasian", r"hispanic", r"latin[oa]"],
}


def _alternation(terms: list[str]) -> str:
    return "|".join(sorted(set(terms), key=len, reverse=True))


TOPIC_RES = {kind: re.compile(rf"{_B}(?:{_alternation(terms)}){_E}", re.IGNORECASE) for kind, terms in _TOPICS.items()}
SHARED_RES = {kind: re.compile(rf"{_B}(?:{_alternation(terms)}){_E}", re.IGNORECASE) for kind, terms in _SHARED.items()}


# --- which lexicons can match at all (a shortcut, never a different answer) ---------------------------
# A lexicon's alternation is tried at every word start, hundreds of terms each time: most of the time of
# this module on ordinary text. In an ASCII text a term can only match at the start of a word that
# begins with the term's leading ASCII letters, so a lexicon none of whose terms can start a word of the
# text is not run (a term led by another letter, "диабет" or "épilepsie", never matches ASCII text).
# Other texts run every lexicon.

def _leading_letters(term: str) -> str | None:
    """The letters every match of `term` starts with (lower case); None if that can not be told."""
    if re.search(r"(?<!\\)\|", re.sub(r"\([^()]*\)", "", term)):
        return None  # an alternation of its own at the top
    letters = ""
    for i, ch in enumerate(term):
        follows = term[i + 1] if i + 1 < len(term) else ""
        if not ch.isalpha() or follows in ("?", "*", "{"):
            break
        letters += ch.lower()
        if follows == "+":
            break
    return letters


def _word_starts(terms: list[str]) -> tuple[str, ...] | None:
    """What an ASCII word must start with for one of `terms` to match there; None: no shortcut."""
    starts = [_leading_letters(term) for term in terms]
    if any(not start for start in starts):
        return None
    return tuple(sorted({start for start in starts if start.isascii()}))


_TOPIC_STARTS = {kind: _word_starts(terms) for kind, terms in _TOPICS.items()}
_SHARED_STARTS = {kind: _word_starts(terms) for kind, terms in _SHARED.items()}
_ASCII_WORD_RE = re.compile(r"[a-z]+")


def _lexicons_to_run(text: str, starts: dict[str, tuple[str, ...] | None]) -> list[str]:
    if not text.isascii():
        return list(starts)
    text_words = set(_ASCII_WORD_RE.findall(text.lower()))
    return [kind for kind, prefixes in starts.items()
            if prefixes is None or any(word.startswith(prefixes) for word in text_words)]

# --- identifiers said with their label ---------------------------------------------------------------

_VALUE = r"[\"'«“]?(?=[A-Za-z\-]{0,4}\d)[A-Za-z0-9][A-Za-z0-9 .-]{3,24}[A-Za-z0-9]"
_ID_LABELS = (
    r"паспорт\w*|загранпаспорт\w*|снилс\w*|инн|водительск\w+ удостоверени\w*|прав(?:а|ах)|"
    r"dni|nie|nif|pasaporte|c[ée]dula|curp|rfc|carnet de conducir|licencia de conducir|n[uú]mero de la seguridad social|"
    r"cpf|rg|passaporte|cnh|carteira de identidade|passeport|carte d'identit[ée]|num[ée]ro de s[ée]curit[ée] sociale|"
    r"permis de conduire|personalausweis\w*|reisepass\w*|ausweis\w*|f[üu]hrerschein\w*|steuer-?id|"
    r"sozialversicherungsnummer|paspoort\w*|bsn|rijbewijs\w*|identiteitskaart|codice fiscale|carta d'identit[àa]|"
    r"passaporto|patente"
)
_BANK_LABELS = (
    r"сч[её]т\w*|карт[аыуе]|номер карты|iban|cuenta|tarjeta|conta|cart[ãa]o|compte|carte bancaire|rib|"
    r"konto\w*|kreditkarte|bankkarte|rekening\w*|bankpas|conto|carta di credito"
)
_PHONE_LABELS = (
    r"телефон\w*|тел\.|мобильн\w*|сотов\w*|tel[ée]fono|m[óo]vil|celular|telem[óo]vel|t[ée]l[ée]phone|portable|handy\w*|"
    r"telefon\w*|mobielnummer|telefoonnummer|06-nummer|cellulare|numero di telefono"
)
_IDENTIFIER_RE = re.compile(
    rf"{_B}(?P<label>(?P<government_id>{_ID_LABELS})|(?P<financial>{_BANK_LABELS})|(?P<phone>{_PHONE_LABELS}))"
    r"[^\d\n.!?]{0,24}?(?:№|n[º°o]\.?|nr\.?|num\.?|#|:|=)?\s*(?P<v>" + _VALUE + ")",
    re.IGNORECASE,
)

_ADDRESS_RES = [
    # "ул. Ленина, д. 5", "улица Пушкина 12", "проспект Мира, 45"
    re.compile(r"(?:ул\.|улиц\w+|проспект\w*|пр-т|переул\w+|пер\.|бульвар\w*|шоссе|набережн\w+)\s*[А-ЯЁA-Z]?[\w-]+"
               r"(?:\s+[\w-]+)?,?\s*(?:д\.|дом)?\s*\d+", re.IGNORECASE),
    re.compile(r"(?:кв\.|квартир[аеу])\s*№?\s*\d+", re.IGNORECASE),
    # "calle Mayor 5", "Rua Augusta, 120", "via Roma 10", "avenue Foch 12"
    re.compile(r"(?i:\b(?:calle|c/|avenida|avda\.?|paseo|plaza|carrera|rua|travessa|pra[çc]a|via|viale|piazza|corso|"
               r"avenue|boulevard|bd|all[ée]e|chemin|impasse))\s+(?:(?:de|del|da|do|des|du|la|le|di)\s+)?"
               r"[A-ZÁÉÍÓÚÀÈÂÊÔ][\w'-]+(?:\s+[A-ZÁÉÍÓÚ][\w'-]+){0,2},?\s*(?:n[º°o]\.?\s*)?\d+"),
    # "12 rue de la Paix", "5, rue Victor Hugo"
    re.compile(r"\b\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?i:rue|avenue|boulevard|bd|all[ée]e|chemin|impasse|place)\s+\w+"),
    # "Musterstraße 12", "Kerkstraat 5", "Hauptstr. 3"
    re.compile(r"\b[A-ZÄÖÜ][\w-]*(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|straat|laan|gracht|plein|kade|"
               r"singel|steeg)\s*\d+[a-z]?\b"),
    re.compile(r"(?i:(?:мой адрес|я живу по адресу|mi direcci[óo]n|meu endere[çc]o|mon adresse|j'habite au|"
               r"meine adresse|ich wohne in der|mijn adres|ik woon op|il mio indirizzo|abito in via)[^.!?\n]*\d)"),
]

# --- credentials, with or without a label ---------------------------------------------------------------

_CRED_LABELS = (
    r"пароль|пароля|паролем|пин-?код\w*|код\s+(?:от\s+)?(?:двери|домофона|подъезда|сейфа|замка|сигнализации|wi-?fi|вайфая)|"
    r"contraseña|clave|c[óo]digo\s+(?:de\s+(?:la\s+|el\s+)?)?(?:puerta|portal|acceso|alarma|caja fuerte|wi-?fi|pin)|"
    r"senha|c[óo]digo\s+(?:do|da)\s+(?:porta|port[ãa]o|alarme|cofre)|mot de passe|mdp|digicode|"
    r"code\s+(?:de\s+(?:la\s+|l')?)?(?:porte|acc[èe]s|immeuble|alarme|coffre|wi-?fi)|passwort|kennwort|zugangscode|"
    r"t[üu]rcode|pin-?code|wachtwoord|password|toegangscode|deurcode|codice\s+(?:della\s+porta|di\s+accesso|pin|del\s+wi-?fi)"
)
_NOT_A_VALUE = (
    r"не|нет|слишком|очень|сложн\w*|прост\w*|неверн\w*|неправильн\w*|забыл\w*|менеджер\w*|no|muy|demasiado|incorrect[ao]|"
    r"segur[ao]|olvid\w+|gestor|não|muito|errad[ao]|esquec\w+|pas|trop|tr[èe]s|incorrect|oubli\w*|gestionnaire|nicht|"
    r"zu|sehr|falsch|vergessen|manager|niet|te|heel|fout|vergeten|non|troppo|molto|sbagliat[ao]|dimenticat[ao]|"
    r"un|una|une|ein|eine|een|uno|el|la|le|les|der|die|das|de|het|il|lo|mi|mon|mein|mijn|mio|meu|mía|mia"
)
_CREDENTIAL_RE = re.compile(
    rf"{_B}(?:{_CRED_LABELS}){_E}(?:\s+(?:от|de|du|para|pour|für|van|di|do|da|del)\s+[\w-]+(?:\s+[\w-]+)?)?"
    r"(?:\s*[:=]\s*|\s+[—–-]\s*(?:это\s+)?|\s+(?:это|es|era|est|était|ist|war|is|was|è|era|é|são)\s+|\s+(?=\S*\d))"
    rf"(?!(?:{_NOT_A_VALUE}){_E})[\"'«“]?[^\s.,!?«»\"“”]{{3,}}",
    re.IGNORECASE,
)


def foreign_sensitive_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of each sensitive piece the lexicons of this module find in `text`."""
    found = [(*m.span(), kind) for kind in _lexicons_to_run(text, _TOPIC_STARTS)
             for m in TOPIC_RES[kind].finditer(text) if _said_of_oneself(text, m)]
    found += _shared_spans(text)
    for m in _IDENTIFIER_RE.finditer(text):
        if len(re.sub(r"\W", "", m.group("v"))) >= 5:
            found.append((*m.span(), next(k for k in ("government_id", "financial", "phone") if m.group(k))))
    found += [(*m.span(), "address") for regex in _ADDRESS_RES for m in regex.finditer(text)]
    found += [(*m.span(), "credential") for m in _CREDENTIAL_RE.finditer(text)]
    return found


_BOUNDARY_RE = re.compile(r"[.!?…](?=\s)|\n")


def _said_of_oneself(text: str, m: re.Match) -> bool:
    """A first-person word in the sentence of the term ("Ik slaap veel, heb stemmingswisselingen", "mi madre
    tiene cáncer"): "Nouveau quartier / hôpital par l'architecte" is a topic, not a disclosure."""
    # The sentence ends only where language.sentences ends one too ("3.5" does not), so a sentence the
    # reader keeps never holds a term judged without its first-person word.
    start = max((b.end() for b in _BOUNDARY_RE.finditer(text, 0, m.start())), default=0)
    after = _BOUNDARY_RE.search(text, m.end())
    return FIRST_PERSON_ANY_RE.search(text, start, after.start() if after else len(text)) is not None


def _shared_spans(text: str) -> list[tuple[int, int, str]]:
    """The terms that are English words too, in the sentences written in another language."""
    kinds = _lexicons_to_run(text, _SHARED_STARTS)
    if not kinds:
        return []
    whole = foreign_language(text)
    found = []
    for start, end in sentences(text):
        sentence = text[start:end]
        if not whole and not foreign_language(sentence):
            continue
        found += [(start + m.start(), start + m.end(), kind) for kind in kinds
                  for m in SHARED_RES[kind].finditer(sentence) if _said_of_oneself(sentence, m)]
    return found


# Where a new clause starts in a sentence of these languages (sensitive.py cuts there): at every comma or
# semicolon (Spanish, Italian, Portuguese and Russian drop the subject: "Tengo diabetes, pero trabajo de
# profesora"), at a "but", and at an "and" before a pronoun or a possessive, as in English.
_SUBJECTS = (
    r"я|мне|меня|мой|моя|моё|мое|мои|мы|наш\w*|он|она|они|оно|это|у\s+меня|"
    r"yo|mi|mis|nosotr[oa]s|nuestr[oa]s?|él|ella|ellos|ellas|eso|esto|tengo|soy|estoy|"
    r"eu|meu|minha|meus|minhas|nós|nosso|nossa|ele|ela|eles|elas|isso|tenho|sou|estou|"
    r"je|mon|ma|mes|nous|notre|nos|il|elle|ils|elles|"
    r"ich|mein\w*|wir|unser\w*|er|sie|es|das|"
    r"ik|mijn|wij|onze|ons|hij|zij|ze|het|dat|"
    r"io|mio|mia|miei|mie|noi|nostr[oaie]|lui|lei|loro|ho|sono"
)
_AND = r"и|также|y|e|et|und|en|ed"
_BUT = r"но|а|однако|pero|mas|mais|aber|maar|ma|però|sin embargo|cependant|jedoch"
FOREIGN_CLAUSE_START_RE = re.compile(
    rf"\s*[,;]\s*|\s+(?:{_BUT})\s+|\s+(?:{_AND})\s+(?=(?:{_SUBJECTS}){_E}|[jc]['’])", re.IGNORECASE,
)


def foreign_sentence(sentence: str) -> bool:
    """A sentence to cut the way of these languages: one of them, or too short to tell and not plainly English."""
    if foreign_language(sentence):
        return True
    return not CJK_RE.search(sentence) and bool(re.search(r"[^\x00-\x7f]", sentence)) and \
        sum(1 for w in words(sentence) if w in STOP_WORDS) < 2
