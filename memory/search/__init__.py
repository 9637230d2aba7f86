"""Owner-scoped full-text matching of beliefs and original messages, and of the tables that
apps built on memory describe to it.

A search (``Search``) is of the rows of one table (``Collection``); ``ranked`` runs
several for one owner and returns each one's ``[(row id, score)]``, best match first,
with a higher score for a better match. Both databases rank by BM25 with FTS5's
constants: SQLite with FTS5's ``bm25()``, PostgreSQL over GIN indexes with
per-owner statistics kept by triggers (see ``postgres``). Both stem English words
and both get the same query terms (see ``memory.text.query_terms``), so they rank
alike (a test holds their top 10 to agreeing on at least 90% of a fixed query set).
"""

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from types import ModuleType

from django.db import connection

from memory.enums import Sensitivity

from . import postgres, sqlite
from .searches import Collection, Match, Search
from .tables import BELIEFS, MESSAGES

__all__ = [
    "BELIEFS",
    "MESSAGES",
    "Collection",
    "Match",
    "Search",
    "belief_matches",
    "belief_mentions",
    "belief_search",
    "forget_erased",
    "forget_erased_from",
    "message_matches",
    "message_search",
    "on_forget_erased",
    "ranked",
]


def _backend() -> ModuleType:
    return postgres if connection.vendor == "postgresql" else sqlite


def ranked(searches: Iterable[Search], *, owner_id: int, terms: Sequence[str]) -> list[list[Match]]:
    """The owner's best rows for each of ``searches`` matching any of ``terms``, in their
    order: a list of ``[(row id, score)]``, best first, for each.

    Both databases run them in one statement, which on PostgreSQL also reads the BM25
    statistics the candidates are scored with; a search matching more rows than the
    candidate cap holds takes further statements there (see ``postgres``).
    """
    searches = list(searches)
    if not searches:
        return []
    found: list[list[Match]] = _backend().ranked(searches, owner_id=owner_id, terms=terms)
    return found


def belief_search(
    *,
    statuses: Iterable[str],
    types: Iterable[str] | None = None,
    since: datetime | None = None,
    limit: int,
) -> Search:
    """Live beliefs of one of ``statuses``, and of ``types`` when given."""
    search = Search(BELIEFS, limit=limit).filter_in("a.status", statuses)
    if types:
        search = search.filter_in("a.type", types)
    if since is not None:
        search = search.filter("a.updated_at >= %s", since)
    return search


def message_search(
    *, since: datetime | None = None, limit: int, include_sensitive: bool = True
) -> Search:
    """Searchable messages, not fenced; without those labelled sensitive unless
    ``include_sensitive``."""
    search = Search(MESSAGES, limit=limit).filter(
        "NOT EXISTS (SELECT 1 FROM memory_fencedevent f WHERE f.event_id = a.id)"
    )
    if not include_sensitive:
        search = search.filter("a.sensitivity <> %s", str(Sensitivity.SENSITIVE))
    if since is not None:
        search = search.filter("a.occurred_at >= %s", since)
    return search


def belief_mentions(
    *, owner_id: int, terms: Sequence[str], exclude_subject: str, limit: int
) -> list[int]:
    """Ids of up to ``limit`` of the owner's live beliefs, of any subject but
    ``exclude_subject``, whose text holds every one of ``terms``; unranked."""
    mentions: list[int] = _backend().belief_mentions(
        owner_id=owner_id, terms=terms, exclude_subject=exclude_subject, limit=limit
    )
    return mentions


def belief_matches(
    *,
    owner_id: int,
    terms: Sequence[str],
    statuses: Iterable[str],
    types: Iterable[str] | None = None,
    since: datetime | None = None,
    limit: int,
) -> list[Match]:
    (matches,) = ranked(
        [belief_search(statuses=statuses, types=types, since=since, limit=limit)],
        owner_id=owner_id,
        terms=terms,
    )
    return matches


def message_matches(
    *,
    owner_id: int,
    terms: Sequence[str],
    since: datetime | None = None,
    limit: int,
    include_sensitive: bool = True,
) -> list[Match]:
    """The owner's searchable messages matching any of ``terms``, best first; without
    those labelled sensitive unless ``include_sensitive``."""
    (matches,) = ranked(
        [message_search(since=since, limit=limit, include_sensitive=include_sensitive)],
        owner_id=owner_id,
        terms=terms,
    )
    return matches


# Apps whose tables have full-text indexes of their own forget erased text in them here.
_forgetting: list[Callable[[], None]] = []


def on_forget_erased(forget: Callable[[], None]) -> None:
    """Call ``forget()`` from every ``forget_erased``, in the erasing transaction: an app
    built on memory drops erased text from its own indexes (``forget_erased_from``)."""
    if forget not in _forgetting:
        _forgetting.append(forget)


def forget_erased_from(collection: Collection) -> None:
    """Drop erased text from ``collection``'s index now, in the erasing transaction.

    PostgreSQL: a no-op. The ``tsvector`` column is generated from the
    blanked text at once; what the GIN index and the old row versions still
    hold goes with the next vacuum (see docs/privacy.md, "What erasure leaves behind").
    SQLite: merges the FTS5 index, which keeps deleted words until then.
    """
    if connection.vendor == "sqlite":
        sqlite.forget_erased_from(collection)


def forget_erased() -> None:
    """Drop erased text from the search indexes themselves, memory's and those of the apps
    registered with ``on_forget_erased``; call it in the erasing transaction."""
    for collection in (BELIEFS, MESSAGES):
        forget_erased_from(collection)
    for forget in _forgetting:
        forget()
