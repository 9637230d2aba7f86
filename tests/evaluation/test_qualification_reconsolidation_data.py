"""The labelled banks a reconsolidation provider is qualified on: consistent, and large enough
in every kind of label to tell a provider that adds merges from one that adds false ones."""

from collections import Counter

import pytest

from evaluation.qualification.data import RECONSOLIDATION_DATA
from evaluation.reconsolidation_runner import read_fixtures
from memory.enums import BeliefStatus, BeliefType, Polarity, Portability, Sensitivity
from memory.text import claim_words, is_valid_subject

BANKS = RECONSOLIDATION_DATA
TRAPS = frozenset(
    "different_claim negation numbers people polarity qualifier scope sensitivity subject "
    "tense type validity word antonym near_miss".split()
)
# What two beliefs must share to state one claim at all: anything else that differs is a
# trap of its own (scope, sensitivity, validity, type, polarity, subject).
CLAIM_FIELDS = ("subject", "type", "polarity", "scope", "sensitivity", "valid_from", "valid_until")
MIN_CASES = 30
MIN_MERGE_GROUPS = 24
MIN_REWORDED_MERGE_GROUPS = 12
MIN_RESTATED_MERGE_GROUPS = 4
MIN_NO_MERGE_PAIRS = 24
MIN_PAIRS_PER_TRAP = 2
MIN_NOTICES = 10
MIN_CONNECTIONS = 10
MIN_RELATED_MEMORIES = 3
MIN_ERASURE_CASES = 3
BELIEFS_PER_CASE = range(2, 15)


@pytest.fixture(scope="module")
def cases():
    cases, _ = read_fixtures(BANKS)
    return cases


def _beliefs(case):
    return {belief["key"]: belief for belief in case["beliefs"]}


def reworded(case, group):
    """Whether a merge group holds wordings a deterministic merge cannot join: more than
    case, punctuation, spacing and articles apart."""
    beliefs = _beliefs(case)
    return len({claim_words(beliefs[key]["statement"]) for key in group}) > 1


def test_every_belief_is_one_the_evaluation_can_import(cases):
    for case in cases:
        keys = [belief["key"] for belief in case["beliefs"]]
        assert len(set(keys)) == len(keys), case["id"]
        assert len(keys) in BELIEFS_PER_CASE, case["id"]
        for belief in case["beliefs"]:
            where = (case["id"], belief["key"])
            assert is_valid_subject(belief["subject"]), where
            assert belief["type"] in BeliefType.values, where
            assert belief["polarity"] in Polarity.values, where
            assert belief["sensitivity"] in Sensitivity.values, where
            assert belief["portability"] in Portability.values, where
            assert belief["status"] in (BeliefStatus.ACTIVE, BeliefStatus.PROVISIONAL), where
            assert belief["scope"] == "principal" or belief["scope"].startswith("assistant:")
            assert belief["statement"].strip() and belief["sessions"], where


def test_every_label_names_beliefs_of_its_own_bank(cases):
    for case in cases:
        beliefs, labels = _beliefs(case), case["labels"]
        subjects = {belief["subject"] for belief in case["beliefs"]}
        for group in labels["merge"] + labels["notice"]:
            assert len(set(group)) >= 2 and set(group) <= set(beliefs), case["id"]
        for pair in labels["no_merge"]:
            assert len(set(pair["pair"])) == 2 and set(pair["pair"]) <= set(beliefs), case["id"]
        for pair in labels["connections"]:
            assert len(set(pair)) == 2 and set(pair) <= subjects, case["id"]
        for query in labels["queries"]:
            assert query["query"].strip() and query["expect"], case["id"]
            assert set(query["expect"]) <= set(beliefs), case["id"]
            erased = {key for key in query["expect"] if beliefs[key]["delete_after_pass"]}
            assert not erased, (case["id"], query["query"])


def test_merge_groups_agree_on_everything_but_their_wording(cases):
    for case in cases:
        beliefs = _beliefs(case)
        seen = set()
        for group in case["labels"]["merge"]:
            assert not seen & set(group), case["id"]
            seen |= set(group)
            for field in CLAIM_FIELDS:
                assert len({beliefs[key][field] for key in group}) == 1, (case["id"], field)


def test_no_trap_pair_is_labelled_as_one_claim(cases):
    for case in cases:
        groups = [set(group) for group in case["labels"]["merge"]]
        for pair in case["labels"]["no_merge"]:
            assert pair["trap"] in TRAPS, (case["id"], pair["trap"])
            assert not any(set(pair["pair"]) <= group for group in groups), case["id"]


def test_the_banks_hold_enough_of_every_kind_of_label(cases):
    merges = [(case, group) for case in cases for group in case["labels"]["merge"]]
    rewordings = sum(reworded(case, group) for case, group in merges)
    traps = Counter(pair["trap"] for case in cases for pair in case["labels"]["no_merge"])

    assert len(cases) >= MIN_CASES
    assert len(merges) >= MIN_MERGE_GROUPS
    assert rewordings >= MIN_REWORDED_MERGE_GROUPS
    assert len(merges) - rewordings >= MIN_RESTATED_MERGE_GROUPS
    assert sum(traps.values()) >= MIN_NO_MERGE_PAIRS
    assert {trap: traps[trap] for trap in TRAPS if traps[trap] < MIN_PAIRS_PER_TRAP} == {}
    assert sum(len(case["labels"]["notice"]) for case in cases) >= MIN_NOTICES
    assert sum(len(case["labels"]["connections"]) for case in cases) >= MIN_CONNECTIONS
    assert all(case["labels"]["queries"] for case in cases)
    erasures = [case for case in cases if any(b["delete_after_pass"] for b in case["beliefs"])]
    assert len(erasures) >= MIN_ERASURE_CASES


def test_connections_are_labelled_only_where_a_topic_has_enough_memories(cases):
    for case in cases:
        connected = {subject for pair in case["labels"]["connections"] for subject in pair}
        if not connected:
            continue
        related = [
            belief
            for belief in case["beliefs"]
            if belief["subject"] in connected and not belief["delete_after_pass"]
        ]
        assert len(related) >= MIN_RELATED_MEMORIES, case["id"]
        assert len({s for belief in related for s in belief["sessions"]}) >= 2, case["id"]


def test_the_banks_vary_what_privacy_a_derived_memory_must_keep(cases):
    beliefs = [belief for case in cases for belief in case["beliefs"]]

    assert {belief["sensitivity"] for belief in beliefs} == set(Sensitivity.values)
    assert {belief["portability"] for belief in beliefs} == set(Portability.values)
    assert any(belief["scope"] != "principal" for belief in beliefs)
    assert sum(belief["sensitivity"] == "normal" for belief in beliefs) > len(beliefs) / 2
