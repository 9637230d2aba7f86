// What may have changed: memories alice stated herself, and messages of hers formation
// read as retiring them, which it leaves to her to decide.
import assert from "node:assert/strict";
import { before, test } from "node:test";

import { type Challenge, ConflictError, type Event, type Memory } from "../../src/index.js";
import { clientOf, runMaintenance, unique } from "../support.js";

const client = clientOf("alice");
// One explicit memory per test: listed only, kept, replaced.
const THINGS = ["Fiat Panda", "Vespa GTS", "Skoda Octavia"] as const;
const challenged = new Map<string, { memory: Memory; message: Event }>();

before(async () => {
  const stated = new Map<string, Memory>();
  for (const thing of THINGS) {
    const subject = `vehicle:${thing.toLowerCase().replaceAll(" ", "-")}`;
    stated.set(thing, await client.remember(`User owns a ${thing}.`, { type: "ownership", subject }));
  }
  const conversation = await client.conversation(unique("sold"));
  for (const thing of THINGS) {
    const recorded = await conversation.record(`I sold the ${thing} last week.`);
    challenged.set(thing, { memory: stated.get(thing) as Memory, message: recorded.message });
  }
  await conversation.close();
  runMaintenance();
});

function challengeOf(challenges: readonly Challenge[], memory: Memory): Challenge {
  const found = challenges.filter((challenge) => challenge.standing.id === memory.id);
  assert.equal(found.length, 1);
  return found[0] as Challenge;
}

function of(thing: (typeof THINGS)[number]): { memory: Memory; message: Event } {
  return challenged.get(thing) as { memory: Memory; message: Event };
}

test("the owner lists and reads both sides with their sources", async () => {
  const { memory, message } = of("Fiat Panda");
  const challenge = challengeOf((await client.challengeList()).results, memory);
  assert.deepEqual([challenge.state, challenge.decided_at, challenge.replacement], ["open", null, null]);
  assert.equal(challenge.standing.statement, "User owns a Fiat Panda.");
  assert.equal(challenge.proposal.statement, "User no longer owns a Fiat Panda.");
  assert.deepEqual(
    challenge.proposal.sources.map((source) => source.event_id),
    [message.id],
  );
  assert.deepEqual(await client.challengeGet(challenge.id), challenge);
  const walked = [];
  for await (const item of client.iterChallenges({ pageSize: 1 })) walked.push(item.id);
  assert.ok(walked.includes(challenge.id));
  assert.ok(!(await client.challengeList({ state: "kept" })).results.some((c) => c.id === challenge.id));
});

test("keeping closes it, and a replay answers the same", async () => {
  const { memory } = of("Vespa GTS");
  const challenge = challengeOf((await client.challengeList()).results, memory);
  const key = `keep-${challenge.id}`;
  const kept = await client.challengeKeep(challenge.id, { idempotencyKey: key });
  assert.equal(kept.state, "kept");
  assert.deepEqual(await client.challengeKeep(challenge.id, { idempotencyKey: key }), kept);
  assert.equal((await client.memoryGet(memory.id)).status, "active");
  await assert.rejects(client.challengeReplace(challenge.id), ConflictError);
});

test("replacing makes the proposal the owner's own memory", async () => {
  const { memory, message } = of("Skoda Octavia");
  const challenge = challengeOf((await client.challengeList()).results, memory);
  const replaced = await client.challengeReplace(challenge.id);
  assert.equal(replaced.state, "replaced");
  const made = await client.memoryGet(replaced.replacement ?? "");
  assert.deepEqual(
    [made.statement, made.authority, made.polarity, made.status],
    ["User no longer owns a Skoda Octavia.", "explicit", "negative", "active"],
  );
  assert.deepEqual(
    made.sources.map((source) => source.event_id),
    [message.id],
  );
  assert.equal((await client.memoryGet(memory.id)).status, "retracted");
  await assert.rejects(client.challengeKeep(challenge.id), ConflictError);
});

test("another owner sees none of them", async () => {
  const { memory } = of("Fiat Panda");
  const theirs = await clientOf("bob").challengeList();
  assert.ok(!theirs.results.some((challenge) => challenge.standing.id === memory.id));
});
