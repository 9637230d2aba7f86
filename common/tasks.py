"""django-q2 entry points: thin wrappers that call one service."""

from common.services.heartbeat import heartbeat_record


def worker_heartbeat_task() -> None:
    heartbeat_record()
