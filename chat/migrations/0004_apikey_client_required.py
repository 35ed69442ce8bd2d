"""Every API key has a client (0003 filled them in). A migration of its own: Postgres refuses to
ALTER a table in the transaction that just updated its rows with deferred foreign keys pending."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("chat", "0003_clients")]

    operations = [
        migrations.AlterField(
            model_name="apikey",
            name="client",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="keys", to="chat.client"),
        ),
    ]
