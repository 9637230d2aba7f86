"""Excerpts shrink to the clause that supports their memory, secret-shaped spans masked.

Earlier excerpts kept the first 500 characters of the whole message. Each is
recomputed from its message and its memory's statement, principal by
principal (the tables are under FORCE row security). Erased messages and
memories keep their empty excerpts.
"""

from django.db import migrations

from memory.excerpts import excerpt_for
from common.principal import principal_context


def shrink_excerpts(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    BeliefSource = apps.get_model("memory", "BeliefSource")
    alias = schema_editor.connection.alias
    for principal in User.objects.using(alias).only("pk").iterator():
        with principal_context(principal, using=alias):
            sources = (
                BeliefSource.objects.using(alias)
                .filter(owner_id=principal.pk)
                .exclude(excerpt="")
                .select_related("event", "belief")
            )
            changed = []
            for source in sources.iterator(chunk_size=2000):
                excerpt = excerpt_for(source.event.text, source.belief.statement)
                if excerpt != source.excerpt:
                    source.excerpt = excerpt
                    changed.append(source)
            BeliefSource.objects.using(alias).bulk_update(changed, ["excerpt"], batch_size=2000)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_operator_actions"),
        ("memory", "0009_idempotency_records_hold_no_text"),
    ]

    operations = [migrations.RunPython(shrink_excerpts, migrations.RunPython.noop)]
