import re

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone
from django_q.models import Task

from accounts.operators import operator_grant
from common.models import Flag
from common.selectors.flags import flag_enabled
from memory.enums import EventType
from memory.services.beliefs import belief_reject
from tests.factories import UserFactory

from .helpers import conversation, remember, say

SECRET_STATEMENT = "User's childhood nickname was Quokka7."
SECRET_MESSAGE = "My childhood nickname was Quokka7, please keep it."


def overview(client):
    """The operator overview's HTML, its whitespace collapsed."""
    response = client.get(reverse("admin:memory_beliefstatuscount_changelist"))
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def someones_memories(owner):
    session, (message,) = conversation(owner, SECRET_MESSAGE)
    say(owner, session, "Noted: Quokka7.", event_type=EventType.ASSISTANT_MESSAGE)
    belief = remember(owner, SECRET_STATEMENT, sources=[message])
    rejected = remember(owner, "User's passport expires in 2031.")
    belief_reject(principal=owner, belief_id=rejected.public_id, expected_revision=1)
    return belief


def admin_pages(owner):
    """Every list and detail page the operator admin offers."""
    urls = [reverse("admin:index"), reverse("admin:app_list", args=["memory"])]
    for model in admin.site._registry:
        opts = model._meta
        urls.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
    urls.append(reverse("admin:accounts_user_change", args=[owner.pk]))
    return urls


@pytest.mark.parametrize("superuser", [False, True])
def test_operators_never_see_another_principals_memory_text(
    client, owner, someones_memories, superuser
):
    # An operator, and one who is a superuser too, with every permission there is.
    operator = operator_grant(user=UserFactory(username="op", is_superuser=superuser))
    operator.user_permissions.set(Permission.objects.all())
    # A background task that ran with the owner's text as its argument and result.
    Task.objects.create(
        id="t1",
        name="t1",
        func="formation.tasks.formation_sweep_task",
        args=(SECRET_MESSAGE,),
        result=f"Traceback...\nValueError: {SECRET_STATEMENT}",
        started=timezone.now(),
        stopped=timezone.now(),
        success=False,
    )
    client.force_login(operator)

    for url in admin_pages(owner):
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        assert "Quokka7" not in body, url
        assert "passport" not in body, url


@pytest.mark.parametrize("model_name", ["belief", "event", "session", "beliefsource", "run"])
def test_models_holding_memory_text_are_not_in_the_operator_admin(client, operator, model_name):
    client.force_login(operator)

    response = client.get(f"/admin/memory/{model_name}/")

    assert response.status_code == 404


def test_the_overview_shows_content_free_counts(client, operator, owner, someones_memories):
    client.force_login(operator)

    body = overview(client)
    assert "<th>active</th><td>1</td>" in body
    assert "<th>rejected</th><td>1</td>" in body
    assert "<th>Tasks waiting in the queue</th><td>0</td>" in body


def test_an_operator_turns_the_kill_switch_on_and_off(client, operator):
    client.force_login(operator)
    toggle = reverse("admin:common_flag_toggle", args=["maintenance_kill_switch"])

    response = client.post(toggle, {"enabled": "on"}, follow=True)
    assert flag_enabled("maintenance_kill_switch") is True
    assert "Flag maintenance_kill_switch is now on." in response.content.decode()

    client.post(toggle, {})
    assert flag_enabled("maintenance_kill_switch") is False
    assert Flag.objects.get(key="maintenance_kill_switch").updated_by == operator


def test_an_unknown_flag_is_reported_not_created(client, operator):
    client.force_login(operator)

    response = client.post(
        reverse("admin:common_flag_toggle", args=["everything"]), {"enabled": "on"}, follow=True
    )

    assert "Unknown flag" in response.content.decode()
    assert not Flag.objects.exists()


def test_flags_fall_back_to_their_configured_defaults(db, settings):
    settings.REVERIE_FLAG_DEFAULTS = {
        **settings.REVERIE_FLAG_DEFAULTS,
        "maintenance_kill_switch": True,
    }

    assert flag_enabled("maintenance_kill_switch") is True


def test_toggling_needs_a_post_from_staff(client, owner):
    toggle = reverse("admin:common_flag_toggle", args=["maintenance_kill_switch"])
    client.force_login(owner)

    response = client.post(toggle, {"enabled": "on"})

    assert response.status_code == 302  # to the admin login
    assert flag_enabled("maintenance_kill_switch") is False


def test_a_principal_who_is_not_staff_cannot_enter(client, owner):
    client.force_login(owner)

    response = client.get(reverse("admin:index"))

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_the_overview_totals_formation_across_principals_without_content(
    client, operator, owner, other_owner
):
    from formation.services import formation_consolidate
    from tests.formation.formation_helpers import ScriptedExtractor, candidate

    for principal in (owner, other_owner):
        session, (message,) = conversation(principal, "I own a passport wallet.")
        formation_consolidate(
            principal=principal,
            session_id=session.public_id,
            extractor=ScriptedExtractor(
                lambda r, m=message: [
                    candidate(m, "device:passport-wallet", "User owns a passport wallet.")
                ]
            ),
        )
    client.force_login(operator)

    body = overview(client)

    assert "<th>Memories formed</th><td>2</td><td>2</td>" in body
    assert "passport" not in body


def test_the_overview_lists_given_up_conversations_without_content(
    client, operator, owner, settings
):
    from formation.services import formation_sweep
    from memory.services.sessions import session_close
    from tests.formation.formation_helpers import ScriptedExtractor, later

    settings.REVERIE_FORMATION = {**settings.REVERIE_FORMATION, "retry_attempts": 1}
    session, _ = conversation(owner, "My locker code is the word marmalade.")
    session_close(principal=owner, session_id=session.public_id)

    def failing(request):
        raise LookupError

    formation_sweep(now=later(), extractor=ScriptedExtractor(failing))
    client.force_login(operator)

    body = overview(client)

    assert "<td>owner</td><td>1</td><td>LookupError</td>" in body
    assert "marmalade" not in body
    assert str(session.public_id) not in body


def test_the_overview_shows_provider_spend_and_fallbacks_without_content(
    client, operator, owner, settings
):
    from decimal import Decimal

    from formation.extractor import DeterministicExtractor
    from formation.hybrid import HybridExtractor
    from formation.services import formation_consolidate
    from providers.fake import FakeProvider
    from providers.ledger import reserve

    settings.REVERIE_EGRESS = {
        "residency": ["local"],
        "allow": [{"sensitivity": ["normal"], "portability": ["portable"], "scope": ["principal"]}],
    }
    reserve(principal=owner, usd=Decimal("0.5"))
    with FakeProvider(behaviour="unavailable") as fake:
        settings.REVERIE_PROVIDER = {
            **settings.REVERIE_PROVIDER,
            "base_url": fake.base_url,
            "model": "fake-1",
            "residency": "local",
        }
        session, _ = conversation(owner, "I keep my bike in the marmalade shed.")
        formation_consolidate(
            principal=owner,
            session_id=session.public_id,
            extractor=HybridExtractor(DeterministicExtractor()),
        )
    client.force_login(operator)

    page = overview(client)

    assert "Spent today (US dollars)</th><td>0.5 of 20.0" in page
    assert "Formation attempts, last 24 hours</th><td>1" in page
    assert "Fell back to the deterministic extractor</th><td>1 (unavailable: 1)" in page
    assert "marmalade" not in page
