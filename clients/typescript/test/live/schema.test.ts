// The client against the OpenAPI document the live service serves (drf-spectacular, with
// the reconsolidation surface on, so that every route is in it): these fail when they
// drift.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { before, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { ERROR_CLASSES, InvalidResponseError, METHODS, type OperationId, ReverieClient } from "../../src/index.js";
import { SAMPLE_ID, service } from "../support.js";

// .build/test/live -> the package's root.
const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
// The generator itself (a build script, plain JavaScript, outside the compiled tests).
const { render } = (await import(pathToFileURL(join(PACKAGE, "scripts", "render.mjs")).href)) as {
  render: (document: unknown) => Promise<Record<string, string>>;
};

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: { "application/json": { schema: { $ref: string } } } };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { enum?: string[]; properties?: object; required?: string[] }> };
}

let document: Document;

before(async () => {
  const live = service();
  const answer = await fetch(`${live.url}/api/v1/schema/?format=json`, {
    headers: { Authorization: `Bearer ${live.tokens.alice}` },
  });
  assert.equal(answer.status, 200);
  document = (await answer.json()) as Document;
});

test("the generated types and shapes are what the served schema renders to", async () => {
  const rendered = await render(document);
  for (const [name, text] of Object.entries(rendered)) {
    const committed = readFileSync(join(PACKAGE, "src", "generated", name), "utf8");
    assert.ok(committed === text, `src/generated/${name} differs from the served schema: run \`npm run generate\``);
  }
});

test("every error code of the schema has its class, in the schema's order", () => {
  assert.deepEqual(Object.keys(ERROR_CLASSES), document.components.schemas.CodeEnum?.enum);
});

function operations(): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]): [string, string, Operation] => [method.toUpperCase(), path, operation]),
  );
}

test("every operation of the schema is a method of the client, and nothing else is", () => {
  const served = operations().map(([, , operation]) => operation.operationId);
  assert.deepEqual(Object.keys(METHODS).sort(), served.sort());
  for (const method of Object.values(METHODS)) {
    assert.equal(typeof ReverieClient.prototype[method], "function", method);
  }
});

// The arguments each method needs besides its path's ids.
const ARGUMENTS: Partial<Record<OperationId, unknown[]>> = {
  memories_remember: ["User likes tea."],
  recall: ["tea"],
  account_erasure_confirm: ["token"],
  events_append: ["Hello."],
  memories_correct: [{ expected_revision: 1, statement: "User likes coffee." }],
  derived_promote: [{ expected_revision: 1, statement: "User runs." }],
};
const REVISED = new Set<string>([
  "memories_delete",
  "memories_confirm",
  "memories_reject",
  "operations_undo",
  "derived_delete",
  "derived_review",
  "derived_restrict",
  "derived_unrestrict",
  "derived_reject",
]);
// Writes whose route keeps no Idempotency-Key.
const UNKEYED = new Set(["recall", "account_erasure_request", "account_erasure_confirm"]);

test("each method sends its operation: method, path, parameters, body fields and key", async () => {
  for (const [method, path, operation] of operations()) {
    const op = operation.operationId as OperationId;
    const seen: { method: string; url: URL; headers: Headers; body: unknown }[] = [];
    const recording: typeof fetch = async (input, init) => {
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      seen.push({ method: init?.method ?? "GET", url: new URL(String(input)), headers: new Headers(init?.headers), body });
      return new Response("{}", { status: 200, headers: { "Content-Type": "application/json" } });
    };
    const client = new ReverieClient({ baseUrl: "http://reverie.test", token: "t", fetch: recording });
    const parameters = operation.parameters ?? [];
    const pathNames = parameters.filter((p) => p.in === "path").map((p) => p.name);
    const args: unknown[] = [...pathNames.map(() => SAMPLE_ID), ...(ARGUMENTS[op] ?? [])];
    if (REVISED.has(op)) args.push({ expected_revision: 1 });
    const call = (client[METHODS[op]] as (...a: unknown[]) => Promise<unknown>).apply(client, args);
    // The recording answers `{}`, which no operation's schema allows (or, for export, does).
    await call.catch((error: unknown) => assert.ok(error instanceof InvalidResponseError, `${op}: ${String(error)}`));

    assert.equal(seen.length, 1, op);
    const [sent] = seen as [(typeof seen)[0]];
    assert.equal(sent.method, method, op);
    assert.equal(sent.url.pathname, path.replace(/\{\w+\}/g, SAMPLE_ID), op);
    const query = parameters.filter((p) => p.in === "query");
    const sentQuery = [...sent.url.searchParams.keys()];
    assert.ok(sentQuery.every((name) => query.some((p) => p.name === name)), `${op}: ${sentQuery}`);
    for (const required of query.filter((p) => p.required)) assert.ok(sent.url.searchParams.has(required.name), op);
    const bodyRef = operation.requestBody?.content["application/json"].schema.$ref;
    if (bodyRef === undefined) {
      assert.equal(sent.body, undefined, op);
    } else {
      const component = document.components.schemas[bodyRef.split("/").at(-1) ?? ""];
      const fields = Object.keys(sent.body as object);
      assert.ok(fields.every((field) => Object.hasOwn(component?.properties ?? {}, field)), `${op}: ${fields}`);
      for (const required of component?.required ?? []) assert.ok(fields.includes(required), `${op} sends ${required}`);
    }
    const keyed = method !== "GET" && !UNKEYED.has(op);
    assert.equal(sent.headers.has("Idempotency-Key"), keyed, op);
  }
});
