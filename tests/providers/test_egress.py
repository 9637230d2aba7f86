"""The egress policy denies by default; rules allow items by sensitivity, portability and
scope; a malformed rule is a start-up error."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from providers.checks import egress_policy_is_well_formed
from providers.egress import (
    EgressItem,
    egress_rules,
    item_allowed,
    message_item,
    residency_allowed,
)

RULE = {"sensitivity": ["normal"], "portability": ["portable"], "scope": ["assistant:*"]}


def test_nothing_is_allowed_by_default(settings):
    assert settings.REVERIE_EGRESS == {"residency": [], "allow": []}
    assert not item_allowed(EgressItem("normal", "portable", "principal"), egress_rules())
    assert not residency_allowed("eu") and not residency_allowed("")


def test_a_rule_allows_only_what_it_names_on_all_three_counts():
    rules = [RULE]

    assert item_allowed(EgressItem("normal", "portable", "assistant:coach"), rules)
    assert not item_allowed(EgressItem("personal", "portable", "assistant:coach"), rules)
    assert not item_allowed(EgressItem("normal", "local", "assistant:coach"), rules)
    assert not item_allowed(EgressItem("normal", "portable", "principal"), rules)


def test_messages_are_classified_and_sensitive_ones_count_as_local():
    assert message_item("I own a Kindle.", scope="principal") == EgressItem(
        "normal", "portable", "principal"
    )
    assert message_item("My therapist moved my session.", scope="principal") == EgressItem(
        "sensitive", "local", "principal"
    )


@pytest.mark.parametrize(
    "allow",
    [
        {"sensitivity": ["normal"]},
        [{"sensitivity": ["normal"], "portability": ["portable"]}],
        [{**RULE, "sensitivity": ["secret"]}],
        [{**RULE, "scope": ["everyone"]}],
        [{**RULE, "portability": "portable"}],
    ],
    ids=["not-a-list", "missing-dimension", "unknown-sensitivity", "bad-scope", "not-a-list-value"],
)
def test_a_malformed_rule_is_refused_at_start_up(settings, allow):
    settings.REVERIE_EGRESS = {"residency": ["eu"], "allow": allow}

    with pytest.raises(ImproperlyConfigured):
        egress_rules()
    (error,) = egress_policy_is_well_formed(None)
    assert error.id == "providers.E001"


def test_a_well_formed_policy_passes_the_check(settings):
    settings.REVERIE_EGRESS = {"residency": ["eu"], "allow": [RULE]}

    assert egress_policy_is_well_formed(None) == []
    assert residency_allowed("eu") and not residency_allowed("us")


@pytest.mark.parametrize("sensitivities", [["sensitive"], ["normal", "personal", "sensitive"]])
def test_a_rule_that_would_let_sensitive_items_out_is_a_start_up_error(settings, sensitivities):
    settings.REVERIE_EGRESS = {
        "residency": ["eu"],
        "allow": [RULE, {**RULE, "sensitivity": sensitivities, "portability": ["local"]}],
    }

    with pytest.raises(ImproperlyConfigured, match="rule 2 allows sensitive items"):
        egress_rules()
    (error,) = egress_policy_is_well_formed(None)
    assert error.id == "providers.E001" and "never leave" in error.msg


def test_a_sensitive_item_is_never_allowed_whatever_the_rules_say():
    rules = [{"sensitivity": ["sensitive"], "portability": ["local"], "scope": ["principal"]}]

    assert not item_allowed(EgressItem("sensitive", "local", "principal"), rules)
    assert not item_allowed(
        message_item("I was diagnosed with diabetes.", scope="principal"), rules
    )
