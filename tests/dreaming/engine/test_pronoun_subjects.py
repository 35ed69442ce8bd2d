"""What "he is a …" / "she's a …" says about the one relative or pet just spoken of (pronoun_subjects.py)."""
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(*turns: tuple[str, str]) -> set[str]:
    read = LocalDreamer().extract(turns=[Turn(seq=i, role=r, content=t) for i, (r, t) in enumerate(turns)],
                                  ctx=CallContext())
    return {c.statement for c in read}


def test_the_relative_the_other_side_asked_about_is_the_pronouns():
    found = _statements(("assistant", "That sounds fun. What do you and your husband do?"),
                        ("user", "I give music lessons and do volunteer work. He's a detective."))
    assert "User's husband is a detective" in found


def test_the_pet_asked_about_is_the_pronouns():
    found = _statements(("assistant", "We grow corn at my parents farm. What dog do you have?"),
                        ("user", "He is a black lab named Trooper, he is a great hiking buddy!"))
    assert "User's dog is a black lab named Trooper" in found


def test_the_other_sides_relative_is_never_the_users():
    found = _statements(("assistant", "My husband is a cop."), ("user", "Cool. He is a baker."))
    assert not [s for s in found if s.startswith("User's")]


def test_two_candidates_leave_the_pronoun_unread():
    found = _statements(("user", "My brother and my dad fish a lot."), ("assistant", "Nice!"),
                        ("user", "Yes. He is a fisherman."))
    assert not [s for s in found if "fisherman" in s]
