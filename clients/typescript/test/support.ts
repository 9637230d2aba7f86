// Helpers of the client's tests: the live service that scripts/with-service.mjs started
// (described in the file named by REVERIE_TEST_SERVICE), clients of its principals, and
// a local server whose answers a test scripts.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

import { type Call, type Retries, ReverieClient } from "../src/index.js";

export interface Service {
  readonly url: string;
  readonly database: string;
  readonly tokens: Record<string, string>;
  readonly tokenIds: Record<string, string>;
  readonly throttled: { readonly url: string; readonly token: string; readonly perSecond: number };
  readonly manage: { readonly python: string; readonly project: string; readonly env: Record<string, string> };
  readonly exercised: string;
}

let described: Service | undefined;

/** The running service; a test that needs it fails (never skips) without it. */
export function service(): Service {
  if (described === undefined) {
    const file = process.env.REVERIE_TEST_SERVICE;
    if (!file) throw new Error("No live service: run the tests with `npm test` (scripts/with-service.mjs).");
    described = JSON.parse(readFileSync(file, "utf8")) as Service;
    recordRoutes(described.exercised);
  }
  return described;
}

// Each test process notes the operations it sent; with-service.mjs fails a whole run that
// left one out (say, a route added without a test).
function recordRoutes(directory: string): void {
  const send = ReverieClient.prototype.send;
  const file = join(directory, `${process.pid}.txt`);
  ReverieClient.prototype.send = function (this: ReverieClient, call: Call) {
    if (call.operationId) appendFileSync(file, `${call.operationId}\n`);
    return send.call(this, call);
  };
}

/** Retries that wait for next to nothing. */
export const FAST: Retries = { attempts: 3, backoffMs: 10, maxBackoffMs: 20, maxRetryAfterMs: 2000 };

/** A client of the live service with the token of `principal` (see with-service.mjs). */
export function clientOf(principal = "alice", retries: Retries = FAST): ReverieClient {
  const live = service();
  const token = live.tokens[principal];
  if (token === undefined) throw new Error(`no token for ${principal}`);
  return new ReverieClient({ baseUrl: live.url, token, retries });
}

/** A value no other test uses: the principals are shared by the whole run. */
export function unique(prefix = "t"): string {
  return `${prefix}-${randomBytes(4).toString("hex")}`;
}

/** One maintenance pass (formation included), as the worker's schedule runs it. */
export function runMaintenance(): string {
  const { python, project, env } = service().manage;
  const done = spawnSync(python, ["manage.py", "run_maintenance", "--once"], {
    cwd: project,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  if (done.status !== 0) throw new Error(`run_maintenance failed:\n${done.stderr.slice(-3000)}`);
  return done.stdout;
}

export type Answer = (request: IncomingMessage, body: string, response: ServerResponse) => void;

export interface Scripted {
  readonly url: string;
  readonly requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
  close(): Promise<void>;
}

/** A server on a free loopback port whose every request `answer` handles. */
export async function scripted(answer: Answer): Promise<Scripted> {
  const requests: Scripted["requests"] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });
      answer(request, body, response);
    });
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

/** Answer with `status` and a JSON body. */
export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

export const SAMPLE_ID = "00000000-0000-0000-0000-000000000000";

/** A session as the service writes it. */
export const SESSION = {
  id: SAMPLE_ID,
  external_id: null,
  scope: "",
  created_at: "2026-01-01T00:00:00Z",
  last_activity_at: "2026-01-01T00:00:00Z",
  closed_at: null,
  erased_at: null,
  last_sequence: 0,
};
