"""Quote verification: a candidate's quote must be the user's own words, found in the message it cites.

Normalization forgives what a model may legitimately change when copying (whitespace, full-width
vs half-width characters, curly quotes and other punctuation, case) and nothing else.
"""
import re
import unicodedata

_PUNCT_OR_SPACE = re.compile(r"[\s\W_]+", re.UNICODE)


def normalize_for_match(text: str) -> str:
    # NFKC folds full-width forms (ＡＢＣ，１２３) into their ASCII twins.
    text = unicodedata.normalize("NFKC", text).casefold()
    return _PUNCT_OR_SPACE.sub("", text)


def quote_in_text(*, quote: str, text: str, min_chars: int = 2) -> bool:
    """True when the normalized quote is a substring of the normalized text (and not trivially short)."""
    needle = normalize_for_match(quote)
    if len(needle) < min_chars:
        return False
    return needle in normalize_for_match(text)
