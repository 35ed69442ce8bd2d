"""Recall's excerpts: each indexed turn's forgetting digests beside its search vector.

Light sleep writes them with the search vector (dreaming/memory/excerpts.py), so the excerpt search
checks the user's tombstones in its own statement. No backfill here (the digests are keyed with
TOMBSTONE_KEY by the memory code): a turn indexed before has NULL and is checked on read as before;
`manage.py excerpts_reindex` fills them.
"""

import django.contrib.postgres.fields
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('chat', '0007_verbose_names_translated'),
    ]

    operations = [
        migrations.AddField(
            model_name='message',
            name='forget_digests',
            field=django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=64), blank=True, editable=False, null=True, size=None, verbose_name='forgetting digests'),
        ),
    ]
