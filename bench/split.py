"""Tuning part and checking part of every dev set, fixed once by a hash of the item's id.

An item (a WildChat conversation, an MSC dialogue, a LoCoMo conversation, a MemoryBank user) belongs
to the tuning part when the last hex digit of sha1(id) is even, to the checking part when it is odd.
Rules and learned components are tuned on the tuning part only; the checking part says whether a
change generalizes. Every bench module and training script asks this one function.
"""
from __future__ import annotations

import hashlib

TUNING, CHECKING = "tuning", "checking"
PARTS = (TUNING, CHECKING)


def part_of(item_id: str) -> str:
    if not isinstance(item_id, str) or not item_id:
        raise ValueError(f"an item id must be a non-empty string, not {item_id!r}")
    return TUNING if int(hashlib.sha1(item_id.encode("utf-8")).hexdigest()[-1], 16) % 2 == 0 else CHECKING
