/**
 * Reverie's API for one principal, the owner of the token: a method per route of the
 * OpenAPI document (same names as the Python client's, in camelCase), iterators over
 * the paged lists and the change feeds, and `conversation()`.
 *
 * Field names are the API's own (`expected_revision`, `external_id`); a field left out
 * takes the service's default. Writes take an `idempotencyKey`; without one the client
 * makes a fresh key per call, kept across that call's retries. Every method takes a
 * `signal` to abort it.
 */
import { Conversation } from "./conversation.js";
import { OPERATIONS } from "./generated/schema.js";
import { apiUrl, type Call, DEFAULT_RETRIES, DEFAULT_URL, type QueryValue, type Retries, Transport } from "./http.js";
import type {
  AccessRecord,
  Challenge,
  ChallengePage,
  ChallengeState,
  CorrectInput,
  Derived,
  DerivedControl,
  Erasure,
  ErasureRequest,
  Event,
  EventAppendInput,
  History,
  Memory,
  MemoryPage,
  OneOrMany,
  Operation,
  OperationDetail,
  OperationPage,
  PartInput,
  QueryOf,
  Recall,
  RecallInput,
  RememberInput,
  Run,
  Session,
  SessionCreateInput,
  SummaryJournal,
  Token,
  Undo,
  UndoPreview,
} from "./models.js";
import { byOffset, ChangeFeed } from "./pagination.js";
import type { Shape } from "./validate.js";

export type OperationId = keyof typeof OPERATIONS;

export interface RequestOptions {
  /** Aborts the request, and any wait before a retry: a `RequestAbortedError`. */
  readonly signal?: AbortSignal | undefined;
}

export interface WriteOptions extends RequestOptions {
  /** Sent as Idempotency-Key: the same key again replays the first answer. */
  readonly idempotencyKey?: string | undefined;
}

export interface Revision extends WriteOptions {
  readonly expected_revision: number;
}

export interface ClientOptions {
  /** The service's address (or its `/api/v1`); `REVERIE_URL`, else http://127.0.0.1:8000. */
  readonly baseUrl?: string | undefined;
  /** An API token of the owner; `REVERIE_TOKEN` when left out. */
  readonly token?: string | undefined;
  /** Per try, for the whole answer (30 s by default). */
  readonly timeoutMs?: number;
  readonly retries?: Partial<Retries>;
  /** The fetch to send with (the platform's by default). */
  readonly fetch?: typeof fetch;
}

export type MemoryListOptions = Omit<QueryOf<"memories_list">, "status" | "type" | "include"> & {
  readonly status?: OneOrMany;
  readonly type?: OneOrMany;
  readonly include?: OneOrMany;
} & RequestOptions;
export type OperationListOptions = QueryOf<"operations_list"> & RequestOptions;
export type ChallengeListOptions = QueryOf<"challenges_list"> & RequestOptions;
export type AccessListOptions = QueryOf<"access_list"> & RequestOptions;
export type RecallOptions = Omit<RecallInput, "query"> & RequestOptions;
export type RememberOptions = Omit<RememberInput, "statement"> & WriteOptions;
export type CorrectOptions = CorrectInput & WriteOptions;
export type EventAppendOptions = Partial<Omit<EventAppendInput, "parts">> & WriteOptions;

// Writes whose route keeps no Idempotency-Key: recall reads, and the account erasure
// routes are guarded by their own confirmation token.
const UNKEYED = new Set<string>(["recall", "account_erasure_request", "account_erasure_confirm"]);

function environment(name: string): string | undefined {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env?.[name] || undefined;
}

function withoutRequestOptions<T extends object>(options: T): Omit<T, "signal" | "idempotencyKey"> {
  const { signal: _signal, idempotencyKey: _key, ...fields } = options as T & WriteOptions;
  return fields;
}

function query(fields: object): { [name: string]: QueryValue } {
  return fields as { [name: string]: QueryValue };
}

export class ReverieClient {
  readonly baseUrl: string;
  private readonly transport: Transport;

  constructor(options: ClientOptions = {}) {
    const fromEnvironment = options.baseUrl === undefined ? environment("REVERIE_URL") : undefined;
    this.baseUrl = fromEnvironment === undefined ? apiUrl(options.baseUrl ?? DEFAULT_URL) : apiUrl(fromEnvironment, "REVERIE_URL");
    const platformFetch = options.fetch ?? globalThis.fetch;
    this.transport = new Transport({
      baseUrl: this.baseUrl,
      token: options.token ?? environment("REVERIE_TOKEN"),
      timeoutMs: options.timeoutMs ?? 30_000,
      retries: { ...DEFAULT_RETRIES, ...options.retries },
      // Called unbound, the platform's fetch throws "Illegal invocation" in some runtimes.
      fetch: (input, init) => platformFetch(input, init),
    });
  }

  /** Send a call, retrying transient failures under the same request id and
   * Idempotency-Key; resolves to the decoded, checked answer. */
  send(call: Call): Promise<unknown> {
    return this.transport.send(call);
  }

  /** The call of operation `op` of the schema. */
  private op<T>(
    op: OperationId,
    init: {
      path?: Record<string, string>;
      query?: object;
      body?: unknown;
      options?: WriteOptions;
    } = {},
  ): Promise<T> {
    const operation = OPERATIONS[op];
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = init.path?.[name];
      if (value === undefined) throw new TypeError(`${op} needs ${name}`);
      return encodeURIComponent(value);
    });
    const reads = operation.method === "GET" || op === "recall";
    const keyed = !reads && !UNKEYED.has(op);
    const call: Call = {
      operationId: op,
      method: operation.method,
      path,
      query: init.query ? query(init.query) : {},
      body: init.body,
      keyed,
      reads,
      idempotencyKey: keyed ? init.options?.idempotencyKey : undefined,
      answer: operation.answer as Shape,
      signal: init.options?.signal,
    };
    return this.send(call) as Promise<T>;
  }

  // -- sessions ---------------------------------------------------------------------------

  /** The owner's sessions, most recently active first. Reads only. */
  sessionList(options: QueryOf<"sessions_list"> & RequestOptions = {}): Promise<Session[]> {
    return this.op("sessions_list", { query: withoutRequestOptions(options), options });
  }

  /** Open a conversation session for the owner. With `external_id` (your own
   * conversation id), a second call returns the first session instead of a new one. */
  sessionCreate(options: SessionCreateInput & WriteOptions = {}): Promise<Session> {
    return this.op("sessions_create", { body: withoutRequestOptions(options), options });
  }

  /** One session. Reads only. */
  sessionGet(sessionId: string, options: RequestOptions = {}): Promise<Session> {
    return this.op("sessions_get", { path: { session_id: sessionId }, options });
  }

  /** Close a session: no more messages or runs, and formation may consolidate it at
   * once instead of waiting for it to go quiet. */
  sessionClose(sessionId: string, options: WriteOptions = {}): Promise<Session> {
    return this.op("sessions_close", { path: { session_id: sessionId }, options });
  }

  /** Erase every message of the session and the memories formed from them. Cannot be
   * undone. */
  sessionErase(sessionId: string, options: WriteOptions = {}): Promise<Session> {
    return this.op("sessions_erase", { path: { session_id: sessionId }, options });
  }

  // -- events -----------------------------------------------------------------------------

  /** A session's event log in order (messages, runs, formation flags). Reads only. */
  eventList(sessionId: string, options: QueryOf<"events_list"> & RequestOptions = {}): Promise<Event[]> {
    return this.op("events_list", { path: { session_id: sessionId }, query: withoutRequestOptions(options), options });
  }

  /** Append a message to the session's log (the owner's own words verbatim). `parts` is
   * the text, or a list of `{type: "text" | "caption", text}`. Nothing is formed from it
   * until a run completes or the session closes. */
  eventAppend(sessionId: string, parts: string | readonly PartInput[], options: EventAppendOptions = {}): Promise<Event> {
    const fields = withoutRequestOptions(options);
    const body: EventAppendInput = {
      type: "user.message.created",
      ...fields,
      parts: typeof parts === "string" ? [{ type: "text", text: parts }] : [...parts],
    };
    return this.op("events_append", { path: { session_id: sessionId }, body, options });
  }

  /** Erase one message's text and the memories formed from it. Cannot be undone. */
  eventErase(eventId: string, options: WriteOptions = {}): Promise<Event> {
    return this.op("events_erase", { path: { event_id: eventId }, options });
  }

  // -- runs -------------------------------------------------------------------------------

  /** Start an assistant run (one turn) in an open session. */
  runCreate(sessionId: string, options: WriteOptions = {}): Promise<Run> {
    return this.op("runs_create", { path: { session_id: sessionId }, options });
  }

  /** One run. Reads only. */
  runGet(runId: string, options: RequestOptions = {}): Promise<Run> {
    return this.op("runs_get", { path: { run_id: runId }, options });
  }

  /** Complete a run: formation is requested for the session, and runs in the background
   * once the conversation has been quiet for a while. */
  runComplete(runId: string, options: WriteOptions = {}): Promise<Run> {
    return this.op("runs_complete", { path: { run_id: runId }, options });
  }

  /** Mark a run failed (with your own `error_code`); formation is still requested, since
   * the owner's messages stand. */
  runFail(runId: string, options: { readonly error_code?: string } & WriteOptions = {}): Promise<Run> {
    return this.op("runs_fail", { path: { run_id: runId }, body: withoutRequestOptions(options), options });
  }

  /** Mark a run waiting (for a tool or the person); requests no formation. */
  runWait(runId: string, options: WriteOptions = {}): Promise<Run> {
    return this.op("runs_wait", { path: { run_id: runId }, options });
  }

  // -- memories ---------------------------------------------------------------------------

  /** A page of the owner's memories (filters take one value or several). With
   * `changed_since` (a cursor from `next_changed_since`, or a time): those changed after
   * it, oldest change first. `include: "derived"` adds derived memories. Reads only. */
  memoryList(options: MemoryListOptions = {}): Promise<MemoryPage> {
    return this.op("memories_list", { query: withoutRequestOptions(options), options });
  }

  /** Add a memory the owner stated explicitly: active at once, with explicit authority.
   * The same statement and subject already held as an active explicit memory returns
   * that memory; an equal memory that was only inferred is superseded by the new one;
   * any other memory is left as it is (changing one is `memoryCorrect`). Statements
   * holding a secret or an instruction to the assistant are refused (`ValidationError`
   * with `details.reason`). */
  remember(statement: string, options: RememberOptions = {}): Promise<Memory> {
    return this.op("memories_remember", { body: { ...withoutRequestOptions(options), statement }, options });
  }

  /** One memory with its sources. Reads only. */
  memoryGet(memoryId: string, options: RequestOptions = {}): Promise<Memory> {
    return this.op("memories_get", { path: { memory_id: memoryId }, options });
  }

  /** Erase a memory and the versions it corrected: their text and excerpts are removed,
   * a tombstone stays, and a fence stops the same claim being formed again from the
   * same messages. Refused (`ConflictError`) if it changed since `expected_revision`.
   * Cannot be undone. */
  memoryDelete(memoryId: string, options: Revision): Promise<Memory> {
    return this.op("memories_delete", {
      path: { memory_id: memoryId },
      query: { expected_revision: options.expected_revision },
      options,
    });
  }

  /** The owner confirms a provisional memory: it becomes active. */
  memoryConfirm(memoryId: string, options: Revision): Promise<Memory> {
    return this.op("memories_confirm", {
      path: { memory_id: memoryId },
      body: { expected_revision: options.expected_revision },
      options,
    });
  }

  /** The owner rejects a memory: it leaves recall, and formation will not propose the
   * same claim again. */
  memoryReject(memoryId: string, options: Revision): Promise<Memory> {
    return this.op("memories_reject", {
      path: { memory_id: memoryId },
      body: { expected_revision: options.expected_revision },
      options,
    });
  }

  /** Correct a memory: returns a new memory (new id) that supersedes it; the old one is
   * kept as `superseded` in its history. */
  memoryCorrect(memoryId: string, options: CorrectOptions): Promise<Memory> {
    return this.op("memories_correct", { path: { memory_id: memoryId }, body: withoutRequestOptions(options), options });
  }

  /** Every version of a memory and every change to it. Reads only. */
  memoryHistory(memoryId: string, options: RequestOptions = {}): Promise<History> {
    return this.op("memories_history", { path: { memory_id: memoryId }, options });
  }

  // -- recall -----------------------------------------------------------------------------

  /** The owner's active and provisional memories that best match `query`, within a
   * character budget, each with its sources; `include: ["messages"]` adds original
   * messages, `["derived"]` derived memories. `context_turns` (0 to 3) gives each message
   * up to that many turns around it as its `context`. Reads only (a POST that writes
   * nothing). */
  recall(queryText = "", options: RecallOptions = {}): Promise<Recall> {
    return this.op("recall", { body: { ...withoutRequestOptions(options), query: queryText }, options });
  }

  // -- account ----------------------------------------------------------------------------

  /** Everything of the owner as one JSON document: sessions with their logs, memories,
   * derived memories, operations, receipts. Reads only. */
  export(options: RequestOptions = {}): Promise<Record<string, unknown>> {
    return this.op("export", { options });
  }

  /** First step of erasing the owner's whole account: a token that confirms it within
   * ten minutes. Erases nothing yet. */
  accountErasureRequest(options: RequestOptions = {}): Promise<ErasureRequest> {
    return this.op("account_erasure_request", { options });
  }

  /** Irreversibly erase the owner: every session, message, memory and token (this
   * client's token stops working). Resolves to counts of what was deleted. */
  accountErasureConfirm(token: string, options: RequestOptions = {}): Promise<Erasure> {
    return this.op("account_erasure_confirm", { body: { token }, options });
  }

  // -- tokens -----------------------------------------------------------------------------

  /** Pause one of the owner's API tokens: every request made with it is refused until it
   * is resumed. Nothing is deleted. A paused token cannot resume itself. */
  tokenPause(tokenId: string, options: WriteOptions = {}): Promise<Token> {
    return this.op("tokens_pause", { path: { token_id: tokenId }, options });
  }

  /** Resume one of the owner's paused API tokens: it works again at once. */
  tokenResume(tokenId: string, options: WriteOptions = {}): Promise<Token> {
    return this.op("tokens_resume", { path: { token_id: tokenId }, options });
  }

  /** Which of the owner's tokens read what, newest first (filtered by `token`, `memory`,
   * `since`). Needs a token that reaches everything. Reads only, and is not itself
   * recorded. */
  accessList(options: AccessListOptions = {}): Promise<AccessRecord[]> {
    return this.op("access_list", { query: withoutRequestOptions(options), options });
  }

  // -- challenges -------------------------------------------------------------------------

  /** What may have changed: proposals formation would not let retire one of the owner's
   * memories on its own, newest first, each beside that memory with both sides' sources;
   * `open` ones unless `state` says `kept` or `replaced`. Needs a token that reaches
   * everything. Reads only. */
  challengeList(options: ChallengeListOptions = {}): Promise<ChallengePage> {
    return this.op("challenges_list", { query: withoutRequestOptions(options), options });
  }

  /** One challenge with both sides. Reads only. */
  challengeGet(challengeId: string, options: RequestOptions = {}): Promise<Challenge> {
    return this.op("challenges_get", { path: { challenge_id: challengeId }, options });
  }

  /** The owner keeps the memory as it is: the challenge closes. Repeating it changes
   * nothing; replacing afterwards is a `ConflictError`. */
  challengeKeep(challengeId: string, options: WriteOptions = {}): Promise<Challenge> {
    return this.op("challenges_keep", { path: { challenge_id: challengeId }, options });
  }

  /** The owner replaces the memory with the proposal: it becomes an explicit memory of
   * theirs and supersedes (or retracts) the memory. Repeating it changes nothing;
   * keeping afterwards is a `ConflictError`. */
  challengeReplace(challengeId: string, options: WriteOptions = {}): Promise<Challenge> {
    return this.op("challenges_replace", { path: { challenge_id: challengeId }, options });
  }

  // -- reconsolidation (while the service's reconsolidation surface is on) -----------------

  /** What reconsolidation did for the owner, newest first (or, with `changed_since`,
   * changed after it, oldest first). Reads only. */
  operationList(options: OperationListOptions = {}): Promise<OperationPage> {
    return this.op("operations_list", { query: withoutRequestOptions(options), options });
  }

  /** One operation: what it read, what it derived, and the owner's receipts. Reads only. */
  operationGet(operationId: string, options: RequestOptions = {}): Promise<OperationDetail> {
    return this.op("operations_get", { path: { operation_id: operationId }, options });
  }

  /** What undoing the operation would restore, could not restore, and set aside. Changes
   * nothing. */
  operationUndoPreview(operationId: string, options: RequestOptions = {}): Promise<UndoPreview> {
    return this.op("operations_undo_preview", { path: { operation_id: operationId }, options });
  }

  /** Undo a merge or a summary at the revision its preview showed: the originals show on
   * their own again and its derived memories are set aside. */
  operationUndo(operationId: string, options: Revision): Promise<Undo> {
    return this.op("operations_undo", {
      path: { operation_id: operationId },
      body: { expected_revision: options.expected_revision },
      options,
    });
  }

  /** One derived memory. Reads only. */
  derivedGet(derivedId: string, options: RequestOptions = {}): Promise<Derived> {
    return this.op("derived_get", { path: { derived_id: derivedId }, options });
  }

  /** Delete a derived memory: its text is erased and the same claim is never derived
   * again. The originals do not change. */
  derivedDelete(derivedId: string, options: Revision): Promise<DerivedControl> {
    return this.op("derived_delete", {
      path: { derived_id: derivedId },
      query: { expected_revision: options.expected_revision },
      options,
    });
  }

  private derivedControl(op: OperationId, derivedId: string, body: object, options: WriteOptions): Promise<DerivedControl> {
    return this.op(op, { path: { derived_id: derivedId }, body, options });
  }

  /** Mark a derived memory reviewed; nothing else changes. */
  derivedReview(derivedId: string, options: Revision): Promise<DerivedControl> {
    return this.derivedControl("derived_review", derivedId, { expected_revision: options.expected_revision }, options);
  }

  /** Keep a derived memory out of recall and withhold its text; nothing is erased. */
  derivedRestrict(derivedId: string, options: Revision): Promise<DerivedControl> {
    return this.derivedControl("derived_restrict", derivedId, { expected_revision: options.expected_revision }, options);
  }

  /** Lift a restriction. */
  derivedUnrestrict(derivedId: string, options: Revision): Promise<DerivedControl> {
    return this.derivedControl("derived_unrestrict", derivedId, { expected_revision: options.expected_revision }, options);
  }

  /** Not so: the derived memory's text is erased and the same claim is never derived
   * again. The originals do not change. */
  derivedReject(derivedId: string, options: Revision): Promise<DerivedControl> {
    return this.derivedControl("derived_reject", derivedId, { expected_revision: options.expected_revision }, options);
  }

  /** Assert a hypothesis: it becomes an explicit memory of the owner (`statement`, or the
   * connection it names), and is never guessed again. */
  derivedPromote(derivedId: string, options: Revision & { readonly statement?: string }): Promise<DerivedControl> {
    const body = { expected_revision: options.expected_revision, statement: options.statement };
    return this.derivedControl("derived_promote", derivedId, body, options);
  }

  /** A summary's evidence journal: each claim with the originals that support it. Reads
   * only. */
  summaryGet(summaryId: string, options: RequestOptions = {}): Promise<SummaryJournal> {
    return this.op("summaries_get", { path: { summary_id: summaryId }, options });
  }

  // -- anything else ----------------------------------------------------------------------

  /** Any route of the API (`path` below `/api/v1`), answered as decoded JSON. A method
   * other than GET and HEAD is sent with an Idempotency-Key. */
  request(
    method: string,
    path: string,
    options: WriteOptions & {
      readonly query?: { readonly [name: string]: QueryValue };
      readonly json?: unknown;
      readonly content?: string;
      readonly headers?: { readonly [name: string]: string };
    } = {},
  ): Promise<unknown> {
    const upper = method.toUpperCase();
    const reads = upper === "GET" || upper === "HEAD";
    return this.send({
      operationId: "",
      method: upper,
      path,
      query: options.query ?? {},
      body: options.json,
      content: options.content,
      keyed: !reads,
      reads,
      idempotencyKey: options.idempotencyKey,
      signal: options.signal,
      headers: options.headers ?? {},
    });
  }

  // -- pagination -------------------------------------------------------------------------

  /** Every session of the owner, most recently active first, a page at a time. */
  iterSessions(options: { readonly pageSize?: number } & RequestOptions = {}): AsyncGenerator<Session> {
    const { pageSize = 50, signal } = options;
    return byOffset((limit, offset) => this.sessionList({ limit, offset, signal }), pageSize);
  }

  /** A session's events after `afterSequence`, in order, a page at a time (by sequence,
   * so events appended meanwhile are not skipped). */
  async *iterEvents(
    sessionId: string,
    options: { readonly afterSequence?: number; readonly pageSize?: number } & RequestOptions = {},
  ): AsyncGenerator<Event> {
    const { pageSize = 100, signal } = options;
    let after = options.afterSequence ?? 0;
    for (;;) {
      const page = await this.eventList(sessionId, { after_sequence: after, limit: pageSize, signal });
      yield* page;
      const last = page.at(-1);
      if (page.length < pageSize || last === undefined) return;
      after = last.sequence;
    }
  }

  /** Every memory matching the filters (`status`, `type`, `needs_review`), a page at a
   * time. */
  iterMemories(
    options: Pick<MemoryListOptions, "status" | "type" | "needs_review" | "signal"> & { readonly pageSize?: number } = {},
  ): AsyncGenerator<Memory> {
    const { pageSize = 50, ...filters } = options;
    return byOffset(
      async (limit, offset) => (await this.memoryList({ ...filters, limit, offset })).results,
      pageSize,
    );
  }

  /** The memories changed after `since` (a cursor, a time, nothing for all), to iterate
   * with `for await`; afterwards the feed's `cursor` is where to resume. */
  memoryChanges(since?: string | Date | null, options: { readonly pageSize?: number } & RequestOptions = {}): ChangeFeed<Memory> {
    const { pageSize = 50, signal } = options;
    return new ChangeFeed<Memory>(
      async (cursor, limit) => {
        const page = await this.memoryList({ changed_since: cursor, limit, signal });
        return { results: page.results, next: page.next_changed_since };
      },
      since,
      pageSize,
    );
  }

  /** Every challenge in `state` (`open` unless given), newest first, a page at a time. */
  iterChallenges(
    options: { readonly state?: ChallengeState; readonly pageSize?: number } & RequestOptions = {},
  ): AsyncGenerator<Challenge> {
    const { pageSize = 50, ...filters } = options;
    return byOffset(
      async (limit, offset) => (await this.challengeList({ ...filters, limit, offset })).results,
      pageSize,
    );
  }

  /** Every reconsolidation operation matching the filters (`kind`, `state`), newest
   * first, a page at a time. */
  iterOperations(
    options: Pick<OperationListOptions, "kind" | "state" | "signal"> & { readonly pageSize?: number } = {},
  ): AsyncGenerator<Operation> {
    const { pageSize = 50, ...filters } = options;
    return byOffset(
      async (limit, offset) => (await this.operationList({ ...filters, limit, offset })).results,
      pageSize,
    );
  }

  /** The operations changed after `since`, to iterate (see `memoryChanges`). */
  operationChanges(
    since?: string | Date | null,
    options: { readonly pageSize?: number } & RequestOptions = {},
  ): ChangeFeed<Operation> {
    const { pageSize = 50, signal } = options;
    return new ChangeFeed<Operation>(
      async (cursor, limit) => {
        const page = await this.operationList({ changed_since: cursor, limit, signal });
        return { results: page.results, next: page.next_changed_since };
      },
      since,
      pageSize,
    );
  }

  // -- conversations ----------------------------------------------------------------------

  /** The conversation whose session has `externalId` (your own id for it, opened if
   * new), or the session `sessionId`, or a new session. */
  async conversation(
    externalId?: string | null,
    options: { readonly sessionId?: string; readonly scope?: string } & RequestOptions = {},
  ): Promise<Conversation> {
    if (options.sessionId !== undefined) {
      return new Conversation(this, await this.sessionGet(options.sessionId, options));
    }
    const fields: SessionCreateInput = {};
    if (externalId !== undefined && externalId !== null) fields.external_id = externalId;
    if (options.scope !== undefined) fields.scope = options.scope;
    return new Conversation(this, await this.sessionCreate({ ...fields, signal: options.signal }));
  }
}

/** The client's method for each operation of the schema (an operation without one does
 * not compile: the key set is the schema's). */
export const METHODS: { readonly [Op in OperationId]: keyof ReverieClient } = {
  access_list: "accessList",
  account_erasure_confirm: "accountErasureConfirm",
  account_erasure_request: "accountErasureRequest",
  challenges_get: "challengeGet",
  challenges_keep: "challengeKeep",
  challenges_list: "challengeList",
  challenges_replace: "challengeReplace",
  derived_delete: "derivedDelete",
  derived_get: "derivedGet",
  derived_promote: "derivedPromote",
  derived_reject: "derivedReject",
  derived_restrict: "derivedRestrict",
  derived_review: "derivedReview",
  derived_unrestrict: "derivedUnrestrict",
  events_append: "eventAppend",
  events_erase: "eventErase",
  events_list: "eventList",
  export: "export",
  memories_confirm: "memoryConfirm",
  memories_correct: "memoryCorrect",
  memories_delete: "memoryDelete",
  memories_get: "memoryGet",
  memories_history: "memoryHistory",
  memories_list: "memoryList",
  memories_reject: "memoryReject",
  memories_remember: "remember",
  operations_get: "operationGet",
  operations_list: "operationList",
  operations_undo: "operationUndo",
  operations_undo_preview: "operationUndoPreview",
  recall: "recall",
  runs_complete: "runComplete",
  runs_create: "runCreate",
  runs_fail: "runFail",
  runs_get: "runGet",
  runs_wait: "runWait",
  sessions_close: "sessionClose",
  sessions_create: "sessionCreate",
  sessions_erase: "sessionErase",
  sessions_get: "sessionGet",
  sessions_list: "sessionList",
  summaries_get: "summaryGet",
  tokens_pause: "tokenPause",
  tokens_resume: "tokenResume",
};
