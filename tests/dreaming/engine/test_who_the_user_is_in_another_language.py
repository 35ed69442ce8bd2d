"""A sentence of another language that says who the user is (their work, home, family, business: multilingual's
self-words) weighs as its English reading would: it can make the session personal, as "We are a small furniture
company in Nantes" does. Other sentences kept in the user's words stay below triage's "personal" bar."""
from datetime import UTC, datetime

from dreaming.engine.extract import extract_candidates
from dreaming.protocol import Turn
from dreaming.providers.local import triage_by_rules

SAID = datetime(2026, 1, 10, 9, 0, tzinfo=UTC)
PERSONAL_IMPORTANCE = 0.5  # the importance at which triage.session_signals counts a turn as personal


def _importance(text: str) -> float:
    found = extract_candidates([Turn(seq=0, role="user", content=text, created_at=SAID)])
    assert len(found) == 1 and found[0].statement.startswith('User said: "'), found
    return found[0].importance


def test_who_the_user_is_reaches_the_personal_bar_and_other_news_does_not():
    assert _importance("Je suis infirmière à Lyon depuis dix ans.") >= PERSONAL_IMPORTANCE
    assert _importance("Nous sommes une petite entreprise de meubles à Nantes.") >= PERSONAL_IMPORTANCE
    assert _importance("J'ai mangé une pomme ce matin avec plaisir.") < PERSONAL_IMPORTANCE


def test_a_session_where_the_user_says_who_they_are_beside_a_pasted_email_is_kept():
    email = "Bonjour, la livraison du lot numéro quatre est arrivée en retard et les cartons étaient abîmés. " * 12
    turns = [Turn(seq=0, role="user", content="Nous sommes une petite entreprise de meubles à Nantes.", created_at=SAID),
             Turn(seq=1, role="assistant", content="Très bien, je vous écoute.", created_at=SAID),
             Turn(seq=2, role="user", content=f'Réécris cet email pour mon fournisseur : "{email}"', created_at=SAID)]
    assert triage_by_rules(turns).kind == "normal"
    # without the sentence about who they are, the pasted email makes it a document session
    assert triage_by_rules(turns[2:]).kind == "document"
