"""Writing many rows of a reconsolidation table at once."""

from common.principal import principal_transaction
from reconsolidation.models import DerivedMemory, Lineage, Operation
from reconsolidation.rows import rows_insert
from tests.memory.helpers import remember


def derived_memory(owner):
    operation = Operation.objects.create(
        owner=owner,
        kind=Operation.Kind.MERGE,
        state=Operation.State.APPLIED,
        policy_version="reconsolidation@1",
        inputs=[],
    )
    return DerivedMemory.objects.create(
        owner=owner,
        operation=operation,
        kind=DerivedMemory.Kind.MERGED,
        type="fact",
        subject="device:watch",
        statement="User owns a watch.",
        polarity="positive",
        sensitivity="normal",
        portability="portable",
        confidence=0.8,
    )


def test_it_writes_each_row_with_the_values_given(owner):
    first = remember(owner, "User owns a watch.", subject="device:watch")
    second = remember(owner, "user owns watch!", subject="device:watch")
    with principal_transaction(owner):
        derived = derived_memory(owner)
        rows_insert(
            Lineage,
            ["owner_id", "derived_id", "belief_id", "belief_revision", "role"],
            [
                (owner.pk, derived.pk, first.pk, 3, Lineage.Role.SOURCE),
                (owner.pk, derived.pk, second.pk, 1, Lineage.Role.OMITTED),
            ],
        )
        written = sorted(
            Lineage.objects.filter(owner=owner).values_list(
                "derived_id", "belief_id", "belief_revision", "role"
            )
        )

    assert written == [
        (derived.pk, first.pk, 3, "source"),
        (derived.pk, second.pk, 1, "omitted"),
    ]


def test_no_rows_write_nothing(owner, django_assert_num_queries):
    with django_assert_num_queries(0):
        rows_insert(Lineage, ["owner_id", "derived_id", "belief_id", "belief_revision"], [])
