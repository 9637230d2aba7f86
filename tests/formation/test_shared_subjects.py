"""Shared subjects: the names that memories of different subjects have in common."""

from memory.formation.subjects import shared_subjects


def test_a_proper_name_is_a_shared_subject_whatever_the_memory_is_keyed_by():
    assert shared_subjects("event:lgbtq-support-group", "User went to a LGBTQ support group.") == (
        "entity:lgbtq",
    )
    assert shared_subjects("event:conference", "User went to an LGBTQ+ conference.") == (
        "entity:lgbtq",
    )


def test_a_named_subject_shares_its_name_and_the_thing_it_is():
    assert shared_subjects("pet:oscar", "User has a guinea pig named Oscar.") == (
        "entity:oscar",
        "entity:pig",
    )


def test_a_name_of_several_words_is_one_entity():
    assert shared_subjects("topic:lord-rings", "User likes Lord of the Rings.") == (
        "entity:lord-of-the-rings",
    )
    assert shared_subjects("event:trip", "User went to a Harry Potter conference in the UK.") == (
        "entity:harry-potter",
        "entity:uk",
    )


def test_an_object_named_in_lower_case_is_shared_and_a_capitalised_one_is_part_of_a_name():
    assert shared_subjects("event:guitar", "User started playing acoustic guitar.") == (
        "entity:guitar",
    )
    assert shared_subjects("topic:running", "User runs with the Apple Watch.") == (
        "entity:apple-watch",
    )


def test_pronouns_roles_and_topics_name_no_one():
    assert shared_subjects("relationship:sister", "User's sister says she loves it.") == ()
    assert shared_subjects("topic:pottery", "User likes pottery.") == ()
    assert shared_subjects("", "") == ()


def test_the_first_word_and_the_canonical_user_are_not_names():
    assert shared_subjects("topic:x", "Painting calms User down on Monday.") == ()
