"""The load generator's command line refuses what it cannot run, before any request."""

import pytest

from benchmarks.load_api import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--clients", "16,0"], "expected comma-separated positive integers, got '16,0'"),
        (["--clients", "sixteen"], "expected comma-separated positive integers"),
        (["--clients", ""], "expected comma-separated positive integers"),
        (["--operations", "recall,delete"], "expected a comma-separated list of healthz"),
        (["--operations", ","], "expected a comma-separated list of healthz"),
        (["--duration", "0"], "--duration"),
        (["--rounds", "-1"], "--rounds"),
    ],
)
def test_bad_arguments_are_refused_with_what_was_expected(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--fixture", str(tmp_path / "never-read.json")])

    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_good_lists_are_parsed_in_order_without_blanks(monkeypatch, tmp_path):
    parsed = {}

    def stop(args, fixture):
        parsed.update(clients=args.clients, operations=args.operations)
        raise SystemExit(0)

    fixture = tmp_path / "fixture.json"
    fixture.write_text("{}")
    monkeypatch.setattr("benchmarks.load_api.run", stop)
    with pytest.raises(SystemExit):
        main(["--clients", "64, 16", "--operations", "recall, healthz,", "--fixture", str(fixture)])

    assert parsed == {"clients": [64, 16], "operations": ["recall", "healthz"]}


def test_arguments_are_parsed_without_the_module_docstring_as_under_python_oo(
    monkeypatch, tmp_path
):
    from benchmarks import load_api

    parsed = {}

    def stop(args, fixture):
        parsed.update(clients=args.clients)
        raise SystemExit(0)

    fixture = tmp_path / "fixture.json"
    fixture.write_text("{}")
    monkeypatch.setattr(load_api, "__doc__", None)
    monkeypatch.setattr(load_api, "run", stop)
    with pytest.raises(SystemExit):
        main(["--clients", "16", "--fixture", str(fixture)])

    assert parsed == {"clients": [16]}


def test_recall_without_access_records_needs_the_second_servers_url(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main(["--operations", "recall_unrecorded", "--fixture", str(tmp_path / "never.json")])

    assert exit_.value.code == 2
    assert "needs --unrecorded-url" in capsys.readouterr().err


def test_the_second_servers_url_pairs_every_recall_phase_with_one_against_it(monkeypatch, tmp_path):
    parsed = {}

    def stop(args, fixture):
        parsed.update(operations=args.operations, url=args.unrecorded_url)
        raise SystemExit(0)

    fixture = tmp_path / "fixture.json"
    fixture.write_text("{}")
    monkeypatch.setattr("benchmarks.load_api.run", stop)
    with pytest.raises(SystemExit):
        main(["--unrecorded-url", "http://127.0.0.1:9/", "--fixture", str(fixture)])

    assert parsed == {
        "operations": ["healthz", "memory", "recall", "recall_unrecorded"],
        "url": "http://127.0.0.1:9",
    }


def test_the_cost_of_access_records_is_the_ratio_of_the_rounds_medians():
    from benchmarks.load_api import Recorder, recording_cost

    recorder = Recorder()
    recorder.phase_rps[("recall", 16)] = [90.0, 100.0, 300.0]
    recorder.phase_rps[("recall_unrecorded", 16)] = [100.0, 120.0, 110.0]

    assert recording_cost(recorder, 16) == {
        "with": 100.0,
        "without": 110.0,
        "ratio": 100.0 / 110.0,
        "rounds": 3,
        "per_round": [(90.0, 100.0), (100.0, 120.0), (300.0, 110.0)],
    }
    assert recording_cost(recorder, 64) is None


def test_a_phase_s_clients_connect_one_after_another_not_in_one_burst(monkeypatch):
    """A burst of keep-alive connections lands on whichever gunicorn worker wakes first;
    the clients of a phase start a ramp step apart."""
    import asyncio
    import time
    from types import SimpleNamespace

    from benchmarks import load_api

    first_request = {}

    class Connection:
        index = None

        def __init__(self, url, headers, timeout):
            # The client being started (virtual_client connects before its first wait).
            self.index = Connection.index

        async def request(self, method, path, body=None):
            first_request.setdefault(self.index, time.perf_counter())
            await asyncio.sleep(0.001)
            return 200, b"{}"

        def close(self):
            pass

    monkeypatch.setattr(load_api, "Connection", Connection)
    args = SimpleNamespace(
        seed=1, url="http://127.0.0.1:9", unrecorded_url="", timeout=1.0, limit=0
    )
    recorder = load_api.Recorder()

    async def phase():
        start = time.perf_counter()
        clock = {"measure": start, "end": start + 0.35, "ramp": 0.1}

        async def client(index):
            Connection.index = index
            await load_api.virtual_client(
                index, {"token": "t"}, ("healthz", 4), args, None, clock, recorder
            )

        await asyncio.gather(*(client(index) for index in range(4)))
        return start

    # Each client's first request, measured from the phase's start.
    start = asyncio.run(phase())
    offsets = [first_request[index] - start for index in range(4)]
    # No earlier than its step (a sleep never ends early; a slow machine may end it late).
    assert all(offset >= 0.1 * index - 0.005 for index, offset in enumerate(offsets))


def test_the_meaning_servers_url_pairs_every_recall_phase_with_one_against_it(
    monkeypatch, tmp_path
):
    parsed = {}

    def stop(args, fixture):
        parsed.update(operations=args.operations, url=args.meaning_url)
        raise SystemExit(0)

    fixture = tmp_path / "fixture.json"
    fixture.write_text("{}")
    monkeypatch.setattr("benchmarks.load_api.run", stop)
    with pytest.raises(SystemExit):
        main(
            [
                "--meaning-url",
                "http://127.0.0.1:9/",
                "--unrecorded-url",
                "http://127.0.0.1:8/",
                "--fixture",
                str(fixture),
            ]
        )

    assert parsed == {
        "operations": ["healthz", "memory", "recall", "recall_unrecorded", "recall_meaning"],
        "url": "http://127.0.0.1:9",
    }


def test_recall_with_embeddings_on_needs_the_meaning_servers_url(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main(["--operations", "recall_meaning", "--fixture", str(tmp_path / "never.json")])

    assert exit_.value.code == 2
    assert "needs --meaning-url" in capsys.readouterr().err


def test_each_principal_asks_a_query_it_has_not_asked_before_while_there_are_new_ones():
    import random

    from benchmarks.load_api import Zipf, recall_body

    rng = random.Random(7)
    asked = set()
    words = Zipf(["coffee", "dog", "watch", "berlin", "piano", "garden", "bike", "tea"])
    queries = [recall_body(rng, words, 0, asked)["query"] for _ in range(200)]

    assert len(set(queries)) == len(queries) == len(asked)
    # Once every query of these words was asked, one is asked again rather than never.
    tiny = Zipf(["coffee", "dog"])
    seen = set()
    repeated = [recall_body(rng, tiny, 0, seen)["query"] for _ in range(3)]
    assert len(set(repeated)) < len(repeated)
