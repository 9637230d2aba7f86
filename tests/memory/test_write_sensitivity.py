"""Every memory written is classified as a formed one is: what the owner states, corrects
or promotes is labelled by its text too. The classifier only raises what was asked,
never lowers it; a memory it finds sensitive stays on the machine (local)."""

import pytest

from core.errors import ReverieError
from memory.reach import Reach
from memory.services.beliefs import belief_correct

from .helpers import remember

DIABETES = "User was diagnosed with type 2 diabetes."
ORDINARY = "User prefers metric units."


def test_an_explicit_memory_is_labelled_by_what_it_says(owner):
    belief = remember(owner, DIABETES)

    assert (belief.sensitivity, belief.portability) == ("sensitive", "local")
    assert belief.authority == "explicit"


def test_the_classifier_never_lowers_what_the_owner_asked(owner):
    asked_sensitive = remember(owner, ORDINARY, sensitivity="sensitive")
    asked_personal = remember(owner, "User likes green tea.", sensitivity="personal")

    assert (asked_sensitive.sensitivity, asked_sensitive.portability) == (
        "sensitive",
        "portable",
    )
    assert asked_personal.sensitivity == "personal"


def test_a_personal_statement_is_raised_to_personal(owner):
    assert remember(owner, "User's sister lives in Lisbon.").sensitivity == "personal"


def test_a_correction_is_labelled_by_its_new_words(owner):
    old = remember(owner, ORDINARY)

    new = belief_correct(
        principal=owner,
        belief_id=old.public_id,
        expected_revision=old.revision,
        statement="User has been on antidepressants since May.",
        sensitivity="normal",
    )

    assert (new.sensitivity, new.portability) == ("sensitive", "local")


def test_a_correction_keeps_a_sensitive_label_its_words_would_not_give(owner):
    old = remember(owner, ORDINARY, sensitivity="sensitive")

    new = belief_correct(
        principal=owner,
        belief_id=old.public_id,
        expected_revision=old.revision,
        statement="User prefers imperial units.",
    )

    assert new.sensitivity == "sensitive"


def test_a_reach_kept_from_sensitive_memories_cannot_write_one_in_plain_words(owner):
    with pytest.raises(ReverieError) as refused:
        remember(owner, DIABETES, reach=Reach(include_sensitive=False))

    assert (refused.value.code, refused.value.details["field"]) == ("forbidden", "sensitivity")
