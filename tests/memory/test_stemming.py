"""The Porter stemmer stems as recall's full-text index does."""

import re
import sqlite3
from pathlib import Path

import pytest

from memory.stemming import stem

ROOT = Path(__file__).resolve().parents[2]
TEXTS = [
    ROOT / "tests" / "formation" / "corpus.jsonl",
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [
        ("caresses", "caress"),
        ("ponies", "poni"),
        ("cats", "cat"),
        ("agreed", "agre"),
        ("plastered", "plaster"),
        ("motoring", "motor"),
        ("hopping", "hop"),
        ("filing", "file"),
        ("happy", "happi"),
        ("relational", "relat"),
        ("preferred", "prefer"),
        ("prefers", "prefer"),
        ("lives", "live"),
        ("living", "live"),
        ("generalizations", "gener"),
        ("adjustment", "adjust"),
        ("controll", "control"),
        ("x3", "x3"),
        ("café", "café"),
        ("is", "is"),
    ],
)
def test_porters_examples(word, stemmed):
    assert stem(word) == stemmed


def test_every_word_of_the_formation_corpus_and_documentation_stems_as_sqlite_fts5_does():
    words = sorted(
        {word for path in TEXTS for word in re.findall(r"[a-z]+", path.read_text().lower())}
    )
    assert len(words) > 2000
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    db.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", enumerate(words, 1))
    indexed = {words[row - 1]: term for term, row, _, _ in db.execute("SELECT * FROM v")}
    assert {word: stem(word) for word in words} == indexed
