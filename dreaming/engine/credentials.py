"""Credentials masked before text leaves for a remote model or reaches a diary: API keys, tokens,
private keys, passwords and PINs said with their label, card numbers (Luhn-checked), long hex and
base64 blobs. `mask_secrets` replaces each with "[SECRET]" and keeps the rest of the text verbatim.
"""
from __future__ import annotations

import re

SECRET = "[SECRET]"

# --- secrets -------------------------------------------------------------------------------------

_TOKEN_PATTERNS = [
    # PEM private key blocks (whole block, even across lines).
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)",
    # OpenAI / Anthropic style keys: sk-..., sk-proj-..., sk-ant-...
    r"\bsk-[A-Za-z0-9_\-]{16,}",
    # GitHub tokens.
    r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}",
    r"\bgithub_pat_[A-Za-z0-9_]{22,}",
    # AWS access key ids.
    r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    # Slack tokens.
    r"\bxox[abprs]-[A-Za-z0-9\-]{10,}",
    # Google API keys.
    r"\bAIza[0-9A-Za-z_\-]{35}",
    # Stripe keys.
    r"\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
    # JSON Web Tokens.
    r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
    # Bearer / token authorization headers.
    r"(?<=\bBearer )[A-Za-z0-9_\-\.=~+/]{12,}",
    r"(?<=\bbearer )[A-Za-z0-9_\-\.=~+/]{12,}",
    # URLs with credentials: scheme://user:password@host
    r"(?<=://)[^\s:/@]+:[^\s@/]+(?=@)",
]
_TOKEN_RE = re.compile("|".join(f"(?:{p})" for p in _TOKEN_PATTERNS))

# "password is X", "password: X", "pwd=X", "PIN 1234", "api_key = X", "密码是X", "验证码：123456".
_LABELLED_SECRET_RE = re.compile(
    r"(?P<label>(?:\b(?:my\s+)?(?:pass(?:word|wd|code|phrase)?|pwd|pw|pin(?:\s*code)?|api[_\s-]?key|secret(?:[_\s-]?key)?|"
    r"access[_\s-]?token|auth[_\s-]?token|token|private[_\s-]?key|otp|verification\s+code|security\s+code|cvv|cvc)\b)"
    r"|(?:密码|口令|密钥|秘钥|验证码|支付密码|登录密码|银行卡密码|PIN码|pin码))"
    r"(?P<sep>\s*(?:is|was|are|=|:|：|是|为|:=|->|来着是|就是)?\s*[\"'“‘「]?)"
    r"(?P<value>[^\s\"'”’」，。,;；!！?？]{3,})",
    re.IGNORECASE,
)

# Card-like digit runs: 13–19 digits, optionally grouped by spaces or dashes.
_CARD_RE = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")

# Long hex (32+) or base64-ish (40+) blobs that carry no words.
_HEX_RE = re.compile(r"\b[0-9a-fA-F]{32,}\b")
_B64_RE = re.compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{40,}={0,2}(?![A-Za-z0-9+/=_\-])")

_NOT_A_SECRET_VALUE = {
    "a", "an", "the", "my", "your", "not", "too", "so", "very", "really", "wrong", "incorrect", "correct",
    "right", "weak", "strong", "long", "short", "secure", "reset", "expired", "changed", "required",
    "needed", "missing", "empty", "invalid", "valid", "same", "different", "protected", "for", "of",
    "that", "this", "it", "and", "or", "to", "in", "on", "with", "manager", "managers", "field", "policy",
    "hashing", "hash", "hashed", "strength", "length",
}


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _mask_card(match: re.Match) -> str:
    digits = re.sub(r"\D", "", match.group(0))
    if 13 <= len(digits) <= 19 and _luhn_ok(digits) and len(set(digits)) > 1:
        return SECRET
    return match.group(0)


def _looks_like_a_value(match: re.Match) -> bool:
    value = match.group("value").rstrip(".…")
    if value.lower() in _NOT_A_SECRET_VALUE or value == SECRET or len(value) < 3:
        return False
    if match.group("sep").strip(" \"'“‘「"):
        return True  # "password is X", "pw: X", "密码是X"
    # No "is" / ":" between them: "PIN 4821", "password hunter2" — but not "password manager", "token expired".
    return bool(re.search(r"\d", value)) or not re.fullmatch(r"[A-Za-z]+|[a-z][a-z-]*", value)


def _mask_labelled(match: re.Match) -> str:
    if not _looks_like_a_value(match):
        return match.group(0)
    return f"{match.group('label')}{match.group('sep')}{SECRET}"


def _mask_b64(match: re.Match) -> str:
    blob = match.group(0)
    # A real secret mixes character classes; a long word-ish path or identifier usually does not.
    segments = blob.strip("/").split("/")
    if len(segments) >= 3 and all(len(segment) < 20 for segment in segments):
        return blob  # a URL path such as /api/v1/users/12345/orders, not a key
    classes = sum(bool(re.search(p, blob)) for p in (r"[a-z]", r"[A-Z]", r"\d"))
    if classes >= 3 and not re.fullmatch(r"[A-Za-z_\-/]+", blob):
        return SECRET
    return blob


def mask_secrets(text: str) -> str:
    """Return `text` with every credential-looking span replaced by "[SECRET]"."""
    if not text:
        return text
    text = _TOKEN_RE.sub(SECRET, text)
    text = _LABELLED_SECRET_RE.sub(_mask_labelled, text)
    text = _CARD_RE.sub(_mask_card, text)
    text = _HEX_RE.sub(SECRET, text)
    text = _B64_RE.sub(_mask_b64, text)
    return text


def secret_spans(text: str) -> list[tuple[int, int]]:
    """Where mask_secrets would mask a token, key or labelled value."""
    spans = [m.span() for m in _TOKEN_RE.finditer(text)]
    spans += [m.span() for m in _LABELLED_SECRET_RE.finditer(text) if _looks_like_a_value(m)]
    spans += [m.span() for m in _HEX_RE.finditer(text)]
    spans += [m.span() for m in _B64_RE.finditer(text) if _mask_b64(m) == SECRET]
    return spans


def card_spans(text: str) -> list[tuple[int, int]]:
    """Where mask_secrets would mask a card number (Luhn-valid digit runs)."""
    return [m.span() for m in _CARD_RE.finditer(text) if _mask_card(m) == SECRET]
