"""One corpus of secrets in everyday wording and of near misses drives every path a secret
could take: the screening itself, the owner's explicit writes, formation from messages, and
what recall shows an assistant. Egress to a provider is tested over the same corpus in
``tests/providers/test_secret_egress.py``."""

import re

import pytest

from common.principal import principal_context
from formation.services import formation_consolidate
from memory import secrets
from memory.models import Belief, BeliefSource
from memory.screening import contains_secret, redact_secrets
from memory.selectors.recall import recall
from tests.api.conftest import client_for

from .helpers import conversation, remember
from .secrets_corpus import ALL, LINES, NEAR_MISSES, SECRETS, left_in


def test_the_corpus_holds_secrets_and_near_misses_in_numbers():
    secrets = [line for line in LINES if line["secret"]]
    assert len(secrets) >= 40 and len(LINES) - len(secrets) >= 40
    assert all(line["values"] and line["note"] for line in secrets)


@pytest.mark.parametrize("line", ALL)
def test_screening_tells_a_secret_from_a_near_miss(line):
    assert contains_secret(line["text"]) is line["secret"]


@pytest.mark.parametrize("line", SECRETS)
def test_redaction_removes_the_secret_itself(line):
    redacted = redact_secrets(line["text"])

    assert left_in(redacted, line) == []
    assert "[redacted]" in redacted
    assert redact_secrets(redacted) == redacted


def test_every_ascii_character_is_read_as_itself():
    """Why ASCII text is read as it is, without looking at each of its characters."""
    for code in range(128):
        char = chr(code)

        assert list(secrets._clusters(f"a{char}b")) == [(0, 1), (1, 2), (2, 3)]
        assert secrets._reading(char) == char


def test_text_read_as_it_is_is_redacted_as_when_read_character_by_character(monkeypatch):
    texts = [line.values[0]["text"] for line in ALL]
    texts += [text.upper() for text in texts] + [f"{text} {text}" for text in texts]
    assert sum(text.isascii() for text in texts) >= 100
    redacted = [redact_secrets(text) for text in texts]

    monkeypatch.setattr(secrets, "_normalised", secrets._normalised_by_cluster)

    assert [redact_secrets(text) for text in texts] == redacted


def test_a_pattern_is_skipped_only_where_it_could_not_match():
    """A pattern runs only when the text holds what it needs (a word for a password or a
    PIN, a digit): each of those patterns matches some line of the corpus, and wherever
    one matches, what it needs is there."""
    texts = [secrets.normalise(line.values[0]["text"]) for line in ALL]
    texts += [text.upper() for text in texts]
    for pattern, needs in secrets._PATTERNS:
        matched = [text for text in texts if pattern.search(text)]
        if needs:
            assert matched, pattern.pattern
        for text in matched:
            assert all(need.search(text) for need in needs), (pattern.pattern, text)
    for pattern in (secrets._NAMED_ID, secrets._IBAN_RE, secrets._CARD_RE, secrets._DNI_RE):
        assert all(secrets._DIGIT.search(text) for text in texts if pattern.search(text))


def _ascii_variants():
    texts = [secrets.normalise(line.values[0]["text"]) for line in ALL]
    texts += [text.upper() for text in texts] + [text.swapcase() for text in texts]
    return [text for text in texts if text.isascii()]


def test_the_one_pass_look_at_ascii_text_finds_every_requirement_there():
    """ASCII text in which no requirement is found at once is not looked at again: wherever
    a pattern's requirement (or a digit) holds, the one-pass searches find something."""
    texts = _ascii_variants()
    assert len(texts) >= 200
    needs = {need for _, needs in secrets._PATTERNS for need in needs} | {secrets._DIGIT}
    held = 0
    for text in texts:
        if any(need.search(text) for need in needs):
            held += 1
            assert secrets._ANY_NEED.search(text.lower()), text
        if any(need.search(text) for need in secrets._WORD_NEEDS):
            assert secrets._ANY_WORD.search(text.lower()), text
    assert held >= 100


def test_the_one_pass_look_changes_no_redaction(monkeypatch):
    texts = _ascii_variants()
    texts += [f"{text} {text}" for text in texts]
    redacted = [redact_secrets(text) for text in texts]
    assert any(text != redaction for text, redaction in zip(texts, redacted, strict=True))

    everything = re.compile("")
    monkeypatch.setattr(secrets, "_ANY_NEED", everything)
    monkeypatch.setattr(secrets, "_ANY_WORD", everything)

    assert [redact_secrets(text) for text in texts] == redacted


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_redaction_leaves_a_near_miss_as_it_is(line):
    assert redact_secrets(line["text"]) == line["text"]


@pytest.mark.parametrize("line", SECRETS)
def test_an_explicit_memory_holding_a_secret_is_refused(owner, line):
    api = client_for(owner)

    response = api.post("/api/v1/memories", {"statement": line["text"]}, format="json")

    error = response.json()["error"]
    assert (response.status_code, error["code"]) == (400, "validation_error")
    assert error["details"] == {"field": "statement", "reason": "secret"}
    assert api.get("/api/v1/memories").json()["results"] == []


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_an_explicit_near_miss_is_not_refused_as_a_secret(owner, line):
    response = client_for(owner).post(
        "/api/v1/memories", {"statement": line["text"]}, format="json"
    )

    assert response.status_code == 201, response.json()


@pytest.mark.parametrize("line", ALL)
def test_formation_from_a_message_forms_nothing_secret(owner, line):
    session, _ = conversation(owner, line["text"])

    formation = formation_consolidate(principal=owner, session_id=session.public_id)

    with principal_context(owner):
        statements = list(Belief.objects.values_list("statement", flat=True))
        excerpts = list(BeliefSource.objects.values_list("excerpt", flat=True))
    assert not any(contains_secret(statement) for statement in statements)
    assert not any(left_in(text, line) for text in statements + excerpts)
    if not line["secret"]:
        assert "secret" not in formation.rejection_reasons


@pytest.mark.parametrize("line", SECRETS)
def test_recall_never_shows_a_secret_a_message_said_or_an_older_memory_kept(owner, line):
    conversation(owner, line["text"])
    legacy = remember(owner, "User keeps a note.")
    with principal_context(owner):
        # Written before today's gates: what is stored is not trusted either.
        Belief.objects.filter(pk=legacy.pk).update(statement=line["text"])

    result = recall(principal=owner, query=line["text"], include=["messages"])

    shown = [item.text for item in result.items] + [
        source.excerpt for item in result.items for source in item.sources
    ]
    assert result.items
    assert not any(left_in(text, line) for text in shown)
