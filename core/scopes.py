"""Scopes: which of an owner's assistants a session, a memory or an API token belongs to.

``principal`` is every assistant of the owner; ``assistant:<slug>`` is one of them.
"""

import re

SCOPE_PRINCIPAL = "principal"
SCOPE_PATTERN = r"^(principal|assistant:[a-z0-9][a-z0-9_-]{0,62})$"
_SCOPE_RE = re.compile(SCOPE_PATTERN)


def is_valid_scope(value: object) -> bool:
    """``principal`` (every assistant of the owner) or ``assistant:<slug>``."""
    return isinstance(value, str) and bool(_SCOPE_RE.match(value))
