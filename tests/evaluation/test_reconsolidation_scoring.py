"""The reconsolidation scorer: pure, from labels and what was derived, no database."""

import pytest

from evaluation.reconsolidation_scoring import (
    atomic_recall,
    connections,
    false_merges,
    missed_merges,
    missed_notices,
    privacy_failures,
    reconsolidation_metrics,
    trap_violations,
)


def belief(key, subject="device:kindle", statement=None, **fields):
    return {
        "key": key,
        "subject": subject,
        "statement": statement or f"Statement {key}.",
        "sensitivity": "normal",
        "portability": "portable",
        "scope": "principal",
        **fields,
    }


def case(beliefs, **labels):
    return {
        "id": "c",
        "beliefs": beliefs,
        "labels": {
            "merge": [],
            "no_merge": [],
            "notice": [],
            "connections": [],
            "queries": [],
            **labels,
        },
    }


def derived(kind, sources, **fields):
    return {
        "kind": kind,
        "status": "active",
        "statement": "",
        "subject": "",
        "sensitivity": "normal",
        "portability": "portable",
        "scope": "principal",
        "sources": sources,
        "foreign_sources": 0,
        "claims": [],
        **fields,
    }


def observed(*items, queries=()):
    return {"case": "c", "derived": list(items), "queries": list(queries), "failed": None}


BANK = [belief("a"), belief("b"), belief("c")]


def test_a_merge_of_labelled_equivalents_is_not_false_and_covers_the_group():
    labelled = case(BANK, merge=[["a", "b"]])
    seen = observed(derived("merged", ["a", "b"]))

    assert false_merges(labelled, seen) == []
    assert missed_merges(labelled, seen) == []


def test_a_merge_reaching_beyond_a_labelled_group_is_a_false_merge():
    labelled = case(BANK, merge=[["a", "b"]], no_merge=[{"pair": ["b", "c"], "trap": "polarity"}])
    seen = observed(derived("merged", ["a", "b", "c"]))

    assert false_merges(labelled, seen) == [{"case": "c", "sources": ["a", "b", "c"]}]
    assert trap_violations(labelled, seen) == [
        {"case": "c", "pair": ["b", "c"], "trap": "polarity"}
    ]


def test_a_merge_of_unlabelled_beliefs_is_false_and_a_labelled_group_unmerged_is_missed():
    labelled = case(BANK, merge=[["a", "b"]])
    seen = observed(derived("merged", ["b", "c"]))

    assert len(false_merges(labelled, seen)) == 1
    assert missed_merges(labelled, seen) == [{"case": "c", "group": ["a", "b"]}]


def test_only_merges_count_as_merges():
    labelled = case(BANK)
    seen = observed(derived("uncertainty_notice", ["a", "c"]), derived("summary", ["a", "b"]))

    assert false_merges(labelled, seen) == []


def test_a_notice_must_depend_on_every_side_of_a_labelled_contradiction():
    labelled = case(BANK, notice=[["a", "b", "c"]])

    assert missed_notices(labelled, observed(derived("uncertainty_notice", ["a", "b"]))) == [
        {"case": "c", "group": ["a", "b", "c"]}
    ]
    assert missed_notices(labelled, observed(derived("uncertainty_notice", ["a", "b", "c"]))) == []


@pytest.mark.parametrize(
    ("sources", "fields", "reason"),
    [
        ([belief("a", sensitivity="sensitive"), belief("b")], {}, "less_sensitive_than_a_source"),
        ([belief("a", portability="local"), belief("b")], {}, "more_portable_than_a_source"),
        ([belief("a", scope="assistant:coder"), belief("b")], {}, "scope_differs_from_sources"),
        ([belief("a"), belief("b")], {"scope": "assistant:coder"}, "scope_differs_from_sources"),
        ([belief("a"), belief("b")], {"foreign_sources": 1}, "mixes_owners"),
    ],
)
def test_a_derived_memory_that_widens_its_sources_is_a_privacy_failure(sources, fields, reason):
    failures = privacy_failures(case(sources), observed(derived("merged", ["a", "b"], **fields)))

    assert [failure["reason"] for failure in failures] == [reason]


def test_a_derived_memory_as_restrictive_as_its_strictest_source_is_no_failure():
    sources = [belief("a", sensitivity="personal", portability="local"), belief("b")]
    seen = observed(derived("merged", ["a", "b"], sensitivity="personal", portability="local"))

    assert privacy_failures(case(sources), seen) == []


def test_text_of_a_deleted_source_left_anywhere_in_a_derived_memory_is_a_privacy_failure():
    sources = [
        belief("a", statement="Yusuf is User's landlord.", delete_after_pass=True),
        belief("b", statement="Yusuf is the User's landlord"),
    ]
    in_statement = derived("merged", ["a", "b"], statement="yusuf is user's landlord")
    in_claim = derived(
        "summary", ["b"], claims=[{"statement": "Yusuf is User's landlord.", "supports": ["b"]}]
    )
    erased = derived("merged", ["a", "b"], status="invalidated")
    other_text = derived("merged", ["a", "b"], statement="Yusuf is the User's landlord")

    failures = privacy_failures(case(sources), observed(in_statement, in_claim, erased, other_text))

    assert [(f["kind"], f["reason"]) for f in failures] == [
        ("merged", "holds_deleted_text"),
        ("summary", "holds_deleted_text"),
    ]


def test_atomic_recall_counts_only_original_beliefs_in_the_top_k():
    query = {"query": "kindle", "expect": ["a", "b"]}
    crowded = [
        {"kind": "belief", "key": "a"},
        {"kind": "derived", "derived_kind": "merged"},
        {"kind": "belief", "key": "b"},
    ]

    assert atomic_recall(query, crowded, 3) == 1.0
    assert atomic_recall(query, crowded, 2) == 0.5
    assert atomic_recall({"query": "x", "expect": []}, crowded, 3) is None


def test_connections_are_subject_pairs_proposed_by_hypotheses_and_summaries_only():
    bank = [belief("a", "person:ana"), belief("b", "hobby:hiking"), belief("c", "food:ramen")]
    labelled = case(bank, connections=[["hobby:hiking", "person:ana"]])
    seen = observed(
        derived("hypothesis", ["a", "b"]),
        derived("summary", ["b", "c"]),
        derived("merged", ["a", "c"]),
    )

    expected, proposed = connections(labelled, seen)

    assert expected == {frozenset({"person:ana", "hobby:hiking"})}
    assert proposed == {
        frozenset({"person:ana", "hobby:hiking"}),
        frozenset({"hobby:hiking", "food:ramen"}),
    }


def test_a_connection_invalidated_since_proposes_nothing():
    bank = [belief("a", "person:ana"), belief("b", "hobby:hiking"), belief("c", "food:ramen")]
    labelled = case(bank, connections=[])
    seen = observed(
        derived("summary", ["a", "b"], status="invalidated"),
        derived("hypothesis", ["b", "c"], status="promoted"),
    )

    _, proposed = connections(labelled, seen)

    assert proposed == {frozenset({"hobby:hiking", "food:ramen"})}


def test_the_metrics_add_up_over_cases_and_report_the_recall_drop():
    labelled = case(
        [belief("a", "person:ana"), belief("b", "hobby:hiking"), belief("c")],
        merge=[["a", "b"]],
        connections=[["person:ana", "hobby:hiking"]],
        queries=[{"query": "q", "expect": ["a", "b"]}],
    )
    ranking = {
        "query": "q",
        "control": [{"kind": "belief", "key": "a"}, {"kind": "belief", "key": "b"}],
        "derived": [{"kind": "belief", "key": "a"}, {"kind": "derived", "derived_kind": "merged"}],
    }
    seen = observed(
        derived("merged", ["a", "b"]), derived("hypothesis", ["a", "b"]), queries=[ranking]
    )

    metrics = reconsolidation_metrics([labelled], [seen], k=2)

    assert metrics["cases"] == 1 and metrics["failed"] == 0
    assert (metrics["merges"], metrics["false_merges"], metrics["missed_merges"]) == (1, 0, 0)
    assert metrics["merge_recall"] == 1.0
    assert metrics["derived"] == {"hypothesis": 1, "merged": 1}
    assert (metrics["atomic_recall@2_control"], metrics["atomic_recall@2_derived"]) == (1.0, 0.5)
    assert metrics["atomic_recall_drop"] == 0.5
    assert (metrics["connection_precision"], metrics["connection_recall"]) == (1.0, 1.0)


def test_a_failed_or_missing_case_is_listed_and_its_labels_count_as_missed():
    first = case([belief("a"), belief("b")], merge=[["a", "b"]])
    second = {**case([belief("a")], queries=[{"query": "q", "expect": ["a"]}]), "id": "d"}
    failed = {**observed(derived("merged", ["a", "b"])), "failed": "RuntimeError('boom')"}

    metrics = reconsolidation_metrics([first, second], [failed], k=10)

    assert metrics["failed_cases"] == [
        {"case": "c", "reason": "RuntimeError('boom')"},
        {"case": "d", "reason": "missing"},
    ]
    assert (metrics["merges"], metrics["missed_merges"]) == (0, 1)
    assert metrics["atomic_recall@10_derived"] == 0.0


def test_two_observations_of_one_case_are_an_error():
    with pytest.raises(ValueError, match="two observations"):
        reconsolidation_metrics([case(BANK)], [observed(), observed()], k=10)
