from django.utils import timezone

from common.models import Heartbeat

WORKER = "qcluster"


def heartbeat_record(*, name: str = WORKER) -> None:
    """Note that a background process is alive now."""
    Heartbeat.objects.update_or_create(name=name, defaults={"seen_at": timezone.now()})
