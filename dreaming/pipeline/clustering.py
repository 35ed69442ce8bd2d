"""Group candidates that say the same thing, so one topic becomes one memory decision.

Greedy, in time order: a candidate joins the first cluster (same scope and category) whose EVERY
member is at least settings.DREAM_CLUSTER_SIMILARITY cosine-similar to it, otherwise it starts a new
one. Every member, not the centroid: "collects bikes from Lyon", "collects kites from Lyon", ... would
otherwise pull the centroid towards their shared words until any "collects X from Lyon" joins, and
distinct facts would be lost in one memory. A user has tens of candidates a night, so a Python loop
over unit vectors is simpler than SQL and fast.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
from django.conf import settings

from dreaming.engine.slots import particulars_differ, same_thing
from dreaming.engine.spouses import same_spouse
from dreaming.models import Candidate


@dataclass
class Cluster:
    persona_id: int | None
    category: str
    candidates: list[Candidate] = field(default_factory=list)
    vectors: list[np.ndarray] = field(default_factory=list)
    _sum: np.ndarray | None = None

    @property
    def centroid(self) -> np.ndarray:
        norm = np.linalg.norm(self._sum)
        return self._sum / norm if norm > 0 else self._sum

    def add(self, candidate: Candidate, vector: np.ndarray) -> None:
        self.candidates.append(candidate)
        self.vectors.append(vector)
        self._sum = vector.copy() if self._sum is None else self._sum + vector

    @property
    def best(self) -> Candidate:
        """The statement that speaks for the cluster: raised by the user, important, detailed, latest."""
        return max(
            self.candidates,
            key=lambda c: (c.user_initiated, round(c.importance, 2), len(c.statement), c.said_at),
        )

    @property
    def session_ids(self) -> set:
        # A candidate whose session was deleted still counts once, as its own "session".
        return {c.session_id if c.session_id is not None else f"c{c.pk}" for c in self.candidates}

    @property
    def first_said_at(self) -> datetime:
        return min(c.said_at for c in self.candidates)

    @property
    def last_said_at(self) -> datetime:
        return max(c.said_at for c in self.candidates)


def unit(vector) -> np.ndarray:
    array = np.asarray(vector, dtype=np.float64)
    norm = np.linalg.norm(array)
    return array / norm if norm > 0 else array


def _joins(cluster: Cluster, candidate: Candidate, vector: np.ndarray, threshold: float) -> bool:
    """Close to every member and telling no member apart by a name, number or item (a parrot named
    Mango is not the parrot named Kiwi, however alike the sentences); or the same things said in
    another language ("oat latte every morning" / "每天早上都喝燕麦拿铁"), which no embedding sees."""
    if any(particulars_differ(candidate.statement, member.statement) for member in cluster.candidates):
        return False
    if min(float(np.dot(member, vector)) for member in cluster.vectors) >= threshold:
        return True
    return all(same_thing(candidate.statement, member.statement) or same_spouse(candidate.statement, member.statement)
               for member in cluster.candidates)


def candidates_cluster(*, candidates: list[Candidate], threshold: float | None = None) -> list[Cluster]:
    """Cluster candidates (each must have .embedding) by scope + category + cosine similarity."""
    threshold = settings.DREAM_CLUSTER_SIMILARITY if threshold is None else threshold
    clusters: list[Cluster] = []
    for candidate in sorted(candidates, key=lambda c: (c.said_at, c.pk)):
        vector = unit(candidate.embedding)
        home = None
        for cluster in clusters:
            if cluster.persona_id != candidate.persona_id or cluster.category != candidate.category:
                continue
            if _joins(cluster, candidate, vector, threshold):
                home = cluster
                break
        if home is None:
            home = Cluster(persona_id=candidate.persona_id, category=candidate.category)
            clusters.append(home)
        home.add(candidate, vector)
    return clusters
