"""The MSC views of the fast extraction loop (bench/diag_extract.py) and the turn figures they print."""
from bench.diag_extract import _show_msc
from bench.quality_msc import _scores


def test_the_turn_figures_give_precision_and_recall_beside_f1():
    scores = _scores({1: ["I like cats"], 2: ["I am tall"]}, {1: ["I like cats."], 3: ["I have a dog."]})
    assert (scores["turn_p"], scores["turn_r"]) == (0.5, 0.5)
    assert scores["turn_f1"] == 0.5


def test_msc_empty_shows_only_a_gold_turn_that_yields_nothing(capsys):
    _show_msc("msc-empty", "Hello from canada!", [], ["I am from Canada."])
    _show_msc("msc-empty", "I like cats.", ["I like cats"], ["I like cats."])
    _show_msc("msc-empty", "How are you?", [], [])
    shown = capsys.readouterr().out
    assert shown.count("EMPTY") == 1 and "Hello from canada!" in shown
