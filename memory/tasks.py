"""django-q2 entry points: thin wrappers that call one service."""

from memory.services.expiry import belief_expiry_sweep
from memory.services.heartbeat import heartbeat_record


def belief_expiry_sweep_task():
    return belief_expiry_sweep()


def worker_heartbeat_task():
    heartbeat_record()
