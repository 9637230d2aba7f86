"""Grounding: a model's subject, names and numbers must be words its cited messages say."""

import pytest

from formation.grounding import grounding_failure

TEXT = ["We finally adopted two cats from the shelter in Porto, in March 2023."]


@pytest.mark.parametrize(
    ("subject", "statement"),
    [
        ("pet:cats", "User adopted two cats."),
        ("pet:cat", "User adopted two cats from a shelter in Porto in 2023."),
        ("pet:shelter-cats", "User adopted cats in March."),
    ],
)
def test_grounded_proposals_pass(subject, statement):
    assert grounding_failure(subject=subject, statement=statement, cited_texts=TEXT) == ""


@pytest.mark.parametrize(
    ("subject", "statement", "reason"),
    [
        ("pet:dog", "User adopted a dog.", "ungrounded_subject"),
        ("person:", "User adopted cats.", "ungrounded_subject"),
        ("pet:cats", "User adopted cats in Lisbon.", "ungrounded_claim"),
        ("pet:cats", "User adopted cats in 2021.", "ungrounded_claim"),
        ("pet:cats", "User adopted cats named Tom and Jerry.", "ungrounded_claim"),
    ],
)
def test_what_the_messages_do_not_say_is_not_grounded(subject, statement, reason):
    assert grounding_failure(subject=subject, statement=statement, cited_texts=TEXT) == reason


def test_the_owner_is_user_in_statements_without_being_named_in_messages():
    assert (
        grounding_failure(
            subject="pet:cats", statement="User's cats came from Porto.", cited_texts=TEXT
        )
        == ""
    )
