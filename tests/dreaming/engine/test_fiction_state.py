"""A story asked for or a roleplay begun: the first person of the turns after it is a character, for triage and
for extraction alike (one state, `SessionSignals.fiction`)."""
from dreaming.engine.triage import session_signals
from dreaming.protocol import SessionInfo, Turn
from dreaming.providers.local import LocalDreamer

_STORY = [
    Turn(seq=0, role="user", content="I'm a nurse and I have a daughter named Emma. Write a story for her about a "
                                     "dragon who is afraid of the dark."),
    Turn(seq=1, role="assistant", content="Once upon a time, a small dragon named Ember…"),
    Turn(seq=2, role="user", content="Continue it. I love my girlfriend, Sasuke, and I live in the hidden village."),
    Turn(seq=3, role="assistant", content="Ember flew over the hidden village…"),
    Turn(seq=4, role="user", content="Go on. (OOC: I work night shifts, so keep it short.) I am the hokage now."),
]


def _statements(turns):
    reading = LocalDreamer().read_session(turns=turns, info=SessionInfo(new_from_seq=-1))
    return reading.kind, [c.statement for c in reading.candidates], reading.candidates


def test_the_turns_after_a_story_request_are_fiction_for_triage():
    assert session_signals(_STORY).fiction == [2, 4]


def test_a_roleplay_turn_is_fiction_itself():
    turns = [Turn(seq=0, role="user", content="*walks into the tavern* I am a knight of the realm. *draws sword*"),
             Turn(seq=1, role="user", content="I have a dog named Rex.")]
    assert session_signals(turns).fiction == [0, 1]


def test_extraction_does_not_take_the_story_for_the_user():
    kind, statements, candidates = _statements(_STORY)
    said = " ".join(statements).lower()
    assert "nurse" in said and "emma" in said  # said before the story: the user's
    assert "sasuke" not in said and "hidden village" not in said and "hokage" not in said
    assert "night shift" in said  # said out of character
    assert {c.seq for c in candidates} <= {0, 4}


def test_without_a_story_the_same_words_are_the_users():
    turns = [Turn(seq=0, role="user", content="I love my girlfriend, Sasuke, and I live in the hidden village.")]
    _, statements, _ = _statements(turns)
    assert "sasuke" in " ".join(statements).lower()
