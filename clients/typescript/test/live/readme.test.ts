// The repository README's TypeScript snippet works as pasted: saved as memory.mjs in a
// project that installed the package, and run with the owner's token.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { service } from "../support.js";

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const README = join(PACKAGE, "..", "..", "README.md");
const RUNNABLE = /<!-- runnable-ts:[^>]*-->\n```ts\n([\s\S]*?)```/g;

test("the README's TypeScript snippet remembers and recalls against the live service", () => {
  const blocks = [...readFileSync(README, "utf8").matchAll(RUNNABLE)].map((match) => match[1] ?? "");
  assert.equal(blocks.length, 1);
  const live = service();
  const project = mkdtempSync(join(tmpdir(), "reverie-readme-"));
  try {
    // What `npm install /path/to/reverie/clients/typescript` makes: a link to the package.
    mkdirSync(join(project, "node_modules"));
    symlinkSync(PACKAGE, join(project, "node_modules", "reverie-client"), "dir");
    const snippet = (blocks[0] ?? "").replaceAll("http://127.0.0.1:8000", live.url);
    writeFileSync(join(project, "memory.mjs"), snippet);
    const done = spawnSync(process.execPath, ["memory.mjs"], {
      cwd: project,
      env: { ...process.env, REVERIE_TOKEN: live.tokens.erin },
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(done.status, 0, done.stderr);
    const [recalled, viaTool] = done.stdout.trim().split("\n");
    assert.match(recalled ?? "", /'User drinks jasmine tea\.'/);
    assert.equal(viaTool, "User drinks jasmine tea.");
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
