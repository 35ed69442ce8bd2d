from django.core.management.base import BaseCommand, CommandError

from chat.services import api_key_create, api_key_revoke


class Command(BaseCommand):
    help = "Create an API key for a service client (the secret is shown once), or revoke one with --revoke."

    def add_arguments(self, parser):
        parser.add_argument("name", help="A unique name for the client, e.g. 'chat-frontend'.")
        parser.add_argument("--client", default="", help="The chat product the key belongs to (created if missing; "
                            "default: a client named like the key). Give a second key the same client to rotate keys.")
        parser.add_argument("--revoke", action="store_true", help="Revoke the key with this name instead.")

    def handle(self, *args, name: str, client: str, revoke: bool, **options):
        try:
            if revoke:
                key = api_key_revoke(name=name)
                self.stdout.write(f"revoked API key {key.name!r} ({key.prefix}…) at {key.revoked_at:%Y-%m-%d %H:%M:%S %Z}")
                return
            key, secret = api_key_create(name=name, client_name=client)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"API key {key.name!r} of client {key.client.name!r} created. Store it now; it cannot be shown again:")
        self.stdout.write(secret)
