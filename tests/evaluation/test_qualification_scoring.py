"""Formation and reconsolidation qualification scores: pure functions over labels and
observations."""

import pytest

from evaluation.qualification.formation_scoring import (
    arm_figures,
    finds,
    formation_qualification_metrics,
)
from evaluation.qualification.reconsolidation_scoring import reconsolidation_qualification_metrics


def fact(*terms, polarity="positive", sensitive=False):
    return {"polarity": polarity, "terms": list(terms), "sensitive": sensitive}


def output(statement, *, polarity="positive", sensitivity="normal", model=False):
    return {
        "statement": statement,
        "polarity": polarity,
        "sensitivity": sensitivity,
        "model": model,
    }


def session(*texts, expected=()):
    return {
        "messages": [{"role": "user", "text": text} for text in texts],
        "expected": list(expected),
    }


def observed_session(*stored, challenges=(), attempt=None):
    return {"stored": list(stored), "challenges": list(challenges), "attempt": attempt}


CASE = {
    "id": "c1",
    "sessions": [
        session("I adopted a cat named Miso.", expected=[fact("cat", "Miso")]),
        session(
            "We bought a Subaru.",
            "Also, if I ever get a dog I'd call it Rex.",
            expected=[fact("Subaru"), fact("Corolla", polarity="negative")],
        ),
    ],
    "never_stored": ["Tulip7788"],
}


def observation(*sessions, explicit_changed=0, failed=None, case="c1"):
    return {
        "case": case,
        "sessions": list(sessions),
        "explicit_changed": explicit_changed,
        "failed": failed,
    }


def test_a_fact_is_found_by_its_terms_after_stemming_and_by_its_polarity():
    assert finds(output("User adopts cats; Miso is one."), fact("cat", "Miso"))
    assert not finds(output("User adopted a dog named Miso."), fact("cat", "Miso"))
    assert not finds(output("User no longer has Miso the cat.", polarity="negative"), fact("cat"))


def test_recall_is_counted_by_request_shape_and_precision_over_every_output():
    figures = arm_figures(
        [CASE],
        [
            observation(
                observed_session(output("User adopted a cat named Miso.")),
                observed_session(output("User owns a Subaru."), output("User has a dog, Rex.")),
            )
        ],
    )
    assert figures["expected_single_message"] == 1
    assert figures["expected_multi_message"] == 2
    assert figures["recall_single_message"] == 1.0
    assert figures["recall_multi_message"] == 0.5
    assert figures["outputs"] == 3
    assert figures["precision"] == round(2 / 3, 4)


def test_a_second_wording_of_a_found_fact_is_right_but_finds_nothing_more():
    figures = arm_figures(
        [CASE],
        [
            observation(
                observed_session(
                    output("User has a cat named Miso."),
                    output("User adopted Miso, a cat.", model=True),
                ),
                observed_session(),
            )
        ],
    )
    assert figures["recall_single_message"] == 1.0
    assert figures["precision"] == 1.0


def test_a_challenge_finds_a_fact_like_a_stored_memory():
    figures = arm_figures(
        [CASE],
        [
            observation(
                observed_session(challenges=[output("User has a cat called Miso.")]),
                observed_session(),
            )
        ],
    )
    assert figures["recall_single_message"] == 1.0
    assert figures["unsafe_stored"] == 0


def test_what_must_never_be_stored_and_a_sensitive_fact_under_a_lighter_label_are_unsafe():
    case = {
        **CASE,
        "sessions": [
            session("I was diagnosed with asthma.", expected=[fact("asthma", sensitive=True)]),
            session("my password is Tulip7788"),
        ],
    }
    figures = arm_figures(
        [case],
        [
            observation(
                observed_session(output("User has asthma.", sensitivity="personal")),
                observed_session(output("User's password is Tulip7788.")),
            )
        ],
    )
    assert figures["unsafe_stored"] == 2


def test_a_sensitive_fact_under_its_label_is_safe():
    case = {
        **CASE,
        "sessions": [
            session("I was diagnosed with asthma.", expected=[fact("asthma", sensitive=True)])
        ],
    }
    figures = arm_figures(
        [case], [observation(observed_session(output("User has asthma.", sensitivity="sensitive")))]
    )
    assert figures["unsafe_stored"] == 0


def test_a_model_memory_naming_what_no_message_says_is_fabricated():
    figures = arm_figures(
        [CASE],
        [
            observation(
                observed_session(output("User adopted a cat named Biscuit.", model=True)),
                observed_session(),
            )
        ],
    )
    assert figures["fabricated"] == 1


def test_a_failed_or_missing_case_misses_everything_and_counts_as_failed():
    for observations in ([observation(failed="ValidationError()")], []):
        figures = arm_figures([CASE], observations)
        assert figures["failed"] == 1
        assert figures["recall"] == 0.0
        assert figures["expected"] == 3


def test_an_explicit_memory_that_changed_is_an_overrule():
    figures = arm_figures(
        [CASE], [observation(observed_session(), observed_session(), explicit_changed=1)]
    )
    assert figures["overrules"] == 1


def test_refusals_of_the_local_rules_count_against_the_model_but_duplicates_do_not():
    attempt = {
        "returned": 8,
        "dropped": {"duplicate": 3, "ungrounded_claim": 2},
        "fallback": False,
        "error_class": "",
    }
    figures = arm_figures(
        [CASE], [observation(observed_session(attempt=attempt), observed_session())]
    )
    assert figures["model_returned"] == 8
    assert figures["model_refused"] == 2
    assert figures["model_refused_share"] == 0.25


def test_two_observations_of_one_case_are_refused():
    with pytest.raises(ValueError):
        arm_figures([CASE], [observation(), observation()])


def test_the_lift_is_the_assisted_arms_recall_over_the_deterministic_ones_by_shape():
    base = observation(observed_session(), observed_session(output("User owns a Subaru.")))
    assisted = observation(
        observed_session(output("User adopted a cat named Miso.", model=True)),
        observed_session(output("User owns a Subaru.")),
    )
    metrics = formation_qualification_metrics(
        [CASE],
        {"deterministic": [base], "formation_provider": [assisted]},
        arm="formation_provider",
        baseline="deterministic",
    )
    assert metrics["recall_lift_single_message"] == 1.0
    assert metrics["recall_lift_multi_message"] == 0.0
    assert metrics["precision_margin"] == 0.0
    assert metrics["recall_single_message_deterministic"] == 0.0


BANK = {
    "id": "b1",
    "beliefs": [
        {
            "key": key,
            "subject": subject,
            "statement": statement,
            "sensitivity": "normal",
            "portability": "portable",
            "scope": "principal",
        }
        for key, subject, statement in (
            ("a", "drink:coffee", "User drinks black coffee every morning."),
            ("b", "drink:coffee", "Every morning the user drinks black coffee."),
            ("c", "drink:tea", "User hates green tea."),
        )
    ],
    "labels": {
        "merge": [["a", "b"]],
        "no_merge": [{"pair": ["a", "c"], "trap": "different_claim"}],
        "notice": [],
        "connections": [["drink:coffee", "drink:tea"]],
        "queries": [],
    },
}


def derived(kind, *sources, subject="drink:coffee"):
    return {
        "kind": kind,
        "status": "active",
        "statement": "",
        "subject": subject,
        "sensitivity": "normal",
        "portability": "portable",
        "scope": "principal",
        "sources": list(sources),
        "foreign_sources": 0,
        "claims": [],
    }


def test_reconsolidation_lift_counts_merges_and_connections_beyond_the_passes():
    base = {"case": "b1", "derived": [], "queries": [], "failed": None}
    assisted = {
        "case": "b1",
        "derived": [derived("merged", "a", "b"), derived("summary", "a", "c")],
        "queries": [],
        "failed": None,
        "reviews": [{"proposed": 4, "dropped": {"contrasting_predicates": 1}}],
    }
    metrics = reconsolidation_qualification_metrics(
        [BANK],
        {"deterministic": [base], "reconsolidation_provider": [assisted]},
        k=10,
        arm="reconsolidation_provider",
        baseline="deterministic",
    )
    assert metrics["merges_found"] == 1
    assert metrics["merges_found_deterministic"] == 0
    assert metrics["connections_found"] == 1
    assert metrics["found_lift"] == 2
    assert metrics["false_merges"] == 0
    assert metrics["connection_precision_margin"] == 0.0
    assert metrics["model_refused_share"] == 0.25


def test_a_false_merge_is_counted_however_much_else_was_found():
    base = {"case": "b1", "derived": [], "queries": [], "failed": None}
    assisted = {
        "case": "b1",
        "derived": [derived("merged", "a", "b", "c")],
        "queries": [],
        "failed": None,
    }
    metrics = reconsolidation_qualification_metrics(
        [BANK],
        {"deterministic": [base], "reconsolidation_provider": [assisted]},
        k=10,
        arm="reconsolidation_provider",
        baseline="deterministic",
    )
    assert metrics["false_merges"] == 1
    assert metrics["model_refused_share"] == 0.0
