import json

from django.core.management.base import BaseCommand, CommandError

from dreaming.memory.context import memory_md_get, memory_md_render
from dreaming.management.lookups import persona_by_slug, user_by_name
from dreaming.memory.recall import recall
from dreaming.protocol import RECALL_MAX_K


class Command(BaseCommand):
    help = "Recall a user's memories and excerpts of their own past messages for a query (the long tail beyond MEMORY.md)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("query")
        parser.add_argument("--k", type=int, default=None, help="How many results (default RECALL_DEFAULT_K).")
        parser.add_argument("--persona", default="", help="Persona slug: the profile plus that persona's memories.")
        parser.add_argument("--json", action="store_true", help="Print MEMORY.md and the results as one JSON object.")

    def handle(self, *args, username: str, query: str, k: int | None, persona: str, **options):
        from django.conf import settings

        k = settings.RECALL_DEFAULT_K if k is None else k
        if not 1 <= k <= RECALL_MAX_K:
            raise CommandError(f"--k must be between 1 and {RECALL_MAX_K}, got {k}.")
        if not query.strip():
            raise CommandError("The query must not be blank.")
        user = user_by_name(username)
        scope = persona_by_slug(persona)
        document = memory_md_get(user=user, persona=scope) or memory_md_render(user=user, persona=scope)
        results = recall(user=user, query=query, k=k, persona=scope, exclude_ids=document.memory_ids)
        if options["json"]:
            payload = {
                "memory_md": document.content,
                "memory_md_ids": list(document.memory_ids),
                "results": [result.as_dict() for result in results],
            }
            self.stdout.write(json.dumps(payload, ensure_ascii=False))
            return
        self.stdout.write(f"MEMORY.md v{document.version} holds {len(document.memory_ids)} memories (not repeated below).")
        if not results:
            self.stdout.write("Nothing recalled.")
        for rank, result in enumerate(results, 1):
            if result.kind == "excerpt":
                self.stdout.write(f"{rank:>2}. [excerpt] {result.statement}  (score {result.score:.3f})")
                continue
            parts = " ".join(f"{name}={value:.2f}" for name, value in result.parts.items())
            self.stdout.write(f"{rank:>2}. [{result.category}] {result.statement}  (score {result.score:.3f}; {parts})")
            for source in result.sources:
                self.stdout.write(f"      {source['said_at'][:10]} “{source['quote']}” ({source['session_external_id']}/{source['message_external_id']})")
