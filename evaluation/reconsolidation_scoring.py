"""Scores of what reconsolidation derived from labelled banks. Pure functions: no database, no I/O.

A case is a small bank of original beliefs (each named by a key) with labels:
the groups that state one claim and must merge, the pairs that must not (and
the trap each pair sets), the contradictions that need a notice, the
connections between subjects worth finding, and recall queries with the
beliefs that answer them. An observation is what the system did with the bank,
in the same keys: the derived memories (kind, status, text, visibility and
source keys) and the ranked recall items of each query, with and without
derived memories. The labels never reach the system; they meet what it did
only here.
"""

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import Any

from memory.text import normalise_statement

SENSITIVITY_ORDER = ("normal", "personal", "sensitive")
PORTABILITY_ORDER = ("portable", "local")
CONNECTING_KINDS = ("hypothesis", "summary")
# Derived memories that still stand at the end of a case.
STANDING = ("active", "promoted")
# Bounds the results; a few examples show what kind of failure a run produces.
EXAMPLES = 10


# A labelled case, an observation of one and their parts: JSON, as the fixture and
# results.json hold them.
Json = dict[str, Any]


def _rank(order: Sequence[str], value: str) -> int:
    # An unknown value ranks as the most restrictive, so it can never hide a widening.
    return order.index(value) if value in order else len(order)


def _merges(observation: Json) -> list[Json]:
    return [derived for derived in observation["derived"] if derived["kind"] == "merged"]


def false_merges(case: Json, observation: Json) -> list[Json]:
    """Merges whose sources are not all labelled as stating one claim."""
    groups = [set(group) for group in case["labels"]["merge"]]
    return [
        {"case": case["id"], "sources": sorted(derived["sources"])}
        for derived in _merges(observation)
        if not any(set(derived["sources"]) <= group for group in groups)
    ]


def missed_merges(case: Json, observation: Json) -> list[Json]:
    """Labelled groups that no single merge covers."""
    merged = [set(derived["sources"]) for derived in _merges(observation)]
    return [
        {"case": case["id"], "group": sorted(group)}
        for group in case["labels"]["merge"]
        if not any(set(group) <= sources for sources in merged)
    ]


def trap_violations(case: Json, observation: Json) -> list[Json]:
    """Must-not-merge pairs that a merge holds together, by the trap they set."""
    merged = [set(derived["sources"]) for derived in _merges(observation)]
    return [
        {"case": case["id"], "pair": pair["pair"], "trap": pair["trap"]}
        for pair in case["labels"]["no_merge"]
        if any(set(pair["pair"]) <= sources for sources in merged)
    ]


def missed_notices(case: Json, observation: Json) -> list[Json]:
    """Labelled contradictions without an uncertainty notice depending on every side."""
    notices = [
        set(derived["sources"])
        for derived in observation["derived"]
        if derived["kind"] == "uncertainty_notice"
    ]
    return [
        {"case": case["id"], "group": sorted(group)}
        for group in case["labels"]["notice"]
        if not any(set(group) <= sources for sources in notices)
    ]


def _derived_texts(derived: Json) -> Iterator[str]:
    yield derived["statement"]
    yield derived["subject"]
    for claim in derived.get("claims", ()):
        yield claim["statement"]


def privacy_failures(case: Json, observation: Json) -> list[Json]:
    """Derived memories that widen what their sources allow or keep what was erased.

    A derived memory fails when it is less sensitive or more portable than its
    most restrictive source, when its scope is not its sources' one scope, when
    it depends on a belief that is not its owner's, or when any of its text
    still holds the statement of a source deleted after it was derived.
    """
    beliefs = {belief["key"]: belief for belief in case["beliefs"]}
    deleted = [
        normalise_statement(belief["statement"])
        for belief in case["beliefs"]
        if belief.get("delete_after_pass")
    ]
    failures: list[Json] = []

    def fail(derived: Json, reason: str) -> None:
        failures.append({"case": case["id"], "kind": derived["kind"], "reason": reason})

    for derived in observation["derived"]:
        if derived.get("foreign_sources"):
            fail(derived, "mixes_owners")
        sources = [beliefs[key] for key in derived["sources"] if key in beliefs]
        if sources:
            sensitivity = max(_rank(SENSITIVITY_ORDER, s["sensitivity"]) for s in sources)
            portability = max(_rank(PORTABILITY_ORDER, s["portability"]) for s in sources)
            if _rank(SENSITIVITY_ORDER, derived["sensitivity"]) < sensitivity:
                fail(derived, "less_sensitive_than_a_source")
            if _rank(PORTABILITY_ORDER, derived["portability"]) < portability:
                fail(derived, "more_portable_than_a_source")
            if {s["scope"] for s in sources} != {derived["scope"]}:
                fail(derived, "scope_differs_from_sources")
        texts = [normalise_statement(text) for text in _derived_texts(derived) if text]
        if any(statement and statement in text for statement in deleted for text in texts):
            fail(derived, "holds_deleted_text")
    return failures


def atomic_recall(query: Json, ranking: Sequence[Json], k: int) -> float | None:
    """Share of the query's expected original beliefs among the beliefs of the top ``k`` items.

    Only original beliefs count: a derived item standing in for them does not,
    so derived items that crowd originals out of the top ``k`` lower it.
    """
    expected = set(query["expect"])
    if not expected:
        return None
    found = {item["key"] for item in ranking[:k] if item["kind"] == "belief"}
    return len(expected & found) / len(expected)


def connections(case: Json, observation: Json) -> tuple[set[frozenset[str]], set[frozenset[str]]]:
    """Labelled subject connections, and those proposed by hypotheses and summaries.

    A standing hypothesis or summary proposes every pair of distinct subjects among
    its sources; a labelled connection is found when one of them proposes it. One
    invalidated since (a source erased, say) proposes nothing: its text is gone and
    recall never returns it.
    """
    subjects = {belief["key"]: belief["subject"] for belief in case["beliefs"]}
    labelled = {frozenset(pair) for pair in case["labels"]["connections"]}
    proposed: set[frozenset[str]] = set()
    for derived in observation["derived"]:
        if derived["kind"] in CONNECTING_KINDS and derived["status"] in STANDING:
            linked = {subjects[key] for key in derived["sources"] if key in subjects}
            proposed |= {frozenset(pair) for pair in combinations(sorted(linked), 2)}
    return labelled, proposed


def _ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


def _mean(values: Iterable[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return round(sum(known) / len(known), 4) if known else None


def reconsolidation_metrics(
    cases: Sequence[Json], observations: Iterable[Json], *, k: int
) -> dict[str, Any]:
    """Every reconsolidation metric over ``cases`` (the labelled fixture) and ``observations``.

    A case without an observation, or whose observation failed, is a failed
    case: it is listed, counts in ``failed``, and its labels still count as
    missed (merges, notices, connections, expected recall), so failing never
    improves a score.
    """
    by_case: dict[str, Json] = {}
    for observation in observations:
        if observation["case"] in by_case:
            raise ValueError(f"two observations of case {observation['case']}")
        by_case[observation["case"]] = observation
    empty: Json = {"derived": [], "queries": []}
    found: dict[str, list[Json]] = {
        "false": [],
        "missed": [],
        "traps": [],
        "privacy": [],
        "notices": [],
        "failed": [],
    }
    derived_kinds: dict[str, int] = {}
    merges = labelled_merges = labelled_notices = 0
    recall_control: list[float | None] = []
    recall_derived: list[float | None] = []
    connections_labelled = connections_proposed = connections_found = proposed_labelled = 0
    for case in cases:
        observed = by_case.get(case["id"])
        if observed is None or observed.get("failed"):
            reason = "missing" if observed is None else observed["failed"]
            found["failed"].append({"case": case["id"], "reason": reason})
        observation = empty if observed is None or observed.get("failed") else observed
        for derived in observation["derived"]:
            derived_kinds[derived["kind"]] = derived_kinds.get(derived["kind"], 0) + 1
        merges += len(_merges(observation))
        labelled_merges += len(case["labels"]["merge"])
        labelled_notices += len(case["labels"]["notice"])
        found["false"] += false_merges(case, observation)
        found["missed"] += missed_merges(case, observation)
        found["traps"] += trap_violations(case, observation)
        found["privacy"] += privacy_failures(case, observation)
        found["notices"] += missed_notices(case, observation)
        rankings = {query["query"]: query for query in observation["queries"]}
        for query in case["labels"]["queries"]:
            ranked = rankings.get(query["query"], {"control": [], "derived": []})
            recall_control.append(atomic_recall(query, ranked["control"], k))
            recall_derived.append(atomic_recall(query, ranked["derived"], k))
        labelled, proposed = connections(case, observation)
        connections_labelled += len(labelled)
        connections_proposed += len(proposed)
        connections_found += len(labelled & proposed)
        proposed_labelled += len(proposed & labelled)
    control, derived = _mean(recall_control), _mean(recall_derived)
    traps: dict[str, int] = {}
    for violation in found["traps"]:
        traps[violation["trap"]] = traps.get(violation["trap"], 0) + 1
    return {
        "cases": len(cases),
        "failed": len(found["failed"]),
        "failed_cases": found["failed"],
        "derived": dict(sorted(derived_kinds.items())),
        "merges": merges,
        "false_merges": len(found["false"]),
        "false_merge_examples": found["false"][:EXAMPLES],
        "trap_violations": dict(sorted(traps.items())),
        "labelled_merges": labelled_merges,
        "missed_merges": len(found["missed"]),
        "missed_merge_examples": found["missed"][:EXAMPLES],
        "merge_recall": _ratio(labelled_merges - len(found["missed"]), labelled_merges),
        "labelled_notices": labelled_notices,
        "missed_notices": len(found["notices"]),
        "missed_notice_examples": found["notices"][:EXAMPLES],
        "privacy_failures": len(found["privacy"]),
        "privacy_failure_examples": found["privacy"][:EXAMPLES],
        f"atomic_recall@{k}_control": control,
        f"atomic_recall@{k}_derived": derived,
        "atomic_recall_drop": None
        if control is None or derived is None
        else round(control - derived, 4),
        "connections_labelled": connections_labelled,
        "connections_proposed": connections_proposed,
        "connections_found": connections_found,
        "connection_precision": _ratio(proposed_labelled, connections_proposed),
        "connection_recall": _ratio(connections_found, connections_labelled),
    }
