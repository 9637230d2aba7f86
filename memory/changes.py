"""Belief changes that apps built on ``memory`` react to, in the changing transaction.

``memory`` never imports those apps: they register a listener here (in their
``AppConfig.ready``), and the belief services call ``beliefs_retired`` whenever
beliefs stop being live, inside the transaction that retires them, so that a
listener's writes commit or roll back with the change.
"""

_listeners = []


def on_beliefs_retired(listener):
    """Call ``listener(owner_id=..., belief_ids=[...], erased=bool)`` on every retirement."""
    if listener not in _listeners:
        _listeners.append(listener)


def beliefs_retired(*, owner_id, belief_ids, erased=False):
    """Beliefs of ``owner_id`` left the live statuses; ``erased`` when their text is gone."""
    for listener in _listeners:
        listener(owner_id=owner_id, belief_ids=list(belief_ids), erased=erased)


def beliefs_relabelled(*, owner_id, belief_ids):
    """Beliefs of ``owner_id`` are labelled more sensitive than before: what was built on
    them under the old label no longer holds either, as on a retirement."""
    beliefs_retired(owner_id=owner_id, belief_ids=belief_ids)
