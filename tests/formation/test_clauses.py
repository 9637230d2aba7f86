"""Each clause says what it says: a predicate binds to the subject of its own clause, a
retraction covers only what its clause names, coordinated relatives each form, another
person's fact is that person's, and times and scores stay whole."""

import pytest

from common.principal import principal_context
from formation.extractor import DeterministicExtractor
from formation.services import formation_consolidate
from memory.models import Belief
from tests.memory.helpers import conversation

from .test_extractor import extract


def claims(text, **options):
    return {(c.subject, c.statement, c.polarity) for c in extract(text, **options)}


def statements(text):
    return {c.statement for c in extract(text)}


@pytest.mark.parametrize(
    ("text", "retracted", "kept"),
    [
        (
            "I gave away my bike and my dog loves the new park.",
            ("vehicle:bike", "User no longer owns a bike.", "negative"),
            ("pet:dog", "User has a dog.", "positive"),
        ),
        (
            "I sold my old Kindle and my new iPad is amazing.",
            ("device:kindle", "User no longer owns a Kindle.", "negative"),
            ("device:ipad", "User owns an iPad.", "positive"),
        ),
    ],
)
def test_a_retraction_covers_only_the_thing_its_clause_names(text, retracted, kept):
    found = claims(text)

    assert retracted in found and kept in found
    assert not [c for c in found if c[0] == kept[0] and c[2] == "negative"]


def test_coordinated_relatives_each_form_with_their_names():
    assert statements("I have a sister named Ana and a brother named Tom.") == {
        "User has a sister named Ana.",
        "User has a brother named Tom.",
    }
    assert claims("I have two kids, Sofia and Miguel.") == {
        ("relationship:children", "User has two kids.", "positive"),
        ("person:sofia", "User has a child named Sofia.", "positive"),
        ("person:miguel", "User has a child named Miguel.", "positive"),
    }


@pytest.mark.parametrize(
    ("text", "owned"),
    [
        (
            "We adopted a rescue greyhound called Pip.",
            ("pet:pip", "User has a greyhound named Pip."),
        ),
        (
            "My grandmother left me her old sewing machine.",
            ("item:sewing-machine", "User owns a sewing machine."),
        ),
        (
            "I was given a Wacom tablet for my birthday.",
            ("device:wacom-tablet", "User owns a Wacom tablet."),
        ),
    ],
)
def test_adopted_inherited_and_given_things_are_owned(text, owned):
    assert (*owned, "positive") in claims(text)


@pytest.mark.parametrize(
    "text", ["My sister gave me a hard time about it.", "He left me a voicemail."]
)
def test_what_someone_gives_that_is_no_thing_is_not_owned(text):
    assert not [c for c in extract(text) if c.type == "ownership"]


def test_another_persons_allergy_is_theirs_and_the_owners_is_the_owners():
    found = claims("I'm allergic to shellfish and my daughter is allergic to peanuts.")

    assert ("allergy:shellfish", "User is allergic to shellfish.", "positive") in found
    assert ("person:daughter", "User's daughter is allergic to peanuts.", "positive") in found
    assert not [c for c in found if c[1] == "User is allergic to peanuts."]


@pytest.mark.parametrize(
    ("text", "fact", "not_the_owners"),
    [
        (
            "My partner owns a scooter.",
            ("person:partner", "User's partner owns a scooter."),
            "User owns a scooter.",
        ),
        (
            "My daughter is allergic to peanuts.",
            ("person:daughter", "User's daughter is allergic to peanuts."),
            "User is allergic to peanuts.",
        ),
        (
            "My brother Tom works at a bakery in Leeds.",
            ("person:tom", "User's brother Tom works at a bakery in Leeds."),
            "User works at a bakery.",
        ),
        (
            "My sister Ana lives in Porto.",
            ("person:ana", "User's sister Ana lives in Porto."),
            "User lives in Porto.",
        ),
        (
            "My partner, Jamie, is a chef.",
            ("person:jamie", "User's partner Jamie is a chef."),
            "User is a chef.",
        ),
    ],
)
def test_another_persons_fact_forms_as_theirs_never_as_the_owners(text, fact, not_the_owners):
    found = claims(text)

    assert (*fact, "positive") in found
    assert not [c for c in found if c[1] == not_the_owners]
    assert all(c[0].startswith(("person:", "relationship:")) for c in found)


@pytest.mark.parametrize(
    "text",
    [
        "My sister's car is red.",  # the car's, not the sister's
        "My brother is visiting next week.",  # under way, not lasting
        "My mom has a cold this week.",
        "My friend said the movie was great.",
        "My colleague recommended a book.",
        "My dad sold my BMW.",  # the owner's news, read as a retraction
        "My son Leo is going to love it in June.",
        "My brother doesn't own a car.",
        "My kids are at school.",
    ],
)
def test_what_is_no_lasting_fact_of_the_person_forms_no_fact(text):
    assert not [c for c in extract(text) if c.subject.startswith("person:") and c.type == "fact"]


def test_quitting_a_job_and_starting_another_forms_the_new_occupation():
    assert statements("I quit my job at the bank and started working as a carpenter.") == {
        "User quit their job at the bank.",
        "User is a carpenter.",
    }


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "I ran my first marathon in Berlin in 3:58.",
            "User ran their first marathon in Berlin in 3:58.",
        ),
        ("I ran a half marathon in 1:52:30.", "User ran a half marathon in 1:52:30."),
    ],
)
def test_times_and_scores_stay_whole(text, statement):
    assert statement in statements(text)


def test_a_persons_facts_stand_beside_each_other_and_their_relationship(owner):
    for text in ("My brother Tom works at a bakery in Leeds.", "My brother Tom lives in York."):
        session, _ = conversation(owner, text)
        formation_consolidate(
            principal=owner, session_id=session.public_id, extractor=DeterministicExtractor()
        )

    with principal_context(owner):
        live = dict(
            Belief.objects.filter(owner=owner, status="provisional").values_list(
                "statement", "subject"
            )
        )
    assert live == {
        "User has a brother named Tom.": "person:tom",
        "User's brother Tom works at a bakery in Leeds.": "person:tom",
        "User's brother Tom lives in York.": "person:tom",
    }


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        (
            "I got my PhD in mathematics from Utrecht last year.",
            "User got their PhD in mathematics from Utrecht.",
            "User owns a PhD.",
        ),
        ("I got my driving licence.", "User got their driving licence.", None),
        ("I moved back to Valparaíso in March.", "User lives in Valparaíso.", None),
        (
            "Maeve, my stepdaughter, just turned twelve.",
            "User has a stepdaughter named Maeve.",
            None,
        ),
        (
            "My home office has an Epson projector and a Synology NAS.",
            "User owns an Epson projector.",
            None,
        ),
    ],
)
def test_qualifications_moves_apposed_names_and_what_rooms_hold(text, expected, absent):
    found = statements(text)

    assert expected in found
    assert absent not in found


@pytest.mark.parametrize(
    "text",
    [
        "Oh great, I just love sitting in traffic for two hours.",
        "Yeah right, I love doing taxes.",
        "My office has a great view.",
        "I came home late.",
    ],
)
def test_irony_and_what_is_no_claim_form_nothing(text):
    assert extract(text) == ()
