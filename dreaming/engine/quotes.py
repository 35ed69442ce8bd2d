"""Quote verification: a candidate's quote must be the user's own words, found in the message it cites.

Normalization forgives what a model may legitimately change when copying (whitespace, full-width
vs half-width characters, curly quotes and other punctuation, case) and nothing else.
"""
import re
import unicodedata

from dreaming.engine.sensitive import mask_secrets

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


def quote_in_message(*, quote: str, text: str) -> bool:
    """The quote is verbatim in a stored message, or in its masked form.

    A model only ever sees masked text, so a quote may carry "[SECRET]" where the stored message has
    the secret itself; both spellings of the message count. Light sleep's verification and deep
    sleep's re-check both ask this.
    """
    return quote_in_text(quote=quote, text=text) or quote_in_text(quote=quote, text=mask_secrets(text))
