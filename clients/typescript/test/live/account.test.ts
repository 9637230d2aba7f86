// The owner's tokens, the read log, and the erasure of the whole account.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ForbiddenError, UnauthenticatedError } from "../../src/index.js";
import { clientOf, service } from "../support.js";

test("the owner erases the whole account in two steps", async () => {
  const carol = clientOf("carol");
  const memory = await carol.remember("User plays the cello.");
  assert.match(JSON.stringify(await carol.export()), new RegExp(memory.id));
  const request = await carol.accountErasureRequest();
  assert.ok(request.token && request.expires_at);
  const erased = await carol.accountErasureConfirm(request.token);
  assert.ok(Object.values(erased.erased).every((count) => Number.isInteger(count)));
  await assert.rejects(carol.memoryGet(memory.id), UnauthenticatedError);
});

test("the owner pauses and resumes one of their tokens", async () => {
  const spareId = service().tokenIds["alice-spare"] ?? "";
  const owner = clientOf("alice");
  const spare = clientOf("alice-spare");
  const paused = await owner.tokenPause(spareId);
  assert.equal(paused.id, spareId);
  assert.ok(paused.paused_at);
  await assert.rejects(spare.memoryList(), (error) => error instanceof ForbiddenError && /paused/.test(error.message));
  const resumed = await owner.tokenResume(spareId);
  assert.equal(resumed.paused_at, null);
  assert.ok(Array.isArray((await spare.memoryList()).results));
});

test("the owner sees which token read which memory", async () => {
  const readerId = service().tokenIds["alice-read-only"] ?? "";
  const owner = clientOf("alice");
  const reader = clientOf("alice-read-only");
  const memory = await owner.remember("User keeps bees on the roof.");
  assert.equal((await reader.memoryGet(memory.id)).id, memory.id);
  const records = await owner.accessList({ token: readerId, memory: memory.id });
  assert.equal(records.length, 1);
  const [record] = records;
  assert.deepEqual([record?.token_id, record?.route, record?.memory_ids], [readerId, "api:memory", [memory.id]]);
  const since = await owner.accessList({ token: readerId, since: record?.at, limit: 1 });
  assert.equal(since[0]?.id, record?.id);
  await assert.rejects(reader.accessList(), ForbiddenError);
});
