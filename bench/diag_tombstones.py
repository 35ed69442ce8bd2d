"""How well tombstones stop paraphrases, and how often they stop something else (a diagnostic).

    DJANGO_DEBUG=1 python -m bench.diag_tombstones --datasets ../shared/datasets

MSC persona summaries (dev + valid, bot_0 as the user). For each annotated turn, every sentence of
its `persona_text` (an annotator's rewording of the turn, "I own a Jeep." for "What kind of car do you
own? I have a jeep.") is tombstoned, and the turn's own words are then offered as a new statement:
- `caught`: the share of turns stopped (the user says again what they made us forget, in their words);
- `false stop`: over every pair of *different* persona facts of one user, the share where forgetting
  one stops the other (what the user still wants remembered).
Both are reported for the exact digest alone (the old tombstone) and with the salient-unit keys,
split into a tune half and a check half by a fixed hash of the dialogue's position.
No database: the tombstones are built in memory with the same functions deep and light sleep use.
"""
from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import re
import sys
from pathlib import Path


def _split(name: str) -> str:
    return "tune" if int(hashlib.sha256(name.encode()).hexdigest(), 16) % 2 == 0 else "check"


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text or "") if len(s.strip()) > 3]


def _dialogues(root: Path):
    for name in ("msc_personasummary_s1_dev.jsonl", "msc_personasummary_s1_valid.jsonl"):
        for number, line in enumerate((root / "msc" / name).read_text().splitlines()):
            yield f"{name}:{number}", json.loads(line)["dialog"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="../shared/datasets")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memcenter.settings")
    import django

    django.setup()
    from dreaming.memory.tombstones import TombstoneIndex, tombstone_digest, tombstone_keys

    def index_of(statements):
        return TombstoneIndex([(i, tombstone_digest(s), tombstone_keys(s)) for i, s in enumerate(statements)])

    counts = {split: {"turns": 0, "caught_exact": 0, "caught": 0, "pairs": 0, "stopped_exact": 0, "stopped": 0}
              for split in ("tune", "check")}
    for name, dialog in _dialogues(Path(args.datasets)):
        c = counts[_split(name)]
        facts = []
        for turn in dialog:
            if turn.get("id") != "bot_0" or not (turn.get("persona_text") or "").strip():
                continue
            persona = _sentences(turn["persona_text"])
            facts += persona
            index = index_of(persona)
            c["turns"] += 1
            c["caught_exact"] += tombstone_digest(turn["text"]) in index
            c["caught"] += index.stops(turn["text"])
        for forgotten, other in itertools.permutations(sorted(set(facts)), 2):
            index = index_of([forgotten])
            c["pairs"] += 1
            c["stopped_exact"] += tombstone_digest(other) in index
            c["stopped"] += index.stops(other)
    for split, c in counts.items():
        print(f"{split}: turns {c['turns']}: caught exact {c['caught_exact'] / c['turns']:.3f}, "
              f"with keys {c['caught'] / c['turns']:.3f}; pairs {c['pairs']}: false stop exact "
              f"{c['stopped_exact'] / c['pairs']:.4f}, with keys {c['stopped'] / c['pairs']:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
