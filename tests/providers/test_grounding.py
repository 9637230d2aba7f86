"""Grounding: a model's subject, names and numbers must be words its cited messages say."""

import pytest

from formation.grounding import grounding_failure, is_asserted

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
            subject="pet:cats", statement="User's cats are from Porto.", cited_texts=TEXT
        )
        == ""
    )


@pytest.mark.parametrize(
    ("subject", "statement", "texts"),
    [
        # An invented claim on a subject the message names.
        (
            "pet:miso",
            "User hates the cat Miso and wants to give her away.",
            ["My cat Miso loves the new flat."],
        ),
        # A name in lower case is still a name.
        ("home:flat", "User lives in paris, france.", ["I live in a small flat near the river."]),
        # Every word in the message, but not in one clause of it.
        (
            "pet:cats",
            "User adopted two cats in Lisbon.",
            ["We adopted two cats. Lisbon was sunny."],
        ),
        # Nor across messages.
        ("pet:cats", "User adopted two cats in Lisbon.", ["We adopted two cats.", "Lisbon!"]),
        ("pet:cats", "User adopted two cats in 2023.", ["We adopted two cats. 2023 was hard."]),
    ],
)
def test_every_content_word_name_and_number_is_in_one_clause(subject, statement, texts):
    assert grounding_failure(subject=subject, statement=statement, cited_texts=texts) == (
        "ungrounded_claim"
    )


@pytest.mark.parametrize(
    ("subject", "statement", "texts"),
    [
        # Compared by stems, as recall compares words.
        ("pref:green-tea", "User prefers green tea.", ["I have always preferred green tea."]),
        ("place:porto", "User is living in Porto.", ["I live in Porto with two cats."]),
        # The clause that covers the statement, whichever message holds it.
        ("pet:cats", "User adopted two cats.", ["Lisbon was sunny.", "We adopted two cats."]),
        # The templates' own words need not be said.
        ("pet:miso", "User owns a cat named Miso.", ["My cat Miso loves the new flat."]),
    ],
)
def test_a_statement_one_clause_says_is_grounded(subject, statement, texts):
    assert grounding_failure(subject=subject, statement=statement, cited_texts=texts) == ""


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("I sold the BMW X3 last week.", ""),
        ("I don't have the BMW X3 anymore.", ""),
        ("We finally got rid of the BMW X3.", ""),
        ("The BMW X3 is parked outside.", "no_ending"),
        ("I left the BMW X3 at my mum's.", "no_ending"),
        ("I moved the BMW X3 to the garage.", "no_ending"),
        ("I didn't sell the BMW X3 after all.", "no_ending"),
        ("I'm thinking about whether I should sell the BMW X3.", "no_ending"),
        ("If I sold the BMW X3, I would buy a boat.", "not_asserted"),
        ("Should I give the BMW X3 away now that I sold my other car?", "not_asserted"),
        ("Maybe I'll sell the BMW X3, I have not decided.", "not_asserted"),
        ("I might have sold the BMW X3 by June.", "not_asserted"),
    ],
)
def test_a_negative_proposal_needs_a_clause_that_says_the_ending(text, reason):
    assert (
        grounding_failure(
            subject="vehicle:bmw-x3",
            statement="User no longer owns a BMW X3.",
            cited_texts=[text],
            negative=True,
        )
        == reason
    )


def test_metric_units_are_not_retracted_by_a_kitchen_scale():
    assert grounding_failure(
        subject="pref:metric-units",
        statement="User no longer prefers metric units.",
        cited_texts=["The kitchen scale shows grams now."],
        negative=True,
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("We live in Lisbon now.", ""),
        ("We are planning to live in Lisbon.", "not_asserted"),
        ("Do we live in Lisbon?", "not_asserted"),
        ("If we live in Lisbon, I will learn Portuguese.", "not_asserted"),
        ("We will probably live in Lisbon.", "not_asserted"),
    ],
)
def test_only_an_assertion_grounds_what_would_replace_a_memory(text, reason):
    found = grounding_failure(
        subject="place:lisbon",
        statement="User lives in Lisbon.",
        cited_texts=[text],
        replaces=True,
    )
    assert found == reason
    # A new subject replaces nothing: what the clause says of it stands.
    assert (
        grounding_failure(
            subject="place:lisbon", statement="User lives in Lisbon.", cited_texts=[text]
        )
        == ""
    )


@pytest.mark.parametrize(
    "clause",
    ["I sold the car in May.", "My friend Will sold his car.", "I quit my job at the bank."],
)
def test_months_and_names_are_not_modals(clause):
    assert is_asserted(clause)
