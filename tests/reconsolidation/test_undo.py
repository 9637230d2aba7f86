"""Owner undo of merges: the pre-operation view back, a receipt that replays under its key,
nothing resurrected, and the history and preview an owner reads before undoing."""

import json
from dataclasses import fields
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from common.principal import principal_context
from core.errors import ReverieError
from memory.models import Belief, IdempotencyRecord
from memory.services.beliefs import belief_correct, belief_delete
from memory.services.idempotency import idempotency_complete, idempotency_reserve
from reconsolidation.models import DerivedMemory, Operation, Receipt, Suppression
from reconsolidation.planners.summaries import plan_summaries
from reconsolidation.planning import SourceView
from reconsolidation.selectors.operations import operation_detail, operation_list, undo_preview
from reconsolidation.services import receipts
from reconsolidation.services.operations import operation_apply
from reconsolidation.services.passes import reconsolidation_pass
from reconsolidation.services.undo import operation_undo
from tests.api.conftest import client_for
from tests.concurrency import race
from tests.memory.helpers import remember

KINDLE = "device:kindle"


def twins(owner, *statements):
    return [
        remember(owner, statement, subject=KINDLE, type="ownership")
        for statement in statements or ("User owns a Kindle.", "user owns kindle")
    ]


def merge(owner, *statements):
    """Two (or more) statements of one claim, merged by a pass; the newest merge operation."""
    beliefs = twins(owner, *statements)
    reconsolidation_pass(principal=owner)
    with principal_context(owner):
        newest = Operation.objects.filter(owner=owner, kind="merge", state="applied")
        return newest.latest("id"), beliefs


def originals(owner):
    with principal_context(owner):
        return list(
            Belief.objects.filter(owner=owner)
            .order_by("id")
            .values("public_id", "status", "revision", "statement", "confidence")
        )


def derived(owner):
    with principal_context(owner):
        return list(
            DerivedMemory.objects.filter(owner=owner)
            .order_by("id")
            .values("status", "statement", "subject", "revision")
        )


def state_of(owner, operation):
    with principal_context(owner):
        operation.refresh_from_db()
    return operation.state, operation.revision


def undo_it(owner, operation, key="undo-1", revision=None):
    return operation_undo(
        principal=owner,
        operation_id=operation.public_id,
        expected_revision=operation.revision if revision is None else revision,
        idempotency_key=key,
    )


def refusal(call):
    with pytest.raises(ReverieError) as error:
        call()
    return error.value


def test_undoing_a_merge_restores_the_pre_operation_view(owner):
    beliefs = twins(owner)
    before_pass = originals(owner)
    reconsolidation_pass(principal=owner)
    with principal_context(owner):
        operation = Operation.objects.get(owner=owner)
        assert DerivedMemory.objects.get(owner=owner).status == "active"
    assert originals(owner) == before_pass

    receipt = undo_it(owner, operation)

    assert state_of(owner, operation) == ("undone", 2)
    assert derived(owner) == [{"status": "undone", "statement": "", "subject": "", "revision": 2}]
    assert originals(owner) == before_pass
    ids = [str(belief.public_id) for belief in beliefs]
    assert receipt.action == "undo"
    assert receipt.result["restored"] == ids
    assert receipt.result["not_restored"] == []
    assert receipt.result["previous_state"] == "applied"
    assert (receipt.result["state"], receipt.result["revision"]) == ("undone", 2)
    with principal_context(owner):
        assert Suppression.objects.get(owner=owner).reason == "owner_undo"
        record = IdempotencyRecord.objects.get(owner=owner, key="undo-1")
        assert (record.status_code, record.resource_id) == (200, "")


def test_the_next_pass_does_not_derive_the_undone_merge_again(owner):
    operation, _ = merge(owner)
    undo_it(owner, operation)

    report = reconsolidation_pass(principal=owner)
    remember(owner, "User owns the Kindle!", subject=KINDLE, type="ownership")
    later = reconsolidation_pass(principal=owner)

    assert report.outcomes == {"suppressed": 1}
    assert later.outcomes == {"suppressed": 1}
    with principal_context(owner):
        assert not DerivedMemory.objects.filter(status="active").exists()
        assert Operation.objects.count() == 1


def test_the_receipt_holds_ids_and_statuses_but_no_memory_text(owner):
    operation, _ = merge(owner, "User owns a Kindle Oasis.", "user owns kindle oasis")

    receipt = undo_it(owner, operation)

    text = json.dumps(receipt.result).lower()
    assert "kindle" not in text and "oasis" not in text


def test_replaying_the_key_returns_the_same_receipt_even_after_later_changes(owner):
    operation, beliefs = merge(owner)
    first = undo_it(owner, operation, revision=1)
    belief_delete(principal=owner, belief_id=beliefs[0].public_id, expected_revision=1)

    replay = undo_it(owner, operation, revision=1)

    assert replay.pk == first.pk
    assert replay.result == first.result
    assert state_of(owner, operation) == ("undone", 2)
    with principal_context(owner):
        assert Receipt.objects.count() == 1


def test_the_same_key_for_another_operation_is_a_conflict(owner):
    operation, _ = merge(owner)
    undo_it(owner, operation)
    other, _ = merge(owner, "User owns a Pixel.", "user owns the pixel")

    error = refusal(lambda: undo_it(owner, other, key="undo-1"))

    assert (error.code, error.details["field"]) == ("conflict", "Idempotency-Key")
    assert state_of(owner, other) == ("applied", 1)


def test_a_key_already_used_by_a_memory_write_is_a_conflict(owner):
    operation, _ = merge(owner)
    with principal_context(owner), transaction.atomic():
        record = idempotency_reserve(principal=owner, key="shared", fingerprint="a-memory-write")
        idempotency_complete(record, status_code=201, resource_id="x")

    error = refusal(lambda: undo_it(owner, operation, key="shared"))

    assert error.code == "conflict"
    assert state_of(owner, operation) == ("applied", 1)
    with principal_context(owner):
        assert not Receipt.objects.exists()
        assert IdempotencyRecord.objects.get(key="shared").fingerprint == "a-memory-write"


def test_a_memory_write_cannot_reuse_an_undos_key(owner):
    operation, _ = merge(owner)
    undo_it(owner, operation, key="shared")
    api = client_for(owner)

    response = api.post(
        "/api/v1/memories",
        {"statement": "User likes tea."},
        format="json",
        HTTP_IDEMPOTENCY_KEY="shared",
    )

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "conflict"


def test_a_stale_revision_is_a_conflict_and_changes_nothing(owner):
    operation, _ = merge(owner)

    error = refusal(lambda: undo_it(owner, operation, revision=7))

    assert (error.code, error.details["current_revision"]) == ("conflict", 1)
    assert state_of(owner, operation) == ("applied", 1)
    with principal_context(owner):
        assert not Receipt.objects.exists()
        assert not IdempotencyRecord.objects.exists()
        assert not Suppression.objects.exists()


def test_an_operation_undone_already_is_a_conflict_under_a_new_key(owner):
    operation, _ = merge(owner)
    undo_it(owner, operation, key="first", revision=1)

    stale = refusal(lambda: undo_it(owner, operation, key="second", revision=1))
    undone = refusal(lambda: undo_it(owner, operation, key="third", revision=2))

    assert (stale.code, undone.code) == ("conflict", "conflict")
    assert undone.details["state"] == "undone"
    assert undone.message == "It is already undone."


def test_another_principal_can_neither_undo_nor_read_it(owner, other_owner):
    operation, _ = merge(owner)

    for call in (
        lambda: undo_it(other_owner, operation),
        lambda: operation_detail(other_owner, operation.public_id),
        lambda: undo_preview(other_owner, operation.public_id),
    ):
        assert refusal(call).code == "not_found"
    with principal_context(other_owner):
        assert list(operation_list(other_owner)) == []
    assert state_of(owner, operation) == ("applied", 1)


def test_a_source_deleted_after_the_merge_is_not_resurrected(owner):
    operation, (kept, deleted) = merge(owner)
    belief_delete(principal=owner, belief_id=deleted.public_id, expected_revision=1)
    assert state_of(owner, operation) == ("invalidated", 2)

    receipt = undo_it(owner, operation, revision=2)

    assert receipt.result["previous_state"] == "invalidated"
    assert receipt.result["restored"] == [str(kept.public_id)]
    assert receipt.result["not_restored"] == [str(deleted.public_id)]
    statuses = {entry["belief"]: entry["status"] for entry in receipt.result["inputs"]}
    assert statuses == {str(kept.public_id): "active", str(deleted.public_id): "deleted"}
    with principal_context(owner):
        assert Belief.objects.get(pk=deleted.pk).status == "deleted"
        assert Belief.objects.get(pk=deleted.pk).statement == ""
        assert Operation.objects.get(pk=operation.pk).invalidation_reason == "source_changed"


def test_a_corrected_source_is_not_restored_and_the_preview_says_so(owner):
    operation, (corrected, kept) = merge(owner)
    belief_correct(
        principal=owner,
        belief_id=corrected.public_id,
        expected_revision=1,
        statement="User owns a Kobo.",
        subject="device:kobo",
    )

    preview = undo_preview(owner, operation.public_id)
    receipt = undo_it(owner, operation, revision=preview["expected_revision"])

    assert preview["undoable"] is True
    assert [e["belief"] for e in preview["restores"]] == [str(kept.public_id)]
    assert [(e["belief"], e["status"]) for e in preview["does_not_restore"]] == [
        (str(corrected.public_id), "superseded")
    ]
    assert receipt.result["not_restored"] == [str(corrected.public_id)]
    with principal_context(owner):
        assert Belief.objects.get(pk=corrected.pk).status == "superseded"


def test_a_crash_inside_the_undo_leaves_nothing_behind(owner, monkeypatch):
    operation, _ = merge(owner)
    before = derived(owner)

    def crash(*args, **kwargs):
        raise RuntimeError("the disk is gone")

    monkeypatch.setattr(receipts, "idempotency_complete", crash)
    with pytest.raises(RuntimeError):
        undo_it(owner, operation)

    assert state_of(owner, operation) == ("applied", 1)
    assert derived(owner) == before
    with principal_context(owner):
        assert not Receipt.objects.exists()
        assert not IdempotencyRecord.objects.exists()
        assert not Suppression.objects.exists()
    monkeypatch.undo()
    assert undo_it(owner, operation).result["state"] == "undone"


def summarised(owner):
    """A summary of three distinct claims on one subject, applied; its operation."""
    for statement in ("User reads on the Kindle.", "User bought the Kindle.", "User lent it."):
        remember(owner, statement, subject=KINDLE, type="ownership")
    names = [field.name for field in fields(SourceView)]
    with principal_context(owner):
        views = [
            SourceView(**{name: getattr(belief, name) for name in names})
            for belief in Belief.objects.filter(owner=owner).order_by("id")
        ]
    (plan,) = plan_summaries(views)
    assert operation_apply(principal=owner, plan=plan) == "applied"
    with principal_context(owner):
        return Operation.objects.get(owner=owner, kind="summary")


def test_undoing_a_summary_erases_its_claims_text_and_suppresses_it(owner):
    operation = summarised(owner)
    before = originals(owner)

    receipt = undo_it(owner, operation)

    assert (receipt.result["kind"], len(receipt.result["restored"])) == ("summary", 3)
    assert originals(owner) == before
    with principal_context(owner):
        summary = DerivedMemory.objects.get(owner=owner)
        assert (summary.status, summary.statement) == ("undone", "")
        assert set(summary.claims.values_list("statement", flat=True)) == {""}
        assert Suppression.objects.filter(fingerprint=summary.fingerprint).exists()


def test_notices_are_refused_naming_the_kinds_that_can_be_undone(owner):
    remember(owner, "User prefers metric units.", subject="pref:units")
    remember(owner, "User prefers imperial units.", subject="pref:units")
    reconsolidation_pass(principal=owner)
    with principal_context(owner):
        notice = Operation.objects.get(kind="uncertainty_notice")

    error = refusal(lambda: undo_it(owner, notice))

    assert error.code == "validation_error"
    assert error.details["undoable_kinds"] == ["merge", "summary"]
    assert undo_preview(owner, notice.public_id)["undoable"] is False


def test_malformed_input_is_a_validation_error(owner):
    operation, _ = merge(owner)

    for call in (
        lambda: undo_it(owner, operation, key="has space"),
        lambda: undo_it(owner, operation, revision="1"),
        lambda: operation_undo(
            principal=owner, operation_id="nope", expected_revision=1, idempotency_key="k"
        ),
        lambda: operation_list(owner, kind="dream"),
    ):
        assert refusal(call).code == "validation_error"


def test_history_distinguishes_kind_and_state_newest_first(owner):
    kindle, _ = merge(owner)
    pixel, _ = merge(owner, "User owns a Pixel.", "user owns the pixel")
    undo_it(owner, kindle)

    with principal_context(owner):
        newest_first = list(operation_list(owner).values_list("public_id", flat=True))
        undone = list(operation_list(owner, kind="merge", state="undone"))
        notices = list(operation_list(owner, kind="uncertainty_notice"))

    assert newest_first == [pixel.public_id, kindle.public_id]
    assert [operation.pk for operation in undone] == [kindle.pk]
    assert notices == []


def test_the_detail_shows_inputs_outputs_and_receipts(owner):
    operation, (first, second) = merge(owner)
    belief_delete(principal=owner, belief_id=second.public_id, expected_revision=1)
    receipt = undo_it(owner, operation, revision=2)

    detail = operation_detail(owner, operation.public_id)

    assert (detail["kind"], detail["state"], detail["revision"]) == ("merge", "undone", 3)
    assert [(e["belief"], e["status"], e["live"]) for e in detail["inputs"]] == [
        (str(first.public_id), "active", True),
        (str(second.public_id), "deleted", False),
    ]
    assert [(o["kind"], o["status"], o["statement"]) for o in detail["outputs"]] == [
        ("merged", "undone", "")
    ]
    assert detail["receipts"] == [
        {
            "key": "undo-1",
            "action": "undo",
            "created_at": receipt.created_at,
            "result": receipt.result,
        }
    ]


def test_the_command_prints_the_receipt_and_replays_it(owner):
    operation, _ = merge(owner)
    args = [
        "undo_operation",
        "--owner",
        owner.username,
        "--operation",
        str(operation.public_id),
        "--expected-revision",
        "1",
        "--idempotency-key",
        "cli-1",
        "--yes",
    ]
    first, second = StringIO(), StringIO()

    call_command(*args, stdout=first, stderr=StringIO())
    call_command(*args, stdout=second, stderr=StringIO())

    printed, replayed = json.loads(first.getvalue()), json.loads(second.getvalue())
    assert (printed.pop("replayed"), replayed.pop("replayed")) == (False, True)
    assert replayed == printed
    assert (printed["key"], printed["result"]["state"]) == ("cli-1", "undone")
    with pytest.raises(CommandError, match="conflict"):
        call_command(*args[:6], "1", "--idempotency-key", "cli-2", "--yes", stderr=StringIO())


def test_the_command_prints_the_preview_and_asks_before_it_acts(owner, monkeypatch):
    operation, (first, second) = merge(owner)
    args = ["undo_operation", "--owner", owner.username, "--operation", str(operation.public_id)]
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    answers = iter(["n", "y"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    preview, out = StringIO(), StringIO()

    with pytest.raises(CommandError, match="nothing undone"):
        call_command(*args, stdout=out, stderr=preview)
    assert state_of(owner, operation) == ("applied", 1)
    assert "undo shows these memories on their own again" in preview.getvalue()
    assert str(first.public_id) in preview.getvalue()
    assert str(second.public_id) in preview.getvalue()

    call_command(*args, stdout=out, stderr=StringIO())

    assert json.loads(out.getvalue())["result"]["state"] == "undone"
    assert state_of(owner, operation) == ("undone", 2)


def test_the_command_does_not_undo_unasked_without_a_terminal(owner, monkeypatch):
    operation, _ = merge(owner)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)

    with pytest.raises(CommandError, match="add --yes"):
        call_command(
            "undo_operation",
            "--owner",
            owner.username,
            "--operation",
            str(operation.public_id),
            stderr=StringIO(),
        )

    assert state_of(owner, operation) == ("applied", 1)


def test_the_operations_command_lists_ids_kinds_states_and_times(owner):
    kindle, _ = merge(owner)
    pixel, _ = merge(owner, "User owns a Pixel.", "user owns the pixel")
    undo_it(owner, kindle)
    out = StringIO()

    call_command("operations", "--owner", owner.username, stdout=out)
    call_command("operations", "--owner", owner.username, "--state", "undone", stdout=out)

    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["id", "kind", "state", "rev", "created", "changed"]
    assert lines[1].split()[:4] == [str(pixel.public_id), "merge", "applied", "1"]
    assert lines[2].split()[:4] == [str(kindle.public_id), "merge", "undone", "2"]
    assert lines[4].split()[:3] == [str(kindle.public_id), "merge", "undone"]
    assert len(lines) == 5
    with pytest.raises(CommandError, match="validation_error: Unknown kind: dream"):
        call_command("operations", "--owner", owner.username, "--kind", "dream")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_requests_racing_with_one_key_undo_once(owner):
    operation, _ = merge(owner)
    receipts = race(lambda: undo_it(owner, operation, revision=1))

    assert len(receipts) == 2
    assert receipts[0].pk == receipts[1].pk
    assert state_of(owner, operation) == ("undone", 2)
