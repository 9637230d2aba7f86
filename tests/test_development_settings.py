"""`make run` leaves development settings that manage.py reads and WSGI never does."""

import os
import subprocess
import sys

from django.conf import settings

SCRUBBED = {
    key: value
    for key, value in os.environ.items()
    if key not in {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE", "REVERIE_ENV_FILE"}
}


def run(code_or_args, env):
    return subprocess.run(
        [sys.executable, *code_or_args],
        env={**SCRUBBED, **env},
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_manage_py_runs_in_a_plain_shell_with_the_development_file(tmp_path):
    dev_env = tmp_path / "dev.env"
    dev_env.write_text("DEBUG=1\nSECRET_KEY=" + "k" * 60 + "\n")

    with_file = run(["manage.py", "check"], {"REVERIE_ENV_FILE": str(dev_env)})
    without = run(["manage.py", "check"], {"REVERIE_ENV_FILE": ""})

    assert with_file.returncode == 0, with_file.stderr
    assert without.returncode != 0 and "Set SECRET_KEY" in without.stderr


def test_the_wsgi_application_never_reads_the_development_file(tmp_path):
    # manage.py names var/dev.env when it exists; the WSGI module must not, so
    # a checkout copied with that file is not served with DEBUG on.
    code = "import config.wsgi"
    served = run(["-c", code], {})

    assert served.returncode != 0 and "Set SECRET_KEY" in served.stderr
    assert "REVERIE_ENV_FILE" not in (settings.BASE_DIR / "config" / "wsgi.py").read_text()


def test_the_benchmark_commands_exist_in_development_only():
    # The benchmarks seed and delete in bulk: a production deployment must not
    # even offer their commands.
    code = (
        "import django; django.setup(); "
        "from django.conf import settings; "
        "print('benchmarks' in settings.INSTALLED_APPS)"
    )
    environment = {"DJANGO_SETTINGS_MODULE": "config.settings", "REVERIE_ENV_FILE": ""}
    production = run(["-c", code], {**environment, "SECRET_KEY": "k" * 60})
    development = run(["-c", code], {**environment, "DEBUG": "1"})

    assert production.returncode == 0, production.stderr
    assert production.stdout.strip() == "False"
    assert development.stdout.strip() == "True"
