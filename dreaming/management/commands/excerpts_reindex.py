"""Write the search text of every turn recall may show as an excerpt again, as light sleep writes it now.

Run it once after a change of the search text (dreaming/memory/excerpts.py): turns indexed before
it stay findable by their own words, but not by the words of the turn they replied to.
"""
from django.core.management.base import BaseCommand

from dreaming.memory.excerpts import excerpts_reindex


class Command(BaseCommand):
    help = "Re-index every turn recall may show as an excerpt with the current search text."

    def handle(self, *args, **options):
        count = excerpts_reindex()
        self.stdout.write(f"re-indexed {count} turns")
