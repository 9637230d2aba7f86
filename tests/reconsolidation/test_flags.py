"""Owner first: reconsolidation is effectively on only while it is certified, set on, its owner
surface is on and the kill switch is off, whichever way each was set; the operator sees why."""

import pytest
from django.urls import reverse

from common.models import Flag
from common.selectors.flags import flag_cache_clear, flag_enabled, flag_list, flag_state
from common.services.flags import flag_set
from core.errors import ReverieError
from memory.selectors.recall import recall
from reconsolidation.services.passes import reconsolidation_pass
from tests.memory.helpers import remember


def kindle_merge(owner):
    for text in ("User owns a Kindle.", "user owns the kindle"):
        remember(owner, text, subject="device:kindle", type="ownership")
    reconsolidation_pass(principal=owner)


def derived_recalled(owner):
    result = recall(principal=owner, query="kindle", include=["derived"])
    return [item.derived_kind for item in result.items if item.kind == "derived"]


def test_on_certified_and_with_the_surface_on_it_is_effectively_on(processing_on):
    state = flag_state("reconsolidation")

    assert (state.value, state.enabled, state.reason, state.certificate) == (True, True, "", "")


def test_switching_it_on_while_the_surface_is_off_is_refused_naming_what_to_do(db):
    with pytest.raises(ReverieError) as refusal:
        flag_set(key="reconsolidation", enabled=True)

    assert refusal.value.code == "conflict"
    assert refusal.value.message == (
        "reconsolidation cannot be switched on while reconsolidation_surface is off: turn "
        "reconsolidation_surface on first, then reconsolidation."
    )
    assert refusal.value.details["requires"] == ["reconsolidation_surface"]
    assert flag_state("reconsolidation").value is False


def test_switching_the_surface_off_is_allowed_and_is_the_reason_processing_is_off(
    owner, processing_on
):
    kindle_merge(owner)
    assert derived_recalled(owner) == ["merged"]

    flag_set(key="reconsolidation_surface", enabled=False)

    state = flag_state("reconsolidation")
    assert (state.value, state.enabled) == (True, False)
    assert state.reason == "reconsolidation_surface is off"
    # Nothing derived reaches an assistant that its owner cannot inspect.
    assert derived_recalled(owner) == []


def test_the_kill_switch_turns_the_capability_off_and_says_so(owner, processing_on):
    kindle_merge(owner)
    flag_set(key="maintenance_kill_switch", enabled=True)

    state = flag_state("reconsolidation")

    assert (state.enabled, state.reason) == (False, "the maintenance_kill_switch is on")
    assert derived_recalled(owner) == []


def test_an_environment_default_is_held_to_the_same_rules(owner, settings, processing_on):
    flag_set(key="reconsolidation", enabled=False)
    flag_set(key="reconsolidation_surface", enabled=False)
    Flag.objects.all().delete()
    settings.REVERIE_FLAG_DEFAULTS = {
        **settings.REVERIE_FLAG_DEFAULTS,
        "reconsolidation": True,
        "reconsolidation_surface": False,
    }
    flag_cache_clear()

    assert flag_enabled("reconsolidation") is False
    assert flag_state("reconsolidation").reason == "reconsolidation_surface is off"

    settings.REVERIE_FLAG_DEFAULTS = {
        **settings.REVERIE_FLAG_DEFAULTS,
        "reconsolidation_surface": True,
    }
    flag_cache_clear()

    assert flag_enabled("reconsolidation") is True


def test_without_a_certificate_an_environment_default_stays_off_with_every_reason(db, settings):
    settings.REVERIE_FLAG_DEFAULTS = {
        **settings.REVERIE_FLAG_DEFAULTS,
        "reconsolidation": True,
        "maintenance_kill_switch": True,
    }

    state = flag_state("reconsolidation")

    assert state.enabled is False
    assert state.reason == (
        "the maintenance_kill_switch is on; reconsolidation_surface is off; "
        "no certificate matches its current code"
    )
    assert "manage.py certify" in state.certificate


def test_the_operator_page_shows_the_effective_value_and_why_it_differs(client, operator):
    flag_set(key="reconsolidation_surface", enabled=True)
    client.force_login(operator)

    page = client.get(reverse("admin:common_flag_changelist")).content.decode()
    states = {state.key: state for state in flag_list()}

    assert states["reconsolidation_surface"].enabled is True
    assert states["reconsolidation"].enabled is False
    assert "Certificate: reconsolidation needs an evaluation certificate" in page
    row = page.split('id="flag-reconsolidation_surface"')[1].split("</tr>")[0]
    assert "by an operator" in row and "<strong>on</strong>" in row
    assert "Reverie operator admin" in page
