"""Tombstones: keyed hashes of forgotten statements, so deleted memories are never learned again.

Two things are kept per forgotten statement, both HMACs keyed with TOMBSTONE_KEY, never the words:
- `digest`, of the whole normalized statement: stops the same wording;
- `keys`, one short hash per salient unit (word, name, number; dreaming/memory/salient.py maps
  English and Chinese onto one vocabulary): stops a paraphrase. A later statement is dropped when
  it holds at least PARAPHRASE_COVERAGE of a tombstone's weight (and at least 2 of it: one shared
  word is never enough). "User drinks an oat latte every morning" forgotten stops "User has an oat
  latte each morning" and "用户每天早上都喝燕麦拿铁"; "User drinks oat milk" still gets through.
Without the key the table tells nothing; with it, only a dictionary guess could test single words.
"""
from __future__ import annotations

import hashlib
import hmac
from collections import defaultdict

from django.conf import settings

from dreaming.memory.salient import salient_units
from dreaming.models import Tombstone
from dreaming.engine.quotes import normalize_for_match

PARAPHRASE_COVERAGE = 0.67
MIN_SHARED_WEIGHT = 2.0
UNIT_HASH_CHARS = 16  # 64 bits: collisions across one user's few thousand units are negligible


def _hmac(text: str) -> str:
    # One-shot hmac.digest: the same hash as hmac.new(...).hexdigest(), in C (light sleep hashes every turn it indexes).
    return hmac.digest(settings.TOMBSTONE_KEY.encode(), text.encode(), hashlib.sha256).hex()


def tombstone_digest(statement: str) -> str:
    return _hmac(normalize_for_match(statement))


def tombstone_keys(statement: str) -> dict[str, float]:
    """{keyed hash of a salient unit: weight}: what a tombstone keeps to recognise a paraphrase."""
    return {_hmac("unit:" + unit)[:UNIT_HASH_CHARS]: weight for unit, weight in salient_units(statement).items()}


def tombstone_build(*, user, statement: str) -> Tombstone:
    return Tombstone(user=user, digest=tombstone_digest(statement), keys=tombstone_keys(statement))


def tombstone_add(*, user, statement: str) -> Tombstone:
    tombstone, _ = Tombstone.objects.get_or_create(
        user=user, digest=tombstone_digest(statement), defaults={"keys": tombstone_keys(statement)}
    )
    return tombstone


class TombstoneIndex:
    """A user's tombstones loaded once, to test many statements (a light or deep sleep's candidates)."""

    def __init__(self, rows: list[tuple[int, str, dict]]):
        self.digests = {digest for _, digest, _ in rows}
        self._weight_total: dict[int, float] = {}
        self._by_key: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for pk, _, keys in rows:
            self._weight_total[pk] = sum((keys or {}).values())
            for key, weight in (keys or {}).items():
                self._by_key[key].append((pk, weight))

    def __contains__(self, digest: str) -> bool:
        return digest in self.digests

    def __len__(self) -> int:
        return len(self.digests)

    def matching(self, statement: str) -> list[int]:
        """Ids of the tombstones this statement repeats, in the same words or in others."""
        shared: dict[int, float] = defaultdict(float)
        for key in tombstone_keys(statement):
            for pk, weight in self._by_key.get(key, ()):
                shared[pk] += weight
        return [
            pk for pk, weight in shared.items()
            if weight >= MIN_SHARED_WEIGHT and weight >= PARAPHRASE_COVERAGE * self._weight_total[pk]
        ]

    def stops(self, statement: str) -> bool:
        if not self.digests:  # most users never forgot anything: no hashing for them
            return False
        return tombstone_digest(statement) in self.digests or bool(self.matching(statement))


def tombstoned_digests(*, user) -> TombstoneIndex:
    """The user's tombstones as an index (`digest in index` still works for exact digests)."""
    return TombstoneIndex(list(Tombstone.objects.filter(user=user).values_list("id", "digest", "keys")))


def tombstone_indexes(*, user_ids) -> dict[int, TombstoneIndex]:
    """Several users' tombstones in one query (a light-sleep batch), one index per user id asked for."""
    rows: dict[int, list[tuple[int, str, dict]]] = {user_id: [] for user_id in user_ids}
    for user_id, pk, digest, keys in Tombstone.objects.filter(user_id__in=list(rows)).values_list(
        "user_id", "id", "digest", "keys"
    ):
        rows[user_id].append((pk, digest, keys))
    return {user_id: TombstoneIndex(found) for user_id, found in rows.items()}


def is_tombstoned(*, user, statement: str, digests: TombstoneIndex | None = None) -> bool:
    """True when the user made us forget this statement or a paraphrase of it."""
    index = digests if isinstance(digests, TombstoneIndex) else tombstoned_digests(user=user)
    return index.stops(statement)


def tombstones_lift(*, user, statement: str) -> int:
    """The user asks us to remember this after all: remove every tombstone that would stop it."""
    index = tombstoned_digests(user=user)
    exact = Tombstone.objects.filter(user=user, digest=tombstone_digest(statement))
    return exact.delete()[0] + Tombstone.objects.filter(user=user, pk__in=index.matching(statement)).delete()[0]
