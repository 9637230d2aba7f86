"""The shipped corpus of secrets and near misses (``memory/corpora/secrets.jsonl``), as
pytest parameters: each line is ``{"text", "secret", "note"}``, and a secret's line names
the ``values`` that must never survive redaction."""

import json
import unicodedata
from pathlib import Path

import pytest

import memory

CORPUS = Path(memory.__file__).parent / "corpora" / "secrets.jsonl"


def _lines():
    with CORPUS.open(encoding="utf-8") as corpus:
        return [json.loads(line) for line in corpus if line.strip()]


LINES = _lines()


def _param(line):
    return pytest.param(line, id=line["note"])


ALL = [_param(line) for line in LINES]
SECRETS = [_param(line) for line in LINES if line["secret"]]
NEAR_MISSES = [_param(line) for line in LINES if not line["secret"]]


def left_in(text, line):
    """The values of ``line`` that ``text`` still shows, read as a person would read it
    (compatibility forms folded, invisible characters dropped)."""
    shown = "".join(
        char for char in unicodedata.normalize("NFKC", text) if unicodedata.category(char) != "Cf"
    )
    return [
        value
        for value in line.get("values", [])
        if value in text or unicodedata.normalize("NFKC", value) in shown
    ]
