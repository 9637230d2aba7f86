"""django-q2 entry points: thin wrappers that call one service."""

from memory.services.access_log import access_record_purge_sweep
from memory.services.expiry import belief_expiry_sweep
from memory.services.idempotency import idempotency_purge_sweep
from memory.services.sensitivity_labels import sensitivity_labels_sweep
from memory.services.vectors import vectors_sweep


def belief_expiry_sweep_task() -> int:
    return belief_expiry_sweep()


def idempotency_purge_task() -> int:
    return idempotency_purge_sweep()


def access_record_purge_task() -> int:
    return access_record_purge_sweep()


def sensitivity_labels_sweep_task() -> int:
    return sensitivity_labels_sweep()


def vectors_sweep_task() -> int:
    return vectors_sweep()
