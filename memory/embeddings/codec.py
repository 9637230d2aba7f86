"""How a vector is stored: its components as int8 after one float32 scale.

A quarter of the bytes of float32, so that reading an owner's vectors for a search moves
a quarter of the data; the rounding moves a cosine by about 0.001, less than any
difference between memories that recall's ranking relies on.
"""

import numpy as np

from . import Vectors

_SCALE_BYTES = 4


def vector_bytes(vector: Vectors) -> bytes:
    """``vector`` (one row) as stored."""
    largest = float(np.abs(vector).max()) if vector.size else 0.0
    scale = largest / 127.0 if largest > 0 else 1.0
    components = np.clip(np.rint(vector / scale), -127, 127).astype(np.int8)
    return np.float32(scale).astype("<f4").tobytes() + components.tobytes()


def vector_size(dimensions: int) -> int:
    """The bytes of one stored vector of ``dimensions`` components."""
    return _SCALE_BYTES + dimensions


def vectors_read_joined(data: bytes, dimensions: int, *, count: int | None = None) -> Vectors:
    """The vectors stored one after another in ``data`` (``count`` of them, when known)."""
    record = np.dtype([("scale", "<f4"), ("components", "i1", (dimensions,))])
    if len(data) % record.itemsize or (count is not None and len(data) != count * record.itemsize):
        raise ValueError("a stored vector has another length")
    if not data:
        return np.zeros((0, dimensions), dtype=np.float32)
    rows = np.frombuffer(data, dtype=record)
    vectors: Vectors = rows["components"].astype(np.float32) * rows["scale"][:, None]
    return vectors
