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
    }
    assert recording_cost(recorder, 64) is None
