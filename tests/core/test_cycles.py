import gc

import pytest

from core.cycles import cycle_collection_paused


@pytest.fixture(autouse=True)
def collector_restored():
    was_enabled = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was_enabled else gc.disable)()


def test_the_collector_is_paused_inside_and_running_after():
    with cycle_collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_exception_resumes_the_collector():
    with pytest.raises(ValueError), cycle_collection_paused():
        raise ValueError
    assert gc.isenabled()


def test_a_nested_pause_leaves_the_outer_one_in_force():
    with cycle_collection_paused():
        with cycle_collection_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_paused_by_someone_else_stays_paused():
    gc.disable()
    with cycle_collection_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
