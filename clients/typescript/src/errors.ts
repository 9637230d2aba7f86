/**
 * What the client throws: one class per code of the service's closed error vocabulary,
 * and a few of the client's own for answers that never came or make no sense.
 *
 * Every refusal of the API has the body `{"error": {"code", "message", "details",
 * "request_id"}}`; the client throws the `ApiError` subclass named by `code`, carrying
 * the message, the details (field names, limits, the current revision: never memory
 * text) and the request id to quote when asking the operator what happened.
 */
import type { components } from "./generated/api.js";

export type ErrorCode = components["schemas"]["CodeEnum"];

interface ErrorOptions {
  requestId?: string;
  cause?: unknown;
}

/** Anything the client throws. `requestId` is the id the request was sent under. */
export class ReverieError extends Error {
  readonly requestId: string;

  constructor(message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.requestId = options.requestId ?? "";
  }
}

/**
 * The service answered with an error body. A code the client does not know yet (the
 * vocabulary is closed, but may grow with the service) is thrown as `ApiError` itself.
 */
export class ApiError extends ReverieError {
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown>;

  constructor(
    message: string,
    init: { code: string; status: number; details?: Record<string, unknown>; requestId?: string },
  ) {
    super(`${init.code}: ${message}` + (init.requestId ? ` [request_id=${init.requestId}]` : ""), {
      requestId: init.requestId ?? "",
    });
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? {};
  }
}

type ApiErrorInit = ConstructorParameters<typeof ApiError>[1];

/** 400: the request is not valid; `details` names the fields (or a `reason` such as
 * `secret` or `injection` for a refused statement). */
export class ValidationError extends ApiError {}
/** 401: no token, or one that is unknown, revoked, paused or of a deactivated principal. */
export class UnauthenticatedError extends ApiError {}
/** 403: the token may not do this (read-only, or narrowed to part of the memories). */
export class ForbiddenError extends ApiError {}
/** 404: no such id for this principal (another owner's id answers the same), or a
 * surface that is switched off. */
export class NotFoundError extends ApiError {}
/** 405: the route does not take this HTTP method. */
export class MethodNotAllowedError extends ApiError {}
/** 406: the service cannot answer in the media type the request accepts. */
export class NotAcceptableError extends ApiError {}
/** 409: a stale `expected_revision` (`details.current_revision` holds the current
 * one), an Idempotency-Key reused for another request, a closed session, a finished run. */
export class ConflictError extends ApiError {}
/** 413: the body is over the service's limit (`details.limit`, in bytes). */
export class PayloadTooLargeError extends ApiError {}
/** 415: the body is not JSON. */
export class UnsupportedMediaTypeError extends ApiError {}
/** 429: the token's request budget is spent; `retryAfter` says for how many seconds
 * (the client waits and retries by itself when that is short). */
export class RateLimitedError extends ApiError {
  get retryAfter(): number | null {
    const value = this.details.retry_after;
    return typeof value === "number" ? value : null;
  }
}
/** 500: a failure of the service's own, logged there under `requestId`. */
export class InternalError extends ApiError {}

type ApiErrorClass = new (message: string, init: ApiErrorInit) => ApiError;

/** The class of each code, in the order of the service's schema (a missing code does
 * not compile: the key set is the schema's enumeration). */
export const ERROR_CLASSES: { readonly [Code in ErrorCode]: ApiErrorClass } = {
  validation_error: ValidationError,
  unauthenticated: UnauthenticatedError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  method_not_allowed: MethodNotAllowedError,
  not_acceptable: NotAcceptableError,
  conflict: ConflictError,
  payload_too_large: PayloadTooLargeError,
  unsupported_media_type: UnsupportedMediaTypeError,
  rate_limited: RateLimitedError,
  internal_error: InternalError,
};

/**
 * The service could not be reached, or answered outside its API (a proxy's 502, an
 * error page that is not JSON), after the retries the client makes. `status` is `null`
 * when no answer came at all.
 */
export class ServiceUnavailableError extends ReverieError {
  readonly status: number | null;

  constructor(message: string, options: ErrorOptions & { status?: number | null } = {}) {
    super(message, options);
    this.status = options.status ?? null;
  }
}

/**
 * A success answer the client cannot use: not JSON, or JSON that breaks the API's
 * schema. `problems` says where (paths and expected types, never the values).
 */
export class InvalidResponseError extends ReverieError {
  readonly status: number;
  readonly problems: readonly string[];

  constructor(message: string, options: ErrorOptions & { status: number; problems?: readonly string[] }) {
    super(message, options);
    this.status = options.status;
    this.problems = options.problems ?? [];
  }
}

/** No whole answer came within the client's `timeoutMs`, on any try. */
export class RequestTimeoutError extends ReverieError {
  readonly timeoutMs: number;

  constructor(message: string, options: ErrorOptions & { timeoutMs: number }) {
    super(message, options);
    this.timeoutMs = options.timeoutMs;
  }
}

/** The caller's `AbortSignal` stopped the request (or the wait before a retry). */
export class RequestAbortedError extends ReverieError {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The error an error body names, or `null` when `body` is not one; `note` is added to
 * the service's message. */
export function errorFromBody(status: number, body: unknown, requestId = "", note = ""): ApiError | null {
  const error = isRecord(body) ? body.error : undefined;
  if (!isRecord(error) || typeof error.code !== "string") return null;
  const code = error.code;
  const details = isRecord(error.details) ? error.details : {};
  const id = typeof error.request_id === "string" && error.request_id ? error.request_id : requestId;
  const said = typeof error.message === "string" ? error.message : "";
  const message = note ? `${said} ${note}`.trim() : said;
  const ErrorClass: ApiErrorClass = Object.hasOwn(ERROR_CLASSES, code)
    ? ERROR_CLASSES[code as ErrorCode]
    : ApiError;
  return new ErrorClass(message, { code, status, details, requestId: id });
}
