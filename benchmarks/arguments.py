"""Argument types shared by the benchmark commands."""

from django.core.management.base import CommandError


def positive_int(value: str) -> int:
    """An ``argparse`` type: an integer of at least 1, or a clear error."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise CommandError(f"Expected a positive integer, got {value!r}.")
    return number


def non_negative_int(value: str) -> int:
    """An ``argparse`` type: an integer of at least 0, or a clear error."""
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise CommandError(f"Expected a whole number of at least 0, got {value!r}.")
    return number
