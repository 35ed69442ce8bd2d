"""bench/train_triage.py and bench/triage_levers.py: weighted fitting, cross-validation with added material
that is trained on and never scored, and the prefix cuts of a labelled conversation."""
import numpy as np

from bench.train_triage import Extra, cross_validate, fit, skip_probability
from bench.triage_levers import MAX_CUTS, prefixes


def _two_blobs(n=40, seed=3):
    rng = np.random.default_rng(seed)
    x = np.vstack([rng.normal(-1, 0.5, (n, 2)), rng.normal(1, 0.5, (n, 2))])
    return x, np.array([0] * n + [1] * n)


def test_equal_weights_fit_exactly_as_no_weights():
    x, y = _two_blobs()
    plain = fit(x, y, l2=1e-2, classes=5, steps=50)
    weighted = fit(x, y, l2=1e-2, classes=5, steps=50, weights=np.full(len(y), 0.3))
    assert np.allclose(plain[0], weighted[0]) and np.allclose(plain[1], weighted[1])


def test_a_heavier_class_pulls_the_model_towards_it():
    x, y = _two_blobs()
    middle = np.zeros((1, 2))
    even = skip_probability(middle, *fit(x, y, l2=1e-2, classes=5, steps=200))[0]
    skips_heavy = skip_probability(middle, *fit(x, y, l2=1e-2, classes=5, steps=200, weights=np.where(y == 1, 5.0, 1.0)))[0]
    assert skips_heavy > even + 0.1


def test_added_material_is_trained_on_but_never_scored():
    x, y = _two_blobs(n=20)
    ids = [f"c{i}" for i in range(len(y))]
    alone = cross_validate(x, y, ids, l2=1e-2, classes=5)
    assert alone.shape == (len(y),) and (alone[y == 1].mean() > 0.5 > alone[y == 0].mean())
    # Added rows that contradict the labels drag the out-of-fold scores of the labelled rows towards them.
    flipped = Extra(x=x.copy(), y=1 - y, weights=np.full(len(y), 3.0), groups=[f"other{i}" for i in range(len(y))])
    dragged = cross_validate(x, y, ids, l2=1e-2, classes=5, extra=flipped)
    assert dragged.shape == (len(y),) and dragged[y == 0].mean() > alone[y == 0].mean() + 0.1


def test_a_conversations_own_cuts_stay_in_its_fold():
    # Each added row is the very conversation it is grouped with, labelled the other way: were it in the training
    # folds while its conversation is scored, the scores would be dragged; grouped, it never is.
    x, y = _two_blobs(n=20)
    ids = [f"c{i}" for i in range(len(y))]
    alone = cross_validate(x, y, ids, l2=1e-2, classes=5)
    own = Extra(x=x.copy(), y=1 - y, weights=np.full(len(y), 1e-6), groups=list(ids))
    assert np.allclose(cross_validate(x, y, ids, l2=1e-2, classes=5, extra=own), alone, atol=1e-3)


def _conversation(user_turns):
    messages = []
    for i in range(user_turns):
        messages += [{"role": "user", "content": f"question {i}"}, {"role": "assistant", "content": f"answer {i}"}]
    return {"id": f"conv{user_turns}", "messages": messages}


def test_a_conversation_is_cut_before_each_later_user_turn_and_its_cuts_weigh_one_conversation():
    label = {"kind": "coding"}
    cuts = prefixes([(_conversation(3), label)])
    assert [len(c["turns"]) for c, _, _ in cuts] == [2, 4]
    assert all(c["group"] == "conv3" and lab is label for c, lab, _ in cuts)
    assert sum(w for _, _, w in cuts) == 1.0
    many = prefixes([(_conversation(12), label)])
    assert len(many) == MAX_CUTS and abs(sum(w for _, _, w in many) - 1.0) < 1e-9
    assert prefixes([(_conversation(1), label)]) == []
