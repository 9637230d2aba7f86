// Runs a command (the tests) against the real Reverie service, started from this
// repository: a fresh database (a SQLite file, or a new PostgreSQL database when
// DATABASE_URL names PostgreSQL) migrated for it, the demo owner with reconsolidation
// on (so that every route is in the schema and operations exist), fresh principals
// with their tokens made the way the machine administrator makes them, and two web
// processes on free loopback ports (the second with a small rate limit).
//
// The command finds all of it in the JSON file named by REVERIE_TEST_SERVICE. The
// service runs in the repository's virtual environment (REVERIE_PYTHON, default
// .venv/bin/python at the repository's root).
//
//   node scripts/with-service.mjs [--check-routes SCHEMA_MODULE] node --test .build/test/
//
// With --check-routes, a run whose command passed still fails when some operation of
// the schema module's OPERATIONS was never sent by a test (the tests note what they
// send in the directory named by the description's `exercised`).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const PROJECT = process.env.REVERIE_PROJECT_DIR || resolve(here, "../../..");
const PYTHON = process.env.REVERIE_PYTHON || join(PROJECT, ".venv", "bin", "python");
const START_TIMEOUT_MS = 60_000;
// alice is the tests' owner (with a read-only token, one for the throttled server and a
// spare one to pause), bob the other owner, carol is erased by a test, erin runs the
// README's snippet on an account of her own.
const PRINCIPALS = ["alice", "bob", "carol", "erin"];

// Run inside `manage.py shell`: the administrator's commands, in one process.
const SETUP = `
import io, json
from django.core.management import call_command

def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()

found = {"demo": run("seed_demo"), "reconsolidation": run("demo_reconsolidation", "--out", OUT)}
for name in PRINCIPALS:
    run("principals", "create", name)
    found[name] = run("api_tokens", "create", name, "--name", "client-tests")
found["alice-read-only"] = run("api_tokens", "create", "alice", "--name", "ro", "--read-only")
found["alice-throttled"] = run("api_tokens", "create", "alice", "--name", "throttled")
found["alice-spare"] = run("api_tokens", "create", "alice", "--name", "spare")
print(json.dumps(found))
`;

let argv = process.argv.slice(2);
let routesModule = null;
if (argv[0] === "--check-routes") {
  routesModule = resolve(argv[1]);
  argv = argv.slice(2);
}
const [command, ...args] = argv;
if (!command) {
  console.error("usage: with-service.mjs <command> [args...]");
  process.exit(2);
}

const workdir = mkdtempSync(join(tmpdir(), "reverie-ts-"));
const env = { ...process.env };
delete env.DATABASE_URL;
delete env.MIGRATION_DATABASE_URL;
delete env.DJANGO_SETTINGS_MODULE;
Object.assign(env, {
  DEBUG: "1",
  SECRET_KEY: randomBytes(40).toString("base64url"),
  // Never the checkout's var/dev.env: everything the service reads is set here.
  REVERIE_ENV_FILE: "",
  // Formation may consolidate a conversation as soon as its run completes.
  REVERIE_FORMATION_IDLE_SECONDS: "0",
  PYTHONUNBUFFERED: "1",
});

const servers = [];
let dropDatabase = () => {};
let cleaned = false;
let child = null;
// Stopped from outside (CI's time bound): pass it on to the command, or stop the
// servers and drop the database if the command has not started yet.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (child) {
      child.kill(signal);
    } else {
      cleanUp();
      process.exit(1);
    }
  });
}

function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  for (const server of servers) {
    if (server.exitCode === null && server.signalCode === null) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
  }
  dropDatabase();
  rmSync(workdir, { recursive: true, force: true });
}

function python(argv, extraEnv = {}) {
  const done = spawnSync(PYTHON, argv, {
    cwd: PROJECT,
    env: { ...env, ...extraEnv },
    encoding: "utf8",
    timeout: 180_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (done.status !== 0) {
    throw new Error(`${argv.slice(0, 3).join(" ")} failed:\n${(done.stderr || String(done.error ?? done.signal)).slice(-3000)}`);
  }
  return done.stdout;
}

// A fresh database beside the one `url` names, created (and dropped) by the role of
// MIGRATION_DATABASE_URL if set (the tables' owner, which migrates), else of `url`.
function postgres(url) {
  const ownerUrl = process.env.MIGRATION_DATABASE_URL || url;
  const name = `reverie_ts_client_${randomBytes(4).toString("hex")}`;
  const at = (databaseUrl, database) => {
    const parsed = new URL(databaseUrl);
    parsed.pathname = `/${database}`;
    return parsed.toString();
  };
  const admin =
    "import sys, psycopg\n" +
    "with psycopg.connect(sys.argv[1], autocommit=True) as c:\n" +
    "    c.execute(sys.argv[2])\n";
  const execute = (statement) => python(["-c", admin, at(ownerUrl, "postgres"), statement]);
  execute(`CREATE DATABASE "${name}"`);
  env.DATABASE_URL = at(url, name);
  if (process.env.MIGRATION_DATABASE_URL) env.MIGRATION_DATABASE_URL = at(ownerUrl, name);
  dropDatabase = () => {
    try {
      execute(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } catch (error) {
      console.error(String(error));
    }
  };
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function startServer(extraEnv = {}) {
  const port = await freePort();
  const log = join(workdir, `server-${port}.log`);
  const out = openSync(log, "w");
  const server = spawn(PYTHON, ["manage.py", "runserver", `127.0.0.1:${port}`, "--noreload"], {
    cwd: PROJECT,
    env: { ...env, ...extraEnv },
    stdio: ["ignore", out, out],
    detached: true,
  });
  servers.push(server);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      throw new Error(`the service stopped:\n${readFileSync(log, "utf8").slice(-3000)}`);
    }
    try {
      const answer = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (answer.status === 200) return url;
    } catch {
      // Not listening yet.
    }
    await new Promise((wake) => setTimeout(wake, 200));
  }
  throw new Error(`the service did not answer in ${START_TIMEOUT_MS / 1000} s`);
}

async function checkRoutes(exercised) {
  const { OPERATIONS } = await import(pathToFileURL(routesModule).href);
  const sent = new Set(
    readdirSync(exercised).flatMap((name) => readFileSync(join(exercised, name), "utf8").split("\n")),
  );
  const missing = Object.keys(OPERATIONS).filter((operation) => !sent.has(operation));
  if (missing.length === 0) return 0;
  console.error(`operations no test sent: ${missing.join(", ")}`);
  return 1;
}

function secret(output) {
  const match = /rvk_\S+/.exec(output);
  if (!match) throw new Error(`no token in ${JSON.stringify(output)}`);
  return match[0];
}

function tokenId(output) {
  const match = /token ([0-9a-f-]{36}) for/.exec(output);
  return match ? match[1] : "";
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL || "";
  let database = "sqlite";
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    postgres(databaseUrl);
    database = "postgresql";
  } else {
    env.DATABASE_URL = `sqlite:///${join(workdir, "reverie.sqlite3")}`;
  }
  python(["manage.py", "migrate", "--no-input", "-v", "0"]);
  const names = `OUT = ${JSON.stringify(join(workdir, "evaluation"))}\nPRINCIPALS = ${JSON.stringify(PRINCIPALS)}\n`;
  const output = python(["manage.py", "shell", "-c", names + SETUP]);
  // The shell may announce what it imported first: the result is the last line.
  const found = JSON.parse(output.trim().split("\n").at(-1));
  delete found.reconsolidation;
  const tokens = Object.fromEntries(Object.entries(found).map(([name, text]) => [name, secret(text)]));
  const tokenIds = Object.fromEntries(Object.entries(found).map(([name, text]) => [name, tokenId(text)]));
  const url = await startServer();
  const throttledPerSecond = 4;
  const throttledUrl = await startServer({ REVERIE_API_RATE: `${throttledPerSecond}/s` });
  const description = {
    url,
    database,
    tokens,
    tokenIds,
    throttled: { url: throttledUrl, token: tokens["alice-throttled"], perSecond: throttledPerSecond },
    manage: { python: PYTHON, project: PROJECT, env },
  };
  const exercised = join(workdir, "exercised");
  mkdirSync(exercised);
  description.exercised = exercised;
  const file = join(workdir, "service.json");
  writeFileSync(file, JSON.stringify(description));
  console.log(`reverie service: ${PROJECT} (${PYTHON}), on a fresh ${database} database at ${url}`);

  child = spawn(command, args, { stdio: "inherit", env: { ...process.env, REVERIE_TEST_SERVICE: file } });
  const code = await new Promise((done) => child.on("exit", (status, signal) => done(status ?? (signal ? 1 : 0))));
  if (code === 0 && routesModule !== null) return checkRoutes(exercised);
  return code;
}

let status = 1;
try {
  status = await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  cleanUp();
}
process.exit(status);
