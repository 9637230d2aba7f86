"""A memory bank with something of every kind to derive, reconsolidated through the services."""

from dataclasses import dataclass

from common.principal import principal_context
from reconsolidation.models import DerivedMemory, Operation
from reconsolidation.services.passes import reconsolidation_pass
from tests.memory.helpers import conversation, remember

KINDLE = "device:kindle"
UNITS = "pref:units"
MAYA = "person:maya"
WATCH = "device:apple-watch"
RUNNING = "topic:running"
MAYA_CLAIMS = (
    "Maya is my daughter.",
    "Maya starts school in September.",
    "Maya loves drawing dragons.",
)


@dataclass
class Bank:
    originals: dict
    derived: dict
    operations: dict

    def __getitem__(self, kind):
        return self.derived[kind]


def reconsolidated(owner):
    """Two statements of one claim (a merge), two units (a notice), three claims about Maya
    (a summary) and the Apple Watch mentioned by a run from another conversation (a
    hypothesis); then one full pass. Returns a ``Bank`` keyed by derived kind."""
    _, (watch_message,) = conversation(owner, "I just got an Apple Watch.")
    _, (run_message,) = conversation(owner, "I run with my Apple Watch every morning.")
    originals = {
        "kindle": [
            remember(owner, "User owns a Kindle.", subject=KINDLE, type="ownership"),
            remember(owner, "user owns kindle", subject=KINDLE, type="ownership"),
        ],
        "units": [
            remember(owner, "User prefers metric units.", subject=UNITS, type="preference"),
            remember(owner, "User prefers imperial units.", subject=UNITS, type="preference"),
        ],
        "maya": [remember(owner, claim, subject=MAYA) for claim in MAYA_CLAIMS],
        "watch": [
            remember(
                owner,
                "User owns an Apple Watch.",
                subject=WATCH,
                type="ownership",
                sources=[watch_message],
            ),
            remember(
                owner,
                "User runs with the Apple Watch every morning.",
                subject=RUNNING,
                sources=[run_message],
            ),
        ],
    }
    while not reconsolidation_pass(principal=owner).full_scan_completed:
        pass
    with principal_context(owner):
        derived = {
            row.kind: row for row in DerivedMemory.objects.filter(owner=owner, status="active")
        }
        operations = {row.kind: row for row in Operation.objects.filter(owner=owner)}
    assert set(derived) == set(DerivedMemory.Kind.values), derived
    return Bank(originals=originals, derived=derived, operations=operations)
