"""What reconsolidation did, and the owner's controls over it, through the synchronous
client: the demo owner, whose memories the fixture reconsolidated (a merge, a summary,
a hypothesis and an uncertainty notice)."""

import pytest
from reverie_client import (
    DerivedControl,
    ForbiddenError,
    OperationDetail,
    OperationPage,
    ReverieClient,
    SummaryJournal,
    Undo,
    UndoPreview,
)


@pytest.fixture(scope="module")
def derived(service):
    """The demo owner's derived memories by kind, as the fixture left them."""
    with ReverieClient(service.url, token=service.tokens["demo"]) as reverie:
        page = reverie.memory_list(include="derived", derived_limit=50)
    return {item.derived_kind: item for item in page.derived or []}


def test_it_lists_what_reconsolidation_did(demo_client, derived):
    page = demo_client.operation_list()
    assert isinstance(page, OperationPage)
    assert {op.kind for op in page.results} >= {"merge", "summary", "hypothesis"}
    merges = demo_client.operation_list(kind="merge", state="applied", limit=10).results
    assert [op.kind for op in merges] == ["merge"] * len(merges)
    everything = list(demo_client.iter_operations(page_size=1))
    assert {op.id for op in everything} == {op.id for op in page.results}
    changed = demo_client.operation_changes(None)
    assert {op.id for op in changed} == {op.id for op in page.results}
    assert changed.cursor

    detail = demo_client.operation_get(derived["summary"].operation_id)
    assert isinstance(detail, OperationDetail)
    assert [output.id for output in detail.outputs] == [derived["summary"].id]
    assert {i.memory_id for i in detail.inputs} == set(derived["summary"].memory_ids)


def test_the_owner_undoes_a_merge_at_the_previewed_revision(demo_client, derived):
    operation_id = derived["merged"].operation_id
    preview = demo_client.operation_undo_preview(operation_id)
    assert isinstance(preview, UndoPreview)
    assert preview.undoable and preview.refusal is None
    assert [aside.id for aside in preview.sets_aside] == [derived["merged"].id]
    key = "undo-merge-once"
    undone = demo_client.operation_undo(
        operation_id, expected_revision=preview.expected_revision, idempotency_key=key
    )
    assert isinstance(undone, Undo)
    assert not undone.replayed
    again = demo_client.operation_undo(
        operation_id, expected_revision=preview.expected_revision, idempotency_key=key
    )
    assert again.replayed and again.receipt == undone.receipt
    assert demo_client.operation_get(operation_id).state == "undone"


def test_an_uncertainty_notice_cannot_be_undone_but_can_be_rejected(demo_client, derived):
    notice = derived["uncertainty_notice"]
    preview = demo_client.operation_undo_preview(notice.operation_id)
    assert not preview.undoable
    assert preview.refusal is not None and preview.refusal.code == "validation_error"
    rejected = demo_client.derived_reject(notice.id, expected_revision=notice.revision)
    assert isinstance(rejected, DerivedControl)
    assert rejected.derived.status == "rejected"
    assert rejected.derived.statement == ""


def test_the_owner_promotes_a_hypothesis_to_a_memory(demo_client, derived):
    hypothesis = derived["hypothesis"]
    promoted = demo_client.derived_promote(
        hypothesis.id,
        expected_revision=hypothesis.revision,
        statement="User wears the Apple Watch for running.",
    )
    assert promoted.derived.status == "promoted"
    assert promoted.memory is not None
    assert promoted.memory.statement == "User wears the Apple Watch for running."
    assert demo_client.memory_get(promoted.memory.id).authority == "explicit"


def test_the_owner_reviews_restricts_and_deletes_a_summary(demo_client, derived):
    summary = demo_client.derived_get(derived["summary"].id)
    journal = demo_client.summary_get(summary.id)
    assert isinstance(journal, SummaryJournal)
    assert journal.claims and all(claim.supports for claim in journal.claims)

    reviewed = demo_client.derived_review(summary.id, expected_revision=summary.revision)
    assert reviewed.derived.review_state == "reviewed"
    restricted = demo_client.derived_restrict(
        summary.id, expected_revision=reviewed.derived.revision
    )
    assert restricted.derived.restricted
    assert restricted.derived.statement == ""
    lifted = demo_client.derived_unrestrict(
        summary.id, expected_revision=restricted.derived.revision
    )
    assert not lifted.derived.restricted
    deleted = demo_client.derived_delete(summary.id, expected_revision=lifted.derived.revision)
    assert deleted.derived.status == "deleted"


def test_a_narrowed_token_may_not_read_what_spans_every_memory(service):
    with (
        ReverieClient(service.url, token=service.tokens["alice-read-only"]) as reader,
        pytest.raises(ForbiddenError),
    ):
        reader.operation_list()
