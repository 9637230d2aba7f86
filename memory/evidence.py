"""What makes two pieces of evidence for a memory independent. Pure.

A memory rests on messages. Messages of one conversation are one piece of evidence, however
many of them say the same: a person repeating themselves, an assistant asking them to confirm,
one sentence pasted twice, each is that conversation again. Another conversation is another
piece. So evidence is counted in sessions: formation lifts an inferred memory's confidence only
for a message of a session the memory has no source in yet, its guard against a model's
proposal weighs memories by the sessions behind them, and reconsolidation guesses a connection
only between beliefs from disjoint sessions (docs/formation.md, "Independent evidence").
"""

from collections.abc import Collection


def independent(sessions: Collection[int], others: Collection[int]) -> bool:
    """Whether evidence from ``sessions`` is independent of evidence from ``others``: both
    rest on some session, and on no session in common."""
    return bool(sessions) and bool(others) and set(sessions).isdisjoint(others)


def pieces(sessions: Collection[int]) -> int:
    """How many independent pieces of evidence messages of ``sessions`` make."""
    return len(set(sessions))
