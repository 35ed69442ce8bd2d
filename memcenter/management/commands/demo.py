import json
from datetime import datetime, time, timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from chat import importers
from chat.models import Persona

DEMO_FILE = Path(__file__).resolve().parents[2] / "demo" / "demo_chats.jsonl"
DEMO_USER, DEMO_PASSWORD = "demo", "demo-memcenter"
ADMIN_USER, ADMIN_PASSWORD = "admin", "admin-memcenter"
PERSONAS = {"mika": ("Mika", "A cheerful companion who loves films and late-night talks.")}
# Seconds between two messages of a demo conversation, so the sessions read like real chats.
MESSAGE_GAP = timedelta(seconds=75)


def demo_sessions(*, now: datetime, path: Path = DEMO_FILE):
    """The demo file's lines with `days_ago` + `time` turned into real times before `now`, in the
    import format; message ids are derived from the session id so re-running adds nothing."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        data = json.loads(line)
        hour, minute = (int(x) for x in data.pop("time", "12:00").split(":"))
        day = (now - timedelta(days=int(data.pop("days_ago")))).date()
        started = datetime.combine(day, time(hour, minute), tzinfo=timezone.get_current_timezone())
        data["started_at"] = started.isoformat()
        for index, message in enumerate(data["messages"], start=1):
            message.setdefault("external_id", f"{data['external_id']}-m{index}")
            message["created_at"] = (started + MESSAGE_GAP * (index - 1)).isoformat()
        try:
            yield number, importers.jsonl_session(data)
        except importers.ImportLineError as exc:
            yield number, exc


class Command(BaseCommand):
    help = "Create the demo user and an admin, load the demo conversations (EN + ZH) and dream them once. Idempotent."

    def add_arguments(self, parser):
        parser.add_argument("--no-dream", action="store_true", help="Load the conversations but do not dream them.")

    def handle(self, *args, no_dream: bool, **options):
        User = get_user_model()
        demo, _ = User.objects.get_or_create(username=DEMO_USER, defaults={"email": "demo@example.com"})
        demo.set_password(DEMO_PASSWORD)
        demo.save()
        admin, _ = User.objects.get_or_create(username=ADMIN_USER, defaults={"email": "admin@example.com"})
        admin.is_staff = admin.is_superuser = True
        admin.set_password(ADMIN_PASSWORD)
        admin.save()
        for slug, (name, description) in PERSONAS.items():
            Persona.objects.update_or_create(slug=slug, defaults={"name": name, "description": description})

        report = importers.import_run(demo_sessions(now=timezone.now()), default_username=DEMO_USER)
        if report.failed:
            raise CommandError(f"demo data is broken: {report.errors[0]}")
        self.stdout.write(
            f"demo conversations: {report.sessions_created} new sessions, {report.messages_appended} new messages "
            f"({report.sessions_unchanged} already loaded)"
        )
        if no_dream:
            self.stdout.write("dreaming skipped (--no-dream)")
        elif "dream" in get_commands():
            call_command("dream", "--now", "--backfill", "--user", DEMO_USER, stdout=self.stdout, stderr=self.stderr)
        else:
            self.stdout.write("dreaming is not available yet: the conversations are loaded but not dreamed")
        self.stdout.write(f"memory center user: {DEMO_USER} / password: {DEMO_PASSWORD}")
        self.stdout.write(f"admin (staff) user: {ADMIN_USER} / password: {ADMIN_PASSWORD}  -> /admin/")
