"""The shipped qualification data: reading it strictly, and its digest.

``formation_sessions.jsonl`` holds cases of formation (an account's explicit
memories, then sessions of messages, each with the durable facts a careful reader
forms from it); ``reconsolidation_banks.jsonl`` holds labelled banks in the format of
the reconsolidation evaluation (``evaluation.reconsolidation_runner``). Both are
pinned by SHA-256 in ``REVERIE_CAPABILITIES``; ``README.md`` beside them describes
the format.
"""

import hashlib
import json
from pathlib import Path
from typing import Any

from evaluation.reconsolidation_runner import FixtureError, read_fixtures
from memory.enums import BeliefType, Polarity

HERE = Path(__file__).parent
FORMATION_DATA = HERE / "formation_sessions.jsonl"
RECONSOLIDATION_DATA = HERE / "reconsolidation_banks.jsonl"
# The shipped data of each kind of qualification.
DATA = {"formation": FORMATION_DATA, "reconsolidation": RECONSOLIDATION_DATA}
ROLES = ("user", "assistant")


class DataError(ValueError):
    """The qualification data is not well-formed; the message says where."""


# A case or session of the data as read: JSON, checked field by field.
Json = dict[str, Any]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _require(condition: object, where: str, what: str) -> None:
    if not condition:
        raise DataError(f"{where}: {what}")


def _known(entry: Any, where: str) -> Json:
    _require(isinstance(entry, dict), where, "a known memory is an object")
    _require(entry.get("type") in BeliefType.values, where, "unknown memory type")
    _require(entry.get("polarity") in Polarity.values, where, "unknown polarity")
    for name in ("subject", "statement"):
        _require(isinstance(entry.get(name), str) and entry[name], where, f"no {name}")
    return entry


def _expected(entry: Any, where: str) -> Json:
    _require(isinstance(entry, dict), where, "an expected fact is an object")
    _require(entry.get("polarity") in Polarity.values, where, "unknown polarity")
    terms = entry.get("terms")
    _require(
        isinstance(terms, list) and terms and all(isinstance(t, str) and t for t in terms),
        where,
        "an expected fact names its terms",
    )
    _require(isinstance(entry.get("sensitive", False), bool), where, "sensitive is a boolean")
    return entry


def _session(session: Any, where: str) -> Json:
    _require(isinstance(session, dict), where, "a session is an object")
    messages = session.get("messages")
    _require(isinstance(messages, list) and messages, where, "a session holds messages")
    for message in messages:
        _require(
            isinstance(message, dict)
            and message.get("role") in ROLES
            and isinstance(message.get("text"), str)
            and message["text"].strip(),
            where,
            "a message is a role (user or assistant) and a text",
        )
    _require(isinstance(session.get("expected", []), list), where, "expected is a list")
    for entry in session.get("expected", []):
        _expected(entry, where)
    return session


def formation_cases(raw: bytes) -> list[Json]:
    """The cases of the formation data, from its bytes, or DataError."""
    cases: list[Json] = []
    ids: set[str] = set()
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise DataError("the formation data is not UTF-8") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            case = json.loads(line)
        except ValueError:
            raise DataError(f"{where}: not JSON") from None
        _require(isinstance(case, dict) and isinstance(case.get("id"), str), where, "no id")
        _require(case["id"] not in ids, where, f"case id {case['id']!r} repeats")
        ids.add(case["id"])
        for entry in case.get("known", []):
            _known(entry, where)
        sessions = case.get("sessions")
        _require(isinstance(sessions, list) and sessions, where, "a case holds sessions")
        for session in sessions:
            _session(session, where)
        never = case.get("never_stored", [])
        _require(
            isinstance(never, list) and all(isinstance(s, str) and s for s in never),
            where,
            "never_stored is a list of strings",
        )
        cases.append(case)
    _require(cases, "the formation data", "holds no case")
    return cases


def read(path: str | Path) -> tuple[bytes, str]:
    """(bytes, sha256) of a shipped data file, or DataError."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise DataError(f"cannot read {path}: {error.strerror}") from None
    return raw, sha256(raw)


def single_message(session: Json) -> bool:
    """Whether a session reaches formation as a one-message request."""
    return len(session["messages"]) == 1


def pinned_cases(kind: str, *, pin: str | None, capability: str) -> tuple[list[Json], str]:
    """(cases, digest) of the shipped data of ``kind``, or DataError when it cannot be read or
    is not the data ``capability`` is pinned to (``pin``, its SHA-256)."""
    path = DATA[kind]
    raw, digest = read(path)
    if digest != pin:
        raise DataError(
            f"the qualification data {path.name} (sha256 {digest[:12]}) is not the one "
            f"{capability} is pinned to (sha256 {(pin or 'none')[:12]}): it was edited"
        )
    try:
        cases = formation_cases(raw) if kind == "formation" else read_fixtures(path)[0]
    except (DataError, FixtureError) as error:
        raise DataError(f"the shipped qualification data is unreadable: {error}") from None
    return cases, digest
