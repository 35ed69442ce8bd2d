"""sensitive_languages.py runs a lexicon only where one of its terms can start a word of an ASCII text: a
shortcut that must never change what is found. Checked against running every lexicon on every text."""
import unicodedata

import pytest

from dreaming.engine import sensitive_languages
from dreaming.engine.sensitive_languages import (
    _SHARED_STARTS, _TOPIC_STARTS, _leading_letters, _lexicons_to_run, foreign_sensitive_spans,
)
from tests.dreaming.engine.test_multilingual import ZOO as ZOO_FOREIGN
from tests.dreaming.engine.test_sensitive_clause_zoo import ZOO as ZOO_EN_ZH


def _ascii(text: str) -> str:
    # "Tengo diabetes y voy al medico": written without accents, a foreign turn is ASCII and takes the shortcut.
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


_TEXTS = [text for cases in ZOO_FOREIGN.values() for _, text, *_ in cases] + [text for _, text, *_ in ZOO_EN_ZH]
_TEXTS += [_ascii(text) for text in _TEXTS] + [_ascii(text).upper() for text in _TEXTS] + [
    "Ich bin Krebs-Patientin; meine Therapie beginnt Montag.", "mi partido es el PSOE", "Je suis malade depuis lundi",
    "I'm a partner at a law firm and I partied in Madrid", "2drogas y tumores", "ik heb burn-out, maar ik werk",
    "My password is fine, I just went to the hospital with my god-daughter", "Ik ben gelovig en ga naar de kerk.",
    "Tengo un tumor en la rodilla y estoy deprimido.", "Mi hermano y yo somos bisexuales",
]


@pytest.mark.parametrize("text", _TEXTS)
def test_the_shortcut_finds_exactly_what_every_lexicon_finds(text, monkeypatch):
    found = foreign_sensitive_spans(text)
    monkeypatch.setattr(sensitive_languages, "_lexicons_to_run", lambda text, starts: list(starts))
    assert found == foreign_sensitive_spans(text)


def test_plain_english_runs_no_foreign_lexicon_and_other_scripts_run_all():
    assert _lexicons_to_run("I went to the gym with my sister this morning.", _TOPIC_STARTS) == []
    assert _lexicons_to_run("I went to the gym with my sister this morning.", _SHARED_STARTS) == []
    assert _lexicons_to_run("Tengo diabetes y voy al medico", _SHARED_STARTS) == ["health"]
    assert _lexicons_to_run("Я хожу в церковь", _TOPIC_STARTS) == list(_TOPIC_STARTS)


@pytest.mark.parametrize("term, letters", [
    (r"tumou?r(?:es|en)?", "tumo"), (r"ataques? de pánico", "ataque"), (r"vot[eé]\s+(?:por|a)", "vot"),
    (r"j'ai voté", "j"), (r"burn-?out", "burn"), (r"lgbtq?\+?", "lgbt"), (r"diabet\w*", "diabet"),
    (r"zz+top", "zz"), (r"(?:a|b)c", ""), (r"ab|cd", None),
])
def test_a_terms_leading_letters_are_the_ones_every_match_starts_with(term, letters):
    assert _leading_letters(term) == letters
