"""The demo switches reconsolidation on with evidence: certified by the shipped fixture, then
passed over the demo owner's bank, so that a newcomer sees every kind of derived memory."""

from io import StringIO

from django.core.management import call_command

from common.principal import principal_context
from common.selectors.flags import flag_state
from evaluation.models import Certificate
from memory.demo import OWNER
from reconsolidation.models import DerivedMemory
from tests.factories import UserFactory


def test_the_demo_certifies_switches_on_and_derives_every_kind(db, tmp_path):
    call_command("seed_demo", stdout=StringIO())
    first, second = StringIO(), StringIO()

    call_command("demo_reconsolidation", "--out", str(tmp_path), stdout=first)
    call_command("demo_reconsolidation", "--out", str(tmp_path), stdout=second)

    assert "reconsolidation on (certified now: certificate" in first.getvalue()
    assert "4 operation(s) applied for demo" in first.getvalue()
    assert "certificate reused" in second.getvalue()
    assert "0 operation(s) applied" in second.getvalue()
    assert Certificate.objects.count() == 1
    assert (tmp_path / "results.json").exists()
    assert flag_state("reconsolidation").enabled is True
    owner = UserFactory(username=OWNER[0])
    with principal_context(owner):
        derived = {
            d.kind: d.statement for d in DerivedMemory.objects.filter(owner=owner, status="active")
        }
    assert derived == {
        "merged": "User prefers short answers.",
        "summary": "About Ana: User's sister Ana lives in Lisbon; Ana works as a nurse; "
        "Ana has two kids.",
        "hypothesis": "Apple Watch and running may be connected: memories of both mention "
        "Apple Watch.",
        "uncertainty_notice": "Your memories about units may contradict each other.",
    }
