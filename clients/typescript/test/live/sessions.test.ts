// Sessions, their logs and runs, and the conversation helper, against the live service.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ConflictError, type Event, NotFoundError, type Session } from "../../src/index.js";
import { clientOf, unique } from "../support.js";

const client = clientOf("alice");

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
}

test("it opens a session once per external id", async () => {
  const externalId = unique("chat");
  const first = await client.sessionCreate({ external_id: externalId });
  const second = await client.sessionCreate({ external_id: externalId });
  assert.equal(second.id, first.id);
  assert.deepEqual(await client.sessionGet(first.id), second);
});

test("it lists sessions and pages through them", async () => {
  const made: Session[] = [];
  for (let i = 0; i < 3; i++) made.push(await client.sessionCreate());
  const listed = await client.sessionList({ limit: 2 });
  assert.equal(listed.length, 2);
  const walked = (await all(client.iterSessions({ pageSize: 2 }))).map((session) => session.id);
  for (const session of made) assert.ok(walked.includes(session.id));
  assert.equal(new Set(walked).size, walked.length);
});

test("it appends messages and reads the log in order, by sequence", async () => {
  const session = await client.sessionCreate();
  const appended: Event[] = [];
  for (let i = 0; i < 5; i++) appended.push(await client.eventAppend(session.id, `Message ${i}.`));
  await client.eventAppend(session.id, [{ type: "caption", text: "A photo of a bike." }], {
    type: "participant.message.created",
    author_name: "Sam",
  });
  const log = await client.eventList(session.id);
  assert.deepEqual(
    log.filter((event) => event.type === "user.message.created").map((event) => event.id),
    appended.map((event) => event.id),
  );
  // The first message flags the conversation for formation, whether or not a run follows.
  assert.deepEqual(
    log.filter((event) => event.type === "memory.formation.requested").map((event) => event.sequence),
    [(appended[0]?.sequence ?? 0) + 1],
  );
  assert.deepEqual(log.at(-1)?.parts, [{ type: "caption", text: "A photo of a bike." }]);
  const afterTwo = await all(client.iterEvents(session.id, { afterSequence: appended[1]?.sequence ?? 0, pageSize: 2 }));
  assert.deepEqual(
    afterTwo.map((event) => event.sequence),
    log.filter((event) => event.sequence > (appended[1]?.sequence ?? 0)).map((event) => event.sequence),
  );
});

test("a message with an external id is appended once", async () => {
  const session = await client.sessionCreate();
  const first = await client.eventAppend(session.id, "Hello.", { external_id: "m-1" });
  const again = await client.eventAppend(session.id, "Hello.", { external_id: "m-1" });
  assert.equal(again.id, first.id);
});

test("it erases a message", async () => {
  const session = await client.sessionCreate();
  const event = await client.eventAppend(session.id, "My neighbour Tom plays drums.");
  const erased = await client.eventErase(event.id);
  assert.ok(erased.redacted_at);
  assert.ok(!erased.parts.some((part) => part.text.includes("Tom")));
});

test("a run goes from running to completed; another waits, then fails", async () => {
  const session = await client.sessionCreate();
  const run = await client.runCreate(session.id);
  assert.equal(run.status, "running");
  assert.equal((await client.runComplete(run.id)).status, "completed");
  assert.equal((await client.runGet(run.id)).status, "completed");
  const other = await client.runCreate(session.id);
  assert.equal((await client.runWait(other.id)).status, "waiting");
  const failed = await client.runFail(other.id, { error_code: "tool_timeout" });
  assert.deepEqual([failed.status, failed.error_code], ["failed", "tool_timeout"]);
});

test("a closed session takes no more runs; an erased one keeps no text", async () => {
  const session = await client.sessionCreate();
  await client.eventAppend(session.id, "I moved to Porto.");
  const closed = await client.sessionClose(session.id);
  assert.ok(closed.closed_at);
  await assert.rejects(client.runCreate(session.id), ConflictError);
  const erased = await client.sessionErase(session.id);
  assert.ok(erased.erased_at);
  const log = await client.eventList(session.id);
  assert.ok(log.every((event) => !event.parts.some((part) => part.text.includes("Porto"))));
});

test("another owner's session is not found", async () => {
  const session = await client.sessionCreate();
  await assert.rejects(clientOf("bob").sessionGet(session.id), NotFoundError);
});

test("a conversation's turn appends the message and the reply, and completes its run", async () => {
  const externalId = unique("conversation");
  const conversation = await client.conversation(externalId);
  assert.equal(conversation.session.external_id, externalId);
  const answer = await conversation.turn("I just got an Apple Watch.", async (turn) => {
    const recalled = await turn.recall();
    assert.ok(Array.isArray(recalled.items));
    await turn.reply("Nice! Want workout reminders?");
    return "answered";
  });
  assert.equal(answer, "answered");
  const recorded = await conversation.record("Yes please.", "Done.");
  assert.equal(recorded.run.status, "completed");
  assert.equal(recorded.reply?.type, "assistant.message.created");
  const same = await client.conversation(externalId);
  assert.equal(same.session.id, conversation.session.id);
  const byId = await client.conversation(null, { sessionId: conversation.session.id });
  assert.equal(byId.session.id, conversation.session.id);
  const log = await client.eventList(conversation.session.id);
  const messages = log.filter((event) => event.type.endsWith(".message.created")).map((event) => event.type);
  assert.deepEqual(messages, [
    "user.message.created",
    "assistant.message.created",
    "user.message.created",
    "assistant.message.created",
  ]);
  assert.ok((await conversation.close()).closed_at);
});

test("a turn whose answering throws fails its run with the error's name and throws it again", async () => {
  const conversation = await client.conversation();
  class ToolBroke extends Error {
    override name = "ToolBroke";
  }
  let runId = "";
  await assert.rejects(
    conversation.turn("Book me a table.", (turn) => {
      runId = turn.run.id;
      throw new ToolBroke("the booking tool is down");
    }),
    ToolBroke,
  );
  const run = await client.runGet(runId);
  assert.deepEqual([run.status, run.error_code], ["failed", "ToolBroke"]);
});
