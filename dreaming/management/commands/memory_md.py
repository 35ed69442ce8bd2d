from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from chat.models import Persona
from dreaming.context import memory_md_get, memory_md_render


class Command(BaseCommand):
    help = "Print a user's MEMORY.md (rendering it first if none is stored)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--persona", default="", help="Persona slug: the profile plus that persona's memories.")
        parser.add_argument("--render", action="store_true", help="Re-render before printing.")

    def handle(self, *args, username: str, persona: str, render: bool, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"Unknown user {username!r}.")
        scope = None
        if persona:
            scope = Persona.objects.filter(slug=persona).first()
            if scope is None:
                raise CommandError(f"Unknown persona {persona!r}.")
        document = None if render else memory_md_get(user=user, persona=scope)
        document = document or memory_md_render(user=user, persona=scope)
        self.stdout.write(document.content, ending="")
        self.stderr.write(
            f"MEMORY.md v{document.version}: {len(document.memory_ids)} memories, "
            f"{document.token_count}/{document.token_budget} tokens"
        )
