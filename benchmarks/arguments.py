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
