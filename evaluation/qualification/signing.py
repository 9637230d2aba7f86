"""The qualification file carries a signature made with this installation's secret key.

``certify`` recomputes every figure from the file's observations and the shipped
labels, so an edited figure cannot pass; the signature is what refuses
observations this installation never recorded (a forged file) or edited after
the run.
"""

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django.core.signing import Signer
from django.utils.crypto import constant_time_compare

SALT = "reverie.qualification"


def _digest(results: Mapping[str, Any]) -> str:
    body = {key: value for key, value in results.items() if key != "signature"}
    encoded = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(encoded.encode()).hexdigest()


def sign(results: Mapping[str, Any]) -> dict[str, Any]:
    """``results`` with its signature."""
    return {**results, "signature": Signer(salt=SALT).signature(_digest(results))}


def signed(results: Mapping[str, Any]) -> bool:
    """Whether ``results`` is exactly what this installation signed."""
    signature = results.get("signature")
    if not isinstance(signature, str):
        return False
    return constant_time_compare(signature, Signer(salt=SALT).signature(_digest(results)))
