// Answers no real service gives, from a scripted server on loopback: each is a typed
// error at the call, within a bounded time, never a hang or an untyped throw.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";

import {
  ApiError,
  ConflictError,
  ERROR_CLASSES,
  type ErrorCode,
  InternalError,
  InvalidResponseError,
  RateLimitedError,
  RequestAbortedError,
  RequestTimeoutError,
  type Retries,
  ReverieClient,
  ReverieError,
  ServiceUnavailableError,
  UnauthenticatedError,
} from "../../src/index.js";
import { FAST, json, SAMPLE_ID, SESSION, type Scripted, scripted } from "../support.js";

const servers: Scripted[] = [];
after(() => Promise.all(servers.map((server) => server.close())));

async function serving(answer: Parameters<typeof scripted>[0]): Promise<Scripted> {
  const server = await scripted(answer);
  servers.push(server);
  return server;
}

function clientFor(server: Scripted, options: { retries?: Partial<Retries>; timeoutMs?: number } = {}): ReverieClient {
  return new ReverieClient({
    baseUrl: server.url,
    token: "rvk_test",
    retries: { ...FAST, ...options.retries },
    timeoutMs: options.timeoutMs ?? 5000,
  });
}

async function rejection<E extends ReverieError>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
    return error;
  }
  assert.fail(`expected ${type.name}, got an answer`);
}

async function elapsed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

describe("an answer that is not JSON", () => {
  test("a success page that is not JSON is an InvalidResponseError", async () => {
    const server = await serving((_, __, response) => {
      response.writeHead(200, { "Content-Type": "text/html" });
      response.end("<html>maintenance</html>");
    });
    const error = await rejection(clientFor(server).sessionGet(SAMPLE_ID), InvalidResponseError);
    assert.equal(error.status, 200);
    assert.match(error.requestId, /^[0-9a-f]{32}$/);
    assert.equal(server.requests.length, 1, "a success is never retried");
  });

  test("a proxy's error page is a ServiceUnavailableError after the retries of a read", async () => {
    const server = await serving((_, __, response) => {
      response.writeHead(502, { "Content-Type": "text/html" });
      response.end("<html>bad gateway</html>");
    });
    const error = await rejection(clientFor(server).sessionList(), ServiceUnavailableError);
    assert.equal(error.status, 502);
    assert.equal(server.requests.length, 3);
  });

  test("an error status outside the API's vocabulary is a ServiceUnavailableError at once", async () => {
    const server = await serving((_, __, response) => {
      response.writeHead(404, { "Content-Type": "text/html" });
      response.end("<html>nginx</html>");
    });
    const error = await rejection(clientFor(server).sessionList(), ServiceUnavailableError);
    assert.equal(error.status, 404);
    assert.equal(server.requests.length, 1);
  });
});

// A recalled memory as the service writes it.
const RECALLED = {
  kind: "belief",
  id: SAMPLE_ID,
  rank: 1,
  score: 0.5,
  text: "User likes tea.",
  type: "preference",
  subject: "pref:tea",
  status: "active",
  needs_review: false,
  confidence: 0.9,
  revision: 1,
  event_type: "",
  occurred_at: null,
  sequence: null,
  session_id: SAMPLE_ID,
  sources: [],
};

describe("an answer that breaks the schema", () => {
  test("a missing field is an InvalidResponseError naming the path, not the values", async () => {
    const { last_sequence: _, ...partial } = SESSION;
    const server = await serving((_, __, response) => json(response, 200, { ...partial, scope: "secret scope text" }));
    const error = await rejection(clientFor(server).sessionGet(SAMPLE_ID), InvalidResponseError);
    assert.deepEqual(error.problems, ["$.last_sequence: missing"]);
    assert.doesNotMatch(error.message, /secret scope text/);
  });

  test("a field of the wrong type, or an array for an object, is an InvalidResponseError", async () => {
    let answer: unknown = { ...SESSION, last_sequence: "7", closed_at: 3 };
    const server = await serving((_, __, response) => json(response, 200, answer));
    const error = await rejection(clientFor(server).sessionGet(SAMPLE_ID), InvalidResponseError);
    assert.deepEqual(error.problems, ["$.closed_at: number, not a string", "$.last_sequence: string, not an integer"]);
    answer = [SESSION];
    const wrong = await rejection(clientFor(server).sessionGet(SAMPLE_ID), InvalidResponseError);
    assert.deepEqual(wrong.problems, ["$: array, not an object"]);
  });

  test("a value outside an enumeration, deep in a list, is an InvalidResponseError", async () => {
    const server = await serving((_, __, response) =>
      json(response, 200, { items: [{ ...RECALLED, kind: "rumour" }], terms: [], chars: 0, truncated: false, profile: false }),
    );
    const error = await rejection(clientFor(server).recall("anything"), InvalidResponseError);
    assert.deepEqual(error.problems, ["$.items[0].kind: not one of the schema's values"]);
  });

  test("fields the schema does not name are kept: a newer service may add some", async () => {
    const server = await serving((_, __, response) => json(response, 200, { ...SESSION, mood: "new" }));
    const session = await clientFor(server).sessionGet(SAMPLE_ID);
    assert.equal((session as typeof session & { mood: string }).mood, "new");
  });
});

describe("a timeout", () => {
  test("an answer that never comes is a RequestTimeoutError after each try's timeout", async () => {
    const server = await serving(() => {
      // Never answers.
    });
    const took = await elapsed(async () => {
      const error = await rejection(clientFor(server, { timeoutMs: 200 }).sessionList(), RequestTimeoutError);
      assert.equal(error.timeoutMs, 200);
    });
    assert.equal(server.requests.length, 3, "a read is tried again");
    assert.ok(took < 3000, `took ${took} ms`);
  });

  test("a body that stops halfway is a RequestTimeoutError too", async () => {
    const server = await serving((_, __, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.write('{"id": "');
    });
    await rejection(clientFor(server, { timeoutMs: 200, retries: { attempts: 1 } }).sessionGet(SAMPLE_ID), RequestTimeoutError);
  });

  test("a write the service keeps no key for is not tried again after a timeout", async () => {
    const server = await serving(() => {
      // Never answers.
    });
    await rejection(clientFor(server, { timeoutMs: 150 }).accountErasureRequest(), RequestTimeoutError);
    assert.equal(server.requests.length, 1);
  });
});

describe("an abort", () => {
  test("aborting a request in flight is a RequestAbortedError at once", async () => {
    const server = await serving(() => {
      // Never answers.
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const took = await elapsed(() =>
      rejection(clientFor(server, { timeoutMs: 10_000 }).sessionList({ signal: controller.signal }), RequestAbortedError),
    );
    assert.ok(took < 2000, `took ${took} ms`);
    assert.equal(server.requests.length, 1, "an abort is never retried");
  });

  test("an aborted signal stops the wait before a retry", async () => {
    const server = await serving((_, __, response) => json(response, 503, { error: "busy" }));
    const controller = new AbortController();
    const client = clientFor(server, { retries: { backoffMs: 10_000, maxBackoffMs: 10_000 } });
    setTimeout(() => controller.abort(), 100);
    const took = await elapsed(() => rejection(client.sessionList({ signal: controller.signal }), RequestAbortedError));
    assert.ok(took < 2000, `took ${took} ms`);
  });

  test("a signal aborted before the call sends nothing", async () => {
    const server = await serving((_, __, response) => json(response, 200, []));
    await rejection(clientFor(server).sessionList({ signal: AbortSignal.abort() }), RequestAbortedError);
    assert.equal(server.requests.length, 0);
  });
});

describe("a 429 storm", () => {
  const limited = { error: { code: "rate_limited", message: "Slow down.", details: { retry_after: 1 }, request_id: "r-1" } };

  test("short Retry-Afters are waited out, then the last refusal is a RateLimitedError", async () => {
    const server = await serving((_, __, response) => json(response, 429, limited, { "Retry-After": "0.1" }));
    const took = await elapsed(async () => {
      const error = await rejection(clientFor(server).remember("User likes tea."), RateLimitedError);
      assert.equal(error.status, 429);
      assert.equal(error.requestId, "r-1");
      assert.equal(error.retryAfter, 1);
    });
    assert.equal(server.requests.length, 3);
    const keys = new Set(server.requests.map((request) => request.headers["idempotency-key"]));
    assert.equal(keys.size, 1, "every try of a write carries its one Idempotency-Key");
    assert.ok(took >= 200 && took < 3000, `took ${took} ms`);
  });

  test("a Retry-After over the client's limit is a RateLimitedError at once", async () => {
    const server = await serving((_, __, response) => json(response, 429, limited, { "Retry-After": "60" }));
    const took = await elapsed(() => rejection(clientFor(server).sessionList(), RateLimitedError));
    assert.equal(server.requests.length, 1);
    assert.ok(took < 1000, `took ${took} ms`);
  });

  test("a proxy's 429 without an error body is still a RateLimitedError", async () => {
    const server = await serving((_, __, response) => {
      response.writeHead(429, { "Retry-After": "0" });
      response.end("Too Many Requests");
    });
    const error = await rejection(clientFor(server).sessionList(), RateLimitedError);
    assert.equal(error.code, "rate_limited");
    assert.equal(server.requests.length, 3);
  });
});

describe("retries of transient failures", () => {
  test("a write is retried through a restarting service under one key and request id", async () => {
    let tries = 0;
    const server = await serving((_, __, response) => {
      tries += 1;
      if (tries < 3) json(response, 503, { down: true });
      else json(response, 201, SESSION);
    });
    const session = await clientFor(server).sessionCreate({ external_id: "chat-1" });
    assert.equal(session.id, SAMPLE_ID);
    assert.equal(new Set(server.requests.map((r) => r.headers["idempotency-key"])).size, 1);
    assert.equal(new Set(server.requests.map((r) => r.headers["x-request-id"])).size, 1);
    assert.match(String(server.requests[0]?.headers["idempotency-key"]), /^rc-[0-9a-f]{32}$/);
    assert.deepEqual(JSON.parse(server.requests[0]?.body ?? ""), { external_id: "chat-1" });
  });

  test("the caller's own Idempotency-Key is the one sent", async () => {
    const server = await serving((_, __, response) => json(response, 201, SESSION));
    await clientFor(server).sessionCreate({ idempotencyKey: "mine-1" });
    assert.equal(server.requests[0]?.headers["idempotency-key"], "mine-1");
  });

  test("a write the service keeps no key for is not retried after a 503", async () => {
    const server = await serving((_, __, response) => json(response, 503, {}));
    await rejection(clientFor(server).accountErasureConfirm("t"), ServiceUnavailableError);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]?.headers["idempotency-key"], undefined);
  });

  test("a refused connection is a ServiceUnavailableError after the retries", async () => {
    const server = await serving(() => undefined);
    const url = server.url;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const client = new ReverieClient({ baseUrl: url, token: "t", retries: FAST });
    const error = await rejection(client.sessionList(), ServiceUnavailableError);
    assert.equal(error.status, null);
  });
});

// What a script prints when a call fails: the address it called, what went wrong in
// words, and what to check.
describe("the message of a failure", () => {
  test("a refused connection names the address, the refusal and the tries", async () => {
    const server = await serving(() => undefined);
    const url = server.url;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const client = new ReverieClient({ baseUrl: url, token: "t", retries: FAST });
    const error = await rejection(client.recall("what tea?"), ServiceUnavailableError);
    assert.equal(
      error.message,
      `POST ${url}/api/v1/recall: connection refused, 3 tries. Is Reverie running at ${url}?`,
    );
  });

  test("a timeout names the address, the limit and the tries", async () => {
    const server = await serving(() => {
      // Never answers.
    });
    const error = await rejection(clientFor(server, { timeoutMs: 100 }).sessionList({ limit: 5 }), RequestTimeoutError);
    assert.equal(error.message, `GET ${server.url}/api/v1/sessions: no whole answer within 100 ms (timeoutMs), 3 tries.`);
  });

  test("a wrong token says so in the service's words", async () => {
    const server = await serving((_, __, response) =>
      json(response, 401, {
        error: { code: "unauthenticated", message: "The token is not valid.", details: {}, request_id: "r-2" },
      }),
    );
    const error = await rejection(clientFor(server).sessionList(), UnauthenticatedError);
    assert.equal(error.message, "unauthenticated: The token is not valid. [request_id=r-2]");
  });

  test("a refusal of a call sent without a token says how to give one", async () => {
    const server = await serving((_, __, response) =>
      json(response, 401, {
        error: { code: "unauthenticated", message: "No credentials.", details: {}, request_id: "r-3" },
      }),
    );
    const client = new ReverieClient({ baseUrl: server.url, token: "", retries: FAST });
    const error = await rejection(client.sessionList(), UnauthenticatedError);
    assert.equal(server.requests[0]?.headers.authorization, undefined);
    assert.equal(
      error.message,
      "unauthenticated: No credentials. No token was sent: pass `token` to ReverieClient, or set REVERIE_TOKEN. [request_id=r-3]",
    );
  });

  test("an answer from a server that is not the API asks whether the address is Reverie's", async () => {
    const server = await serving((_, __, response) => {
      response.writeHead(404, { "Content-Type": "text/html" });
      response.end("<html>not here</html>");
    });
    const error = await rejection(clientFor(server).sessionList(), ServiceUnavailableError);
    assert.equal(
      error.message,
      `GET ${server.url}/api/v1/sessions: answered 404 (text/html) without an error body of Reverie's API. ` +
        `Is ${server.url} Reverie's address?`,
    );
  });

  test("a gateway's error page says the service is unavailable after the tries", async () => {
    const server = await serving((_, __, response) => {
      response.writeHead(503, { "Content-Type": "text/plain" });
      response.end("down");
    });
    const error = await rejection(clientFor(server).sessionList(), ServiceUnavailableError);
    assert.match(error.message, /: answered 503 \(text\/plain\) .*, 3 tries: the service, or a proxy before it, is unavailable\.$/);
  });

  test("an address that is not http(s) is a TypeError when the client is made", () => {
    assert.throws(() => new ReverieClient({ baseUrl: "127.0.0.1:8000" }), {
      name: "TypeError",
      message: 'baseUrl must be the service\'s http(s) address, such as http://127.0.0.1:8000; it is "127.0.0.1:8000".',
    });
    assert.throws(() => new ReverieClient({ baseUrl: "localhost" }), TypeError);
    assert.equal(new ReverieClient({ baseUrl: "https://memory.example/api/v1/" }).baseUrl, "https://memory.example");
  });

  test("a REVERIE_URL that is not http(s) is named as the culprit", () => {
    const before = process.env.REVERIE_URL;
    process.env.REVERIE_URL = "127.0.0.1:8131";
    try {
      assert.throws(() => new ReverieClient(), { name: "TypeError", message: /^REVERIE_URL must be the service's http\(s\) address/ });
      assert.equal(new ReverieClient({ baseUrl: "http://127.0.0.1:9" }).baseUrl, "http://127.0.0.1:9");
    } finally {
      if (before === undefined) delete process.env.REVERIE_URL;
      else process.env.REVERIE_URL = before;
    }
  });
});

describe("the error vocabulary", () => {
  for (const code of Object.keys(ERROR_CLASSES) as ErrorCode[]) {
    test(`${code} is its own class, with the details and the request id`, async () => {
      const server = await serving((_, __, response) =>
        json(response, 418, { error: { code, message: "Refused.", details: { field: "x" }, request_id: "req-1" } }),
      );
      const error = await rejection(clientFor(server, { retries: { attempts: 1 } }).sessionList(), ERROR_CLASSES[code]);
      assert.equal(error.constructor, ERROR_CLASSES[code]);
      assert.equal(error.name, ERROR_CLASSES[code].name);
      assert.deepEqual([error.code, error.requestId, error.details, error.status], [code, "req-1", { field: "x" }, 418]);
      assert.equal(error.message, `${code}: Refused. [request_id=req-1]`);
    });
  }

  test("a code the client does not know is still an ApiError", async () => {
    const server = await serving((_, __, response) =>
      json(response, 418, { error: { code: "teapot", message: "No.", details: {}, request_id: "r" } }),
    );
    const error = await rejection(clientFor(server).sessionList(), ApiError);
    assert.equal(error.constructor, ApiError);
    assert.equal(error.code, "teapot");
  });

  test("a failure of the service is an InternalError under the request id it sent", async () => {
    const server = await serving((request, _, response) =>
      json(
        response,
        500,
        { error: { code: "internal_error", message: "Oops.", details: {} } },
        { "X-Request-ID": String(request.headers["x-request-id"]) },
      ),
    );
    const error = await rejection(clientFor(server).memoryGet(SAMPLE_ID), InternalError);
    assert.equal(error.requestId, server.requests[0]?.headers["x-request-id"]);
  });

  test("every error is a ReverieError and an Error", () => {
    const error = new ConflictError("Stale.", { code: "conflict", status: 409 });
    assert.ok(error instanceof ReverieError && error instanceof Error);
  });
});
