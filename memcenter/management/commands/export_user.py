import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from memcenter.exports import user_export


class Command(BaseCommand):
    help = "Export everything held on a user (or on every user with --all) as JSONL, one user per line."

    def add_arguments(self, parser):
        parser.add_argument("username", nargs="?", help="The user to export.")
        parser.add_argument("--all", action="store_true", help="Export every user, one per line.")
        parser.add_argument("--output", "-o", help="Write to this file instead of stdout.")

    def handle(self, *args, username: str | None, all: bool, output: str | None, **options):
        User = get_user_model()
        if bool(username) == all:
            raise CommandError("give exactly one of USERNAME or --all")
        if all:
            users = User.objects.order_by("pk").iterator(chunk_size=100)
        else:
            user = User.objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"user {username!r} does not exist")
            users = [user]
        if output:
            try:
                stream = Path(output).open("w", encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"cannot write {output}: {exc.strerror}") from None
        else:
            stream = self.stdout._out
        count = 0
        try:
            for user in users:
                stream.write(json.dumps(user_export(user=user), ensure_ascii=False) + "\n")
                count += 1
        finally:
            if output:
                stream.close()
        if output:
            self.stderr.write(f"exported {count} user(s) to {output}")
