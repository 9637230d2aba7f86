"""Changes that apps built on ``memory`` react to, in the changing transaction.

``memory`` never imports those apps: they register a listener here (in their
``AppConfig.ready``). The belief services call ``beliefs_retired`` whenever
beliefs stop being live, and erasure calls ``messages_erased`` whenever
messages lose their text, inside the transaction that makes the change, so
that a listener's writes commit or roll back with it.
"""

from collections.abc import Callable, Iterable

# A listener's return value is ignored: invalidation returns how many it invalidated.
_listeners: list[Callable[..., object]] = []
_erasure_listeners: list[Callable[..., object]] = []


def on_beliefs_retired(listener: Callable[..., object]) -> None:
    """Call ``listener(owner_id=..., belief_ids=[...], erased=bool)`` on every retirement."""
    if listener not in _listeners:
        _listeners.append(listener)


def beliefs_retired(*, owner_id: int, belief_ids: Iterable[int], erased: bool = False) -> None:
    """Beliefs of ``owner_id`` left the live statuses; ``erased`` when their text is gone."""
    for listener in _listeners:
        listener(owner_id=owner_id, belief_ids=list(belief_ids), erased=erased)


def on_messages_erased(listener: Callable[..., object]) -> None:
    """Call ``listener(owner_id=..., event_ids=[...])`` whenever messages are erased."""
    if listener not in _erasure_listeners:
        _erasure_listeners.append(listener)


def messages_erased(*, owner_id: int, event_ids: Iterable[int]) -> None:
    """Messages of ``owner_id`` (database ids) lost their text: what an app kept of them goes."""
    for listener in _erasure_listeners:
        listener(owner_id=owner_id, event_ids=list(event_ids))


def beliefs_relabelled(*, owner_id: int, belief_ids: Iterable[int]) -> None:
    """Beliefs of ``owner_id`` are labelled more sensitive than before: what was built on
    them under the old label no longer holds either, as on a retirement."""
    beliefs_retired(owner_id=owner_id, belief_ids=belief_ids)
