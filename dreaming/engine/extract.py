"""Clause-level self-disclosure extraction from the user's turns, English and Chinese.

For each user turn:
1. split it into sentences, then into clauses at the points where a new first-person clause starts
   ("…, but I live in Ohio", "…，我还喜欢读书");
2. keep a clause only when it is the user saying something about themself: a first-person subject
   and a disclosure verb, not a question, a hypothetical, a request to the assistant, a clause about
   the task at hand, small talk without content, or a sensitive clause (sensitive.py: health, religion,
   id numbers, credentials ... — taken out of the turn before anything else reads it);
3. quote = the verbatim clause (a substring of the message), statement = the clause in the third
   person, with category and importance from rules (english_clause.py reads one English clause,
   english_sentences.py the whole sentence);
4. an English first-person sentence no reading took anything from is kept whole, under the same
   guards, at an importance below triage's "personal" bar (english.sentence_statement);
5. keep the ten most important per session.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from dreaming.engine import answers, bare_answers, chinese_he_and_she as he_she, dates, multilingual, resolve
from dreaming.engine import chinese as zh
from dreaming.engine.chinese_answers import answer_subject, zh_answer
from dreaming.engine.comma_details import detail_after_en, detail_after_zh
from dreaming.engine import english as en, english_clause as ec, english_sentences as es
from dreaming.engine.chinese_pastimes import PASTIME_IMPORTANCE, zh_pastimes
from dreaming.engine.chinese_pet_names import zh_pet_name
from dreaming.engine.quotes import questions_asked, quote_too_short
from dreaming.engine.application_letters import candidacy, self_marketing
from dreaming.engine.carried_objects import carried_object
from dreaming.engine.categories import category_by_definition
from dreaming.engine.joined_predicates import joined_predicates
from dreaming.engine.second_predicates import second_predicates
from dreaming.engine.selection import MAX_CANDIDATES, most_important
from dreaming.engine.others_words import not_the_user
from dreaming.engine.possessions import not_yet_said, possessions
from dreaming.engine.pronoun_subjects import pronoun_subject
from dreaming.engine.standalone import says_nothing_alone
from dreaming.engine.couples import couple_en, couple_zh
from dreaming.engine.family_ages import age_said_zh, birthday_en
from dreaming.engine.family_lists import family_list_en, family_list_zh
from dreaming.engine.passings import passing_en, passing_zh
from dreaming.engine.then_and_now import then_and_now_en, then_and_now_zh
from dreaming.engine.whole_sentences import likely_disclosure, whole_sentence
from dreaming.engine.wording import tidy_en
from dreaming.engine.appositive_predicates import appositive_predicate
from dreaming.engine.language import CJK_RE, content_tokens, in_own_words, sentences
from dreaming.engine.importance import clause_importance as _importance
from dreaming.engine.life_answers import answers_about_own_life
from dreaming.engine.in_passing import greeting_place, pointed_favourite, relative_place
from dreaming.protocol import ExtractedCandidate, Turn
from dreaming.engine.sensitive import redact_sensitive, sensitive_category


@dataclass(frozen=True)
class _Clause:
    quote: str
    statement: str
    category: str
    importance: float
    user_initiated: bool
    seq: int
    order: int
    lead: str = ""  # what the clause said before the quote ("Last Friday, "): its time belongs to the statement


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] in ",;:-–—\"'“”()"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ",;:-–—\"“”(.!…。！~"):
        end -= 1
    return start, end


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
            and zh.ZH_LIST_ITEM_RE.match(text[s:e])
            and not zh.ZH_NOT_LIST_ITEM_RE.search(text[s:e])
            and zh.ZH_LISTING_RE.search(text[merged[-1][0] : merged[-1][1]])
        ):
            merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return merged


# Without a first-person word, a dropped-subject start or "He's a …" (pronoun_subjects.py) a sentence tells nothing.
_WORTH_A_LOOK_RE = re.compile(
    r"\b(?:I|i|I'm|I’m|Im|im|[Ii]am|my|My|MY|me|we|We|mine|Mine|our|Our)\b|我|^\W*(?:(?:[Aa]lso|[Pp]lus|[Tt]hen|[Aa]nd) )?(?:[Jj]ust|[Rr]ecently|[Ff]inally|\d+|[Tt]wo|"
    r"[Tt]hree|[Ff]our|[Ff]ive|[Ll]ove|[Ll]ike|[Ee]njoy|[Hh]ate|[Pp]refer|[Ww]ork|[Ll]ive|[Mm]oving|[Tt]hinking|"
    r"[Gg]ot|[Ff]inished|[Ss]tarted|[Mm]oved|[Hh]eading|[Pp]lanning|[Gg]etting|[Tt]raining|[Ss]tudying|[Ll]earning|"
    r"[Tt]ook|[Vv]isited|[Ss]pent|[Ss]till|[Bb]een|[Hh]ad|[Tt]rying|[Ss]tarting|[Ss]igned up|[Jj]oined|[Aa]dopted|"
    r"[Ss]witched|[Bb]ought)\b|\b(?:[Hh]er|[Hh]is|[Ii]ts) name\b|"
    r"^\W*(?:[Hh]e|[Ss]he)(?:'s|’s| is| was) an?\b|[\u4e00-\u9fff]"  # Chinese drops the 我 (chinese_pastimes.py)
)

_REACTION_RE = re.compile(
    r"^(?:(?:oh|ah|aw+|wow|haha+|lol|ha|yes|yeah|yep|no|nope|nice|cool|great|awesome|neat|sure|ok|okay|hmm+|"
    r"interesting|really|same|true|exactly|thanks|thank you|hi|hello|hey|hey there|hi there|"
    r"that'?s (?:cool|great|nice|awesome|interesting|neat|funny|sad|too bad|amazing|good|fun|so cool|very cool)|"
    r"sounds (?:fun|good|great|cool|nice|awesome|interesting)|good for you|not bad)[\s,!.…]*)+$",
    re.IGNORECASE,
)

# Past this many characters a message is a paste, not a conversation: the rest is not read for memories.
MAX_CHARS_READ = 30_000

@dataclass
class _TurnReading:
    """What is known while one user turn is read, and the clauses found so far (see _turn_clauses)."""
    turn: Turn
    text: str
    previous_assistant: str | None
    user_initiated: bool
    order: int
    they: str | None = None
    earlier: str = ""
    zh_subject: str | None = None  # the 我 the last Chinese sentence ended on: "…做会计。下个月去…" keeps it
    found: list[_Clause] = field(default_factory=list)

    def add(self, quote: str, statement: str, category: str, *, is_zh: bool, initiated: bool, bonus: float = 0.0,
            lead: str = "", cap: float = 1.0) -> None:
        self.order += 1
        # An answer in the user's own words ("What are your hobbies?" → "I play chess") is self-disclosure
        # that was asked for: deep sleep credits it partly as user-initiated, so it is not marked down here.
        statement = statement if is_zh else tidy_en(statement)
        own_words = initiated or in_own_words(quote=quote, statement=statement)
        # A short answer's fact is in its statement ("I do" → "User eats meat"): weigh what it says, not the two words.
        said = quote if own_words else statement
        # "你结婚了吗？" → "结了": a fact of the user's life weighs as if volunteered (engine.life_answers).
        told = own_words or answers_about_own_life(quote=quote, statement=statement)
        importance = min(cap, _importance(category=category, quote=said, chinese=is_zh, user_initiated=told) + bonus)
        # "…, living in australia", "… and has two kids": a second thing the user says is a statement of its own
        for part in (one for piece in second_predicates(statement) for one in joined_predicates(piece)):
            kind = category if part == statement else en.category_en(part)
            self.found.append(_Clause(quote, part, kind, round(importance, 2), initiated, self.turn.seq, self.order, lead))


def _turn_clauses(
    turn: Turn, *, previous_assistant: str | None, order_start: int, they: str | None = None, earlier: str = "",
) -> list[_Clause]:
    """Every self-disclosure clause of one user turn, in order (see the module docstring)."""
    text = turn.content[:MAX_CHARS_READ]
    chinese = bool(CJK_RE.search(text)) and len(CJK_RE.findall(text)) >= len(re.findall(r"[A-Za-z]", text)) / 2
    reading = _TurnReading(turn, text, previous_assistant, not answers.answers_a_question(previous_assistant, text, chinese=chinese),
                           order_start, they, earlier)
    # Text inside code fences is never about the user.
    fenced = [(m.start(), m.end()) for m in re.finditer(r"```[\s\S]*?(?:```|$)", text)]
    spans = sentences(text)
    # The answer to the assistant's question comes first, after any reaction ("That's cool. Pizza, you?").
    # "Thanks, Maria! Three times a week" — a greeting with a name is not the answer either.
    first_start = next((a for a, b in spans if not _REACTION_RE.match(text[a:b]) and not ec.VOCATIVE_RE.match(text[a:b])),
                       spans[0][0] if spans else 0)
    # Questions are found once per turn (a long paste would make a per-sentence search quadratic).
    frames = list(answers.QUESTION_FRAME_RE.finditer(text))
    assistant_question = answers.last_question(previous_assistant[-300:]) if previous_assistant else None
    foreign = None if chinese else multilingual.language_of(text)  # Russian, Spanish, Arabic…: multilingual.py reads them
    # "Mine is …" borrows its thing from a question the other side asked, never from their statement.
    asked = questions_asked((previous_assistant or "")[-300:])
    bare = bare_answers.bare_answer(text, assistant_question) if previous_assistant else None
    for s_start, s_end in spans:
        sentence = text[s_start:s_end]
        first_sentence = s_start == first_start
        if any(a <= s_start < b for a, b in fenced) or (
                not first_sentence and not foreign and not _WORTH_A_LOOK_RE.search(sentence)):
            continue
        # Only the opening sentence can be the short answer; what follows it the user adds on their own.
        volunteered = reading.user_initiated or not first_sentence
        if foreign and not CJK_RE.search(sentence) and not multilingual.plainly_english(sentence):
            _foreign_sentence(reading, sentence, language=foreign, volunteered=volunteered)
            continue  # the English readings would take "I benefici…" for an "I"
        if CJK_RE.search(sentence):
            _chinese_sentence(reading, s_start, s_end, first_sentence=first_sentence, volunteered=volunteered)
            _read_whole(reading, sentence, is_zh=True, volunteered=volunteered)
            continue
        before = len(reading.found)
        if first_sentence and previous_assistant:
            _echo(reading, sentence, previous_assistant)
        mine = answers.mine_statement(sentence, before=f"{asked} {text[:s_start]}")
        if mine:
            reading.add(*mine, en.category_en(mine[1]), is_zh=False, initiated=False)
        # The question a short answer refers to: an earlier one of the user's own, or the assistant's last one.
        question = answers.question_before(frames, s_start) or assistant_question
        _english_clauses(reading, s_start, s_end, first_sentence=first_sentence, volunteered=volunteered, question=question)
        if not sentence.rstrip().endswith("?") and not en.EN_HYPOTHETICAL_RE.search(sentence):
            _sentence_readings(reading, sentence, head=text[:s_start], volunteered=volunteered)
        greeted = greeting_place(sentence)  # read before the sentence's "how are you?" turns the rest away
        if greeted:
            reading.add(*greeted, en.category_en(greeted[1]), is_zh=False, initiated=volunteered)
        _possessions(reading, sentence, volunteered=volunteered)
        whole_sentence(reading, sentence, before=before, volunteered=volunteered)
        _read_whole(reading, sentence, is_zh=False, volunteered=volunteered)
    _bare_answer(reading, bare)
    if not reading.found and not chinese and not foreign:
        likely_disclosure(reading, spans)
    return reading.found


def _foreign_sentence(reading: _TurnReading, sentence: str, *, language: str, volunteered: bool) -> None:
    said = multilingual.sentence_reading(sentence, turn=reading.text, turn_language=language)
    if said:  # who the user is (work, home, family, business) weighs as in English; the rest stays below "personal"
        reading.add(*said, "fact", is_zh=False, initiated=volunteered,
                    cap=1.0 if multilingual.is_self_statement(said[0]) else multilingual.IMPORTANCE)


def _read_whole(reading: _TurnReading, sentence: str, *, is_zh: bool, volunteered: bool) -> None:
    """A sentence read whole replaces the clause readings of the part it reads (then_and_now.py, family_lists.py)."""
    readers = (family_list_zh, then_and_now_zh, detail_after_zh, couple_zh, passing_zh) if is_zh else (
        family_list_en, then_and_now_en, detail_after_en, couple_en, passing_en)
    for done in filter(None, (read(sentence) for read in readers)):
        reading.found = [c for c in reading.found if c.seq != reading.turn.seq or not done.replaces
                         or (c.quote not in done.replaces and done.replaces not in c.quote)]
        for quote, statement in done.said:
            category = zh.category_zh(statement) if is_zh else en.category_en(statement)
            reading.add(quote, statement, category, is_zh=is_zh, initiated=volunteered)


def _bare_answer(reading: _TurnReading, bare: tuple[str, str] | None) -> None:
    """The bare "Yes" read with the question, unless the rest of the answer says more of the same ("Do you have
    kids?" → "Yes, two": "User has two kids", not also "User has kids")."""
    if not bare:
        return
    said = set(content_tokens(bare[1]))
    if not any(said < set(content_tokens(c.statement)) for c in reading.found):
        reading.add(*bare, en.category_en(bare[1]), is_zh=False, initiated=False)


def _echo(reading: _TurnReading, sentence: str, previous_assistant: str) -> None:
    """"Me too!" after the assistant said something of itself: the user says it of themself."""
    echo = answers.ECHO_RE.match(sentence)
    echoed = answers.echoed_statement(previous_assistant) if echo else None
    if echoed:
        reading.add(echo.group("echo"), echoed, en.category_en(echoed), is_zh=False, initiated=False)


def _possessions(reading: _TurnReading, sentence: str, *, volunteered: bool) -> None:
    """What "my <someone or something>" says the user has, not yet said by another reading of the turn."""
    stated = " ".join(c.statement for c in reading.found)  # "my husband" in a question is still the user's
    for quote, statement, category in not_yet_said(possessions(sentence), stated=stated):
        reading.add(quote, statement, category, is_zh=False, initiated=volunteered, bonus=-0.1)


def _chinese_sentence(reading: _TurnReading, s_start: int, s_end: int, *, first_sentence: bool, volunteered: bool) -> None:
    text = reading.text
    if zh.ZH_HYPOTHETICAL_RE.search(text[s_start:s_end]):
        return
    # a sentence that opens on its time with no subject ("下个月去一家公司做财务") goes on from the user's last one
    subject = "我" if reading.zh_subject == "我" and zh.ZH_TIME_LED_RE.match(text[s_start:s_end]) else None
    # "你做什么工作？" → "程序员。": a short answer borrows the question's frame (chinese_answers.py)
    answer = zh_answer(reading.previous_assistant, text[s_start:s_end]) if first_sentence else None
    if answer:
        reading.add(*answer, zh.category_zh(answer[1]), is_zh=True, initiated=False)
        subject = answer_subject(answer[1])
    before = None  # (where its quote starts, statement, subject) of the clause read last
    for c_start, c_end in _split_clauses(text, s_start, s_end, zh.ZH_CLAUSE_SPLIT_RE):
        clause = text[c_start:c_end]
        if answer and c_start == s_start and clause.startswith(answer[0]):
            continue  # the answer, read above: its subject carries on
        said = zh.clause_reading(clause, subject=subject) or zh.zh_value(clause) or age_said_zh(clause)
        if said is None and first_sentence and c_start == s_start and zh.ZH_OPENING_STATE_RE.match(clause):
            said = (clause, "用户" + clause.rstrip("。！!~～ "))
        named = zh.ZH_SUBJECT_RE.match(said[0]) if said else None
        # a clause with its own 我… sets the subject; one read as a continuation keeps the one before
        subject = None if said is None else named.group(0) if named else subject or "我"
        theirs = zh.age_of_the_one_before(said[1], before[1]) if said and before else None
        if theirs:  # "我养了一只柯基叫豆豆，三岁了": the corgi's age, quoted with the clause that names it
            said, subject = (text[before[0]:c_start + clause.find(said[0]) + len(said[0])], theirs), before[2]
        if said:
            reading.add(said[0], said[1], zh.category_zh(said[0]), is_zh=True, initiated=volunteered)
            before = (text.find(said[0], s_start), said[1], subject)
    reading.zh_subject = subject
    for quote, habit in zh_pastimes(text[s_start:s_end], stated=tuple(c.statement for c in reading.found)):
        reading.add(quote, habit, "fact", is_zh=True, initiated=volunteered, cap=PASTIME_IMPORTANCE)
    for quote, said in he_she.zh_he_and_she(text, s_start, s_end, stated={c.statement for c in reading.found}):
        reading.add(quote, said, zh.category_zh(said), is_zh=True, initiated=volunteered)  # "我老公是上海人，他口味偏甜"
    pet = zh_pet_name(text[s_start:s_end])  # "带我家柯基去江边散步，它叫豆豆"
    if pet and not any(pet[1] in c.statement for c in reading.found):
        reading.add(*pet, "fact", is_zh=True, initiated=volunteered)


def _english_clauses(reading: _TurnReading, s_start: int, s_end: int, *, first_sentence: bool, volunteered: bool,
                     question: tuple[str, str] | None) -> None:
    text, sentence = reading.text, reading.text[s_start:s_end]
    opening = en.LEAD_FILLER_RE.sub("", sentence[:80])
    # "My expertise … can improve rankings and drive traffic": the verb after "and" is the expertise's, not the user's.
    starts_first_person = bool(en.EN_START_RE.match(opening)) and not re.match(r"(?:[Mm]y|MY)\b", opening)
    previous_piece = (s_start, s_start)
    for c_start, c_end, suffix in ec.subordinate_split(text, _split_clauses(text, s_start, s_end, ec.CLAUSE_SPLITTER)):
        companion_piece, previous_piece = previous_piece, (c_start, c_end)
        # after a dash or a semicolon the clause starts afresh: "Been quite a ride - had an audition yesterday"
        fresh = c_start == s_start or bool(re.search(r"[-–—;]\s*$", text[s_start:c_start]))
        said = ec.english_reading(
            text[c_start:c_end], sentence=sentence.strip(), at_sentence_start=fresh, first_sentence=first_sentence,
            starts_first_person=starts_first_person, question=question, previous_assistant=reading.previous_assistant,
            they=reading.they,
        )
        if said is None:
            continue
        quote, statement, borrowed = said
        if self_marketing(quote):
            continue  # "my experience … has allowed me to sharpen my skills": a letter selling its writer, whatever the subject
        category = en.category_en(statement)  # "… when they were a kid" does not make it about a kid
        if suffix and not borrowed:
            statement = f"{statement.rstrip(' .!')}{suffix}"
        if borrowed and sensitive_category(statement):
            continue  # "Do you take insulin?" → "I do" says more than the user's two words
        clause = text[c_start:c_end]
        together = ec.together_reading(text, companion=companion_piece, start=c_start, quote=quote, statement=statement)
        if together:
            quote, statement, clause = together[0], together[1], together[0]
            category = en.category_en(statement)
        lead = clause[: clause.find(quote)] if quote in clause else ""
        carried = carried_object(statement, quote, before=text[max(0, c_start - 200) : c_start + clause.find(quote)]) \
            if quote in clause else None
        if carried:
            quote, statement, category = carried[0], carried[1], en.category_en(carried[1])
        before = text[s_start:c_start] if not together else ""
        if before.strip() and not en.LEAD_FILLER_RE.sub("", before).strip() and dates.plan_phrase_en(before):
            # "Tomorrow, I'm flying to Denver": the plan's time was split off with the comma. (A past time split off
            # this way is not added: dated news of the day waits in the pool, see docs/engine.md round 4.)
            lead = before + lead
        reading.add(quote, statement, category, is_zh=False, initiated=volunteered, lead=lead)
        if not borrowed:
            _implied_likes(reading, en.LEAD_FILLER_RE.sub("", text[c_start:c_end]), volunteered=volunteered)


def _implied_likes(reading: _TurnReading, bare: str, *, volunteered: bool) -> None:
    """"I love music, especially jazz" → also "User loves jazz"; "Reading, which I love" → "User loves reading"."""
    especially = en.ESPECIALLY_RE.match(bare)
    if especially:
        implied = en.en_statement(f"{especially.group('head')} {especially.group('x')}")
        reading.add(especially.group("quote"), implied, "preference", is_zh=False, initiated=volunteered)
    relative = en.RELATIVE_LIKE_RE.match(bare)
    if relative:
        implied = en.en_statement(f"I {relative.group('verb')[:-1]} {relative.group('x')}")
        reading.add(relative.group("quote"), implied, "preference", is_zh=False, initiated=volunteered)


def _sentence_readings(reading: _TurnReading, sentence: str, *, head: str, volunteered: bool) -> None:
    """Readings of the whole sentence: "… made by me", "my dog Max", "I'm Ana, a nurse", what "my two sons" implies."""
    quoted = " ".join(c.quote for c in reading.found)
    # "I love music, black sabbath is my favorite": the favourite after the comma is a second reading.
    tail = ec.favourite(sentence.rstrip(" .!…").rsplit(",", 1)[-1]) if "," in sentence else None
    before = f"{reading.earlier} {(reading.previous_assistant or '')[-300:]}"  # `head` is the turn before the sentence
    readings = [es.made_by_me(sentence), es.named_statement(en.LEAD_FILLER_RE.sub("", sentence)),
                tail[:2] if tail else None, es.shown_mine(sentence), es.appositive_name(sentence),
                appositive_predicate(sentence), birthday_en(sentence),
                es.love_of(sentence), es.pronoun_name(sentence, before=before, nearer=head), candidacy(sentence.strip()),
                pronoun_subject(sentence, said=f"{reading.earlier} {head}", asked=(reading.previous_assistant or "")[-300:]),
                pointed_favourite(sentence, head=head), relative_place(sentence)]
    for said in readings + es.introduced_statements(sentence) + answers.named_ages(sentence, asked=before[-300:]):
        if said and said[0] not in quoted:
            reading.add(said[0], said[1], en.category_en(said[1]), is_zh=False, initiated=volunteered,
                        lead=sentence[: max(0, sentence.find(said[0]))])


# A sentence kept whole stays under the importance at which triage counts a turn as personal
# (triage.session_signals): it widens what is remembered of a session, never whether it is dreamed.
def _without_sensitive(turn: Turn) -> Turn:
    # Light sleep has already taken the sensitive clauses out; the engine does it again for any other caller.
    text = redact_sensitive(turn.content[:MAX_CHARS_READ], anyone=turn.role != "user").text
    return turn if text == turn.content else replace(turn, content=text)


def extract_candidates(turns: list[Turn], *, limit: int = MAX_CANDIDATES) -> list[ExtractedCandidate]:
    turns = [_without_sensitive(turn) for turn in turns]
    clauses: list[_Clause] = []
    previous_assistant: str | None = None
    seen: set[str] = set()
    recent_people: list[list[tuple[str, str, str | None]]] = []  # relatives named in the last user turns
    user_groups: list[str] = []  # "my kids" in the user's turn before this one
    carried: str | None = None  # the group a "they" of the user's turn before stood for
    previous_user = this_user = ""
    for turn in turns:
        if turn.role == "assistant":
            previous_assistant = turn.content
            continue
        if turn.role != "user" or not turn.content.strip():
            continue
        text = turn.content[:MAX_CHARS_READ]
        recent_people = (recent_people + [resolve.people_mentioned(text)])[-2:]
        people = [p for mentions in recent_people for p in mentions]
        said_before: list[str] = []
        own_groups = resolve.groups_mentioned(text, by_user=True)
        named = user_groups + own_groups + resolve.groups_mentioned((previous_assistant or "")[-300:], by_user=False)
        # "my turtles" … "They look tired" … "They eat fruit" … "I love seeing them eat fruit": with no group named in
        # these turns, a group read in a turn that went on with "they" still stands
        they = resolve.the_group(named) if named else carried
        carried = they if re.search(r"\b(?:[Tt]hey|them)\b", text) else None
        user_groups = own_groups
        previous_user, this_user = this_user, text[-400:]  # "I adopted a pup" … "What's her name?" … "Her name is Shadow"
        for clause in _turn_clauses(turn, previous_assistant=previous_assistant, order_start=len(clauses), they=they,
                                    earlier=previous_user):
            if not_the_user(text, clause.quote, echoing=previous_assistant):
                continue  # a script's line, a quotation, a title, an AI's self-description, talk about the chat
            clause = _read_in_context(clause, people=people, before=said_before, group=they)
            if says_nothing_alone(clause.statement):
                continue  # "User works, Maria" once the name is gone; "He chewed User's shoes" (standalone.py)
            said_before.append(clause.statement)
            clause = _dated(clause, said_at=turn.created_at)
            # a quoted sentence of a script the tokens do not read (Arabic) is its own key
            key = clause.statement if multilingual.is_verbatim(clause.statement) else " ".join(content_tokens(clause.statement))
            if key in seen:
                continue
            seen.add(key)
            clauses.append(clause)
        previous_assistant = None
    texts = {t.seq: t.content for t in turns}
    found = [
        ExtractedCandidate(
            quote=_long_enough(c.quote, texts.get(c.seq, "")),
            statement=c.statement,
            category=category_by_definition(statement=c.statement, category=c.category),
            importance=c.importance,
            user_initiated=c.user_initiated,
            seq=c.seq,
        )
        for c in clauses
    ]
    return most_important(found, limit=limit)


def _long_enough(quote: str, text: str) -> str:
    """A quote too short to prove anything ("my dog", "I'm Ali") widened to its sentence (quotes.py). Not a
    short answer's ("No." → "User is not married"): the question proves it, the rest of the sentence does not."""
    if not quote_too_short(quote) or bare_answers.is_bare_answer(quote):
        return quote
    at = text.find(quote)
    for start, end in sentences(text):
        if at != -1 and start <= at < end and not quote_too_short(text[start:end]):
            return text[start:end]
    return quote


def _read_in_context(clause: _Clause, *, people: list, before: list[str], group: str | None = None) -> _Clause:
    """The clause's statement with its pronoun or missing object filled from what came before."""
    if multilingual.is_verbatim(clause.statement):
        return clause  # the user's own sentence, quoted: nothing to resolve
    statement = resolve.resolve_ellipsis(resolve.resolve_pronoun(clause.statement, people=people), before=before)
    statement = resolve.resolve_them(statement, group=group)
    if not CJK_RE.search(statement[:4]):
        statement = resolve.tidy_en(statement)
    if statement == clause.statement:
        return clause
    return replace(clause, statement=statement, category=en.category_en(statement) if not CJK_RE.search(statement[:4])
                   else clause.category)


def _dated(clause: _Clause, *, said_at) -> _Clause:
    """"yesterday" → "on 7 May 2023" in the statement, counted from when the user said it (dates.py)."""
    if multilingual.is_verbatim(clause.statement):
        return clause
    if CJK_RE.search(clause.statement[:4]):
        statement = dates.absolute_dates(clause.statement, said_at=said_at, chinese=True)
    else:
        statement = dates.just_happened_en(dates.with_date(clause.statement, lead=clause.lead, said_at=said_at),
                                           quote=clause.quote, said_at=said_at)
    return clause if statement == clause.statement else replace(clause, statement=statement)
