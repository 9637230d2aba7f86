// Memories, recall, the change feed and export, against the live service.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { ConflictError, type Memory, NotFoundError, ValidationError } from "../../src/index.js";
import { clientOf, runMaintenance, unique } from "../support.js";

const client = clientOf("alice");

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
}

test("it remembers an explicit memory, active at once", async () => {
  const subject = `pref:${unique("tea")}`;
  const memory = await client.remember("User drinks jasmine tea.", { type: "preference", subject });
  assert.deepEqual(
    [memory.statement, memory.type, memory.subject, memory.status, memory.authority],
    ["User drinks jasmine tea.", "preference", subject, "active", "explicit"],
  );
  assert.deepEqual(await client.memoryGet(memory.id), memory);
  const again = await client.remember("User drinks jasmine tea.", { type: "preference", subject });
  assert.equal(again.id, memory.id, "the same explicit memory is not held twice");
});

test("it lists memories by status and type, and iterates them a page at a time", async () => {
  const made = await client.remember(`User plays ${unique("chess")}.`, { type: "fact" });
  const page = await client.memoryList({ status: ["active"], type: "fact", limit: 200 });
  assert.ok(page.results.every((m) => m.status === "active" && m.type === "fact"));
  const walked = await all(client.iterMemories({ status: "active", pageSize: 2 }));
  assert.ok(walked.some((m) => m.id === made.id));
  assert.equal(new Set(walked.map((m) => m.id)).size, walked.length);
});

test("it corrects a memory into a new one and keeps the old in its history", async () => {
  const memory = await client.remember("User lives in Lyon.", { type: "attribute", subject: `home:${unique()}` });
  const corrected = await client.memoryCorrect(memory.id, {
    expected_revision: memory.revision,
    statement: "User lives in Grenoble.",
  });
  assert.notEqual(corrected.id, memory.id);
  assert.equal(corrected.supersedes, memory.id);
  assert.equal((await client.memoryGet(memory.id)).status, "superseded");
  const history = await client.memoryHistory(memory.id);
  const statements = new Set(history.versions.map((version) => version.statement));
  assert.ok(statements.has("User lives in Lyon.") && statements.has("User lives in Grenoble."));
  assert.ok(history.changes.length > 0);
});

test("a stale revision is a ConflictError naming the current one", async () => {
  const memory = await client.remember(`User swims on ${unique("day")}.`);
  await assert.rejects(client.memoryDelete(memory.id, { expected_revision: memory.revision + 5 }), (error) => {
    assert.ok(error instanceof ConflictError);
    assert.equal(error.details.current_revision, memory.revision);
    assert.ok(error.requestId);
    return true;
  });
});

test("it deletes a memory, leaving a tombstone", async () => {
  const memory = await client.remember(`User hums ${unique("tune")}.`);
  const deleted = await client.memoryDelete(memory.id, { expected_revision: memory.revision });
  assert.deepEqual([deleted.status, deleted.statement], ["deleted", ""]);
  await assert.rejects(client.memoryDelete(memory.id, { expected_revision: deleted.revision }), ConflictError);
});

describe("memories formation made", () => {
  let formed: Memory[] = [];

  before(async () => {
    const conversation = await client.conversation(unique("formation"));
    await conversation.record("I just bought a Kawasaki Ninja.", "Ride safe!");
    await conversation.record("My sister is called Maren.");
    await conversation.close();
    runMaintenance();
    formed = (await all(client.iterMemories({ status: "provisional" }))).filter(
      (memory) => memory.sources[0]?.session_id === conversation.session.id,
    );
    assert.ok(formed.length >= 2, `formed ${formed.length}`);
  });

  test("the owner confirms one and rejects another", async () => {
    const [first, second] = formed as [Memory, Memory];
    assert.equal((await client.memoryConfirm(first.id, { expected_revision: first.revision })).status, "active");
    assert.equal((await client.memoryReject(second.id, { expected_revision: second.revision })).status, "rejected");
  });
});

test("recall finds memories and messages, within its filters", async () => {
  const memory = await client.remember("User owns a Garmin Forerunner watch.", { subject: `device:${unique("watch")}` });
  const session = await client.sessionCreate();
  await client.eventAppend(session.id, "My Garmin tracks my runs.");
  const found = await client.recall("garmin watch", { include: ["messages"], limit: 10 });
  assert.ok(found.items.some((item) => item.kind === "belief" && item.id === memory.id));
  assert.ok(found.items.some((item) => item.kind === "message"));
  const beliefs = await client.recall("garmin", { types: ["fact"], statuses: ["active"], budget_chars: 2000 });
  assert.ok(beliefs.items.every((item) => item.kind === "belief"));
});

test("recall gives a message the turns around it as context", async () => {
  const trip = unique("kayaking");
  const session = await client.sessionCreate();
  for (const text of ["We spoke of the weather.", `Did you go ${trip}?`, "Yes, on the lake."]) {
    await client.eventAppend(session.id, text);
  }
  const found = await client.recall(trip, { include: ["messages"], limit: 1, context_turns: 1 });
  const [item] = found.items;
  assert.equal(item?.text, `Did you go ${trip}?`);
  assert.deepEqual(
    item?.context?.map((turn) => [turn.position, turn.text]),
    [
      ["before", "We spoke of the weather."],
      ["after", "Yes, on the lake."],
    ],
  );
});

test("the change feed returns each change once, and a cursor to resume from", async () => {
  const start = new Date(Date.now() - 1000);
  const made: Memory[] = [];
  for (const thing of ["stamps", "coins", "maps"]) made.push(await client.remember(`User collects ${unique(thing)}.`));
  const feed = client.memoryChanges(start, { pageSize: 2 });
  const changed = (await all(feed)).map((memory) => memory.id);
  const ours = new Set(made.map((memory) => memory.id));
  assert.deepEqual(
    changed.filter((id) => ours.has(id)),
    made.map((memory) => memory.id),
  );
  assert.equal(new Set(changed).size, changed.length);
  assert.ok(feed.cursor);
});

test("export holds everything of the owner", async () => {
  const memory = await client.remember("User's favourite colour is teal.", { subject: "pref:colour" });
  assert.match(JSON.stringify(await client.export()), new RegExp(memory.id));
});

test("another owner's memory is not found", async () => {
  const memory = await client.remember(`User hides ${unique("treasure")}.`);
  await assert.rejects(clientOf("bob").memoryGet(memory.id), NotFoundError);
});

test("a secret is refused with its reason", async () => {
  await assert.rejects(client.remember("User's password is hunter2-Secret!99"), (error) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.details.reason, "secret");
    return true;
  });
});
