"""manage.py dream_schedule [--reset]: make sure the three dreaming schedules exist (idempotent)."""
from django.core.management.base import BaseCommand
from django_q.models import Schedule

from dreaming.pipeline.schedules import schedules_ensure


class Command(BaseCommand):
    help = "Create the django-q2 schedules for light sleep, deep sleep and weekly consolidation if missing."

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset", action="store_true", help="Also put existing schedules back to the settings (undo admin edits)."
        )

    def handle(self, *args, reset, **options):
        outcome = schedules_ensure(schedule_model=Schedule, reset=reset)
        self.stdout.write("; ".join(f"{name}: {state}" for name, state in outcome.items()))
