"""Helpers for end-to-end dreaming tests: a session of turns, then one real night (light + deep)."""
from datetime import timedelta

from dreaming.pipeline.deep import deep_sleep_user
from dreaming.pipeline.light import light_sleep_sweep
from tests.factories import ChatSessionFactory, MessageFactory


def chat(user, when, *turns):
    """A session of alternating turns: plain strings are the user's, ("assistant", text) the assistant's."""
    session = ChatSessionFactory(user=user, started_at=when, last_active_at=when + timedelta(minutes=len(turns)))
    for seq, turn in enumerate(turns, start=1):
        role, text = turn if isinstance(turn, tuple) else ("user", turn)
        MessageFactory(session=session, seq=seq, role=role, content=text, created_at=when + timedelta(minutes=seq))
    return session


def dream(user, when):
    """Light sleep after the session went idle, then that night's deep sleep (the real local engine)."""
    light_sleep_sweep(now=when + timedelta(hours=5))
    run = deep_sleep_user(user=user, now=when + timedelta(hours=17))
    assert run.status == "ok", run.error
    return run


def said_on(user, day0, day: int, *lines: str):
    """The user says `lines` in one session `day` days after `day0`, then that night is dreamt."""
    when = day0 + timedelta(days=day)
    chat(user, when, *lines)
    dream(user, when)
