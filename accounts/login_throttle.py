"""Sign-in throttling for the review site and the operator admin.

Failed sign-ins are counted three ways, each over a window
(``REVERIE_LOGIN["window_seconds"]``) that starts at its first failure:

- per client address: past ``failures_per_address``, every sign-in from that
  address is refused;
- per username at one address: past ``failures_per_pair``, that username is
  refused from that address;
- per username, from anywhere: past ``failures_per_username`` the username is
  in backoff. An address that has failures of its own then gets one attempt at
  it per backoff delay, which doubles with each further failure up to
  ``backoff_max_seconds``, and is refused in between.

No rule refuses an address that has no failures of its own for another
address's failures: whoever guesses at an owner's username, from as many
addresses as they like, cannot keep the owner out, since the right password
from a clean address always signs in. A refusal is decided before the password
is looked at and reads the same whatever the password was.

An attempt counts against its address and its pair before the password is
checked, and is given back if the password was right or the attempt is
refused: parallel attempts cannot all pass a check that each fails afterwards.
A successful sign-in also clears the username's failures (only its owner can
make one) and those of its pair; the address's stay until their window ends,
or until the administrator clears them (``manage.py sign_in_unlock``), which
is recorded in the operator trail.

The counts live in the ``sign_in`` cache, which every process shares: Redis
with ``REDIS_URL``, the database otherwise (``accounts.sign_in_cache``).
"""

import hashlib
import ipaddress
import secrets
from dataclasses import dataclass
from typing import TypedDict

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.db import transaction

from core.errors import not_found, validation_error

from .audit import operator_action_record
from .models import OperatorAction, User
from .sign_in_cache import SignInDatabaseCache

CACHE_ALIAS = "sign_in"


def _cache() -> BaseCache:
    return caches[CACHE_ALIAS]


@dataclass(frozen=True)
class LoginAttempt:
    """One sign-in attempt, between ``login_attempt_begin`` and its outcome."""

    refused: bool
    address_key: str
    pair_key: str
    username_key: str
    backoff_key: str
    # The username's failures when the attempt began.
    username_failures: int


def _digest(*parts: str) -> str:
    # Hashed: the cache is no place for usernames or addresses.
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _username(username: str | None) -> str:
    return (username or "").strip().lower()


def _address(address: str | None) -> str:
    """What an address counts as: an IPv6 client as its /64, which one subscriber holds whole."""
    try:
        parsed = ipaddress.ip_address(address or "")
    except ValueError:
        return address or ""
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class _Keys(TypedDict):
    address_key: str
    pair_key: str
    username_key: str
    backoff_key: str


def _generation_keys(username: str, address: str) -> tuple[str, str]:
    return f"sign-in:gen:user:{_digest(username)}", f"sign-in:gen:addr:{_digest(address)}"


def _keys(username: str, address: str) -> _Keys:
    """The counters' keys. Each names the generation of its username and address, which
    clearing replaces: the counters of an old generation are never read again."""
    cache = _cache()
    user_gen_key, addr_gen_key = _generation_keys(username, address)
    generations = cache.get_many([user_gen_key, addr_gen_key])
    user = (username, generations.get(user_gen_key, ""))
    addr = (address, generations.get(addr_gen_key, ""))
    return {
        "address_key": f"sign-in:addr:{_digest(*addr)}",
        "pair_key": f"sign-in:pair:{_digest(*user, *addr)}",
        "username_key": f"sign-in:user:{_digest(*user)}",
        "backoff_key": f"sign-in:backoff:{_digest(*user)}",
    }


def _count_add(key: str) -> int:
    """Count one at ``key``, opening a window if none is open; return the count."""
    cache, window = _cache(), settings.REVERIE_LOGIN["window_seconds"]
    for _ in range(3):
        if cache.add(key, 1, timeout=window):
            return 1
        try:
            count = cache.incr(key)
        except ValueError:
            continue  # The window ended between add and incr.
        if count <= 1:
            # Redis's incr creates a key that expired after its existence
            # check, with no expiry: give it a window. A count back at zero
            # may as well start a new one.
            cache.touch(key, window)
        return count
    raise RuntimeError("The sign-in cache neither adds nor counts.")


def _count_remove(key: str) -> None:
    cache = _cache()
    try:
        count = cache.decr(key)
    except ValueError:
        return  # The window ended meanwhile: nothing to give back.
    if count < 0:
        cache.delete(key)  # Redis recreated an expired key (see _count_add).


def _backoff_seconds(failures: int) -> int:
    limits = settings.REVERIE_LOGIN
    steps = failures - limits["failures_per_username"]
    return min(limits["backoff_max_seconds"], 2 ** min(steps, 30))


def login_attempt_begin(*, username: str, address: str) -> LoginAttempt:
    """Count a sign-in attempt as ``username`` from ``address``; say whether it is refused.

    Unless it is refused, check the password and report the outcome with
    ``login_attempt_failed`` or ``login_attempt_succeeded``.
    """
    limits, cache = settings.REVERIE_LOGIN, _cache()
    keys = _keys(_username(username), _address(address))
    username_failures = cache.get(keys["username_key"], 0)

    def refused() -> LoginAttempt:
        _count_remove(keys["address_key"])
        _count_remove(keys["pair_key"])
        return LoginAttempt(refused=True, username_failures=username_failures, **keys)

    # Counted first, given back below: the count includes attempts under way.
    at_address = _count_add(keys["address_key"])
    at_pair = _count_add(keys["pair_key"])
    if at_address > limits["failures_per_address"] or at_pair > limits["failures_per_pair"]:
        return refused()
    clean = at_address == 1
    if not clean and username_failures >= limits["failures_per_username"]:
        # One attempt per delay from addresses with failures: the first to
        # claim the delay goes ahead, the others are refused until it ends.
        claimed = cache.add(keys["backoff_key"], True, timeout=_backoff_seconds(username_failures))
        if not claimed:
            return refused()
    return LoginAttempt(refused=False, username_failures=username_failures, **keys)


def login_attempt_failed(attempt: LoginAttempt) -> None:
    """The password was wrong: the attempt stays counted, and counts for the username."""
    if attempt.refused:
        return
    failures = attempt.username_failures + 1
    # The backoff row before the username's: every attempt takes its rows in
    # one order (address, pair, backoff, username), so that on PostgreSQL,
    # where each stays locked until the request ends, none waits in a circle.
    if failures >= settings.REVERIE_LOGIN["failures_per_username"]:
        _cache().set(attempt.backoff_key, True, timeout=_backoff_seconds(failures))
    _count_add(attempt.username_key)


def login_attempt_succeeded(attempt: LoginAttempt) -> None:
    """The password was right: the attempt is given back, the failures of its pair and of
    its username cleared."""
    if attempt.refused:
        return
    cache = _cache()
    _count_remove(attempt.address_key)
    # One key at a time, in the order attempts take them (see login_attempt_failed).
    for key in (attempt.pair_key, attempt.backoff_key, attempt.username_key):
        cache.delete(key)


def login_throttle_clear(*, username: str = "", address: str = "") -> User | None:
    """Clear the failed sign-ins of the account named ``username`` (from every address),
    those from ``address`` (for every username), or, given both, both; return the account.

    The machine administrator's action: recorded in the operator trail. The
    counters cleared are never read again; they expire with their window.
    """
    username, address = (username or "").strip(), (address or "").strip()
    if not username and not address:
        raise validation_error("Name a username, an address or both.")
    if address:
        try:
            address = str(ipaddress.ip_address(address))
        except ValueError:
            raise validation_error(f"{address!r} is not an IP address.", field="address") from None
    principal = None
    if username:
        principal = User.objects.filter(username=username).first()
        if principal is None:
            raise not_found("account")
    user_gen_key, addr_gen_key = _generation_keys(_username(username), _address(address))
    with transaction.atomic():
        operator_action_record(
            action=OperatorAction.Action.SIGN_IN_UNLOCKED,
            via=OperatorAction.Via.SHELL,
            principal=principal,
            target=principal.public_id if principal else "",
            details={"address": address} if address else {},
        )
        # After the record, so that clearing happens only if it is recorded.
        generations = {}
        if username:
            generations[user_gen_key] = secrets.token_hex(8)
        if address:
            generations[addr_gen_key] = secrets.token_hex(8)
        _cache().set_many(generations, timeout=None)
    return principal


def login_throttle_purge() -> int:
    """Delete the counters whose window has ended from the database; return how many.

    Redis expires its own keys; the database keeps rows until they are deleted.
    """
    cache = _cache()
    return cache.purge_expired() if isinstance(cache, SignInDatabaseCache) else 0
