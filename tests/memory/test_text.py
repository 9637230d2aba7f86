import pytest

from core.errors import ReverieError
from memory.text import claim_fingerprint, is_valid_subject, query_terms, topic_subject


def test_equal_claims_share_a_fingerprint_whatever_their_case_and_spacing():
    assert claim_fingerprint("device:apple-watch", "User owns an  Apple Watch.") == (
        claim_fingerprint("device:apple-watch", "user owns an apple watch")
    )
    assert claim_fingerprint("device:apple-watch", "x") != claim_fingerprint("device:ipad", "x")


@pytest.mark.parametrize(
    ("subject", "valid"),
    [
        ("device:apple-watch", True),
        ("pref:answer-style", True),
        ("topic:tea", True),
        ("user", False),
        ("Device:Apple Watch", False),
        ("device:", False),
        ("device:" + "a" * 200, False),
    ],
)
def test_subjects_are_kind_and_normalised_entity(subject, valid):
    assert is_valid_subject(subject) is valid


def test_query_terms_keep_content_words_only():
    assert query_terms("What did I say about my sister's café in Lisbon?") == [
        "say",
        "sister",
        "café",
        "lisbon",
    ]


def test_topic_subjects_are_ascii_slugs():
    assert topic_subject("My favourite café is Le Procope.") == "topic:favourite-cafe-le"
    assert topic_subject("the and of") == "topic:general"


def test_an_unknown_error_code_is_a_programming_error():
    with pytest.raises(ValueError):
        ReverieError("teapot", "I am a teapot")
