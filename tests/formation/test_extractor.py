"""The deterministic v2 extractor: what each grammar proposes, and what must propose nothing."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from formation.candidates import (
    POLICY_DETERMINISTIC,
    ExtractionMessage,
    ExtractionRequest,
    KnownBelief,
)
from formation.extractor import MAX_PROPOSALS, DeterministicExtractor
from formation.subjects import OwnedIndex, preference_subject, topic_key
from formation.temporal import find_temporal
from memory.enums import BeliefType, EventType, Portability, Sensitivity
from memory.text import is_valid_subject

# A Wednesday.
NOW = datetime(2026, 8, 19, 10, 0, tzinfo=UTC)
BMW = KnownBelief(subject="vehicle:bmw-x3", statement="User owns a BMW X3.", type="ownership")
WATCH = KnownBelief(
    subject="device:apple-watch", statement="User owns an Apple Watch.", type="ownership"
)
CIVIC = KnownBelief(
    subject="vehicle:honda-civic", statement="User owns a Honda Civic.", type="ownership"
)


def message(text, *, id="m1", event_type=EventType.USER_MESSAGE, at=NOW, author=None):
    parts = tuple(text) if isinstance(text, list) else (text,)
    kinds = {
        EventType.USER_MESSAGE: "principal",
        EventType.ASSISTANT_MESSAGE: "assistant",
        EventType.PARTICIPANT_MESSAGE: "participant",
    }
    return ExtractionMessage(
        id=id,
        event_type=event_type,
        author_kind=author or kinds[event_type],
        parts=parts,
        occurred_at=at,
    )


def extract(*messages, known=()):
    messages = tuple(m if isinstance(m, ExtractionMessage) else message(m) for m in messages)
    result = DeterministicExtractor().extract(ExtractionRequest(messages=messages, known=known))
    assert result.policy_version == POLICY_DETERMINISTIC
    return result.candidates


def claims(candidates):
    return [(c.subject, c.statement, str(c.polarity)) for c in candidates]


# -- ownership --------------------------------------------------------------------


def test_an_apple_watch_and_a_bmw_x3_are_two_separate_memories():
    candidates = extract("I have an Apple Watch and a BMW X3.")

    assert claims(candidates) == [
        ("device:apple-watch", "User owns an Apple Watch.", "positive"),
        ("vehicle:bmw-x3", "User owns a BMW X3.", "positive"),
    ]
    assert {c.type for c in candidates} == {BeliefType.OWNERSHIP}
    assert all(c.source_ids == ("m1",) for c in candidates)


def test_a_coordinated_possessive_proposes_each_thing_once_without_its_trailing_words():
    candidates = extract("My Apple Watch and BMW X3 both need a software update.")

    assert claims(candidates) == [
        ("device:apple-watch", "User owns an Apple Watch.", "positive"),
        ("vehicle:bmw-x3", "User owns a BMW X3.", "positive"),
    ]


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        ("I just bought a new MacBook Pro.", "device:macbook-pro", "User owns a MacBook Pro."),
        ("We own a Tesla Model Y.", "vehicle:tesla-model-y", "User owns a Tesla Model Y."),
        ("I drive a Honda Civic.", "vehicle:honda-civic", "User owns a Honda Civic."),
        (
            "My iPhone 15 Pro keeps overheating.",
            "device:iphone-15-pro",
            "User owns an iPhone 15 Pro.",
        ),
        ("I bought a Rolex yesterday.", "item:rolex", "User owns a Rolex."),
        ("I have two cats.", "pet:cat", "User has two cats."),
        ("I adopted a cat named Luna.", "pet:luna", "User has a cat named Luna."),
        ("My dog Biscuit loves the beach.", "pet:biscuit", "User has a dog named Biscuit."),
        ("Oscar, my guinea pig, is shy.", "pet:oscar", "User has a guinea pig named Oscar."),
        ("My AirPods Pro are great.", "device:airpods-pro", "User owns AirPods Pro."),
        ("I have a PS5 and an Xbox.", "device:xbox", "User owns an Xbox."),
    ],
)
def test_ownership_grammars_name_the_thing_in_the_owners_words(text, subject, statement):
    assert (subject, statement, "positive") in claims(extract(text))


@pytest.mark.parametrize(
    "text",
    [
        "My friend has a Tesla.",
        "John owns a BMW X3.",
        "She just adopted a cat named Whiskers.",
        "My sister's BMW is red.",
        "My neighbor's dog barks all night.",
        "His iPhone is broken.",
        "They bought a new house.",
    ],
)
def test_it_does_not_propose_ownership_of_other_peoples_possessions(text):
    assert not [c for c in extract(text) if c.type == BeliefType.OWNERSHIP]


def test_a_past_or_wished_for_possession_is_not_owned():
    assert extract("My old laptop was slow.") == ()
    assert extract("My dream car is a Porsche.") == ()


# -- retractions --------------------------------------------------------------------


def test_a_retraction_resolves_to_the_known_subject_whose_words_contain_the_mention():
    candidates = extract("I sold my BMW.", known=(BMW, WATCH))

    assert claims(candidates) == [("vehicle:bmw-x3", "User no longer owns a BMW.", "negative")]
    assert candidates[0].type == BeliefType.OWNERSHIP


@pytest.mark.parametrize(
    "text",
    [
        "I no longer have the BMW.",
        "I don't have a BMW anymore.",
        "I got rid of the BMW.",
        "I gave my BMW to my nephew.",
        "My BMW was stolen.",
        "I used to have a BMW.",
    ],
)
def test_ordinary_ownership_retractions_are_negative_proposals(text):
    candidates = extract(text, known=(BMW,))

    assert [(c.subject, str(c.polarity)) for c in candidates if c.type == "ownership"] == [
        ("vehicle:bmw-x3", "negative")
    ]


def test_an_ambiguous_retraction_proposes_nothing():
    assert extract("I sold the car.", known=(BMW, CIVIC)) == ()


def test_a_retraction_of_something_unknown_stands_alone_under_its_own_subject():
    assert claims(extract("I sold my Porsche.", known=(BMW,))) == [
        ("vehicle:porsche", "User no longer owns a Porsche.", "negative")
    ]


def test_a_subject_retracted_in_a_message_is_not_also_proposed_positively_by_it():
    candidates = extract("I sold my BMW X3. My BMW X3 was a great car though.", known=(BMW,))

    assert claims(candidates) == [("vehicle:bmw-x3", "User no longer owns a BMW X3.", "negative")]


def test_retracting_several_things_reasserts_none_of_them():
    candidates = extract("I sold my BMW X3 and my Apple Watch.", known=(BMW, WATCH))

    assert {str(c.polarity) for c in candidates} == {"negative"}
    assert [c.subject for c in candidates] == ["vehicle:bmw-x3", "device:apple-watch"]


def test_a_trade_in_retracts_the_old_thing_and_proposes_the_new_one():
    assert claims(extract("I traded in my BMW for a Tesla.", known=(BMW,))) == [
        ("vehicle:bmw-x3", "User no longer owns a BMW.", "negative"),
        ("vehicle:tesla", "User owns a Tesla.", "positive"),
    ]


def test_a_retraction_can_name_what_an_earlier_message_of_the_request_proposed():
    candidates = extract(
        message("I bought a Garmin watch.", id="m1"), message("I sold the Garmin.", id="m2")
    )

    assert claims(candidates) == [
        ("device:garmin-watch", "User owns a Garmin watch.", "positive"),
        ("device:garmin-watch", "User no longer owns a Garmin.", "negative"),
    ]
    assert [c.source_ids for c in candidates] == [("m1",), ("m2",)]


def test_someone_else_selling_the_owners_thing_proposes_no_ownership():
    assert extract("My dad sold my BMW.", known=(BMW,)) == ()


def test_known_beliefs_resolve_only_among_positive_ownership():
    index = OwnedIndex(
        (
            BMW,
            KnownBelief("topic:bmw-ads", "User likes BMW ads.", "preference"),
            KnownBelief("vehicle:bmw-m3", "User no longer owns a BMW M3.", "ownership", "negative"),
        )
    )

    assert index.resolve({"bmw"}) == "vehicle:bmw-x3"
    assert index.resolve({"porsche"}) is None


# -- preferences -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        ("I prefer short answers.", "pref:answer-style", "User prefers short answers."),
        ("Please keep your answers concise.", "pref:answer-style", "User prefers concise answers."),
        ("I like dark mode.", "pref:interface-theme", "User prefers dark mode."),
        ("I prefer tabs over spaces.", "pref:indentation-style", "User prefers tabs over spaces."),
        ("Please use metric units.", "pref:units", "User prefers metric units."),
        ("I hate light mode.", "pref:interface-theme", "User dislikes light mode."),
    ],
)
def test_common_preference_domains_have_stable_subjects(text, subject, statement):
    assert claims(extract(text)) == [(subject, statement, "positive")]


def test_singular_and_plural_preferences_share_one_canonical_statement():
    assert claims(extract("I prefer short answers.")) == claims(extract("We prefer short answers."))


def test_other_preferences_derive_a_topic_key_and_never_the_bare_user():
    candidates = extract("I love hiking, cooking and photography.")

    assert [c.subject for c in candidates] == ["topic:hiking", "topic:cooking", "topic:photography"]
    assert all(c.subject != "user" and is_valid_subject(c.subject) for c in candidates)


def test_reversing_a_comparison_keeps_its_topic_so_it_can_conflict():
    assert preference_subject("tea", "to coffee") == preference_subject("coffee", "over tea")
    assert topic_key("the User prefers their new bike") == "bike"


@pytest.mark.parametrize(
    "text", ["I love it!", "I like that idea.", "I like your answer.", "I love you guys!"]
)
def test_a_taste_for_something_only_the_conversation_knows_is_not_a_preference(text):
    assert extract(text) == ()


# -- attributes, relationships, decisions, outcomes ------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My name is Priya.", [("attr:name", "User's name is Priya.")]),
        ("I'm 34 years old.", [("attr:age", "User is 34 years old.")]),
        ("I live in Lisbon.", [("attr:residence", "User lives in Lisbon.")]),
        ("I'm originally from São Paulo.", [("attr:origin", "User is from São Paulo.")]),
        (
            "I work as a nurse at St. Mary's Hospital.",
            [
                ("attr:occupation", "User is a nurse."),
                ("attr:employer", "User works at St. Mary's Hospital."),
            ],
        ),
        ("I'm allergic to peanuts.", [("allergy:peanuts", "User is allergic to peanuts.")]),
        ("I don't eat pork.", [("diet:pork", "User does not eat pork.")]),
        ("My birthday is on March 3rd.", [("attr:birthday", "User's birthday is March 3rd.")]),
        (
            "I speak Portuguese and French.",
            [
                ("language:portuguese", "User speaks Portuguese."),
                ("language:french", "User speaks French."),
            ],
        ),
    ],
)
def test_user_attributes(text, expected):
    candidates = extract(text)

    assert [(c.subject, c.statement) for c in candidates] == expected
    assert {c.type for c in candidates} == {BeliefType.ATTRIBUTE}


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        ("I have a brother named Tom.", "person:tom", "User has a brother named Tom."),
        ("My wife's name is Maria.", "person:maria", "User has a wife named Maria."),
        ("Leo is my son.", "person:leo", "User has a son named Leo."),
        ("My best friend Sam is visiting.", "person:sam", "User has a best friend named Sam."),
        ("I have two kids.", "relationship:children", "User has two kids."),
        ("I'm married to Daniel.", "person:daniel", "User is married to Daniel."),
    ],
)
def test_relationships(text, subject, statement):
    assert claims(extract(text)) == [(subject, statement, "positive")]
    assert extract(text)[0].type == BeliefType.RELATIONSHIP


@pytest.mark.parametrize(
    ("text", "type_", "subject", "statement"),
    [
        (
            "I decided to learn Spanish.",
            "decision",
            "decision:learn-spanish",
            "User decided to learn Spanish.",
        ),
        (
            "I decided not to renew my gym membership.",
            "decision",
            "decision:renew-gym-membership",
            "User decided not to renew their gym membership.",
        ),
        ("I chose the Pro plan.", "decision", "decision:pro-plan", "User chose the Pro plan."),
        ("I plan to retire in 2030.", "decision", "decision:retire", "User plans to retire."),
        (
            "I passed my driving test!",
            "outcome",
            "outcome:driving-test",
            "User passed their driving test.",
        ),
        (
            "I got promoted to senior engineer.",
            "outcome",
            "outcome:senior-engineer",
            "User got promoted to senior engineer.",
        ),
        (
            "I ran a charity race for mental health.",
            "fact",
            "event:charity-race-mental",
            "User ran a charity race for mental health.",
        ),
    ],
)
def test_decisions_outcomes_and_experiences(text, type_, subject, statement):
    candidates = extract(text)

    assert claims(candidates) == [(subject, statement, "positive")]
    assert candidates[0].type == type_


def test_changing_a_decision_keeps_its_subject():
    first = extract("I decided to sell my car.")
    second = extract("I decided not to sell my car.")

    decision = [c for c in first if c.type == "decision"][0]
    reversal = [c for c in second if c.type == "decision"][0]
    assert decision.subject == reversal.subject
    assert decision.statement != reversal.statement


# -- boundaries ----------------------------------------------------------------------


def test_sentences_clauses_and_parts_keep_unrelated_statements_apart():
    candidates = extract(
        message(["I have a Kindle.", "My sister Ana is visiting."]),
        message("I love sushi; I hate olives. I live in Oslo, and I work for Equinor.", id="m2"),
    )

    assert claims(candidates) == [
        ("device:kindle", "User owns a Kindle.", "positive"),
        ("person:ana", "User has a sister named Ana.", "positive"),
        ("topic:sushi", "User likes sushi.", "positive"),
        ("topic:olives", "User dislikes olives.", "positive"),
        ("attr:residence", "User lives in Oslo.", "positive"),
        ("attr:employer", "User works for Equinor.", "positive"),
    ]
    assert len({c.subject for c in candidates}) == len(candidates)


def test_a_second_verb_of_the_same_speaker_is_its_own_claim():
    assert claims(extract("I sold my bike and bought a Vespa.")) == [
        ("vehicle:bike", "User no longer owns a bike.", "negative"),
        ("vehicle:vespa", "User owns a Vespa.", "positive"),
    ]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("Just finished my first marathon!", "User finished their first marathon."),
        ("Joined a climbing gym last week.", "User joined a climbing gym."),
        ("I wanted to tell you I just joined a writers group.", "User joined a writers group."),
        ("Just wanted to let you know I got the job at Spotify!", "User got the job at Spotify."),
    ],
)
def test_chat_style_news_is_the_owners_own(text, statement):
    assert [c.statement for c in extract(text)] == [statement]


def test_someone_else_telling_about_the_owner_is_reported_speech():
    assert extract("He told you I own a Porsche.") == ()


def test_the_same_claim_in_two_messages_is_one_proposal_citing_both():
    candidates = extract(
        message("I prefer short answers.", id="m1"), message("I prefer short answers!", id="m2")
    )

    assert [c.source_ids for c in candidates] == [("m1", "m2")]


# -- what must not fire -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Should I buy an Apple Watch?",
        "Do you think I prefer short answers?",
        "Is my BMW X3 covered by the warranty?",
        "did I tell you I have a cat",
    ],
)
def test_questions_propose_nothing(text):
    assert extract(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "If I had a Tesla, I would drive it everywhere.",
        "Imagine I owned a boat.",
        "I might get a dog someday.",
        "Maybe I'll buy a PS5 next year.",
        "I should probably sell my car.",
        "Let's say I have two kids.",
    ],
)
def test_hypotheticals_propose_nothing(text):
    assert extract(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "I don't want a dog.",
        "I never wanted kids.",
        "I wish I had a piano.",
        "I want a Tesla.",
        "I'm thinking about getting a cat.",
        "I would like to buy a MacBook.",
    ],
)
def test_wishes_and_negated_wishes_propose_nothing(text):
    assert extract(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        'My friend said, "I just bought a Porsche."',
        '"I love hiking," she wrote.',
        'The book opens with "I have a dog named Rex. I live in Rome."',
        "He told me he prefers dark mode.",
        "> I own a BMW X3\nThat was from an email.",
        "Apparently I have a cousin in Brazil.",
    ],
)
def test_quoted_and_reported_speech_proposes_nothing(text):
    assert extract(text) == ()


@pytest.mark.parametrize("event_type", [EventType.PARTICIPANT_MESSAGE, EventType.ASSISTANT_MESSAGE])
def test_other_participants_and_the_assistant_form_nothing(event_type):
    assert extract(message("I have a dog named Rex.", event_type=event_type)) == ()
    assert extract(message("I sold my BMW.", event_type=event_type), known=(BMW,)) == ()


def test_a_user_message_not_authored_by_the_principal_forms_nothing():
    assert extract(message("I have a dog named Rex.", author="system")) == ()


# -- validity and expiry ----------------------------------------------------------------


def test_until_friday_ends_at_the_end_of_the_next_friday():
    (candidate,) = extract("Use dark mode until Friday.")

    end = datetime(2026, 8, 21, 23, 59, 59, tzinfo=UTC)
    assert candidate.subject == "pref:interface-theme"
    assert candidate.temporal.phrase == "until Friday"
    assert (candidate.temporal.valid_until, candidate.temporal.expires_at) == (end, end)


def test_until_friday_said_on_a_friday_means_next_weeks_friday():
    friday = datetime(2026, 8, 21, 9, 0, tzinfo=UTC)
    (match,) = find_temporal("until Friday", friday)

    assert match.hint.valid_until == datetime(2026, 8, 28, 23, 59, 59, tzinfo=UTC)


def test_for_the_next_two_weeks_lasts_fourteen_days():
    (candidate,) = extract("I'm vegetarian for the next two weeks.")

    assert candidate.statement == "User is vegetarian."
    assert candidate.temporal.valid_until == NOW + timedelta(days=14)
    assert candidate.temporal.expires_at == NOW + timedelta(days=14)


def test_relative_times_resolve_in_the_messages_own_time_zone():
    lisbon_evening = datetime(2026, 8, 20, 22, 30, tzinfo=timezone(timedelta(hours=2)))
    (candidate,) = extract(message("I prefer light mode until Friday.", at=lisbon_evening))

    assert candidate.temporal.valid_until == datetime(
        2026, 8, 21, 23, 59, 59, tzinfo=timezone(timedelta(hours=2))
    )


@pytest.mark.parametrize(
    ("phrase", "field", "value"),
    [
        ("I've lived in Berlin since 2019.", "valid_from", datetime(2019, 1, 1, tzinfo=UTC)),
        (
            "I started transitioning three years ago.",
            "valid_from",
            datetime(2023, 8, 19, 10, tzinfo=UTC),
        ),
        ("I passed my driving test yesterday.", "valid_from", datetime(2026, 8, 18, tzinfo=UTC)),
        (
            "I prefer short answers until the end of the month.",
            "valid_until",
            datetime(2026, 8, 31, 23, 59, 59, tzinfo=UTC),
        ),
    ],
)
def test_validity_hints(phrase, field, value):
    (candidate,) = extract(phrase)

    assert getattr(candidate.temporal, field) == value


def test_each_claim_takes_the_time_phrase_nearest_to_it():
    retraction, preference = extract(
        "I sold the BMW last week, until Friday I prefer short answers.", known=(BMW,)
    )

    assert retraction.temporal.phrase == "last week"
    assert preference.temporal.phrase == "until Friday"


def test_a_time_phrase_stays_out_of_the_statement():
    (candidate,) = extract("I prefer dark mode until tomorrow.")

    assert candidate.statement == "User prefers dark mode."


# -- proposal shape --------------------------------------------------------------------


def test_every_proposal_is_well_formed():
    candidates = extract(
        "I have an Apple Watch. I'm a therapist. My sister Ana is vegan. "
        "I prefer tabs. I decided to learn Spanish. I passed my exam."
    )

    # Ana's relationship and her need ("User's sister Ana is vegan.") among them.
    assert len(candidates) == 7
    for candidate in candidates:
        assert candidate.type in BeliefType.values
        assert is_valid_subject(candidate.subject)
        assert candidate.statement.startswith("User")
        assert 0 < candidate.confidence <= 1
        assert candidate.scope == "principal"


def test_sensitive_proposals_are_marked_sensitive_and_local():
    (candidate,) = extract("I'm a therapist.")

    assert candidate.sensitivity == Sensitivity.SENSITIVE
    assert candidate.portability == Portability.LOCAL


def test_proposals_carry_the_requests_scope():
    result = DeterministicExtractor().extract(
        ExtractionRequest(messages=(message("I prefer tabs."),), scope="assistant:coder")
    )

    assert [c.scope for c in result.candidates] == ["assistant:coder"]


# -- bounds, determinism, robustness --------------------------------------------------


def test_it_returns_at_most_256_proposals_and_says_it_stopped():
    messages = tuple(message(f"I own a BMW X{n}.", id=f"m{n}") for n in range(300))
    result = DeterministicExtractor().extract(ExtractionRequest(messages=messages))

    assert MAX_PROPOSALS == 256
    assert len(result.candidates) == 256
    assert result.usage["capped"] is True
    assert result.candidates[-1].source_ids == ("m255",)


def test_it_stops_scanning_a_repetitive_message_after_256_proposals():
    text = "I prefer short answers. " * 5000
    result = DeterministicExtractor().extract(ExtractionRequest(messages=(message(text),)))

    assert len(result.candidates) == 1
    assert result.usage["proposals"] == 256


def test_the_same_input_gives_the_same_output():
    messages = (
        message("I have an Apple Watch and a BMW X3. I love hiking until Friday.", id="a"),
        message("I sold my BMW, but I still wear my Apple Watch.", id="b"),
    )
    request = ExtractionRequest(messages=messages, known=(BMW, WATCH, CIVIC))

    first = DeterministicExtractor().extract(request)
    second = DeterministicExtractor().extract(request)

    assert first == second


@pytest.mark.parametrize(
    "parts",
    [
        ("",),
        ("   \n\t ",),
        ("I have a dog. " * 5000,),
        ("x" * 65536,),
        (" ".join(["supercalifragilistic"] * 4000),),
        ("\x00\x01\x02 I own a BMW \x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x11",),
        ("\ufffd" * 1000,),
        ("Ich habe einen BMW. 我有一辆宝马。 J'ai un chien. Я люблю собак.",),
        ("I have a " + "(" * 5000,),
        ('"' * 3000,),
        ("my " * 20000,),
        (None, 42, b"I own a BMW"),
        (),
    ],
)
def test_bad_input_yields_no_proposals_and_no_crash(parts):
    bad = ExtractionMessage(
        id="bad",
        event_type=EventType.USER_MESSAGE,
        author_kind="principal",
        parts=parts,
        occurred_at=NOW,
    )
    result = DeterministicExtractor().extract(ExtractionRequest(messages=(bad,)))

    assert len(result.candidates) <= 1
    assert all(is_valid_subject(c.subject) for c in result.candidates)


def test_a_huge_message_still_yields_its_statements():
    text = ("Lorem ipsum dolor sit amet. " * 2300) + "I have a Kindle."
    assert len(text) > 64_000

    assert claims(extract(text)) == [("device:kindle", "User owns a Kindle.", "positive")]


def test_a_naive_message_time_is_read_as_utc():
    (candidate,) = extract(message("Use dark mode until Friday.", at=datetime(2026, 8, 19, 10)))

    assert candidate.temporal.valid_until == datetime(2026, 8, 21, 23, 59, 59, tzinfo=UTC)
