"""Recall's input serializer builds its fields once per thread: what one request sent
never shows in another's validation."""

import threading

from memory.api.serializers import RecallInput
from memory.selectors import recall as recall_selector


def validated(data):
    serializer = RecallInput(data=data)
    return serializer.is_valid(), serializer.errors, serializer.validated_data


def test_serializers_made_one_after_another_validate_their_own_data():
    assert RecallInput(data={}).fields is RecallInput(data={}).fields

    ok, errors, _ = validated({"query": "walks", "limit": "many", "colour": "red"})
    assert not ok and set(errors) == {"colour"}
    ok, errors, _ = validated({"query": "walks", "limit": "many"})
    assert not ok and set(errors) == {"limit"}
    ok, errors, data = validated({"query": "hikes", "limit": 3, "include": ["messages"]})
    assert ok and errors == {}
    assert (data["query"], data["limit"], data["include"]) == ("hikes", 3, ["messages"])
    ok, _, data = validated({})
    assert ok and data == {"query": "", "since": None, "include": []}


def test_each_thread_has_fields_of_its_own():
    built = {}

    def build(name):
        built[name] = RecallInput(data={}).fields

    threads = [threading.Thread(target=build, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert built["a"] is not built["b"]
    assert {id(field) for field in built["a"].values()}.isdisjoint(
        id(field) for field in built["b"].values()
    )


def test_the_fields_follow_the_registered_recall_sources(monkeypatch):
    before = RecallInput(data={}).fields
    monkeypatch.setitem(
        recall_selector.EXTRA_SOURCES,
        "notes",
        recall_selector.ExtraSource(search=lambda *args: None, select=lambda *args: ("", [])),
    )
    after = RecallInput(data={}).fields
    assert after is not before
    assert "notes" in after["include"].child.choices
    monkeypatch.undo()
    assert "notes" not in RecallInput(data={}).fields["include"].child.choices
