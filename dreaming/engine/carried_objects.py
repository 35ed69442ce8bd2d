"""A thing named in the clause before, carried into a clause that only points at it.

"I love coffee, I drink 4 cups a day" → "User drinks 4 cups of coffee a day"; "I love tea. I drink it every morning" →
"User drinks tea every morning". Without it the statement is "User drinks 4 cups a day" or "User drinks it every
morning": true, but about nothing, and a later "I quit coffee" has nothing to supersede. The quote then runs from
the thing to the end of the clause, so the statement's words stay in the user's own.
"""
from __future__ import annotations

import re

from dreaming.engine.answers import antecedent

_AMOUNT = r"(?:(?:about|around|like|maybe|at least) )?(?:\d{1,2}|a|one|two|three|four|five|six|seven|eight|nine|ten|a few|several)"
# "User drinks 4 cups a day": a measure with nothing measured ("… 4 cups of tea" is left alone)
_MEASURE_RE = re.compile(
    rf"^(?P<head>User (?:drinks|drank|has|had|eats|ate) {_AMOUNT} (?:cups?|glass|glasses|mugs?|bottles?|cans?|shots?|"
    rf"pints?|slices?|pieces?|bowls?|servings?|liters?|litres?))(?! of\b)(?P<rest>\b.*)$"
)
# "User drinks it every morning": the verb's thing is only "it" / "them"
_POINTED_RE = re.compile(
    r"^(?P<head>User (?:drinks|drank|eats|ate|plays|played|watches|watched|reads|makes|made|cooks|cooked|bakes|baked|"
    r"listens to|listened to|grows|grew|wears|wore|rides|rode|practices|practiced|collects|collected|orders|ordered|"
    r"has seen|saw|sees|has met|met|has visited|visited|has watched|has read|has played|has heard)) "
    r"(?:it|them)(?P<rest>\b.*)$"
)
# "My favorite band is Radiohead, I've seen them live 3 times": the favourite just named
_FAVOURITE_RE = re.compile(r"\bfavou?rite [a-z]+(?: [a-z]+)? (?:is|was|are) (?P<x>[\w' -]{2,40}?)\s*[,;.!]?\s*$", re.I)
# "my cricket team won the league, I'm the captain": a role in a group named in the clause before
_ROLE_RE = re.compile(r"^(?P<head>User is (?:the|a|an|its|their) (?:(?:team|club|vice|co|assistant|head|lead|new) ?-?)?"
                      r"(?:captain|coach|president|treasurer|secretary|chair|founder|owner|manager|leader|singer|drummer|"
                      r"guitarist|bassist|goalie|goalkeeper|pitcher|conductor|organizer|organiser|admin))$")
_GROUP_RE = re.compile(r"\bmy (?P<x>(?:[a-z]+ ){0,2}(?:team|band|club|group|choir|orchestra|league|startup|company|"
                       r"shop|crew|squad|troop|society|chapter))\b(?!.*\bmy\b)", re.I)
_NOT_A_THING_RE = re.compile(r"\b(?:my|your|his|her|their|our|it|them|you|this|that|doing|being)\b", re.IGNORECASE)


def carried_object(statement: str, quote: str, *, before: str) -> tuple[str, str] | None:
    """(quote, statement) with the thing of the clause before filled in, or None. `before` is the user's turn up to
    the quote (its last sentence is read, as answers.antecedent reads it)."""
    role = _ROLE_RE.match(statement)
    group = _GROUP_RE.search(before) if role else None
    if group:
        return before[group.start():] + quote, f"{role.group('head')} of their {group.group('x')}"
    m = _MEASURE_RE.match(statement) or _POINTED_RE.match(statement)
    if not m:
        return None
    favourite = _FAVOURITE_RE.search(before)
    thing = favourite.group("x") if favourite else antecedent(before)
    if not thing or _NOT_A_THING_RE.search(thing) or len(thing.split()) > 3:
        return None
    at = before.rfind(thing)
    if at < 0:
        return None
    joined = f"{m.group('head')} of {thing}" if m.re is _MEASURE_RE else f"{m.group('head')} {thing}"
    return before[at:] + quote, joined + m.group("rest")
