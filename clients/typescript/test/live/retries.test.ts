// Retries against the live service, and why they never write twice.
import assert from "node:assert/strict";
import { test } from "node:test";

import { type Memory, ReverieClient } from "../../src/index.js";
import { FAST, service, unique } from "../support.js";

test("a write whose answer was lost is replayed, not repeated", async () => {
  const sent: { key: string | null; requestId: string | null }[] = [];
  const answers: { status: number; replayed: string | null; body: Memory }[] = [];
  // Delivers every request to the service, but loses the answer to the first write:
  // the write happened, and the client only sees the connection drop.
  const losing: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    sent.push({ key: headers.get("Idempotency-Key"), requestId: headers.get("X-Request-ID") });
    const response = await fetch(input, init);
    const body = (await response.clone().json()) as Memory;
    answers.push({ status: response.status, replayed: response.headers.get("Idempotent-Replayed"), body });
    if (answers.length === 1) throw new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
    return response;
  };
  const live = service();
  const client = new ReverieClient({ baseUrl: live.url, token: live.tokens.alice, retries: FAST, fetch: losing });
  const statement = `User learns the ${unique("instrument")}.`;
  const memory = await client.remember(statement);
  const [first, second] = answers;
  assert.deepEqual([first?.status, second?.status, second?.replayed], [201, 201, "true"]);
  assert.equal(first?.body.id, memory.id);
  assert.equal(second?.body.id, memory.id);
  assert.equal(new Set(sent.map((s) => s.key)).size, 1);
  assert.equal(new Set(sent.map((s) => s.requestId)).size, 1);
  const written = [];
  for await (const m of client.iterMemories({ status: "active" })) if (m.statement === statement) written.push(m.id);
  assert.deepEqual(written, [memory.id]);
});

test("a spent request budget with a short Retry-After is waited out", async () => {
  const { url, token, perSecond } = service().throttled;
  const patient = new ReverieClient({ baseUrl: url, token, retries: { ...FAST, attempts: 5 } });
  const pages = [];
  for (let i = 0; i < perSecond * 2; i++) pages.push(await patient.sessionList({ limit: 1 }));
  assert.equal(pages.length, perSecond * 2);
});
