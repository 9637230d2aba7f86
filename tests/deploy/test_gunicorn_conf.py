"""deploy/gunicorn.conf.py, read as gunicorn reads it: a module of settings and hooks."""

import gc
import runpy
from pathlib import Path

import pytest

CONF = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"


@pytest.fixture
def conf(monkeypatch):
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    monkeypatch.delenv("REVERIE_THREADS", raising=False)
    return runpy.run_path(str(CONF))


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_a_worker_puts_what_it_loaded_out_of_the_cycle_collectors_reach(conf, unfrozen):
    assert gc.get_freeze_count() == 0

    conf["post_worker_init"](worker=None)

    assert gc.get_freeze_count() > 0


def test_the_defaults_are_two_gthread_workers_of_four_threads(conf):
    assert (conf["workers"], conf["worker_class"], conf["threads"]) == (2, "gthread", 4)
