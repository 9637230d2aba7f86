"""Pausing the cycle collector over a bounded batch of work."""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycle_collection_paused() -> Iterator[None]:
    """Run the body with Python's cyclic garbage collector paused, and resume it after.

    A batch that builds hundreds of thousands of short-lived objects (rows, views,
    plans) sets off full collections again and again while its working set is alive,
    and each one walks the whole heap, so the collector's share grows faster than the
    batch. Reference counting still frees every acyclic object at once; the few cycles
    the body leaves wait for the collector's next run. Only the caller that found the
    collector running resumes it, so nested and concurrent uses leave it as they found
    it, and an exception resumes it too.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
