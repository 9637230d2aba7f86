"""The README's runnable examples work as pasted.

A block marked ``<!-- runnable: ... -->`` just above its fence runs in bash against a live
server on a port of its own (never the default 8000), with the ``TOKEN`` the README tells the
reader to export and the ``PORT`` it was started on. Superuser steps and long-running
commands are not marked. ``curl`` here fails on an HTTP error (``--fail-with-body``), so an
example that only prints an error body fails the test, and sends what the TLS-terminating
proxy adds, as every request of the test suite does (it runs the production settings).
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from accounts.services import api_token_create
from tests.factories import UserFactory

README = Path(settings.BASE_DIR) / "README.md"
RUNNABLE = re.compile(r"<!-- runnable:[^>]*-->\n```sh\n(.*?)```", re.DOTALL)


def runnable_blocks():
    return RUNNABLE.findall(README.read_text())


def test_the_readme_marks_its_runnable_examples():
    blocks = runnable_blocks()

    assert len(blocks) >= 2
    assert any("/recall" in block for block in blocks)


def database_url():
    """The test database, for the ``manage.py`` commands an example runs."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def failing_curl(tmp_path):
    """A ``curl`` first on the PATH that fails on an HTTP error status, behind the proxy."""
    real = shutil.which("curl")
    shim = tmp_path / "bin" / "curl"
    shim.parent.mkdir()
    shim.write_text(
        f"#!/bin/sh\nexec {real} --fail-with-body -H 'X-Forwarded-Proto: https' \"$@\"\n"
    )
    shim.chmod(0o755)
    return shim.parent


@pytest.mark.django_db(transaction=True)
def test_each_runnable_example_works_against_a_live_server(live_server, failing_curl):
    port = live_server.url.rsplit(":", 1)[1]
    assert port != "8000"
    owner = UserFactory(username="demo")
    _, secret = api_token_create(principal=owner, name="README")
    env = {
        **os.environ,
        "PATH": f"{failing_curl}{os.pathsep}{os.environ['PATH']}",
        "PORT": port,
        "TOKEN": secret,
        "DATABASE_URL": database_url(),
        "DEBUG": "1",
    }

    outputs = []
    for block in runnable_blocks():
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", block],
            cwd=settings.BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, (
            f"{block}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
        )
        outputs.append(done.stdout)

    conversation, accounts = outputs
    # The recall after the explicit memory finds it.
    assert re.search(
        r'"items":\[\{"kind":"belief","id":"[^"]+","text":"User drinks jasmine', conversation
    )
    assert "I just got an Apple Watch." in conversation
    # The owner's profile, the explicit memory in it.
    assert re.search(r'"profile":true\}', conversation)
    assert accounts.count("/review/password/") == 2
