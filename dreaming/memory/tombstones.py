"""Tombstones: keyed hashes of forgotten statements, so deleted memories are never learned again.

Only an HMAC of the normalized statement is kept (never the words), keyed with TOMBSTONE_KEY, so
the table says nothing about what was forgotten to anyone without the key.
"""
import hashlib
import hmac

from django.conf import settings

from dreaming.models import Tombstone
from dreaming.engine.quotes import normalize_for_match


def tombstone_digest(statement: str) -> str:
    key = settings.TOMBSTONE_KEY.encode()
    return hmac.new(key, normalize_for_match(statement).encode(), hashlib.sha256).hexdigest()


def tombstone_add(*, user, statement: str) -> Tombstone:
    tombstone, _ = Tombstone.objects.get_or_create(user=user, digest=tombstone_digest(statement))
    return tombstone


def tombstoned_digests(*, user) -> set[str]:
    return set(Tombstone.objects.filter(user=user).values_list("digest", flat=True))


def is_tombstoned(*, user, statement: str, digests: set[str] | None = None) -> bool:
    digest = tombstone_digest(statement)
    if digests is not None:
        return digest in digests
    return Tombstone.objects.filter(user=user, digest=digest).exists()
