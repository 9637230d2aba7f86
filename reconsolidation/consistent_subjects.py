"""Subjects a pass weighed and found consistent, remembered by this process while they
stay as they were.

A popular subject holds a claim that may turn another around in nearly every slice
of a full scan, and weighing all its beliefs again in each of those slices made a
full pass grow faster than the bank. A subject's weighing depends on its live beliefs
alone, so its answer stands while their number and their newest change stand (its
mark). Remembered per process, so a pass that lands on another worker weighs the
subject again, and by a digest of the subject, never its words.
"""

import hashlib
import threading
from collections.abc import Mapping
from datetime import datetime

LIMIT = 1 << 13

# A subject's mark: its live beliefs and their newest change.
SubjectMark = tuple[int, datetime]

_consistent: dict[tuple[int, bytes], SubjectMark] = {}
_lock = threading.Lock()


def _key(principal_id: int, subject: str) -> tuple[int, bytes]:
    return principal_id, hashlib.blake2b(subject.encode(), digest_size=16).digest()


def consistent_unchanged(principal_id: int, marks: Mapping[str, SubjectMark]) -> set[str]:
    """The subjects of ``marks`` (``{subject: mark}``) that were found consistent when
    their mark was the one given."""
    with _lock:
        return {
            subject
            for subject, mark in marks.items()
            if _consistent.get(_key(principal_id, subject)) == mark
        }


def consistent_remember(principal_id: int, marks: Mapping[str, SubjectMark]) -> None:
    """Remember the subjects of ``marks`` as consistent at their marks; the ones
    remembered longest ago make room."""
    with _lock:
        for subject, mark in marks.items():
            key = _key(principal_id, subject)
            _consistent.pop(key, None)
            _consistent[key] = mark
        while len(_consistent) > LIMIT:
            del _consistent[next(iter(_consistent))]


def consistent_forget() -> None:
    """Forget every subject (tests; a process that must start over)."""
    with _lock:
        _consistent.clear()
