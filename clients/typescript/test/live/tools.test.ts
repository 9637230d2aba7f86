// The memory tools for assistant loops, against the live service: the plain JSON-Schema
// tools, and the example that drives them through the Vercel AI SDK with a scripted model.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { ConflictError, reverieTools } from "../../src/index.js";
import { clientOf, service, unique } from "../support.js";

const client = clientOf("alice");
const tools = reverieTools(client);

test("each tool is a plain JSON-Schema tool whose required fields it names", () => {
  assert.deepEqual(Object.keys(tools), ["remember", "recall", "forget", "correct"]);
  for (const [name, tool] of Object.entries(tools)) {
    assert.equal(tool.name, name);
    assert.ok(tool.description.length > 40, name);
    assert.equal(tool.inputSchema.type, "object");
    for (const field of tool.inputSchema.required) assert.ok(Object.hasOwn(tool.inputSchema.properties, field), name);
    assert.doesNotThrow(() => JSON.stringify(tool.inputSchema));
  }
});

test("remember, recall, correct and forget work on the owner's memories", async () => {
  const food = unique("dumplings");
  const remembered = await tools.remember.execute({ statement: `User loves ${food}.`, type: "preference" });
  assert.deepEqual([remembered.statement, remembered.type, remembered.status], [`User loves ${food}.`, "preference", "active"]);

  const recalled = await tools.recall.execute({ query: food });
  const found = recalled.memories.find((memory) => memory.memory_id === remembered.memory_id);
  assert.ok(found, "recall gives the remembered memory");
  assert.equal(found.revision, remembered.revision);

  const corrected = await tools.correct.execute({
    memory_id: found.memory_id,
    revision: found.revision,
    statement: `User no longer eats ${food}.`,
  });
  assert.equal(corrected.replaces, found.memory_id);
  assert.notEqual(corrected.memory_id, found.memory_id);
  await assert.rejects(
    tools.forget.execute({ memory_id: corrected.memory_id, revision: corrected.revision + 1 }),
    ConflictError,
    "a memory that changed since it was recalled is not forgotten",
  );
  const forgotten = await tools.forget.execute({ memory_id: corrected.memory_id, revision: corrected.revision });
  assert.equal(forgotten.forgotten, corrected.memory_id);
  const after = await tools.recall.execute({ query: food });
  assert.ok(!after.memories.some((memory) => memory.memory_id === corrected.memory_id));
});

test("the AI SDK example runs a turn that recalls, remembers and answers", async () => {
  const live = service();
  const example = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "examples", "ai-sdk-agent.js");
  const conversation = unique("example");
  const done = spawnSync(process.execPath, [example], {
    env: { ...process.env, REVERIE_URL: live.url, REVERIE_TOKEN: live.tokens.bob, EXAMPLE_CONVERSATION: conversation },
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(done.status, 0, done.stderr);
  assert.deepEqual(done.stdout.trim().split("\n"), [
    'tool recall {"query":"tea the person drinks"}',
    'tool remember {"statement":"User drinks jasmine tea.","type":"preference","subject":"pref:tea"}',
    "assistant: Jasmine tea it is: I will remember that.",
  ]);
  const bob = clientOf("bob");
  const recalled = await bob.recall("jasmine tea");
  assert.ok(recalled.items.some((item) => item.text === "User drinks jasmine tea."));
  const session = await bob.conversation(conversation);
  const log = await bob.eventList(session.session.id);
  const types = log.map((event) => event.type);
  assert.ok(types.includes("user.message.created") && types.includes("assistant.message.created"), types.join());
  const runs = log.filter((event) => event.type.startsWith("run."));
  assert.ok(runs.some((event) => event.type === "run.completed"), types.join());
});
