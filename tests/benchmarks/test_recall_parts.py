"""What each part costs a recall (``benchmark_recall_cpu --parts``): each variant really
changes its part and nothing else, the costs are the rounds' paired differences, and the
report gives both."""

import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from benchmarks.recall_cpu import Requests
from benchmarks.recall_parts import (
    AS_IT_IS,
    PARTS,
    part_costs,
    parts_argument,
    parts_measure,
    request_path_cost,
    variant_order,
)
from common.principal import principal_context
from memory.models import AccessRecord
from tests.memory.helpers import conversation


def recall_once(principal, query="maria tea", **body):
    """(statements, JSON answer) of one recall with the fixture principal's token."""
    client = Client(headers={"X-Forwarded-Proto": "https"})
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            "/api/v1/recall",
            {"query": query, **body},
            content_type="application/json",
            headers={"Authorization": f"Bearer {principal['token']}"},
        )
    assert response.status_code == 200, response.content
    return len(queries), response.json()


def records():
    """The access records of every owner, each read as its owner (row security)."""
    count = 0
    for owner in User.objects.all():
        with principal_context(owner):
            count += AccessRecord.objects.filter(owner=owner).count()
    return count


@pytest.fixture
def principal(fixture_file):
    """The fixture's first principal, after a first recall (a process's first request
    reads what later ones find cached) whose access record is then dropped."""
    chosen = json.loads(fixture_file.read_text())["principals"][0]
    recall_once(chosen)
    owner = User.objects.get(username=chosen["username"])
    with principal_context(owner):
        AccessRecord.objects.filter(owner=owner).delete()
    return chosen


def test_parts_are_named_from_the_list_once_each_or_refused_with_the_list():
    assert parts_argument("rows, masking,rows") == ["rows", "masking"]
    for value in ("", "rows,tokens", " , "):
        with pytest.raises(
            CommandError, match="among access-record, masking, candidates, rows, selector"
        ):
            parts_argument(value)


def test_every_other_round_runs_the_variants_in_reverse():
    variants = [AS_IT_IS, "rows", "masking"]

    assert variant_order(variants, 1) == variants
    assert variant_order(variants, 2) == ["masking", "rows", AS_IT_IS]


def row(round_, variant, python, postgres):
    """One round's figures for one variant, as ``parts_measure`` gives them."""
    return {"round": round_, "variant": variant, "python_ms": python, "postgres_ms": postgres}


def test_a_part_left_out_costs_what_recall_as_it_is_spends_more_and_one_run_twice_the_extra():
    rounds = [
        row(1, AS_IT_IS, 5.0, 3.0),
        row(1, "masking", 4.0, 3.0),
        row(1, "rows", 6.0, 3.5),
        row(2, "rows", 7.5, 4.0),
        row(2, "masking", 5.5, None),
        row(2, AS_IT_IS, 6.0, 3.0),
        row(3, AS_IT_IS, 4.0, 2.0),
        row(3, "masking", 3.8, 2.0),
        row(3, "rows", 4.2, 2.1),
    ]

    masking, rows = part_costs(rounds, ["masking", "rows"])

    # Paired by round: the medians of (1.0, 0.5, 0.2) and of (1.0, 1.5, 0.2).
    assert masking["how"] == "left out" and masking["python_ms"] == pytest.approx(0.5)
    assert masking["postgres_ms"] is None
    assert rows["how"] == "run twice" and rows["python_ms"] == pytest.approx(1.0)
    assert rows["postgres_ms"] == pytest.approx(0.5)


def test_leaving_the_access_record_out_writes_none_and_changes_nothing_else(principal):
    statements, answer = recall_once(principal)
    assert records() == 1

    with PARTS["access-record"].change():
        fewer, same = recall_once(principal)

    assert records() == 1
    assert fewer < statements
    assert same["items"] == answer["items"]


def test_leaving_the_selector_out_answers_nothing_and_keeps_the_request_path(principal):
    statements, answer = recall_once(principal)
    assert answer["items"] and records() == 1

    with PARTS["selector"].change():
        fewer, nothing = recall_once(principal)

    # No statement finds or reads anything; the token's and the access record's remain.
    assert fewer < statements and fewer >= 2
    assert nothing == {"items": [], "terms": [], "chars": 0, "truncated": False, "profile": False}
    assert records() == 2
    # Only for the variant's loop: afterwards recall is as it was.
    assert recall_once(principal) == (statements, answer)


def test_the_request_path_is_the_median_of_recall_with_the_selector_left_out():
    rounds = [
        row(1, AS_IT_IS, 5.0, 3.0),
        row(1, "selector", 2.0, 0.5),
        row(2, "selector", 2.4, 0.7),
        row(2, AS_IT_IS, 6.0, 3.0),
        row(3, "selector", 1.8, None),
    ]

    assert request_path_cost(rounds) == {"python_ms": 2.0, "postgres_ms": None}
    assert request_path_cost(rounds[:4]) == {"python_ms": 2.2, "postgres_ms": 0.6}
    assert request_path_cost([r for r in rounds if r["variant"] == AS_IT_IS]) is None


@pytest.mark.parametrize("part", ["candidates", "rows"])
def test_a_part_run_twice_sends_its_statements_again_and_gives_the_same_answer(principal, part):
    statements, answer = recall_once(principal)

    with PARTS[part].change():
        more, same = recall_once(principal)

    assert more > statements
    assert same["items"] == answer["items"]
    # Only for the variant's loop: afterwards recall is as it was.
    assert recall_once(principal)[0] == statements


def test_leaving_masking_out_gives_what_the_message_says(principal):
    # A memory never keeps a secret; a message, the owner's own log, may.
    conversation(User.objects.get(username=principal["username"]), "My password is hunter2.")
    query = {"query": "password", "include": ["messages"]}

    _, masked = recall_once(principal, **query)
    with PARTS["masking"].change():
        _, plain = recall_once(principal, **query)

    assert not any("hunter2" in item["text"] for item in masked["items"])
    assert any("hunter2" in item["text"] for item in plain["items"])


def test_the_variants_take_turns_in_blocks_each_sending_the_same_queries(fixture_file, monkeypatch):
    fixture = json.loads(fixture_file.read_text())
    streams, turns = [], []

    class Recording(Requests):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.sent = []
            streams.append(self)
            post = self.client.post

            def recorded(path, data=None, **kwargs):
                self.sent.append(data["query"])
                turns.append(streams.index(self))
                return post(path, data, **kwargs)

            self.client.post = recorded

    monkeypatch.setattr("benchmarks.recall_parts.Requests", Recording)

    result = parts_measure(
        connection,
        fixture,
        parts=["masking", "access-record"],
        requests=5,
        warmup=1,
        rounds=2,
        words="uniform",
        seed=5,
        progress=lambda message: None,
        block=2,
    )

    assert [(row["round"], row["variant"]) for row in result["rounds"]] == [
        (round_, variant) for round_ in (1, 2) for variant in (AS_IT_IS, "masking", "access-record")
    ]
    # A stream per variant and round; a round's streams send the same queries.
    assert len(streams) == 6
    first, second = [stream.sent for stream in streams[:3]], [s.sent for s in streams[3:]]
    assert first[0] == first[1] == first[2] and second[0] == second[1] == second[2]
    assert len(first[0]) == 1 + 5 and first[0] != second[0]
    # Round 1: one warm-up each, then blocks of 2, 2 and 1, the order reversed every turn.
    assert turns[:15] == [0, 1, 2, 0, 0, 1, 1, 2, 2, 2, 2, 1, 1, 0, 0] and turns[15:18] == [0, 1, 2]
    # The access record is left out of one variant's 6 recalls in each round.
    assert records() == 2 * 2 * 6
    assert [cost["part"] for cost in result["costs"]] == ["masking", "access-record"]
    if connection.vendor == "postgresql":
        assert all(isinstance(cost["postgres_ms"], float) for cost in result["costs"])
    else:
        assert all(cost["postgres_ms"] is None for cost in result["costs"])


def parts_report(fixture_file, parts, rounds):
    """What ``benchmark_recall_cpu --parts`` prints of the parts, for 2 recalls a round."""
    out = StringIO()
    call_command(
        "benchmark_recall_cpu",
        f"--fixture={fixture_file}",
        "--requests=2",
        "--warmup=0",
        f"--rounds={rounds}",
        f"--parts={parts}",
        stdout=out,
        stderr=StringIO(),
    )
    return out.getvalue().split("what each part costs a recall")[1]


def test_the_report_gives_each_round_s_variants_and_each_part_s_cost(fixture_file):
    output = parts_report(fixture_file, "rows,access-record", rounds=2)

    number = r"-?\d+\.\d{3}"
    postgres = number if connection.vendor == "postgresql" else "n/a"
    rounds = re.findall(r"^[12] +(as it is|rows run twice|access-record left out) ", output, re.M)
    assert rounds == ["as it is", "rows run twice", "access-record left out"] * 2
    for part, how in (("rows", "run twice"), ("access-record", "left out")):
        assert re.search(rf"^{part} +{how} +{number} +{postgres} +{postgres}$", output, re.M)
    assert "2 recalls each after 0 uncounted, 2 round(s)" in output
    assert "the request path" not in output


def test_the_report_gives_the_request_path_where_the_selector_was_left_out(fixture_file):
    output = parts_report(fixture_file, "selector", rounds=1)

    postgres = "PostgreSQL n/a"
    if connection.vendor == "postgresql":
        postgres = r"\d+\.\d{3} ms of PostgreSQL"
    assert re.search(r"^selector +left out ", output, re.M)
    assert re.search(
        rf"^the request path \(recall with the selector left out, median of the rounds\): "
        rf"\d+\.\d{{3}} ms of Python, {postgres}$",
        output,
        re.M,
    )
