import pytest

from evaluation.scoring import (
    Item,
    Observation,
    Question,
    context_cost,
    evidence_ids,
    evidence_recall,
    fabrication,
    formation_coverage,
    fuse,
    recall_report,
)

KNOWN = frozenset({"D1:1", "D1:2", "D1:3", "D1:5", "D2:1", "D2:2", "D3:1"})


def item(*sources, chars=100):
    return Item(sources=sources, chars=chars)


def filler(count):
    """Items naming no evidence, to push a relevant item down the ranking."""
    return tuple(item(f"D9:{n}") for n in range(count))


# -- evidence_ids -------------------------------------------------------------------


def test_evidence_ids_splits_ids_joined_by_a_semicolon():
    assert evidence_ids(["D1:3; D1:5"]) == ("D1:3", "D1:5")


def test_evidence_ids_strips_blanks_and_repeats_and_keeps_order():
    assert evidence_ids([" D2:1 ", "", "D1:3;", "D2:1", "D1:1"]) == ("D2:1", "D1:3", "D1:1")


def test_evidence_ids_reads_none_as_no_evidence_and_a_bare_string_as_one_entry():
    assert evidence_ids(None) == ()
    assert evidence_ids("D1:3; D1:5") == ("D1:3", "D1:5")


# -- evidence_recall ----------------------------------------------------------------


def test_split_evidence_needs_both_turns_for_full_recall():
    question = Question(id="q", category=1, evidence=evidence_ids(["D1:3; D1:5"]))
    observation = Observation(question_id="q", items=(item("D1:3"),))

    assert evidence_recall(question, observation, 10, KNOWN) == 0.5


def test_evidence_in_the_sixth_item_counts_at_ten_but_not_at_five():
    question = Question(id="q", category=4, evidence=("D1:1", "D1:2"))
    items = (item("D1:1"), *filler(4), item("D1:2"))
    observation = Observation(question_id="q", items=items)

    assert evidence_recall(question, observation, 1, KNOWN) == 0.5
    assert evidence_recall(question, observation, 5, KNOWN) == 0.5
    assert evidence_recall(question, observation, 6, KNOWN) == 1.0
    assert evidence_recall(question, observation, 10, KNOWN) == 1.0


def test_an_item_formed_from_several_turns_covers_all_of_them():
    question = Question(id="q", category=1, evidence=("D1:1", "D2:1"))
    observation = Observation(question_id="q", items=(item("D2:1", "D1:1"),))

    assert evidence_recall(question, observation, 1, KNOWN) == 1.0


def test_unknown_evidence_is_left_out_of_the_share():
    question = Question(id="q", category=1, evidence=("D1:1", "D10:19", "D"))
    observation = Observation(question_id="q", items=(item("D1:1"),))

    assert evidence_recall(question, observation, 1, KNOWN) == 1.0


def test_a_question_with_no_known_evidence_has_no_recall():
    observation = Observation(question_id="q", items=(item("D1:1"),))

    assert evidence_recall(Question("q", 1, ()), observation, 5, KNOWN) is None
    assert evidence_recall(Question("q", 1, ("D:11:26",)), observation, 5, KNOWN) is None


def test_a_failed_observation_scores_zero_even_with_matching_items():
    question = Question(id="q", category=1, evidence=("D1:1",))
    observation = Observation(question_id="q", items=(item("D1:1"),), failed="timeout")

    assert evidence_recall(question, observation, 5, KNOWN) == 0.0
    assert evidence_recall(question, None, 5, KNOWN) == 0.0


def test_recall_rejects_a_cutoff_below_one():
    question = Question(id="q", category=1, evidence=("D1:1",))
    with pytest.raises(ValueError):
        evidence_recall(question, Observation("q", (item("D1:1"),)), 0, KNOWN)


# -- recall_report ------------------------------------------------------------------


def test_report_gives_means_per_category_and_leaves_category_five_out_of_the_headline():
    questions = [
        Question("q1", 1, ("D1:1",)),
        Question("q2", 1, ("D1:2",)),
        Question("q3", 2, ("D2:1", "D2:2")),
        Question("q4", 5, ("D3:1",)),
    ]
    observations = [
        Observation("q1", (item("D1:1"),)),
        Observation("q2", filler(10)),
        Observation("q3", (item("D2:1"), item("D2:2"))),
        Observation("q4", (item("D3:1"),)),
    ]

    report = recall_report(questions, observations, KNOWN)

    assert report == {
        "evidence_recall@1": 0.5,
        "evidence_recall@5": 0.6667,
        "evidence_recall@10": 0.6667,
        "by_category": {
            "1": {
                "evidence_recall@1": 0.5,
                "evidence_recall@5": 0.5,
                "evidence_recall@10": 0.5,
                "questions": 2,
            },
            "2": {
                "evidence_recall@1": 0.5,
                "evidence_recall@5": 1.0,
                "evidence_recall@10": 1.0,
                "questions": 1,
            },
            "5": {
                "evidence_recall@1": 1.0,
                "evidence_recall@5": 1.0,
                "evidence_recall@10": 1.0,
                "questions": 1,
            },
        },
        "questions": 3,
        "unscorable": [],
        "unknown_evidence": [],
        "failed_cases": [],
    }


def test_report_lists_unknown_evidence_sorted_and_scores_only_known_turns():
    questions = [
        Question("q1", 1, ("D1:1", "D:11:26")),
        Question("q2", 4, ("D10:19", "D1:2", "D")),
    ]
    observations = [Observation("q1", (item("D1:1"),)), Observation("q2", (item("D1:2"),))]

    report = recall_report(questions, observations, KNOWN)

    assert report["unknown_evidence"] == ["D", "D10:19", "D:11:26"]
    assert report["evidence_recall@1"] == 1.0
    assert report["questions"] == 2


def test_failed_and_missing_observations_are_reported_and_score_zero():
    questions = [
        Question("q1", 1, ("D1:1",)),
        Question("q2", 1, ("D1:2",)),
        Question("q3", 1, ("D1:3",)),
    ]
    observations = [
        Observation("q1", (item("D1:1"),), failed="timeout"),
        Observation("q3", (item("D1:3"),)),
    ]

    report = recall_report(questions, observations, KNOWN, ks=(5,))

    assert report["failed_cases"] == [
        {"question_id": "q1", "reason": "timeout"},
        {"question_id": "q2", "reason": "missing"},
    ]
    assert report["evidence_recall@5"] == 0.3333
    assert report["questions"] == 3


def test_unscorable_questions_are_listed_and_kept_out_of_the_means():
    questions = [
        Question("q1", 1, ()),
        Question("q2", 1, ("D",)),
        Question("q3", 1, ("D1:1",)),
        Question("q4", 3, ()),
    ]
    observations = [Observation(q.id, (item("D1:1"),)) for q in questions]

    report = recall_report(questions, observations, KNOWN, ks=(1,))

    assert report["unscorable"] == ["q1", "q2", "q4"]
    assert report["questions"] == 1
    assert report["evidence_recall@1"] == 1.0
    assert report["by_category"]["1"] == {"evidence_recall@1": 1.0, "questions": 1}
    assert report["by_category"]["3"] == {"evidence_recall@1": None, "questions": 0}


def test_report_means_are_none_when_nothing_is_scorable():
    report = recall_report([Question("q1", 2, ())], [Observation("q1", ())], KNOWN)

    assert report["evidence_recall@1"] is None
    assert report["evidence_recall@10"] is None
    assert report["questions"] == 0


def test_report_refuses_two_observations_of_one_question():
    questions = [Question("q1", 1, ("D1:1",))]
    observations = [Observation("q1", ()), Observation("q1", (item("D1:1"),))]

    with pytest.raises(ValueError):
        recall_report(questions, observations, KNOWN)


# -- context_cost -------------------------------------------------------------------


def test_p95_is_the_nearest_rank_value_not_the_maximum():
    # 20 costs: nearest rank ceil(0.95 * 20) = 19, the second largest.
    shuffled = (7, 20, 1, 14, 3, 19, 11, 5, 16, 9, 2, 18, 12, 6, 15, 4, 17, 8, 13, 10)
    costs = [10 * n for n in shuffled]
    observations = [Observation(f"q{n}", (item("D1:1", chars=c),)) for n, c in enumerate(costs)]

    assert context_cost(observations) == {"context_chars_mean": 105.0, "context_chars_p95": 190.0}


def test_context_cost_sums_items_and_counts_failures_as_nothing():
    observations = [
        Observation("q1", (item("D1:1", chars=100),)),
        Observation("q2", (item("D1:1", chars=300),)),
        Observation("q3", (item("D1:1", chars=20), item("D1:2", chars=31))),
        Observation("q4", (item("D1:1", chars=999),), failed="timeout"),
    ]

    # Costs 100, 300, 51, 0; nearest rank ceil(0.95 * 4) = 4, the largest.
    assert context_cost(observations) == {"context_chars_mean": 112.75, "context_chars_p95": 300.0}


def test_context_cost_of_nothing_is_none():
    assert context_cost([]) == {"context_chars_mean": None, "context_chars_p95": None}


# -- formation_coverage -------------------------------------------------------------


def test_a_fact_is_covered_when_any_of_its_turns_formed_a_belief():
    facts = [
        ("Caroline is a counsellor", ("D1:1",)),
        ("Melanie paints", ("D1:2", "D1:3")),
        ("Melanie has two kids", ("D2:1",)),
    ]

    assert formation_coverage(facts, {"D1:1", "D1:3", "D5:5"}) == {
        "facts": 3,
        "covered": 2,
        "formation_coverage": 0.6667,
    }


def test_coverage_of_no_facts_is_none():
    assert formation_coverage([], {"D1:1"}) == {
        "facts": 0,
        "covered": 0,
        "formation_coverage": None,
    }


# -- fabrication --------------------------------------------------------------------


def test_a_number_absent_from_the_source_turns_is_a_fabrication():
    turn_texts = {
        "D1:1": "Caroline: I have two kids now.",
        "D1:2": "Melanie: Paris was lovely in 2022.",
    }
    beliefs = [
        ("Caroline has 3 children", ("D1:1",)),
        ("Caroline has 2 children", ("D1:1",)),
        ("Melanie went to Paris in 2022", ("D1:2",)),
        ("Melanie went to Paris in 2021", ("D1:2",)),
    ]

    assert fabrication(beliefs, turn_texts) == {
        "beliefs": 4,
        "fabricated": 2,
        "fabrication": 0.5,
        "examples": [
            {"statement": "Caroline has 3 children", "terms": ["3"]},
            {"statement": "Melanie went to Paris in 2021", "terms": ["2021"]},
        ],
    }


def test_a_belief_is_grounded_only_by_its_own_sources():
    turn_texts = {"D1:1": "Caroline: hello", "D1:2": "Melanie: Paris was lovely."}
    beliefs = [("Melanie went to Paris", ("D1:1",)), ("Melanie went to Paris", ("D7:7",))]

    result = fabrication(beliefs, turn_texts)

    assert result["fabricated"] == 2
    assert result["examples"][0]["terms"] == ["melanie", "paris"]


def test_fabrication_keeps_five_examples_and_is_zero_without_beliefs():
    beliefs = [(f"Caroline ran {n} miles", ("D1:1",)) for n in range(100, 107)]

    result = fabrication(beliefs, {"D1:1": "Caroline: I went running."})

    assert (result["fabricated"], result["fabrication"], len(result["examples"])) == (7, 1.0, 5)
    assert fabrication([], {}) == {
        "beliefs": 0,
        "fabricated": 0,
        "fabrication": 0.0,
        "examples": [],
    }


# -- fuse ---------------------------------------------------------------------------


def test_fusion_ranks_keys_by_summed_reciprocal_rank():
    # a: 1/61 + 1/63, b: 1/62 + 1/61, c: 1/63 + 1/62.
    assert fuse([["a", "b", "c"], ["b", "c", "a"]]) == ["b", "a", "c"]


def test_a_key_high_in_one_list_loses_to_one_present_in_both():
    # d: 1/64 + 1/61 beats a: 1/61 alone.
    assert fuse([["a", "b", "c", "d"], ["d"]]) == ["d", "a", "b", "c"]


def test_fusion_constant_sets_how_much_a_top_rank_outweighs_agreement():
    rankings = [["p", "f1", "f2", "q"], ["g1", "g2", "g3", "q"]]

    # k=60: q 2/64 beats p 1/61; k=1: p 1/2 beats q 2/5 (p and g1 tie, p appeared first).
    assert fuse(rankings)[0] == "q"
    assert fuse(rankings, k=1)[0] == "p"


def test_fusion_breaks_ties_by_first_appearance():
    assert fuse([["x", "y"], ["y", "x"]]) == ["x", "y"]
    assert fuse([["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]) == ["a", "b", "c"]


def test_a_key_repeated_in_one_list_counts_once_at_its_best_rank():
    # a: 1/61 once; b: 1/63 + 1/61. Counting a twice would put it first.
    assert fuse([["a", "a", "b"], ["b"]]) == ["b", "a"]


def test_fusion_of_nothing_is_empty():
    assert fuse([]) == []
    assert fuse([[], []]) == []
