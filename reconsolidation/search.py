"""Derived memories found by their words: the full-text search of this app's own table,
built from memory's search building blocks (``memory.search``)."""

from collections.abc import Sequence
from datetime import datetime

from memory import search
from memory.search import Collection, Search

DERIVED_MEMORIES = Collection(
    table="reconsolidation_derivedmemory",
    statistics="derived",
    # Word for word the condition the GIN index of derived memories was made with.
    searchable="a.status = 'active' AND NOT a.restricted",
)


# The derived memories that have vectors (``memory.services.vectors``).
DERIVED_EMBEDDABLE = "a.status = 'active'"


def derived_search(*, now: datetime, since: datetime | None = None, limit: int) -> Search:
    """Active, unrestricted derived memories not expired at ``now``: found by their
    statement, or a notice by its subject's entity (``AddDerivedFullTextIndex``)."""
    found = Search(DERIVED_MEMORIES, limit=limit).filter(
        "(a.expires_at IS NULL OR a.expires_at > %s)", now
    )
    if since is not None:
        found = found.filter("a.updated_at >= %s", since)
    return found


def derived_matches(
    *,
    owner_id: int,
    terms: Sequence[str],
    now: datetime,
    since: datetime | None = None,
    limit: int,
) -> list[tuple[int, float]]:
    """The owner's derived memories of ``derived_search`` matching any of ``terms``, as
    ``[(row id, score)]``, best first."""
    (matches,) = search.ranked(
        [derived_search(now=now, since=since, limit=limit)], owner_id=owner_id, terms=terms
    )
    result: list[tuple[int, float]] = matches
    return result


def derived_forget_erased() -> None:
    """Drop erased text from the derived memories' index (``memory.search.on_forget_erased``)."""
    search.forget_erased_from(DERIVED_MEMORIES)
