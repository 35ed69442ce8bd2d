from django.core.management.base import BaseCommand

from dreaming.memory.context import memory_md_get, memory_md_render
from dreaming.management.lookups import persona_by_slug, user_by_name


class Command(BaseCommand):
    help = "Print a user's MEMORY.md (rendering it first if none is stored)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--persona", default="", help="Persona slug: the profile plus that persona's memories.")
        parser.add_argument("--render", action="store_true", help="Re-render before printing.")

    def handle(self, *args, username: str, persona: str, render: bool, **options):
        user = user_by_name(username)
        scope = persona_by_slug(persona)
        document = None if render else memory_md_get(user=user, persona=scope)
        document = document or memory_md_render(user=user, persona=scope)
        self.stdout.write(document.content, ending="")
        self.stderr.write(
            f"MEMORY.md v{document.version}: {len(document.memory_ids)} memories, "
            f"{document.token_count}/{document.token_budget} tokens"
        )
