"""Shared subjects: the names that memories of different subjects have in common."""

from formation.subjects import shared_subjects


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


def test_pronouns_and_roles_name_no_one():
    assert shared_subjects("relationship:sister", "User's sister says she loves it.") == ()
    assert shared_subjects("relationship:children", "User has kids.") == ()
    assert shared_subjects("", "") == ()


def test_the_thing_a_topic_subject_is_made_of_is_shared():
    assert shared_subjects("topic:pottery", "User likes pottery.") == ("entity:pottery",)
    assert shared_subjects("event:pottery-class", "User signed up for a pottery class.") == (
        "entity:pottery",
    )
    assert shared_subjects("outcome:pottery-project", "User finished another pottery project.") == (
        "entity:pottery",
    )
    assert shared_subjects("decision:open-bakery", "User plans to open a bakery.") == (
        "entity:bakery",
    )


def test_a_hyphenated_word_is_one_name_and_a_plural_stays_as_written():
    assert shared_subjects(
        "activity:dairy-free-options", "User is trying out dairy-free options."
    ) == ("entity:dairy-free",)
    assert shared_subjects(
        "topic:action-sci-fi-movies", "User likes action and sci-fi movies."
    ) == (
        "entity:action",
        "entity:movies",
        "entity:sci-fi",
    )


def test_generic_words_verbs_qualities_and_roles_in_a_topic_name_nothing():
    # "trip", "going", "new", "kids" and "friends" would join memories about different things.
    assert shared_subjects("event:camping-kids", "User went camping with the kids.") == (
        "entity:camping",
    )
    assert shared_subjects("topic:going-new-trips", "User likes going on new trips.") == ()
    assert shared_subjects("topic:helping-friends", "User likes helping friends.") == ()
    assert shared_subjects("topic:veterans", "User likes supporting veterans.") == ()


def test_only_the_words_the_topic_subject_is_made_of_are_shared():
    # Formation keys the memory by "hiking"; "weekend" and "Sunday" are not what it is about.
    assert shared_subjects("event:hiking", "User went hiking on the weekend with the dog.") == (
        "entity:dog",
        "entity:hiking",
    )
    # Subjects of other kinds keep their own rules: a preference setting names no thing.
    assert shared_subjects("pref:answer-style", "User prefers short answers.") == ()


def test_the_first_word_and_the_canonical_user_are_not_names():
    assert shared_subjects("topic:x", "Painting calms User down on Monday.") == ()
