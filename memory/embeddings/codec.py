"""How a vector is stored: its components as int8 after one float32 scale.

A quarter of the bytes of float32, so that reading an owner's vectors for a search moves
a quarter of the data; the rounding moves a cosine by about 0.001, less than any
difference between memories that recall's ranking relies on.
"""

from collections.abc import Sequence

import numpy as np

from . import Vectors

_SCALE_BYTES = 4


def vector_bytes(vector: Vectors) -> bytes:
    """``vector`` (one row) as stored."""
    largest = float(np.abs(vector).max()) if vector.size else 0.0
    scale = largest / 127.0 if largest > 0 else 1.0
    components = np.clip(np.rint(vector / scale), -127, 127).astype(np.int8)
    return np.float32(scale).astype("<f4").tobytes() + components.tobytes()


def vectors_read(blobs: Sequence[bytes], dimensions: int) -> Vectors:
    """The vectors stored as ``blobs``, one row each; a blob of another length (a vector of
    another embedder) is an error."""
    record = np.dtype([("scale", "<f4"), ("components", "i1", (dimensions,))])
    if not blobs:
        return np.zeros((0, dimensions), dtype=np.float32)
    data = b"".join(bytes(blob) for blob in blobs)
    if len(data) != len(blobs) * record.itemsize:
        raise ValueError("a stored vector has another length")
    rows = np.frombuffer(data, dtype=record)
    vectors: Vectors = rows["components"].astype(np.float32) * rows["scale"][:, None]
    return vectors
