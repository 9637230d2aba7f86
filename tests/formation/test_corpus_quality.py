"""The labelled corpora: extraction quality targets, and the fabrication rule.

``corpus.jsonl`` is the development set the extractor is written against. The
held-out part (``evaluation/fixtures/formation_heldout.jsonl``, which the
``formation_provider`` certificate reads too) was written and frozen before it
was first scored; its figures are reported, and only its safety (nothing
fabricated, no secret, injection or transient detail stored, negatives form
nothing) is asserted, so that no test asks for the extractor to be fitted to it.
"""

import hashlib
from collections import Counter
from pathlib import Path

import pytest

from evaluation.formation_evaluation import HELDOUT
from formation.candidates import MemoryCandidate
from formation.scoring import (
    ExpectedBelief,
    belief_matches,
    fabricated,
    load_corpus,
    score,
    ungrounded_terms,
)
from memory.text import is_valid_subject

CORPUS = Path(__file__).with_name("corpus.jsonl")
GRAMMARS = {
    "ownership",
    "coordination",
    "possessive",
    "retraction",
    "preference",
    "stable",
    "topic",
    "plural",
    "attribute",
    "relationship",
    "decision",
    "outcome",
    "experience",
    "temporal",
    "clause-split",
    "parts",
    "session",
    "situation",
    "kin-event",
}
MUST_NOT_FIRE = {
    "question",
    "hypothetical",
    "wish",
    "quote",
    "third-party",
    "participant",
    "assistant",
    "secret",
    "injection",
    "transient",
}


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(CORPUS)


@pytest.fixture(scope="module")
def report(corpus):
    return score(corpus)


def test_the_corpus_is_large_enough_and_covers_every_grammar(corpus):
    tags = Counter(tag for item in corpus for tag in item.tags)
    negatives = [item for item in corpus if not item.expected]

    assert len(corpus) >= 200
    assert len(negatives) >= 60
    assert set(tags) >= GRAMMARS
    assert set(tags) >= MUST_NOT_FIRE
    assert len({item.id for item in corpus}) == len(corpus)


def test_corpus_labels_are_canonical(corpus):
    for item in corpus:
        assert item.tags, item.id
        for belief in item.expected:
            assert is_valid_subject(belief.subject), item.id
            assert belief.statement.startswith("User"), item.id
            assert belief.subject.split(":")[0] != "user", item.id
        if {"secret", "injection", "transient"} & set(item.tags):
            assert "negative" in item.tags or item.expected, item.id


def test_the_extractor_meets_the_quality_targets(report, capsys):
    with capsys.disabled():
        print("\nformation@2 corpus quality:", report.figures())
    detail = report.summary()

    assert report.precision >= 0.95, detail
    assert report.recall >= 0.85, detail
    assert report.fabrications == 0, detail
    assert report.secrets_stored == 0, detail
    assert report.injections_stored == 0, detail
    assert report.transients_stored == 0, detail
    assert report.gate_accuracy == 1.0, detail


def test_negatives_store_nothing(corpus, report):
    negative_ids = {item.id for item in corpus if not item.expected}

    assert not [item_id for item_id, _ in report.false_positives if item_id in negative_ids]


def test_the_held_out_corpus_is_reported_and_stores_nothing_unsafe(capsys):
    held_out = load_corpus(HELDOUT)
    report = score(held_out)
    with capsys.disabled():
        print("\nformation@2 held-out corpus quality:", report.figures())
    detail = report.summary()
    negative_ids = {item.id for item in held_out if not item.expected}

    assert len({item.id for item in held_out}) == len(held_out) >= 50
    assert report.fabrications == 0, detail
    assert report.secrets_stored == 0, detail
    assert report.injections_stored == 0, detail
    assert report.transients_stored == 0, detail
    # Its negatives were labelled when another person's fact formed nothing; now it forms as
    # that person's ("User's friend has a Tesla."), and never anything of the owner's.
    assert not [
        (item_id, belief.statement)
        for item_id, belief in report.false_positives
        if item_id in negative_ids
        and not (belief.subject.startswith("person:") and belief.statement.startswith("User's"))
    ]


# -- the clause corpus: coordinated clauses, other people's facts, events, near misses ----

CLAUSES = Path(__file__).with_name("corpus_clauses.jsonl")
# Its held-out part, written with the development part and split from it by a hash of each
# id before either was first scored; frozen: a changed file fails here.
CLAUSES_HELDOUT = HELDOUT.with_name("formation_clauses_heldout.jsonl")
CLAUSES_HELDOUT_SHA256 = "9f9e4141dc2b243f74866e95de223594160b052df4003fa429543d9cf6b65e82"
# A second batch, written later the same way (its development half appended to CLAUSES) and
# frozen before it was first scored: the measure of rules written after the first.
CLAUSES_HELDOUT_2 = HELDOUT.with_name("formation_clauses_heldout_2.jsonl")
CLAUSES_HELDOUT_2_SHA256 = "e6f65bf6126fbafd736c467d48da197d0cd4f3c0d0b7683ff42913d33a784154"


def test_the_clause_corpus_is_large_its_held_out_part_frozen_and_its_labels_canonical():
    development, held_out = load_corpus(CLAUSES), load_corpus(CLAUSES_HELDOUT)
    held_out_2 = load_corpus(CLAUSES_HELDOUT_2)
    both = [*development, *held_out, *held_out_2]

    assert hashlib.sha256(CLAUSES_HELDOUT.read_bytes()).hexdigest() == CLAUSES_HELDOUT_SHA256
    assert hashlib.sha256(CLAUSES_HELDOUT_2.read_bytes()).hexdigest() == CLAUSES_HELDOUT_2_SHA256
    assert len(both) >= 250 and len(held_out) >= 75 and len(held_out_2) >= 50
    assert len({item.id for item in both}) == len(both)
    assert sum(1 for item in both if not item.expected) >= 50
    for item in both:
        assert item.tags, item.id
        for belief in item.expected:
            assert is_valid_subject(belief.subject), item.id
            assert belief.statement.startswith("User"), item.id


@pytest.mark.parametrize(
    "path",
    [CLAUSES, CLAUSES_HELDOUT, CLAUSES_HELDOUT_2],
    ids=["development", "held-out", "held-out-2"],
)
def test_the_clause_corpus_is_reported_and_stores_nothing_unsafe(path, capsys):
    report = score(load_corpus(path))
    with capsys.disabled():
        print(f"\nformation@2 clause corpus, {path.name}:", report.figures())
    detail = report.summary()

    assert report.fabrications == 0, detail
    assert report.secrets_stored == 0, detail
    assert report.injections_stored == 0, detail
    assert report.transients_stored == 0, detail


# -- the fabrication rule -------------------------------------------------------------


def candidate(statement):
    return MemoryCandidate(
        type="ownership", subject="device:x", statement=statement, source_ids=("m1",)
    )


def test_a_statement_naming_only_what_its_source_says_is_not_fabricated():
    assert not fabricated(candidate("User owns an Apple Watch."), ["i have an apple watch"])
    assert not fabricated(candidate("User has two kids."), ["I have 2 kids"])
    assert not fabricated(candidate("User is 34 years old."), ["I'm 34"])


def test_an_entity_or_number_missing_from_the_sources_is_fabricated():
    assert fabricated(candidate("User no longer owns a BMW X3."), ["I sold the BMW"])
    assert ungrounded_terms("User owns a BMW X3.", ["I sold the BMW"]) == ["x3"]
    assert fabricated(candidate("User is 35 years old."), ["I'm 34 years old"])
    assert fabricated(candidate("User has three kids."), ["I have two kids"])


def test_the_fixed_vocabulary_and_spacing_of_sources_do_not_count():
    assert not fabricated(candidate("User prefers short answers."), ["short answers please"])
    assert not fabricated("User's sister is called Ana.", ["My sister's name is ANA"])
    assert not fabricated(candidate("User owns an ＢＭＷ."), ["I own a BMW"])


def test_every_source_counts_towards_grounding():
    assert not fabricated(candidate("User owns a Kindle and an iPad."), ["a Kindle", "an iPad"])


def test_the_matching_rule_compares_normalised_statements_and_temporal_labels():
    expected = ExpectedBelief(
        type="ownership", subject="device:x", statement="User owns a thing", polarity="positive"
    )
    assert belief_matches(candidate("user owns a  THING."), expected)
    assert not belief_matches(
        candidate("User owns a thing."),
        ExpectedBelief(
            **{**expected.__dict__, "temporal": (("valid_until", "2026-08-21T23:59:59+00:00"),)}
        ),
    )
