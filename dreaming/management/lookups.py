"""Arguments the dreaming commands share: a username and an optional persona slug."""
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from chat.models import Persona


def user_by_name(username: str):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"Unknown user {username!r}.")
    return user


def persona_by_slug(slug: str) -> Persona | None:
    """The persona scope named on the command line; empty means the profile (no persona)."""
    if not slug:
        return None
    persona = Persona.objects.filter(slug=slug).first()
    if persona is None:
        raise CommandError(f"Unknown persona {slug!r}.")
    return persona
