"""Run the formation extractor and its pure gates over a JSONL file of messages.

For owners and support to see what formation would propose from a message
and why a proposal would be rejected. It reads a file and prints; it touches
no database (it does not even need migrations).

Input, one JSON object per line:
``{"id": "...", "text": "..."}`` with optional ``"session"`` (lines of one
session form one conversation, in file order), ``"occurred_at"`` (ISO 8601
with a time zone; default now) and ``"known"`` (``[{"subject", "statement",
"type", "polarity"?}]``, beliefs the owner already has). Each text is read as a
``user.message.created`` by the owner.

Output, one JSON line per input line:
``{"id": "...", "candidates": [{"type", "subject", "statement", "polarity",
"confidence", "sensitivity", "temporal", "decision", "reason"}]}``, or
``{"id": ..., "error": "..."}`` for a line that could not be read. The service's
stateful gates (prior rejections, deletion fences, conflicts, its per-run
ceiling) are not applied here.
"""

import json
import sys
from argparse import ArgumentParser
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from formation.candidates import ExtractionRequest, KnownBelief, MemoryCandidateExtractor
from formation.extraction import (
    KnownLedger,
    decision_as_dict,
    extraction_decide,
    user_message,
)
from formation.extractor import DeterministicExtractor
from memory.enums import Polarity


class _BadLine(ValueError):
    pass


def _known(value: object) -> tuple[KnownBelief, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _BadLine("known must be a list of beliefs")
    beliefs: list[KnownBelief] = []
    for entry in value:
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(name), str) for name in ("subject", "statement", "type")
        ):
            raise _BadLine("each known belief needs string subject, statement and type")
        beliefs.append(
            KnownBelief(
                subject=entry["subject"],
                statement=entry["statement"],
                type=entry["type"],
                polarity=entry.get("polarity", Polarity.POSITIVE),
            )
        )
    return tuple(beliefs)


def _occurred_at(value: object) -> datetime:
    if value is None:
        return timezone.now()
    if not isinstance(value, str):
        raise _BadLine("occurred_at must be an ISO 8601 string")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as error:
        raise _BadLine("occurred_at is not an ISO 8601 date-time") from error
    if timezone.is_naive(moment):
        raise _BadLine("occurred_at needs a time zone")
    return moment


def _parse(
    line: str,
) -> tuple[str, str | tuple[str, ...], str | int | None, datetime, dict[str, Any]]:
    """The message id, text parts, session, time and known beliefs of one line."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise _BadLine(f"not JSON: {error.msg}") from error
    except ValueError as error:
        # Valid JSON Python will not read (a number of thousands of digits): no .msg.
        raise _BadLine(f"not JSON: {error}") from error
    if not isinstance(data, dict):
        raise _BadLine("each line must be a JSON object")
    message_id = data.get("id")
    if not isinstance(message_id, str | int) or isinstance(message_id, bool) or message_id == "":
        raise _BadLine("id must be a non-empty string")
    text = data.get("text")
    if isinstance(text, list) and all(isinstance(part, str) for part in text):
        text = tuple(text)
    elif not isinstance(text, str):
        raise _BadLine("text must be a string or a list of strings")
    session = data.get("session")
    if session is not None and not isinstance(session, str | int):
        raise _BadLine("session must be a string")
    return str(message_id), text, session, _occurred_at(data.get("occurred_at")), data


class Command(BaseCommand):
    help = "Print what the formation extractor and its gates decide for each message of a file."

    requires_system_checks = []

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="a JSONL file of messages, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        if path == "-":
            self._run(sys.stdin)
            return
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                self._run(handle)
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from error

    def _run(self, lines: Iterable[str]) -> None:
        extractor = DeterministicExtractor()
        ledgers: dict[str, KnownLedger] = {}
        for line in lines:
            if line.strip():
                self.stdout.write(json.dumps(self._line(line, extractor, ledgers)))

    def _line(
        self, line: str, extractor: MemoryCandidateExtractor, ledgers: dict[str, KnownLedger]
    ) -> dict[str, Any]:
        try:
            message_id, text, session, occurred_at, data = _parse(line)
            extra_known = _known(data.get("known"))
        except _BadLine as error:
            return {"id": _loose_id(line), "error": str(error)}
        ledger = ledgers.setdefault(str(session), KnownLedger()) if session is not None else None
        known = {b.subject: b for b in (*(ledger.known if ledger else ()), *extra_known)}
        request = ExtractionRequest(
            messages=(user_message(id=message_id, text=text, occurred_at=occurred_at),),
            known=tuple(known.values()),
        )
        outcome = extraction_decide(request, extractor=extractor)
        if ledger is not None:
            ledger.record(outcome.decisions)
        return {
            "id": message_id,
            "candidates": [decision_as_dict(decision) for decision in outcome.decisions],
        }


def _loose_id(line: str) -> str | int | None:
    """The id of a line that failed to parse, when it has a readable one."""
    try:
        data = json.loads(line)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str | int) and not isinstance(value, bool) else None
