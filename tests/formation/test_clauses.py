"""Each clause says what it says: a predicate binds to the subject of its own clause, a
retraction covers only what its clause names, coordinated relatives each form, of another
person only a need forms and as theirs, and times and scores stay whole."""

import pytest

from common.principal import principal_context
from formation.candidates import MemoryCandidate
from formation.extractor import DeterministicExtractor
from formation.gates import content_rejection
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
            "My grandfather left me his old writing desk.",
            ("item:writing-desk", "User owns a writing desk."),
        ),
        (
            "My grandmother left me her old sewing machine.",
            ("appliance:sewing-machine", "User owns a sewing machine."),
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
            "My daughter is allergic to peanuts.",
            ("person:daughter", "User's daughter is allergic to peanuts."),
            "User is allergic to peanuts.",
        ),
        (
            "My husband is lactose intolerant.",
            ("person:husband", "User's husband is lactose intolerant."),
            "User is lactose intolerant.",
        ),
        (
            "Orla, my flatmate, is vegetarian.",
            ("person:orla", "User's flatmate Orla is vegetarian."),
            "User is vegetarian.",
        ),
        (
            "My son Kian has a severe nut allergy.",
            ("person:kian", "User's son Kian has a severe nut allergy."),
            "User has a severe nut allergy.",
        ),
        (
            "My colleague is deaf.",
            ("person:colleague", "User's colleague is deaf."),
            "User is deaf.",
        ),
    ],
)
def test_another_persons_need_forms_as_theirs_never_as_the_owners(text, fact, not_the_owners):
    found = claims(text)

    assert (*fact, "positive") in found
    assert not [c for c in found if c[1] == not_the_owners]
    assert all(c[0].startswith(("person:", "relationship:")) for c in found)


@pytest.mark.parametrize(
    ("text", "not_the_owners"),
    [
        ("My partner owns a scooter.", "User owns a scooter."),
        ("My brother Tom works at a bakery in Leeds.", "User works at a bakery."),
        ("My sister Ana lives in Porto.", "User lives in Porto."),
        ("My partner, Jamie, is a chef.", "User is a chef."),
        ("My friend has a Tesla.", "User owns a Tesla."),
    ],
)
def test_what_else_is_said_of_another_person_forms_nothing_of_anyones(text, not_the_owners):
    """Beyond the relationship and a need, another person's life is theirs to tell."""
    found = claims(text)

    assert not [c for c in found if c[1] == not_the_owners]
    assert all(c[0].startswith(("person:", "relationship:")) for c in found)
    assert not [c for c in extract(text) if c.type == "fact"]


@pytest.mark.parametrize(
    "text",
    [
        "My sister's dog is allergic to chicken.",  # the dog's, not the sister's
        "My brother is not allergic to anything.",
        "My mom might be coeliac.",
        "My kids are vegan.",  # several people under one word
        "My son is allergic to my cat.",  # names the owner's thing
        "My brother is visiting next week.",
        "My friend said the movie was great.",
        "My dad sold my BMW.",  # the owner's news, read as a retraction
    ],
)
def test_what_is_no_need_of_one_person_forms_no_fact(text):
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


def test_a_persons_needs_stand_beside_each_other_and_their_relationship(owner):
    for text in ("My daughter Mia is allergic to peanuts.", "My daughter Mia is vegetarian."):
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
        "User has a daughter named Mia.": "person:mia",
        "User's daughter Mia is allergic to peanuts.": "person:mia",
        "User's daughter Mia is vegetarian.": "person:mia",
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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I left my job at the bank.", "User quit their job at the bank."),
        (
            "Last month I walked out of my job at the call centre for good.",
            "User quit their job at the call centre.",
        ),
        (
            "I got the apprenticeship at the Harland shipyard!",
            "User got the apprenticeship at the Harland shipyard.",
        ),
        ("I got a temp job to help cover expenses.", "User got a temp job."),
        (
            "I finished the Camino de Santiago in 31 days.",
            "User finished the Camino de Santiago in 31 days.",
        ),
        ("I passed the adoption agency interviews!", "User passed the adoption agency interviews."),
    ],
)
def test_job_changes_places_won_and_how_long_it_took_are_outcomes(text, expected):
    assert expected in statements(text)


@pytest.mark.parametrize(
    "text", ["I got the job done.", "I left my keys at the office.", "I finished the report."]
)
def test_what_only_sounds_like_an_outcome_is_none(text):
    assert not [c for c in extract(text) if c.type == "outcome"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm 52, divorced, and I live just outside Galway.", "User is 52 years old."),
        ("I'm 52.", "User is 52 years old."),
        ("I'd like you to use Celsius.", "User prefers Celsius."),
        (
            "Give me recipe quantities in grams, not cups.",
            "User prefers recipe quantities in grams.",
        ),
        ("I own a narrowboat.", "User owns a narrowboat."),
        ("I'm a flight attendant.", "User is a flight attendant."),
        ("We keep three alpacas.", None),
    ],
)
def test_ages_units_and_the_wider_vocabulary_of_things_and_jobs(text, expected):
    found = statements(text)
    if expected is None:
        assert not found
    else:
        assert expected in found


@pytest.mark.parametrize("text", ["I am 100 percent sure.", "I'm 5 minutes away."])
def test_a_number_that_is_no_age_forms_none(text):
    assert not [c for c in extract(text) if c.subject == "attr:age"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I came third in the Lakeland 50 with a time of 9:47.",
            ("outcome:lakeland-50", "User came third in the Lakeland 50 with a time of 9:47."),
        ),
        (
            "I raised £2,300 for the hospice by cycling from Bristol to Paris.",
            (
                "outcome:hospice",
                "User raised £2,300 for the hospice by cycling from Bristol to Paris.",
            ),
        ),
        ("I've never liked cold brew.", ("topic:cold-brew", "User dislikes cold brew.")),
        (
            "Ethiopian food is my favorite cuisine.",
            ("topic:favorite-cuisine", "User's favorite cuisine is Ethiopian food."),
        ),
        ("I live just outside Galway.", ("attr:residence", "User lives just outside Galway.")),
        (
            "I always switch every app I use to dark mode.",
            ("pref:interface-theme", "User prefers dark mode."),
        ),
        ("I have a Brother printer.", ("device:brother-printer", "User owns a Brother printer.")),
    ],
)
def test_outcomes_in_full_tastes_said_other_ways_and_settings_kept(text, expected):
    assert (*expected, "positive") in claims(text)


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("I have a Brother printer.", "relationship:brother"),  # a brand, not a relative
        ("I raised my hand.", "outcome:hand"),
        ("I have never liked him.", "topic:him"),
        ("It is my favorite song.", "topic:favorite-song"),
        ("I put the kids to bed.", "pref:units"),
    ],
)
def test_near_misses_of_those_form_nothing_of_the_kind(text, absent):
    assert not [c for c in extract(text) if c.subject == absent]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "My uncle left me his vintage Leica camera.",
            ("device:leica-camera", "User owns a Leica camera."),
        ),
        (
            "I can't stand the smell of coriander.",
            ("topic:smell-coriander", "User dislikes the smell of coriander."),
        ),
        ("I'm not really into football.", ("topic:football", "User dislikes football.")),
        (
            "I prefer tea over coffee in the mornings.",
            ("topic:coffee-tea", "User prefers tea over coffee in the mornings."),
        ),
        (
            "My mum has been diabetic for years.",
            ("person:mother", "User's mum has been diabetic for years."),
        ),
        (
            "I finished my first triathlon in under four hours.",
            ("outcome:first-triathlon", "User finished their first triathlon in under four hours."),
        ),
        (
            "I got a scholarship to study in Seoul.",
            ("outcome:scholarship", "User got a scholarship to study in Seoul."),
        ),
        (
            "I volunteered at a food bank over Christmas.",
            ("event:food-bank", "User volunteered at a food bank."),
        ),
        ("I grew up in rural Ohio.", ("attr:origin", "User grew up in rural Ohio.")),
        ("I have a teenage son.", ("relationship:son", "User has a teenage son.")),
        (
            "I bought a Fender Stratocaster.",
            ("instrument:fender-stratocaster", "User owns a Fender Stratocaster."),
        ),
    ],
)
def test_a_second_batch_of_ordinary_sentences_forms_what_they_say(text, expected):
    assert (*expected, "positive") in claims(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I'm currently reading \"The Lean Startup\" and hoping it'll give me tips.",
            "User is reading The Lean Startup.",
        ),
        ('I just watched "Little Women" and it was amazing!', "User watched Little Women."),
        (
            "When I was younger, my family and I went on a road trip to Oregon.",
            "User went on a road trip to Oregon.",
        ),
        ("I joined a gym last week!", "User joined a gym."),
        ("We even had a picnic last week!", "User had a picnic."),
        ("Lost my job as a banker yesterday.", "User lost their job."),
        ("I got laid off last month.", "User got laid off."),
        ("I applied to adoption agencies!", "User applied to adoption agencies."),
        ("Yesterday I took the kids to the museum.", "User took the kids to the museum."),
        (
            "I joined a mentorship program for LGBTQ youth.",
            "User joined a mentorship program for LGBTQ youth.",
        ),
        (
            "Since we chatted last, I've been blogging about politics.",
            "User has been blogging about politics.",
        ),
        ("I've been painting a lot lately.", "User has been painting."),
    ],
)
def test_what_people_tell_each_other_of_their_lives_forms(text, expected):
    assert expected in statements(text)


@pytest.mark.parametrize(
    "text",
    [
        'My friend said "Stop Now" to me.',  # someone's words, not a title
        'He told me "I Love You".',
        "I finished work early today.",
        "I took the kids to school.",
        "I've been crying all day.",
        "I've been cooking.",  # this afternoon, perhaps
        "I went to the gym.",
        "When will I hear back?",
    ],
)
def test_what_only_looks_like_news_of_a_life_forms_nothing(text):
    assert not statements(text)


@pytest.mark.parametrize(
    ("subject", "statement", "reason"),
    [
        ("person:tom", "User's brother Tom works at a bakery in Leeds.", "other_person"),
        ("person:friend", "User's friend has a Tesla.", "other_person"),
        ("person:mother", "User's mum has been diabetic for years.", None),
        ("person:orla", "User's flatmate Orla is vegetarian.", None),
        ("person:kian", "User's son Kian uses a wheelchair.", None),
    ],
)
def test_the_gates_keep_of_another_person_only_a_need(subject, statement, reason):
    candidate = MemoryCandidate(
        type="fact", subject=subject, statement=statement, source_ids=("m1",)
    )

    assert content_rejection(candidate, [statement]) == reason


def test_a_relationship_is_no_fact_of_the_person_and_passes():
    candidate = MemoryCandidate(
        type="relationship",
        subject="person:tom",
        statement="User has a brother named Tom.",
        source_ids=("m1",),
    )

    assert content_rejection(candidate, ["My brother Tom works at a bakery."]) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I'm 52, divorced, and I live just outside Galway.",
            {"User is 52 years old.", "User is divorced.", "User lives just outside Galway."},
        ),
        (
            "I'm 34, vegan and a nurse.",
            {"User is 34 years old.", "User is vegan.", "User is a nurse."},
        ),
        (
            "Yesterday we brought home Tripod, a three-legged cat from the shelter.",
            {"User has a three-legged cat named Tripod."},
        ),
        ("We adopted Biscuit, a rescue greyhound.", {"User has a greyhound named Biscuit."}),
        ("My son wants a puppy for his birthday.", {"User has a son."}),
    ],
)
def test_lists_of_what_the_owner_is_pets_named_first_and_relatives_who_wish(text, expected):
    assert statements(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I'm tired, hungry and cranky.",
        "I took in Sam, a friend from work.",
        "I wish my husband were still here.",  # the owner's wish says nothing of a husband now
        "My ex-wife wants the house.",
    ],
)
def test_near_misses_of_lists_names_first_and_wishes_form_nothing(text):
    assert not statements(text)
