from django.utils import timezone

from common.models import Heartbeat

WORKER = "qcluster"


def heartbeat_record(*, name=WORKER):
    """Note that a background process is alive now."""
    Heartbeat.objects.update_or_create(name=name, defaults={"seen_at": timezone.now()})
