"""The sensitivity classifier against the labelled corpus shipped beside it: health (mental
health and eating disorders included), sexuality, religion, politics, finances and criminal
records are sensitive; the near misses that share their words are not."""

import pytest

from memory.enums import Sensitivity
from memory.screening import classify_sensitivity
from memory.sensitivity import CORPUS_PATH, labelled_corpus, sensitive_categories

CORPUS = labelled_corpus()
CATEGORIES = {
    "health",
    "mental_health",
    "eating_disorder",
    "sexuality",
    "religion",
    "politics",
    "finances",
    "criminal",
}


def test_the_corpus_covers_every_category_with_positives_and_near_misses():
    positives = {row["category"] for row in CORPUS if row["sensitive"]}
    near_misses = [row for row in CORPUS if not row["sensitive"]]

    assert CORPUS_PATH.name == "sensitivity.jsonl"
    assert positives == CATEGORIES
    assert len(CORPUS) >= 80 and len(near_misses) >= 25
    assert all(row["category"] == "none" for row in near_misses)
    assert all(row["note"] for row in CORPUS)


@pytest.mark.parametrize("row", CORPUS, ids=lambda row: row["text"][:40])
def test_the_classifier_labels_the_corpus(row):
    label = classify_sensitivity(row["text"])

    assert (label == Sensitivity.SENSITIVE) == row["sensitive"], row["note"]
    if row["sensitive"]:
        assert row["category"] in sensitive_categories(row["text"])
