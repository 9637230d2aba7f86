// The repository README's TypeScript part works as written: the package packed and
// installed in a project of its own, the snippet saved there as memory.mjs and run with
// the service's address and the owner's token.
import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { service } from "../support.js";

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const README = join(PACKAGE, "..", "..", "README.md");
const RUNNABLE = /<!-- runnable-ts:[^>]*-->\n```ts\n([\s\S]*?)```/g;
const VERSION = (JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as { version: string }).version;

function run(command: string, args: string[], options: SpawnSyncOptions): string {
  const done = spawnSync(command, args, { encoding: "utf8", timeout: 120_000, ...options });
  assert.equal(done.status, 0, `${command} ${args.join(" ")}:\n${String(done.stderr)}`);
  return String(done.stdout);
}

test("the README's TypeScript snippet remembers and recalls from a project that installed the packed package", () => {
  const readme = readFileSync(README, "utf8");
  const tarball = `reverie-client-${VERSION}.tgz`;
  assert.ok(readme.includes(`npm install /path/to/reverie/clients/typescript/${tarball}`), "the README installs the packed file");
  const blocks = [...readme.matchAll(RUNNABLE)].map((match) => match[1] ?? "");
  assert.equal(blocks.length, 1);
  const live = service();
  const project = mkdtempSync(join(tmpdir(), "reverie-readme-"));
  try {
    // `npm pack` as the README says, minus the build its prepack repeats: dist/ is fresh.
    run("npm", ["pack", "--ignore-scripts", "--pack-destination", project], { cwd: PACKAGE });
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "assistant", private: true }));
    run("npm", ["install", "--offline", "--no-audit", "--no-fund", `./${tarball}`], { cwd: project });
    writeFileSync(join(project, "memory.mjs"), blocks[0] ?? "");
    const output = run(process.execPath, ["memory.mjs"], {
      cwd: project,
      env: { ...process.env, REVERIE_URL: live.url, REVERIE_TOKEN: live.tokens.erin },
    });
    const [recalled, viaTool] = output.trim().split("\n");
    assert.match(recalled ?? "", /'User drinks jasmine tea\.'/);
    assert.equal(viaTool, "User drinks jasmine tea.");
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
