"""Create the three dreaming schedules (light sleep sweep, nightly deep sleep, weekly consolidation)."""
from django.db import migrations


def create_schedules(apps, schema_editor):
    from dreaming.schedules import schedules_ensure

    schedules_ensure(schedule_model=apps.get_model("django_q", "Schedule"))


def remove_schedules(apps, schema_editor):
    from dreaming.schedules import schedules_remove

    schedules_remove(schedule_model=apps.get_model("django_q", "Schedule"))


class Migration(migrations.Migration):
    dependencies = [
        ("dreaming", "0001_initial"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(create_schedules, remove_schedules)]
