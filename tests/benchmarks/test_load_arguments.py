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
