"""What a request may reach of its principal's memories: all of it, or part.

A browser session of the owner reaches everything. An API token may be
narrowed by its owner: to one assistant's scope (``assistant:<slug>``, which
sees that assistant's memories and conversations and the principal-wide ones,
never another assistant's), to reading only, and away from what is marked
sensitive (memories, and messages by their label).

The rules live here and are applied where the data is read or written: every
selector and every write service takes a ``Reach``; selectors filter by it,
services refuse what it does not allow. What a token cannot see answers
exactly as what does not exist (``not_found``), so one assistant learns
nothing of another's conversations; a write a token may not make at all is
``forbidden``.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from django.db.models import Model, QuerySet

from core.errors import ReverieError
from memory.enums import SCOPE_PRINCIPAL, Sensitivity

if TYPE_CHECKING:
    from accounts.models import ApiToken

_M = TypeVar("_M", bound=Model)


@dataclass(frozen=True)
class Reach:
    # None: every scope; else the scopes visible (the principal's and one assistant's).
    scopes: tuple[str, ...] | None = None
    read_only: bool = False
    include_sensitive: bool = True

    @property
    def is_full(self) -> bool:
        return self.scopes is None and not self.read_only and self.include_sensitive

    @property
    def own_scope(self) -> str:
        """The scope a write lands in by default: the assistant's, or the principal's."""
        return SCOPE_PRINCIPAL if self.scopes is None else self.scopes[-1]

    def sees(self, *, scope: str, sensitivity: str | None = None) -> bool:
        if self.scopes is not None and scope not in self.scopes:
            return False
        return self.include_sensitive or sensitivity != Sensitivity.SENSITIVE

    def filter(
        self,
        queryset: QuerySet[_M],
        *,
        scope_field: str | None = "scope",
        sensitivity_field: str | None = "sensitivity",
    ) -> QuerySet[_M]:
        """``queryset`` narrowed to what this reach sees; a field given as None is not
        filtered on (rows without a label, or whose scope the caller already checked)."""
        if self.scopes is not None and scope_field is not None:
            queryset = queryset.filter(**{f"{scope_field}__in": self.scopes})
        if not self.include_sensitive and sensitivity_field is not None:
            queryset = queryset.exclude(**{sensitivity_field: Sensitivity.SENSITIVE})
        return queryset

    def check_write(self) -> None:
        """Refuse any write to a read-only reach."""
        if self.read_only:
            raise ReverieError("forbidden", "This token may only read; it cannot write.")

    def check_full(self, what: str) -> None:
        """Refuse a read or write spanning every memory (``what``, e.g. "the export") to a
        reach over only part of them."""
        if not self.is_full:
            raise ReverieError(
                "forbidden",
                f"This token reaches only part of the memories; {what} needs a token that "
                "reaches all of them.",
            )

    def write_scope(self, scope: str | None = None) -> str:
        """The scope a write lands in: ``scope`` if this reach may write there, its own
        scope when none is named. Checks that it may write at all."""
        self.check_write()
        if scope is None:
            return self.own_scope
        if self.scopes is not None and scope not in self.scopes:
            raise ReverieError(
                "forbidden",
                f"This token writes only in the scopes {', '.join(self.scopes)}.",
                field="scope",
            )
        return scope

    def check_sensitivity(self, sensitivity: str) -> str:
        """Refuse writing what this reach could not read back: a memory marked sensitive,
        for a reach kept from them."""
        if not self.sees(scope=self.own_scope, sensitivity=sensitivity):
            raise ReverieError(
                "forbidden",
                "This token is kept from sensitive memories; it cannot write one.",
                field="sensitivity",
            )
        return sensitivity


FULL_REACH = Reach()


def reach_for(token: "ApiToken | None") -> Reach:
    """The reach of a request authenticated by ``token`` (None for a browser session)."""
    if token is None:
        return FULL_REACH
    scopes = None if token.scope == SCOPE_PRINCIPAL else (SCOPE_PRINCIPAL, token.scope)
    return Reach(
        scopes=scopes, read_only=token.read_only, include_sensitive=token.include_sensitive
    )
