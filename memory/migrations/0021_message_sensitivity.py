"""Messages carry a sensitivity label, read from their text as a memory's is.

The column arrives as ``normal`` for every event; then each message still holding
text is labelled by the classifier, principal by principal (the table is under
FORCE row security). Erased messages hold no text and stay ``normal``; the event
log's trigger refuses any change to them anyway.
"""

from django.conf import settings
from django.db import migrations, models

from memory.enums import MESSAGE_EVENT_TYPES, Sensitivity
from memory.screening import classify_sensitivity
from memory.migration_operations import RestoreSQLiteTriggers
from common.principal import principal_context

BATCH = 2000


def label_messages(apps, schema_editor):
    # In Python, not SQL: the classifier is a Python regular expression, which SQLite
    # cannot run and PostgreSQL's dialect reads differently (word boundaries, what a
    # word character is), so SQL could label a message otherwise than an append does.
    # In batches by id, so that a long log is never held in memory at once.
    User = apps.get_model("accounts", "User")
    Event = apps.get_model("memory", "Event")
    alias = schema_editor.connection.alias
    for principal in User.objects.using(alias).only("pk").iterator():
        with principal_context(principal, using=alias):
            messages = (
                Event.objects.using(alias)
                .filter(
                    owner_id=principal.pk,
                    event_type__in=[str(t) for t in MESSAGE_EVENT_TYPES],
                    redacted_at__isnull=True,
                )
                .order_by("id")
            )
            after = 0
            while batch := list(messages.filter(id__gt=after).values_list("id", "text")[:BATCH]):
                after = batch[-1][0]
                labelled = {}
                for pk, text in batch:
                    if (label := classify_sensitivity(text)) != Sensitivity.NORMAL:
                        labelled.setdefault(str(label), []).append(pk)
                for label, ids in labelled.items():
                    Event.objects.using(alias).filter(pk__in=ids).update(sensitivity=label)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_operator_actions"),
        ("memory", "0020_session_external_id_per_scope"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="sensitivity",
            field=models.CharField(
                choices=[
                    ("normal", "Normal"),
                    ("personal", "Personal"),
                    ("sensitive", "Sensitive"),
                ],
                default="normal",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("sensitivity__in", ["normal", "personal", "sensitive"])),
                name="event_sensitivity_closed",
            ),
        ),
        # Adding the column rebuilt memory_event on SQLite.
        RestoreSQLiteTriggers(),
        migrations.RunPython(label_messages, migrations.RunPython.noop),
    ]
