"""Clustering candidates by topic: scope + category + cosine similarity to every member."""
from datetime import datetime, timedelta, timezone as dt_timezone

import numpy as np

from dreaming.pipeline.clustering import candidates_cluster
from dreaming.models import Candidate

T0 = datetime(2026, 3, 1, tzinfo=dt_timezone.utc)


def candidate(pk, vector, *, category="fact", persona_id=None, session_id=1):
    return Candidate(pk=pk, statement=f"s{pk}", category=category, persona_id=persona_id, session_id=session_id,
                     embedding=np.asarray(vector, dtype=float), said_at=T0 + timedelta(minutes=pk))


def angle(degrees):
    radians = np.radians(degrees)
    return [np.cos(radians), np.sin(radians), 0.0]


def test_a_cluster_does_not_drift_through_a_chain_of_neighbours():
    # cos 25° ≈ 0.906 (joins), cos 50° ≈ 0.643 (too far): c is near b but not near a.
    a, b, c = candidate(1, angle(0)), candidate(2, angle(25)), candidate(3, angle(50))
    clusters = candidates_cluster(candidates=[a, b, c], threshold=0.8)
    assert [[x.pk for x in cl.candidates] for cl in clusters] == [[1, 2], [3]]


def test_scope_and_category_are_never_mixed():
    same = angle(0)
    items = [candidate(1, same), candidate(2, same, category="event"), candidate(3, same, persona_id=7),
             candidate(4, same, session_id=2)]
    clusters = candidates_cluster(candidates=items, threshold=0.8)
    assert sorted(sorted(x.pk for x in cl.candidates) for cl in clusters) == [[1, 4], [2], [3]]
    merged = next(cl for cl in clusters if len(cl.candidates) == 2)
    assert merged.session_ids == {1, 2} and merged.first_said_at == T0 + timedelta(minutes=1)



def test_the_spouse_said_twice_in_one_session_is_one_cluster():
    married, wife, sister = candidate(1, angle(0), category="relation"), candidate(2, angle(90), category="relation"), \
        candidate(3, angle(45), category="relation")
    married.statement = "User is married to a doctor"
    wife.statement = "User's wife is a doctor at the city hospital"  # far apart as vectors, one person in words
    sister.statement = "User's sister is a doctor at the city hospital"
    clusters = candidates_cluster(candidates=[married, wife, sister], threshold=0.99)
    assert sorted(len(c.candidates) for c in clusters) == [1, 2]
    assert {c.statement for c in max(clusters, key=lambda c: len(c.candidates)).candidates} == {
        married.statement, wife.statement}
