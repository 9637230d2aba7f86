"""Owner-scoped full-text matching of beliefs, original messages and derived memories.

Each backend returns ``[(row id, score)]``, best match first, with a higher
score for a better match. Both rank by BM25 with FTS5's constants: SQLite with
FTS5's ``bm25()``, PostgreSQL over GIN indexes with per-owner statistics kept
by triggers (see ``postgres``). Both stem English words and both get the same
query terms (see ``memory.text.query_terms``), so they rank alike (a test
holds their top 10 to agreeing on at least 90% of a fixed query set).
"""

from django.db import connection

from . import postgres, sqlite


def _backend():
    return postgres if connection.vendor == "postgresql" else sqlite


def belief_mentions(*, owner_id, terms, exclude_subject, limit):
    """Ids of up to ``limit`` of the owner's live beliefs, of any subject but
    ``exclude_subject``, whose text holds every one of ``terms``; unranked."""
    return _backend().belief_mentions(
        owner_id=owner_id, terms=terms, exclude_subject=exclude_subject, limit=limit
    )


def belief_matches(*, owner_id, terms, statuses, types=None, since=None, limit):
    return _backend().belief_matches(
        owner_id=owner_id, terms=terms, statuses=statuses, types=types, since=since, limit=limit
    )


def message_matches(*, owner_id, terms, since=None, limit, include_sensitive=True):
    """The owner's searchable messages matching any of ``terms``, best first; without
    those labelled sensitive unless ``include_sensitive``."""
    return _backend().message_matches(
        owner_id=owner_id,
        terms=terms,
        since=since,
        limit=limit,
        include_sensitive=include_sensitive,
    )


def derived_matches(*, owner_id, terms, now, since=None, limit):
    """The owner's active, unrestricted, unexpired derived memories matching any of ``terms``,
    best first: found by their statement, or a notice by its subject's entity."""
    return _backend().derived_matches(
        owner_id=owner_id, terms=terms, now=now, since=since, limit=limit
    )


def forget_erased():
    """Drop erased text from the search indexes themselves; call it in the erasing transaction.

    PostgreSQL: a no-op. The ``tsvector`` column is generated from the
    blanked text at once; what the GIN index and the old row versions still
    hold goes with the next vacuum (see README, "Ownership").
    SQLite: merges the FTS5 indexes, which keep deleted words until then.
    """
    if connection.vendor == "sqlite":
        sqlite.forget_erased()
