"""django-q2 entry points: thin wrappers that call one service."""

from .login_throttle import login_throttle_purge


def login_throttle_purge_task() -> int:
    return login_throttle_purge()
