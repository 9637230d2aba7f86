"""The real Reverie service, started from this repository for the client's tests.

One service per test session: a fresh database (a SQLite file, or a new PostgreSQL
database when ``DATABASE_URL`` names PostgreSQL) migrated for it, the demo owner with
reconsolidation switched on (so that operations and derived memories exist), and two
fresh principals with their tokens, made the way the machine administrator makes them
(``manage.py principals`` and ``manage.py api_tokens``). The service runs in the
repository's own virtual environment (``REVERIE_PYTHON``, default ``.venv/bin/python``
at the repository's root); these tests run in the client's, which has no Django.
"""

import inspect
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from reverie_client import AsyncReverieClient, Retries, ReverieClient

PROJECT = Path(os.environ.get("REVERIE_PROJECT_DIR") or Path(__file__).resolve().parents[3])
PYTHON = os.environ.get("REVERIE_PYTHON") or str(PROJECT / ".venv" / "bin" / "python")
START_TIMEOUT = 60

# Run inside `manage.py shell`: the administrator's commands, in one process (each
# command on its own would start Django again).
SETUP = """
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
found["alice-discreet"] = run(
    "api_tokens", "create", "alice", "--name", "discreet", "--no-sensitive"
)
for assistant in ("chat", "ide"):
    found[f"alice-{assistant}"] = run(
        "api_tokens", "create", "alice", "--name", assistant, "--scope", f"assistant:{assistant}"
    )
print(json.dumps(found))
"""
# alice is the tests' owner (with a read-only token, one for the throttled server, one
# narrowed to each of two assistants and one kept from sensitive things),
# bob the other owner; carol and erin are erased by a test each, dana is reconsolidated
# for the asynchronous client's tests.
PRINCIPALS = ("alice", "bob", "carol", "dana", "erin")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _token_id(output: str) -> str:
    match = re.search(r"token ([0-9a-f-]{36}) for", output)
    return match.group(1) if match else ""


def _secret(output: str) -> str:
    match = re.search(r"rvk_\S+", output)
    assert match, f"no token in {output!r}"
    return match.group(0)


@dataclass
class Server:
    """A ``manage.py runserver`` process on loopback."""

    url: str
    process: subprocess.Popen
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Service:
    """The running service, the tokens of its principals (``tokens["bob"]``; see
    ``PRINCIPALS``), and its ``manage.py``."""

    url: str
    env: dict[str, str]
    workdir: Path
    database: str
    tokens: dict[str, str] = field(default_factory=dict)
    # The public ids of the same tokens, for the routes that name a token.
    token_ids: dict[str, str] = field(default_factory=dict)
    servers: list[Server] = field(default_factory=list)

    @property
    def token(self) -> str:
        return self.tokens["alice"]

    def manage(self, *args: str, timeout: float = 120) -> str:
        done = subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=PROJECT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode:
            raise AssertionError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def start_server(self, **extra_env: str) -> Server:
        """Another web process on the same database (say, with another rate limit)."""
        port = _free_port()
        log = self.workdir / f"server-{port}.log"
        with open(log, "wb") as out:
            process = subprocess.Popen(
                [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                cwd=PROJECT,
                env={**self.env, **extra_env},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        server = Server(f"http://127.0.0.1:{port}", process, log)
        self.servers.append(server)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(f"the service stopped:\n{log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{server.url}/healthz", timeout=2).status_code == 200:
                    return server
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        server.stop()
        raise AssertionError(f"the service did not answer in {START_TIMEOUT} s")

    def run_maintenance(self) -> str:
        """One maintenance pass (formation included), as the worker's schedule runs it."""
        return self.manage("run_maintenance", "--once")


def _postgres(url: str) -> tuple[dict[str, str], Callable[[], None]]:
    """A fresh database beside the one ``url`` names: the environment that points the
    service at it, and the function that drops it.

    Created by the role of ``MIGRATION_DATABASE_URL`` if set (the owner of the tables,
    which migrates), else by the role of ``DATABASE_URL``; that role needs CREATEDB.
    """
    owner_url = os.environ.get("MIGRATION_DATABASE_URL") or url
    name = f"reverie_client_{secrets.token_hex(4)}"

    def at(database_url: str, database: str) -> str:
        parts = urlsplit(database_url)
        return urlunsplit(parts._replace(path=f"/{database}"))

    admin = (
        "import sys, psycopg\n"
        "with psycopg.connect(sys.argv[1], autocommit=True) as c:\n"
        "    c.execute(sys.argv[2])\n"
    )

    def execute(statement: str) -> None:
        subprocess.run(
            [PYTHON, "-c", admin, at(owner_url, "postgres"), statement],
            check=True,
            capture_output=True,
            timeout=60,
        )

    execute(f'CREATE DATABASE "{name}"')
    env = {"DATABASE_URL": at(url, name)}
    if os.environ.get("MIGRATION_DATABASE_URL"):
        env["MIGRATION_DATABASE_URL"] = at(owner_url, name)
    return env, lambda: execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def service(tmp_path_factory) -> Iterator[Service]:
    if not Path(PYTHON).exists():
        pytest.fail(f"No Python for the service at {PYTHON} (run `make install` first).")
    workdir = tmp_path_factory.mktemp("reverie")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "MIGRATION_DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        DEBUG="1",
        SECRET_KEY=secrets.token_urlsafe(50),
        # Never the checkout's var/dev.env: everything the service reads is set here.
        REVERIE_ENV_FILE="",
        # Formation may consolidate a conversation as soon as its run completes, so
        # that a test can run it at once.
        REVERIE_FORMATION_IDLE_SECONDS="0",
        PYTHONUNBUFFERED="1",
    )
    database_url = os.environ.get("DATABASE_URL", "")
    drop = None
    if database_url.startswith(("postgres://", "postgresql://")):
        database_env, drop = _postgres(database_url)
        env.update(database_env)
        database = "postgresql"
    else:
        env["DATABASE_URL"] = f"sqlite:///{workdir / 'reverie.sqlite3'}"
        database = "sqlite"
    service = Service(url="", env=env, workdir=workdir, database=database)
    # Stopped from outside (CI's time bound), still stop the servers and drop the database.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        service.manage("migrate", "--no-input", "-v", "0")
        names = f"OUT = {str(workdir / 'evaluation')!r}\nPRINCIPALS = {PRINCIPALS!r}\n"
        output = service.manage("shell", "-c", names + SETUP)
        # The shell may announce what it imported first: the result is the last line.
        found = json.loads(output.strip().splitlines()[-1])
        service.tokens = {
            name: _secret(output) for name, output in found.items() if name != "reconsolidation"
        }
        service.token_ids = {
            name: _token_id(output) for name, output in found.items() if name != "reconsolidation"
        }
        service.url = service.start_server().url
        yield service
    finally:
        for server in service.servers:
            server.stop()
        if drop is not None:
            drop()
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_report_header(config):
    url = os.environ.get("DATABASE_URL", "")
    database = "PostgreSQL" if url.startswith(("postgres://", "postgresql://")) else "SQLite"
    return [f"reverie service: {PROJECT} ({PYTHON}), on a fresh {database} database"]


# Quick retries: the tests wait for nothing longer than they must.
FAST = Retries(attempts=3, backoff=0.05, max_backoff=0.2, max_retry_after=2)


@pytest.fixture
def client(service) -> Iterator[ReverieClient]:
    with ReverieClient(service.url, token=service.token, retries=FAST) as reverie:
        yield reverie


@pytest.fixture
def other_client(service) -> Iterator[ReverieClient]:
    with ReverieClient(service.url, token=service.tokens["bob"], retries=FAST) as reverie:
        yield reverie


@pytest.fixture
def demo_client(service) -> Iterator[ReverieClient]:
    with ReverieClient(service.url, token=service.tokens["demo"], retries=FAST) as reverie:
        yield reverie


@pytest.fixture
async def async_client(service):
    async with AsyncReverieClient(service.url, token=service.token, retries=FAST) as reverie:
        yield reverie


@pytest.fixture(scope="session")
def anyio_backend():
    return "asyncio"


@dataclass
class Throttled:
    url: str
    token: str
    per_second: int


@pytest.fixture(scope="session")
def throttled(service) -> Throttled:
    """A second web process on the same database that allows a token a few requests a
    second (REVERIE_API_RATE), used with a token no other test sends there."""
    per_second = 4
    server = service.start_server(REVERIE_API_RATE=f"{per_second}/s")
    return Throttled(server.url, service.tokens["alice-throttled"], per_second)


# -- every route, through each client ------------------------------------------------------
#
# The tests call each route through the synchronous and the asynchronous client; a run
# of the whole suite fails if one was left out (say, a route added without a test).

EXERCISED: dict[str, set[str]] = {"ReverieClient": set(), "AsyncReverieClient": set()}
_RUN = {"complete": True}


@pytest.fixture(scope="session", autouse=True)
def _record_routes():
    sync_send, async_send = ReverieClient.send, AsyncReverieClient.send

    def send(self, call):
        EXERCISED["ReverieClient"].add(call.operation_id)
        return sync_send(self, call)

    async def asend(self, call):
        EXERCISED["AsyncReverieClient"].add(call.operation_id)
        return await async_send(self, call)

    ReverieClient.send, AsyncReverieClient.send = send, asend
    yield
    ReverieClient.send, AsyncReverieClient.send = sync_send, async_send


def pytest_deselected(items):
    _RUN["complete"] = False


def pytest_collection_finish(session):
    modules = {item.path.name for item in session.items}
    present = {path.name for path in Path(__file__).parent.glob("test_*.py")}
    _RUN["complete"] = _RUN["complete"] and modules == present


def pytest_sessionfinish(session, exitstatus):
    if exitstatus != 0 or not _RUN["complete"]:
        return
    from reverie_client import routes

    wanted = {call_id(build) for build in routes.OPERATIONS}
    missing = {name: sorted(wanted - seen) for name, seen in EXERCISED.items() if wanted - seen}
    if missing:
        print(f"\nroutes no test called: {missing}", file=sys.stderr)
        session.exitstatus = 1


def call_id(build) -> str:
    arguments = {
        name: 1 if name == "expected_revision" else "0"
        for name, p in inspect.signature(build).parameters.items()
        if p.default is inspect.Parameter.empty
    }
    return build(**arguments).operation_id
