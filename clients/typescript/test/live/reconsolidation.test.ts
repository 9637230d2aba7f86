// What reconsolidation did, and the owner's controls over it: the demo owner, whose
// memories the setup reconsolidated (a merge, a summary, a hypothesis and an
// uncertainty notice).
import assert from "node:assert/strict";
import { before, test } from "node:test";

import { type Derived, type DerivedKind, ForbiddenError } from "../../src/index.js";
import { clientOf } from "../support.js";

const demo = clientOf("demo");
let derived = new Map<DerivedKind, Derived>();

before(async () => {
  const page = await demo.memoryList({ include: "derived", derived_limit: 50 });
  derived = new Map((page.derived ?? []).map((item) => [item.derived_kind, item]));
});

function kind(name: DerivedKind): Derived {
  const found = derived.get(name);
  assert.ok(found, `no ${name} among the demo owner's derived memories`);
  return found;
}

test("it lists what reconsolidation did, by page and as a change feed", async () => {
  const page = await demo.operationList();
  const kinds = new Set(page.results.map((op) => op.kind));
  for (const wanted of ["merge", "summary", "hypothesis"] as const) assert.ok(kinds.has(wanted));
  const merges = await demo.operationList({ kind: "merge", state: "applied", limit: 10 });
  assert.ok(merges.results.every((op) => op.kind === "merge"));
  const ids = new Set(page.results.map((op) => op.id));
  const walked = [];
  for await (const op of demo.iterOperations({ pageSize: 1 })) walked.push(op.id);
  assert.deepEqual(new Set(walked), ids);
  const feed = demo.operationChanges(null);
  const changed = [];
  for await (const op of feed) changed.push(op.id);
  assert.deepEqual(new Set(changed), ids);
  assert.ok(feed.cursor);

  const summary = kind("summary");
  const detail = await demo.operationGet(summary.operation_id ?? "");
  assert.deepEqual(
    detail.outputs.map((output) => output.id),
    [summary.id],
  );
  assert.deepEqual(new Set(detail.inputs.map((input) => input.memory_id)), new Set(summary.memory_ids));
});

test("the owner undoes a merge at the previewed revision, once", async () => {
  const merged = kind("merged");
  const operationId = merged.operation_id ?? "";
  const preview = await demo.operationUndoPreview(operationId);
  assert.ok(preview.undoable && preview.refusal === null);
  assert.deepEqual(
    preview.sets_aside.map((aside) => aside.id),
    [merged.id],
  );
  const key = "undo-merge-once";
  const undone = await demo.operationUndo(operationId, { expected_revision: preview.expected_revision, idempotencyKey: key });
  assert.equal(undone.replayed, false);
  const again = await demo.operationUndo(operationId, { expected_revision: preview.expected_revision, idempotencyKey: key });
  assert.ok(again.replayed);
  assert.deepEqual(again.receipt, undone.receipt);
  assert.equal((await demo.operationGet(operationId)).state, "undone");
});

test("an uncertainty notice cannot be undone but can be rejected", async () => {
  const notice = kind("uncertainty_notice");
  const preview = await demo.operationUndoPreview(notice.operation_id ?? "");
  assert.equal(preview.undoable, false);
  assert.equal(preview.refusal?.code, "validation_error");
  const rejected = await demo.derivedReject(notice.id, { expected_revision: notice.revision });
  assert.deepEqual([rejected.derived.status, rejected.derived.statement], ["rejected", ""]);
});

test("the owner promotes a hypothesis to a memory of their own", async () => {
  const hypothesis = kind("hypothesis");
  const promoted = await demo.derivedPromote(hypothesis.id, {
    expected_revision: hypothesis.revision,
    statement: "User wears the Apple Watch for running.",
  });
  assert.equal(promoted.derived.status, "promoted");
  assert.equal(promoted.memory?.statement, "User wears the Apple Watch for running.");
  assert.equal((await demo.memoryGet(promoted.memory?.id ?? "")).authority, "explicit");
});

test("the owner reviews, restricts, lifts and deletes a summary", async () => {
  const summary = await demo.derivedGet(kind("summary").id);
  const journal = await demo.summaryGet(summary.id);
  assert.ok(journal.claims.length > 0 && journal.claims.every((claim) => claim.supports.length > 0));
  const reviewed = await demo.derivedReview(summary.id, { expected_revision: summary.revision });
  assert.equal(reviewed.derived.review_state, "reviewed");
  const restricted = await demo.derivedRestrict(summary.id, { expected_revision: reviewed.derived.revision });
  assert.deepEqual([restricted.derived.restricted, restricted.derived.statement], [true, ""]);
  const lifted = await demo.derivedUnrestrict(summary.id, { expected_revision: restricted.derived.revision });
  assert.equal(lifted.derived.restricted, false);
  const deleted = await demo.derivedDelete(summary.id, { expected_revision: lifted.derived.revision });
  assert.equal(deleted.derived.status, "deleted");
});

test("a narrowed token may not read what spans every memory", async () => {
  await assert.rejects(clientOf("alice-read-only").operationList(), ForbiddenError);
});
