// Each code of the closed error vocabulary the service can be made to answer, provoked
// on the live service, arrives as its class with the request id and the details.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";

import {
  ApiError,
  ConflictError,
  ForbiddenError,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  ReverieClient,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../../src/index.js";
import { clientOf, service, unique } from "../support.js";

const client = clientOf("alice");

async function refusal<E extends ApiError>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => E,
  status: number,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
    assert.equal(error.status, status);
    assert.ok(error.requestId, "every refusal names its request");
    assert.ok(error.message.startsWith(`${error.code}: `));
    return error;
  }
  assert.fail(`expected ${type.name}, got an answer`);
}

test("an invalid field is a ValidationError naming it", async () => {
  const error = await refusal(
    client.remember("User likes jazz.", { type: "opinion" as "fact" }),
    ValidationError,
    400,
  );
  assert.ok(Object.hasOwn(error.details.fields as object, "type"));
});

test("an unknown token is unauthenticated", async () => {
  const stranger = new ReverieClient({ baseUrl: service().url, token: "rvk_not-a-token" });
  await refusal(stranger.sessionList(), UnauthenticatedError, 401);
});

test("a write with a read-only token is forbidden", async () => {
  const reader = clientOf("alice-read-only");
  assert.ok(Array.isArray((await reader.recall("anything")).items));
  await refusal(reader.remember("User reads a lot."), ForbiddenError, 403);
});

test("a missing id is not found", async () => {
  await refusal(client.memoryGet(randomUUID()), NotFoundError, 404);
});

test("a method the route does not take is not allowed", async () => {
  await refusal(client.request("PUT", "/memories", { json: {} }), MethodNotAllowedError, 405);
});

test("a media type the service cannot answer in is not acceptable", async () => {
  await refusal(client.request("GET", "/memories", { headers: { Accept: "text/csv" } }), NotAcceptableError, 406);
});

test("a reused Idempotency-Key with another request is a conflict", async () => {
  const key = unique("figs");
  await client.remember("User likes figs.", { idempotencyKey: key });
  const error = await refusal(client.remember("User likes dates.", { idempotencyKey: key }), ConflictError, 409);
  assert.equal(error.details.field, "Idempotency-Key");
});

test("an oversized body is payload too large", async () => {
  const error = await refusal(client.remember("x".repeat(300_000)), PayloadTooLargeError, 413);
  assert.ok(Number(error.details.limit) > 0);
});

test("a body that is not JSON is an unsupported media type", async () => {
  await refusal(
    client.request("POST", "/memories", { content: "User likes plums.", headers: { "Content-Type": "text/plain" } }),
    UnsupportedMediaTypeError,
    415,
  );
});

test("a spent request budget is rate limited, with how long to wait", async () => {
  const { url, token, perSecond } = service().throttled;
  const once = new ReverieClient({ baseUrl: url, token, retries: { attempts: 1 } });
  const error = await refusal(
    (async () => {
      for (let i = 0; i < perSecond + 5; i++) await once.sessionList({ limit: 1 });
    })(),
    RateLimitedError,
    429,
  );
  assert.ok(error.retryAfter !== null && error.retryAfter > 0 && error.retryAfter <= 1);
});
