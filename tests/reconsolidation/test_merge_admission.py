"""Which two wordings a model may ever merge: pairs that differ in what a merge would lose are
local exclusions, whatever a verifier would answer."""

import pytest

from reconsolidation.assisted.admission_rules import exclusion


@pytest.mark.parametrize(
    "first, second, reason",
    [
        ("User owns a red bicycle.", "User sold a red bicycle.", "contrasting_predicates"),
        (
            "User trusts the family doctor.",
            "User distrusts the family doctor.",
            "contrasting_predicates",
        ),
        (
            "User works at the Riverside animal shelter.",
            "User volunteers at the Riverside animal shelter.",
            "contrasting_predicates",
        ),
        ("User takes honey in their tea.", "User takes milk in their tea.", "objects_differ"),
        (
            "User's favourite tea is green tea.",
            "User's favourite tea is black tea.",
            "objects_differ",
        ),
        ("User plays tennis on weekends.", "User plays squash on weekends.", "objects_differ"),
        # Numbers, dates, negations, stances and tenses were kept apart already.
        ("User likes jazz.", "User dislikes jazz.", "anchors_differ"),
        ("User loves olives.", "User hates olives.", "anchors_differ"),
        ("User joined a book club.", "User left a book club.", "anchors_differ"),
        ("User runs 5 km a day.", "User runs 10 km a day.", "anchors_differ"),
        ("User moved flats on 3 March.", "User moved flats on 5 March.", "anchors_differ"),
        ("User likes coffee.", "User does not like coffee.", "anchors_differ"),
    ],
)
def test_pairs_a_merge_would_falsify_are_excluded(first, second, reason):
    assert exclusion(first, second) == reason
    assert exclusion(second, first) == reason


@pytest.mark.parametrize(
    "first, second",
    [
        ("User has a dog called Pepper.", "User's dog is named Pepper."),
        ("Lena cycles to work every day.", "Lena rides her bike to work every day."),
        ("Omar works as a nurse at the city hospital.", "Omar is a nurse at the city hospital."),
        ("User works as a nurse.", "User is a nurse."),
        ("User drinks tea with honey.", "User takes honey in their tea."),
    ],
)
def test_two_wordings_of_one_claim_may_still_be_asked_about(first, second):
    assert exclusion(first, second) == ""
