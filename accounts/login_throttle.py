"""Sign-in throttling for the review site and the operator admin.

Failed sign-ins are counted per username and per client address in the cache
(per process with the default local-memory cache, shared with Redis), over a
rolling window that restarts at the first failure. Past the limit every
attempt is refused, the right password included, until the window ends; a
successful sign-in clears the username's count.
"""

import hashlib

from django.conf import settings
from django.core.cache import cache


def _keys(username, address):
    # Hashed: the cache is no place for usernames.
    name = hashlib.sha256((username or "").strip().lower().encode()).hexdigest()
    return {
        "username": (
            f"login-failures:user:{name}",
            settings.REVERIE_LOGIN["failures_per_username"],
        ),
        "address": (
            f"login-failures:addr:{address or ''}",
            settings.REVERIE_LOGIN["failures_per_address"],
        ),
    }


def login_refused(*, username, address):
    """Whether sign-ins for ``username`` or from ``address`` are refused for now."""
    counts = cache.get_many([key for key, _ in _keys(username, address).values()])
    return any(counts.get(key, 0) >= limit for key, limit in _keys(username, address).values())


def login_failure_record(*, username, address):
    window = settings.REVERIE_LOGIN["window_seconds"]
    for key, _ in _keys(username, address).values():
        if not cache.add(key, 1, timeout=window):
            try:
                cache.incr(key)
            except ValueError:
                # Expired between add and incr: this failure starts a new window.
                cache.add(key, 1, timeout=window)


def login_success_record(*, username, address):
    key, _ = _keys(username, address)["username"]
    cache.delete(key)


def login_retry_minutes():
    return max(1, settings.REVERIE_LOGIN["window_seconds"] // 60)
