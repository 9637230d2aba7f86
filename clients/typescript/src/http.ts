/**
 * Sending one request of the API: headers, the retry policy, timeouts, the caller's
 * AbortSignal, and turning the answer into a result or a typed error.
 *
 * Retries are safe by construction. A read can be repeated. A write carries an
 * Idempotency-Key that stays the same across its retries, so when an answer is lost
 * after the service committed, the retry is answered by the service's replay of the
 * first result instead of writing twice. A write the service keeps no key for (the
 * account erasure routes) is retried only when the service certainly never saw it: a
 * refused connection, or a 429 (throttling refuses before the write begins).
 */
import {
  errorFromBody,
  InvalidResponseError,
  RateLimitedError,
  RequestAbortedError,
  RequestTimeoutError,
  ReverieError,
  ServiceUnavailableError,
} from "./errors.js";
import { problemsOf, type Shape } from "./validate.js";

export const API_PREFIX = "/api/v1";
export const DEFAULT_URL = "http://127.0.0.1:8000";
export const VERSION = "0.1.0";
const USER_AGENT = `reverie-client-ts/${VERSION}`;

// Answers of a proxy or a restarting service, worth another try.
const TRANSIENT_STATUSES = new Set([429, 502, 503, 504]);
// Connection failures after which the request certainly never reached the service.
const NEVER_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;

/** One request of the API, as data. */
export interface Call {
  /** The route's id in the service's OpenAPI schema (empty for `request()`). */
  readonly operationId: string;
  readonly method: string;
  /** Below `/api/v1`, path parameters filled in. */
  readonly path: string;
  readonly query?: { readonly [name: string]: QueryValue };
  readonly body?: unknown;
  /** A body sent as it is instead of `body` as JSON (`request()` only). */
  readonly content?: string | undefined;
  /** The route keeps an Idempotency-Key: one is sent (the caller's, or a new one), and
   * the request may be retried under it. */
  readonly keyed: boolean;
  /** A read: repeating it is harmless. */
  readonly reads: boolean;
  readonly idempotencyKey?: string | undefined;
  /** What a success answer must look like; none for `request()`. */
  readonly answer?: Shape;
  readonly signal?: AbortSignal | undefined;
  readonly headers?: { readonly [name: string]: string };
}

/**
 * How the client retries transient failures. `attempts` counts every try, the first
 * included (1 turns retrying off). Waits grow from `backoffMs`, doubling up to
 * `maxBackoffMs`, with jitter. A 429 is waited out when its Retry-After is at most
 * `maxRetryAfterMs`; a longer one is thrown at once as `RateLimitedError`.
 */
export interface Retries {
  readonly attempts: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRIES: Retries = {
  attempts: 3,
  backoffMs: 500,
  maxBackoffMs: 8000,
  maxRetryAfterMs: 10_000,
};

export interface TransportOptions {
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly timeoutMs: number;
  readonly retries: Retries;
  readonly fetch: typeof fetch;
}

function repeatable(call: Call): boolean {
  return call.reads || call.keyed;
}

function hex(): string {
  return globalThis.crypto.randomUUID().replaceAll("-", "");
}

export function newIdempotencyKey(): string {
  return `rc-${hex()}`;
}

/** The service's root from `baseUrl`, which may name the API (…/api/v1) or not. A value
 * that is no http(s) address is a TypeError here, not a failure of every call later. */
export function apiUrl(baseUrl: string, source = "baseUrl"): string {
  let protocol = "";
  try {
    protocol = new URL(baseUrl).protocol;
  } catch {
    // Not a URL at all; said below.
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw new TypeError(
      `${source} must be the service's http(s) address, such as ${DEFAULT_URL}; it is ${JSON.stringify(baseUrl)}.`,
    );
  }
  const base = baseUrl.replace(/\/+$/, "");
  return base.endsWith(API_PREFIX) ? base.slice(0, -API_PREFIX.length) : base;
}

function queryString(query: Call["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    params.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function retryAfterMs(headers: Headers): number | null {
  const header = headers.get("Retry-After");
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) ? Math.max(0, seconds) * 1000 : null;
}

function errorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === "string" ? cause.code : "";
}

// The platform's fetch says only "fetch failed"; what went wrong is in its cause's code.
const CONNECTION_FAILURES: { readonly [code: string]: string } = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be looked up",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable",
  UND_ERR_CONNECT_TIMEOUT: "connecting timed out",
  ECONNRESET: "the connection was reset",
  UND_ERR_SOCKET: "the connection closed before the answer came",
};

function connectionFailure(error: unknown): string {
  const known = CONNECTION_FAILURES[errorCode(error)];
  if (known !== undefined) return known;
  let innermost = error;
  while (innermost instanceof Error && innermost.cause instanceof Error) innermost = innermost.cause;
  return innermost instanceof Error ? innermost.message : String(error);
}

function triesOf(count: number): string {
  return count === 1 ? "1 try" : `${count} tries`;
}

/** Waits `ms`, or throws `RequestAbortedError` as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined, requestId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(new RequestAbortedError("The request was aborted while waiting to retry.", { requestId }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    if (signal?.aborted) aborted();
    else signal?.addEventListener("abort", aborted, { once: true });
  });
}

type Outcome =
  | { readonly kind: "answer"; readonly status: number; readonly headers: Headers; readonly text: string }
  | { readonly kind: "timeout" }
  | { readonly kind: "unreachable"; readonly error: unknown; readonly neverSent: boolean };

/** Sends calls for one base URL and token. */
export class Transport {
  constructor(private readonly options: TransportOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  private backoff(attempt: number): number {
    const { backoffMs, maxBackoffMs } = this.options.retries;
    const wait = Math.min(maxBackoffMs, backoffMs * 2 ** (attempt - 1));
    return wait * (0.5 + Math.random() / 2);
  }

  private headers(call: Call, requestId: string, idempotencyKey: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: "application/json",
      "User-Agent": USER_AGENT,
      "X-Request-ID": requestId,
    };
    if (this.options.token) headers.Authorization = `Bearer ${this.options.token}`;
    if (idempotencyKey !== undefined) headers["Idempotency-Key"] = idempotencyKey;
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    return { ...headers, ...call.headers };
  }

  /** One try: the whole answer (body included) within `timeoutMs`, or why not. */
  private async attempt(
    call: Call,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Outcome> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.options.timeoutMs);
    const forward = () => controller.abort();
    call.signal?.addEventListener("abort", forward, { once: true });
    try {
      const init: RequestInit = { method: call.method, headers, signal: controller.signal };
      if (body !== undefined) init.body = body;
      const response = await this.options.fetch(url, init);
      const text = await response.text();
      return { kind: "answer", status: response.status, headers: response.headers, text };
    } catch (error) {
      if (call.signal?.aborted) throw error;
      if (timedOut) return { kind: "timeout" };
      return { kind: "unreachable", error, neverSent: NEVER_SENT.has(errorCode(error)) };
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener("abort", forward);
    }
  }

  /** Send `call`, retrying transient failures under the same request id and
   * Idempotency-Key; resolves to the decoded (and checked) JSON answer. */
  async send(call: Call): Promise<unknown> {
    const requestId = hex();
    const idempotencyKey = call.keyed ? (call.idempotencyKey ?? newIdempotencyKey()) : undefined;
    const headers = this.headers(call, requestId, idempotencyKey);
    // Encoded once, before anything is sent: a body JSON cannot hold is the caller's error.
    const body = call.content ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
    const url = `${this.options.baseUrl}${API_PREFIX}${call.path}${queryString(call.query)}`;
    const { attempts, maxRetryAfterMs } = this.options.retries;
    // The address without its query, which may carry the caller's search terms.
    const label = `${call.method} ${this.options.baseUrl}${API_PREFIX}${call.path}`;
    for (let attempt = 1; ; attempt++) {
      if (call.signal?.aborted) {
        throw new RequestAbortedError(`${label} was aborted.`, { requestId, cause: call.signal.reason });
      }
      let outcome: Outcome;
      try {
        outcome = await this.attempt(call, url, headers, body);
      } catch (error) {
        throw new RequestAbortedError(`${label} was aborted.`, { requestId, cause: error });
      }
      const last = attempt >= attempts;
      let wait: number | null = null;
      let failure: ReverieError;
      if (outcome.kind === "timeout") {
        failure = new RequestTimeoutError(
          `${label}: no whole answer within ${this.options.timeoutMs} ms (timeoutMs), ${triesOf(attempt)}.`,
          { requestId, timeoutMs: this.options.timeoutMs },
        );
        if (!last && repeatable(call)) wait = this.backoff(attempt);
      } else if (outcome.kind === "unreachable") {
        failure = new ServiceUnavailableError(
          `${label}: ${connectionFailure(outcome.error)}, ${triesOf(attempt)}. ` +
            `Is Reverie running at ${this.options.baseUrl}?`,
          { requestId, cause: outcome.error },
        );
        if (!last && (repeatable(call) || outcome.neverSent)) wait = this.backoff(attempt);
      } else {
        const answerId = outcome.headers.get("X-Request-ID") || requestId;
        if (outcome.status >= 200 && outcome.status < 300) return this.result(call, outcome, answerId, label);
        failure = this.failure(outcome, answerId, label, attempt);
        if (!last && TRANSIENT_STATUSES.has(outcome.status)) {
          if (outcome.status === 429) {
            const after = retryAfterMs(outcome.headers);
            if (after === null) wait = this.backoff(attempt);
            else if (after <= maxRetryAfterMs) wait = after;
          } else if (repeatable(call)) {
            wait = this.backoff(attempt);
          }
        }
      }
      if (wait === null) throw failure;
      await sleep(wait, call.signal, requestId);
    }
  }

  private failure(
    outcome: Extract<Outcome, { kind: "answer" }>,
    requestId: string,
    label: string,
    tries: number,
  ): ReverieError {
    let body: unknown = null;
    try {
      body = JSON.parse(outcome.text);
    } catch {
      // Not an error body; said below.
    }
    const note =
      outcome.status === 401 && !this.options.token
        ? "No token was sent: pass `token` to ReverieClient, or set REVERIE_TOKEN."
        : "";
    const error = errorFromBody(outcome.status, body, requestId, note);
    if (error !== null) return error;
    if (outcome.status === 429) {
      return new RateLimitedError("Too many requests.", { code: "rate_limited", status: 429, requestId });
    }
    const type = outcome.headers.get("Content-Type") ?? "no content type";
    const answered = `${label}: answered ${outcome.status} (${type}) without an error body of Reverie's API`;
    // A gateway's error means the service behind it is down; any other status from
    // something that is not the API most often means baseUrl names another server.
    const hint = TRANSIENT_STATUSES.has(outcome.status)
      ? `, ${triesOf(tries)}: the service, or a proxy before it, is unavailable.`
      : `. Is ${this.options.baseUrl} Reverie's address?`;
    return new ServiceUnavailableError(answered + hint, { requestId, status: outcome.status });
  }

  private result(call: Call, outcome: Extract<Outcome, { kind: "answer" }>, requestId: string, label: string): unknown {
    if (outcome.text === "" && call.answer === undefined) return null;
    let data: unknown;
    try {
      data = JSON.parse(outcome.text);
    } catch {
      throw new InvalidResponseError(`${label}: answered ${outcome.status} with a body that is not JSON.`, {
        requestId,
        status: outcome.status,
      });
    }
    if (call.answer !== undefined) {
      const problems = problemsOf(data, call.answer);
      if (problems.length > 0) {
        throw new InvalidResponseError(
          `${label}: the answer breaks the API's schema: ${problems.join("; ")}`,
          { requestId, status: outcome.status, problems },
        );
      }
    }
    return data;
  }
}
