"""A question asked of both banks of a conversation: each bank holds every turn, and the
fused answer gives a turn once, however many banks found it."""

import json
from collections import Counter

import pytest

from evaluation.arms import ARMS, run_arm
from evaluation.locomo import load_dataset

from .fixtures import tiny_dataset

pytestmark = pytest.mark.django_db


def asked_of_both(question):
    raw = tiny_dataset()
    raw[0]["qa"].append({"question": question, "answer": "-", "evidence": ["D1:1"], "category": 1})
    return load_dataset(json.dumps(raw).encode())


@pytest.mark.parametrize("arm", ["control", "hybrid"])
def test_a_turn_both_banks_find_takes_one_of_the_k_places(arm):
    # Names neither speaker: both banks are asked.
    dataset = asked_of_both("Who got a Kindle, and how is the Kindle going?")

    record = run_arm(ARMS[arm], dataset, k=10)

    (case,) = [o for o in record["observations"] if o["question_id"] == "conv-a:q4"]
    assert case["banks"] == ["Alice", "Bob"]
    turns = Counter(
        source for item in case["items"] if item["kind"] == "message" for source in item["sources"]
    )
    assert {"conv-a:D1:1", "conv-a:D2:1"} <= set(turns)
    assert max(turns.values()) == 1
