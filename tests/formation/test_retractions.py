"""Ownership retractions: of things the owner is known to have, and of things not known."""

from datetime import UTC, datetime

import pytest

from formation.candidates import ExtractionRequest, KnownBelief
from formation.extraction import user_message
from formation.extractor import DeterministicExtractor
from formation.subjects import OwnedIndex

NOW = datetime(2026, 8, 19, 10, 0, tzinfo=UTC)
BMW = KnownBelief(subject="vehicle:bmw-x3", statement="User owns a BMW X3.", type="ownership")
COROLLA = KnownBelief(
    subject="vehicle:toyota-corolla", statement="User owns a Toyota Corolla.", type="ownership"
)


def extract(*texts, known=()):
    messages = tuple(
        user_message(id=f"m{n}", text=text, occurred_at=NOW) for n, text in enumerate(texts)
    )
    request = ExtractionRequest(messages=messages, known=known)
    return DeterministicExtractor().extract(request).candidates


def claims(*texts, known=()):
    return [(c.subject, c.statement, str(c.polarity)) for c in extract(*texts, known=known)]


def retractions(text, known=()):
    return [c.subject for c in extract(text, known=known) if c.polarity == "negative"]


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        ("I sold my bike last week.", "vehicle:bike", "User no longer owns a bike."),
        ("I gave away my PS4.", "device:ps4", "User no longer owns a PS4."),
        ("I don't have the Kindle anymore.", "device:kindle", "User no longer owns a Kindle."),
        ("We don't own a TV any more.", "device:tv", "User no longer owns a TV."),
        ("I used to own a Harley.", "vehicle:harley", "User no longer owns a Harley."),
        ("I threw my Bose headphones out.", "device:bose-headphones", None),
        ("I've just sold my car!", "vehicle:car", "User no longer owns a car."),
        ("Got rid of my PS4 finally.", "device:ps4", "User no longer owns a PS4."),
        ("I gave my Canon camera to my nephew.", "device:canon-camera", None),
        ("I gave my bike to Tom.", "vehicle:bike", "User no longer owns a bike."),
        ("I donated my car to charity.", "vehicle:car", "User no longer owns a car."),
        ("I traded my Civic in.", "vehicle:civic", "User no longer owns a Civic."),
        ("My car got stolen.", "vehicle:car", "User no longer owns a car."),
        ("My dog Max passed away.", "pet:max", "User no longer has a dog named Max."),
        ("I gave away my two rabbits.", "pet:rabbit", "User no longer has two rabbits."),
        ("I sold both my cars.", "vehicle:car", "User no longer owns cars."),
    ],
)
def test_parting_with_a_thing_nobody_mentioned_retracts_it(text, subject, statement):
    (candidate,) = extract(text)

    assert (candidate.subject, str(candidate.polarity)) == (subject, "negative")
    assert statement is None or candidate.statement == statement


def test_a_retraction_of_an_unknown_thing_has_the_subject_its_positive_claim_has():
    (owned,) = extract("I own a Toyota Corolla.")
    (sold,) = extract("I got rid of my old Toyota Corolla.")

    assert owned.subject == sold.subject == "vehicle:toyota-corolla"
    assert sold.statement == "User no longer owns a Toyota Corolla."


def test_a_known_thing_keeps_its_known_subject_whatever_the_words():
    assert claims("I threw out my Toyota.", known=(COROLLA,)) == [
        ("vehicle:toyota-corolla", "User no longer owns a Toyota.", "negative")
    ]


def test_a_generic_thing_a_known_thing_of_its_kind_may_be_retracts_nothing():
    # "my car" may be the BMW X3, or another car: neither can be told.
    assert extract("I sold my car.", known=(BMW,)) == ()


def test_a_named_thing_retracts_even_beside_a_known_thing_of_its_kind():
    assert retractions("I sold my Porsche.", known=(BMW,)) == ["vehicle:porsche"]


@pytest.mark.parametrize(
    "text",
    [
        "I'm going to sell my bike.",
        "I'm thinking about selling my Tesla.",
        "I might sell my car.",
        "I'm selling my car next week.",
        "I didn't sell my bike after all.",
        "I never gave away my PS4.",
        "I haven't sold my BMW yet.",
        "I almost sold my guitar.",
        "If I sell my car, I'll take the bus.",
        "Should I get rid of my old TV?",
        "My brother sold his car.",
        "My sister got rid of her Kindle.",
        "I sold my sister's car.",
        "I don't have a TV.",
        "I don't ride my bike anymore.",
        "I got rid of it.",
    ],
)
def test_plans_questions_conditions_negations_and_other_peoples_things_retract_nothing(text):
    assert retractions(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I sold my Tesla shares.",
        "I got rid of my car seat.",
        "I got rid of my phone number.",
        "I got rid of my Netflix subscription.",
        "I sold my Rolex.",
        "I sold my house last year.",
        "I sold my dream car.",
        "I sold my first guitar when I was 15.",
        "I sold my old phone.",
    ],
)
def test_what_is_not_a_whole_present_thing_of_the_lexicon_retracts_nothing(text):
    assert retractions(text) == []


def test_a_thing_named_as_the_owner_of_another_is_neither_retracted_nor_dropped():
    assert claims("I threw out my dog's old bed.") == [("pet:dog", "User has a dog.", "positive")]


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        ("I returned my AirPods.", "device:airpods", "User owns AirPods."),
        ("I gave up my guitar.", "instrument:guitar", "User owns a guitar."),
        ("I replaced my phone.", "device:phone", "User owns a phone."),
        ("I swapped my bike.", "vehicle:bike", "User owns a bike."),
        ("My dog ran away.", "pet:dog", "User has a dog."),
    ],
)
def test_words_that_need_not_part_with_a_thing_retract_only_a_known_one(text, subject, statement):
    known = (KnownBelief(subject=subject, statement=statement, type="ownership"),)

    assert retractions(text) == []
    assert retractions(text, known=known) == [subject]


def test_a_thing_given_to_someone_who_is_not_a_person_or_a_charity_is_kept():
    assert retractions("I gave my car to the mechanic.") == []
    assert retractions("I gave my car to my son.") == ["vehicle:car"]


def test_a_generic_thing_got_again_in_the_same_sentence_is_not_retracted():
    assert claims("I sold my car and bought a new one.") == []
    assert retractions("I sold my iPhone and got a new one.") == []


def test_an_exchange_retracts_the_old_thing_and_proposes_the_new_one():
    assert claims("I swapped my Xbox for a PS5.") == [
        ("device:xbox", "User no longer owns an Xbox.", "negative"),
        ("device:ps5", "User owns a PS5.", "positive"),
    ]
    assert claims("I traded my Civic in for a Subaru.") == [
        ("vehicle:civic", "User no longer owns a Civic.", "negative"),
        ("vehicle:subaru", "User owns a Subaru.", "positive"),
    ]


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("My old iPad finally died and I threw it out.", "device:ipad"),
        ("My iPhone 12 kept crashing, so I sold it.", "device:iphone-12"),
        ("I had a Kindle but I gave it to my niece.", "device:kindle"),
        ("I bought two bikes and sold them.", "vehicle:bike"),
    ],
)
def test_it_or_them_stands_for_the_one_thing_the_sentence_named_before(text, subject):
    assert claims(text)[0][::2] == (subject, "negative")
    assert len(claims(text)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "I have a Kindle and an iPad and I sold them.",
        "I have a Kindle and I sold them.",
        "My brother's car broke down so I sold it.",
        "My laptop screen cracked so I threw it out.",
        "My phone's battery died so I replaced it.",
    ],
)
def test_it_or_them_without_one_owned_thing_before_it_retracts_nothing(text):
    assert retractions(text) == []


def test_a_pronoun_for_a_known_thing_retracts_the_known_subject():
    assert retractions("My BMW broke down so I sold it.", known=(BMW,)) == ["vehicle:bmw-x3"]


def test_the_owned_index_tells_an_ambiguous_mention_from_an_unknown_one():
    civic = KnownBelief("vehicle:honda-civic", "User owns a Honda Civic.", "ownership")
    index = OwnedIndex((BMW, civic))

    assert index.matches({"bmw"}) == ["vehicle:bmw-x3"]
    assert index.matches({"porsche"}) == []
    assert index.holds_kind("vehicle") and not index.holds_kind("device")
