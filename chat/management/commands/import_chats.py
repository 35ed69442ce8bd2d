import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from chat import importers
from chat.models import Client
from chat.services import UnknownUser, user_resolve

UTF8_BOM = b"\xef\xbb\xbf"


def ProgressBar(total: int, *, stream=None, label: str = "importing"):  # noqa: N802 — used like the class it replaced
    """A tqdm bar on stderr (stdout stays clean for the summary); `advance` is called once per item."""
    bar = tqdm(total=max(total, 1), desc=label, file=stream or sys.stderr, mininterval=0.2, dynamic_ncols=True)
    bar.advance = lambda _number=0: bar.update(1)
    return bar


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


FORMAT_HELP = (
    "jsonl (default): one conversation per line, e.g. "
    '{"user": "ada", "title": "Sunday", "messages": [{"role": "user", "content": "I have a dog named Milo", '
    '"created_at": "2026-11-29T10:00:00Z"}, {"role": "assistant", "content": "Lovely!"}]} '
    "— only \"messages\" is required (plain OpenAI-style lines work). "
    "chatgpt: the conversations.json of a ChatGPT data export (Settings → Data controls → Export)."
)


class Command(BaseCommand):
    help = (
        "Import conversations from a JSONL file (one session per line) or a ChatGPT conversations.json. "
        "Example: manage.py import_chats chats.jsonl --user ada --create-user"
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="File to import ('-' reads JSONL from stdin).")
        parser.add_argument("--user", default="", help="Owner of sessions whose line names no 'user'.")
        parser.add_argument("--create-user", action="store_true", help="Create users that do not exist yet.")
        parser.add_argument("--format", choices=("jsonl", "chatgpt"), default="jsonl", help=FORMAT_HELP)
        parser.add_argument("--client", default="", help="Users are this API client's users, named as the client names "
                            "them (what its API key sees). Without it, users are web accounts named by their username.")

    def handle(self, *args, path: str, user: str, create_user: bool, format: str, client: str, **options):
        owner = None
        if client:
            owner = Client.objects.filter(name=client).first()
            if owner is None:
                raise CommandError(f"no client named {client!r} (create_api_key NAME --client {client} makes one)")
        if user:
            try:
                user_resolve(username=user, create=create_user, client=owner)
            except UnknownUser:
                raise CommandError(f"user {user!r} does not exist (pass --create-user to create it)") from None
            except ValueError as exc:
                raise CommandError(str(exc)) from None
        items, total = self._items(path, format)
        if total == 0:
            raise CommandError(f"{path}: nothing to import (the file is empty)")
        bar = ProgressBar(total, stream=self.stderr._out)
        report = importers.import_run(
            items, default_username=user, create_users=create_user, client=owner, on_item=bar.advance
        )
        bar.close()
        unit = "line" if format == "jsonl" else "conversation"
        for number, message in report.errors:
            self.stderr.write(f"{unit} {number}: {message}")
        self.stdout.write(
            f"imported {_plural(report.sessions_created, 'new session')}, updated {report.sessions_updated}, "
            f"unchanged {report.sessions_unchanged}; {_plural(report.messages_appended, 'message')} added, "
            f"{report.messages_duplicate} already there; {report.empty} empty skipped; {report.failed} failed"
        )
        if report.failed:
            raise CommandError(f"{_plural(report.failed, unit)} failed to import (see above); the rest was imported")

    def _items(self, path: str, format: str):
        if path == "-":
            if format != "jsonl":
                raise CommandError("stdin ('-') is only supported for --format jsonl")
            lines = sys.stdin.buffer.read().removeprefix(UTF8_BOM).splitlines()
            return importers.jsonl_sessions(lines), sum(1 for line in lines if line.strip())
        file = Path(path)
        if not file.is_file():
            raise CommandError(f"no such file: {path}")
        # A file saved by Notepad or Excel starts with a UTF-8 byte-order mark: it is not part of line 1.
        raw = file.read_bytes().removeprefix(UTF8_BOM)
        if format == "chatgpt":
            try:
                conversations = importers.chatgpt_load(raw)
            except importers.ImportLineError as exc:
                raise CommandError(f"{path}: {exc}") from None
            return importers.chatgpt_sessions(conversations), len(conversations)
        lines = raw.splitlines()
        return importers.jsonl_sessions(lines), sum(1 for line in lines if line.strip())
