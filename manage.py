#!/usr/bin/env python
import os
import sys
from pathlib import Path

# Written by `make run` (DEBUG=1 and a generated SECRET_KEY): commands run in
# a plain shell use the development settings it holds. The WSGI application
# never reads it.
DEV_ENV = Path(__file__).resolve().parent / "var" / "dev.env"


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if DEV_ENV.exists():
        os.environ.setdefault("REVERIE_ENV_FILE", str(DEV_ENV))
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
