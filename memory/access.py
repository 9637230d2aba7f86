"""What a request may reach of its principal's memories: all of it, or part.

A browser session of the owner reaches everything. An API token may be
narrowed by its owner: to one assistant's scope (``assistant:<slug>``, which
sees that assistant's memories and conversations and the principal-wide ones,
never another assistant's), to reading only, and to memories not marked
sensitive. Selectors take an ``Access`` and filter by it; views refuse what it
does not allow.
"""

from dataclasses import dataclass

from memory.enums import SCOPE_PRINCIPAL, Sensitivity


@dataclass(frozen=True)
class Access:
    # None: every scope; else the scopes visible (the principal's and one assistant's).
    scopes: tuple | None = None
    read_only: bool = False
    include_sensitive: bool = True

    @property
    def is_full(self):
        return self.scopes is None and not self.read_only and self.include_sensitive

    @property
    def own_scope(self):
        """The scope a write lands in by default: the assistant's, or the principal's."""
        return SCOPE_PRINCIPAL if self.scopes is None else self.scopes[-1]

    def sees(self, *, scope, sensitivity=None):
        if self.scopes is not None and scope not in self.scopes:
            return False
        return self.include_sensitive or sensitivity != Sensitivity.SENSITIVE

    def filter(self, queryset, *, scope_field="scope", sensitivity_field="sensitivity"):
        """``queryset`` narrowed to what this access sees."""
        if self.scopes is not None:
            queryset = queryset.filter(**{f"{scope_field}__in": self.scopes})
        if not self.include_sensitive and sensitivity_field is not None:
            queryset = queryset.exclude(**{sensitivity_field: Sensitivity.SENSITIVE})
        return queryset


FULL_ACCESS = Access()


def access_for(token):
    """The access of a request authenticated by ``token`` (None for a browser session)."""
    if token is None:
        return FULL_ACCESS
    scopes = None if token.scope == SCOPE_PRINCIPAL else (SCOPE_PRINCIPAL, token.scope)
    return Access(
        scopes=scopes, read_only=token.read_only, include_sensitive=token.include_sensitive
    )
