"""Clients own their users (issue #15): API keys belong to a client, and users the API created are
addressed through the client. A database made before this has one client's worth of data: its keys
and its API-created users (no usable password, not staff) go into one client named "default". Users
with a password signed up on the web (or were made by staff): no key reaches them any more."""
import django.db.models.deletion
from django.conf import settings
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.db import migrations, models

DEFAULT_CLIENT = "default"


def into_default_client(apps, schema_editor):
    Client = apps.get_model("chat", "Client")
    ClientUser = apps.get_model("chat", "ClientUser")
    ApiKey = apps.get_model("chat", "ApiKey")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    api_users = User.objects.filter(password__startswith=UNUSABLE_PASSWORD_PREFIX, is_staff=False, is_superuser=False)
    if not ApiKey.objects.exists() and not api_users.exists():
        return
    client, _ = Client.objects.get_or_create(name=DEFAULT_CLIENT)
    ApiKey.objects.filter(client__isnull=True).update(client=client)
    ClientUser.objects.bulk_create(
        [ClientUser(client=client, username=user.username, user=user) for user in api_users.only("id", "username")],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):

    dependencies = [
        ("chat", "0002_foundation_api_rate_window"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Client",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=120, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={"ordering": ["name"]},
        ),
        migrations.CreateModel(
            name="ClientUser",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("username", models.CharField(max_length=150)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("client", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="users", to="chat.client")),
                ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="client_account", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["client", "username"],
                "constraints": [models.UniqueConstraint(fields=("client", "username"), name="chat_client_user_unique_username")],
            },
        ),
        migrations.AddField(
            model_name="apikey",
            name="client",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="keys", to="chat.client"),
        ),
        migrations.RunPython(into_default_client, migrations.RunPython.noop),
    ]
