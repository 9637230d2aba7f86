"""Recall by meaning: memories whose vectors are nearest the question's.

"Do I have any pets?" shares no word with "User has a dog named Pepper.", and full-text
matching never meets them; their vectors are near. Recall embeds the query with each
embedder in use (``memory.embeddings``), searches the same rows as by words (status,
type, period and expiry as the search says, and only what ``reach`` sees), and fuses the
memories found by meaning with those found by words into one ranking by reciprocal rank.
A memory with a vector must clear its embedder's floor, however it was found.
"""

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memory.embeddings import Embedder, EmbeddingFailed, TextLabels, Vectors, embedders
from memory.embeddings.queries import QUERIES
from memory.enums import Portability, Sensitivity
from memory.reach import Reach
from memory.search import Match, Search
from memory.search.meaning import Space, nearest
from memory.sensitivity import classify_sensitivity

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

# Reciprocal-rank fusion constant, as recall fuses its kinds (``recall.RRF_K``).
RRF_K = 60


@dataclass(frozen=True)
class QueryMeaning:
    """A query as each embedder in use embedded it."""

    vectors: tuple[tuple[Embedder, Vectors], ...]


def query_labels(query: str, reach: Reach) -> TextLabels:
    """A query as the egress rules read it: its sensitivity as classified (a sensitive query
    is local, as a memory formed from it would be) and the scope it is asked in."""
    sensitivity = classify_sensitivity(query)
    portability = (
        Portability.LOCAL if sensitivity == Sensitivity.SENSITIVE else Portability.PORTABLE
    )
    return TextLabels(
        sensitivity=str(sensitivity), portability=str(portability), scope=reach.own_scope
    )


def query_meaning(principal: "User", query: str, reach: Reach) -> QueryMeaning | None:
    """``query`` embedded for ``principal`` by each embedder in use that may embed it, or
    None when there is nothing to embed, embeddings are off or every embedder failed or
    refused (recall goes on by words). A remote embedder is never sent a query the egress
    rules keep (a sensitive one, one of an owner who opted out): its memories' vectors are
    then not searched, and the local embedder's are."""
    if not query.strip():
        return None
    vectors = []
    found = embedders()
    labels = query_labels(query, reach) if any(embedder.remote for embedder in found) else None
    for embedder in found:
        if embedder.remote and not (labels and embedder.admitted(principal, [labels])[0]):
            continue
        try:
            vector = QUERIES.vector(principal=principal, embedder=embedder, query=query)
        except EmbeddingFailed as error:
            logger.warning("recall by meaning skipped an embedder: %s", error.error_class)
            continue
        vectors.append((embedder, vector))
    return QueryMeaning(tuple(vectors)) if vectors else None


def reach_narrowed(search: Search, reach: Reach) -> Search:
    """``search`` of only the rows ``reach`` sees, by the row's own scope and sensitivity:
    the nearest rows are then all rows it may be given."""
    if reach.scopes is not None:
        search = search.filter_in("a.scope", reach.scopes)
    if not reach.include_sensitive:
        search = search.filter("a.sensitivity <> %s", str(Sensitivity.SENSITIVE))
    return search


def words_and_meaning(
    principal: "User",
    meaning: QueryMeaning,
    reach: Reach,
    *,
    searches: Sequence[Search],
    by_words: Sequence[Sequence[Match]],
) -> list[list[Match]]:
    """For each of ``searches``, its rows found by meaning fused with those found by their
    words (the same place of ``by_words``) into one ranking, by reciprocal rank; the
    vectors of every search read in one statement.

    The meaning of a short memory says more than which of its words it shares with the
    question ("What do I do for a living?" shares "living" with "User lives in Lyon."): at
    equal fused scores the row found by meaning comes first, and a row found by words
    whose vector is below its embedder's floor is left out, as a question about something
    the owner never mentioned finds only memories that share a word with it. A row with no
    vector yet (a memory the sweep has not reached) stands by its words."""
    spaces = [
        Space(embedder.key, embedder.dimensions, vector, embedder.floor)
        for embedder, vector in meaning.vectors
    ]
    found = nearest(
        [reach_narrowed(search, reach) for search in searches],
        spaces,
        owner_id=principal.pk,
        judged=[[row_id for row_id, _ in words] for words in by_words],
    )
    fused = []
    for search, per_space, words in zip(searches, found, by_words, strict=True):
        below = frozenset().union(*(each.below for each in per_space))
        by_meaning = (
            per_space[0].matches
            if len(per_space) == 1
            else rank_fused([each.matches for each in per_space], limit=search.limit)
        )
        kept = [match for match in words if match[0] not in below]
        fused.append(rank_fused([by_meaning, kept], limit=search.limit))
    return fused


def rank_fused(ranked: Sequence[Sequence[Match]], *, limit: int) -> list[Match]:
    """The rows of ``ranked`` (lists of one kind of row, best first) by reciprocal rank,
    best first, at most ``limit``; a row found in only one list keeps its place there. At
    equal fused scores the earlier list's row comes first."""
    scores: dict[int, float] = {}
    first: dict[int, tuple[int, int]] = {}
    for which, matches in enumerate(ranked):
        for position, (row_id, _) in enumerate(matches, start=1):
            scores[row_id] = scores.get(row_id, 0.0) + 1.0 / (RRF_K + position)
            first.setdefault(row_id, (which, position))
    order = sorted(scores, key=lambda row_id: (-scores[row_id], first[row_id]))
    return [(row_id, scores[row_id]) for row_id in order[:limit]]
