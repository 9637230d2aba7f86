"""The reconsolidation evaluation end to end: labelled banks, the command, the certificate."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from evaluation.certificates import certificate_refusal
from evaluation.models import Certificate
from evaluation.reconsolidation_runner import DEFAULT_FIXTURES, read_fixtures
from evaluation.reconsolidation_scoring import reconsolidation_metrics
from reconsolidation.planning import POLICY_VERSION

pytestmark = pytest.mark.django_db

FALSE_MERGE_TRAPS = {"people", "word", "polarity", "validity", "sensitivity", "scope", "type"}


def bundled_cases():
    cases, _ = read_fixtures(DEFAULT_FIXTURES)
    return cases


def write_cases(path, cases):
    path.write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")
    return path


def evaluate(tmp_path, fixtures=None):
    out = tmp_path / "out"
    arguments = ["evaluate_reconsolidation", "--out", str(out)]
    if fixtures is not None:
        arguments += ["--fixtures", str(fixtures)]
    call_command(*arguments)
    raw = (out / "results.json").read_bytes()
    return out / "results.json", json.loads(raw)


def test_the_labelled_fixture_is_large_consistent_and_covers_the_false_merge_traps():
    cases = bundled_cases()

    assert len(cases) >= 40
    traps = set()
    for case in cases:
        keys = {belief["key"] for belief in case["beliefs"]}
        labels = case["labels"]
        assert len(keys) == len(case["beliefs"]), case["id"]
        merged = [set(group) for group in labels["merge"]]
        for group in merged + [set(g) for g in labels["notice"]]:
            assert group <= keys and len(group) >= 2, case["id"]
        for pair in labels["no_merge"]:
            assert set(pair["pair"]) <= keys, case["id"]
            assert not any(set(pair["pair"]) <= group for group in merged), case["id"]
            traps.add(pair["trap"])
        for query in labels["queries"]:
            assert set(query["expect"]) <= keys, case["id"]
        subjects = {belief["subject"] for belief in case["beliefs"]}
        for pair in labels["connections"]:
            assert set(pair) <= subjects, case["id"]
    assert traps >= FALSE_MERGE_TRAPS
    assert any(b.get("delete_after_pass") for case in cases for b in case["beliefs"])


def test_the_bundled_banks_have_no_false_merge_no_privacy_failure_and_no_recall_drop(tmp_path):
    users = get_user_model().objects.count()

    _, results = evaluate(tmp_path)

    metrics = results["arms"]["reconsolidation"]
    assert (metrics["cases"], metrics["failed"]) == (len(bundled_cases()), 0)
    assert metrics["false_merges"] == 0 and metrics["trap_violations"] == {}
    assert metrics["privacy_failures"] == 0
    # Only the paraphrases, which merging the same words cannot find, are missed.
    paraphrases = [case for case in bundled_cases() if case["id"].startswith("paraphrase-")]
    assert metrics["missed_merges"] == len(paraphrases) == 3
    assert metrics["merges"] == metrics["labelled_merges"] - len(paraphrases)
    assert metrics["atomic_recall_drop"] <= 0
    assert metrics["derived"]["merged"] == metrics["merges"]
    assert metrics["derived"]["uncertainty_notice"] >= 1
    meta = results["meta"]
    assert meta["evaluation"] == "reconsolidation"
    assert meta["policy_versions"]["reconsolidation"] == POLICY_VERSION
    assert len(meta["code_digests"]["reconsolidation"]) == len(meta["dataset_digest"]) == 64
    # Every case was rolled back: no principal or memory is left behind.
    assert get_user_model().objects.count() == users


def test_a_deleted_source_leaves_its_merge_invalidated_and_without_its_text(tmp_path):
    (case,) = [case for case in bundled_cases() if case["id"] == "erasure-merge"]

    _, results = evaluate(tmp_path, write_cases(tmp_path / "one.jsonl", [case]))

    (observation,) = results["observed"]["reconsolidation"]
    (merge,) = observation["derived"]
    assert (merge["kind"], merge["status"], merge["sources"]) == (
        "merged",
        "invalidated",
        ["a", "b"],
    )
    assert merge["statement"] == merge["subject"] == ""


def test_a_merge_of_beliefs_not_labelled_equivalent_is_counted_as_false(tmp_path):
    # The two beliefs do state one claim, but the labels say they must not merge: the
    # measure has to see the merge the planner makes.
    (case,) = [case for case in bundled_cases() if case["id"] == "merge-articles"]
    mislabelled = {
        **case,
        "labels": {**case["labels"], "merge": [], "no_merge": [{"pair": ["a", "b"], "trap": "x"}]},
    }

    path, results = evaluate(tmp_path, write_cases(tmp_path / "bad.jsonl", [mislabelled]))

    metrics = results["arms"]["reconsolidation"]
    assert (metrics["false_merges"], metrics["trap_violations"]) == (1, {"x": 1})


def test_recall_with_derived_memories_gives_the_originals_they_restate_first(tmp_path):
    (case,) = [case for case in bundled_cases() if case["id"] == "merge-three-sessions"]

    _, results = evaluate(tmp_path, write_cases(tmp_path / "one.jsonl", [case]))

    (observation,) = results["observed"]["reconsolidation"]
    rankings = {query["query"]: query for query in observation["queries"]}
    dog = rankings["dog Pepper"]
    assert {item["kind"] for item in dog["control"]} == {"belief"}
    assert sorted(i["key"] for i in dog["derived"] if i["kind"] == "belief") == ["a", "b", "c"]
    # The merge restates the three, which match too: they come first, and it would only
    # repeat the messages they rest on.
    assert {"kind": "derived", "derived_kind": "merged"} not in dog["derived"]


def test_a_fixture_that_is_not_labelled_cases_is_refused(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "x"}\n', encoding="utf-8")

    with pytest.raises(CommandError, match="not a labelled case"):
        call_command("evaluate_reconsolidation", "--fixtures", str(path), "--out", str(tmp_path))


# -- certification -------------------------------------------------------------------------


def certify(path):
    call_command("certify", "--results", str(path), "--capability", "reconsolidation")


@pytest.fixture
def results(tmp_path):
    return evaluate(tmp_path)


def rewrite(path, edit):
    data = json.loads(path.read_bytes())
    edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_reconsolidation_capability_is_certified_from_its_results(results):
    path, _ = results
    assert certificate_refusal("reconsolidation") is not None

    certify(path)

    certificate = Certificate.objects.get(capability="reconsolidation")
    assert (certificate.arm, certificate.policy_version) == ("reconsolidation", POLICY_VERSION)
    assert certificate.metrics["false_merges"] == certificate.metrics["privacy_failures"] == 0
    assert certificate_refusal("reconsolidation") is None


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (lambda r: r["arms"]["reconsolidation"].update(merges=99), "do not follow"),
        (lambda r: r["arms"]["reconsolidation"].update(atomic_recall_drop=-0.5), "do not follow"),
        (
            lambda r: r["observed"]["reconsolidation"][0]["derived"].append(
                {
                    "kind": "merged",
                    "status": "active",
                    "statement": "",
                    "subject": "",
                    "sensitivity": "normal",
                    "portability": "portable",
                    "scope": "principal",
                    "sources": [b["key"] for b in r["labels"]["cases"][0]["beliefs"]][:1] + ["zz"],
                    "foreign_sources": 1,
                    "claims": [],
                }
            ),
            "do not follow",
        ),
        (lambda r: r["meta"]["code_digests"].update(reconsolidation="0" * 64), "other"),
        (lambda r: r["meta"].update(evaluation="recall"), "evaluation"),
    ],
)
def test_tampered_results_are_not_certified(results, edit, reason):
    path, _ = results

    with pytest.raises(CommandError, match=reason):
        certify(rewrite(path, edit))

    assert not Certificate.objects.filter(capability="reconsolidation").exists()


def test_results_that_miss_a_threshold_are_not_certified(results):
    path, data = results
    # One derived merge of two beliefs the labels keep apart, with the metrics it implies.
    case, observation = data["labels"]["cases"][0], data["observed"]["reconsolidation"][0]
    observation["derived"].append(
        {
            "kind": "merged",
            "status": "active",
            "statement": "",
            "subject": "",
            "sensitivity": "normal",
            "portability": "portable",
            "scope": "principal",
            "sources": [belief["key"] for belief in case["beliefs"]][:1] + ["zz"],
            "foreign_sources": 0,
            "claims": [],
        }
    )
    data["arms"]["reconsolidation"] = reconsolidation_metrics(
        data["labels"]["cases"], data["observed"]["reconsolidation"], k=10
    )
    path.write_text(json.dumps(data), encoding="utf-8")

    with pytest.raises(CommandError, match="false_merges = 1 is above the maximum 0"):
        certify(path)


def test_a_self_written_trivial_fixture_is_refused(tmp_path):
    # Forty copies of one case with nothing to merge: no false merge, and no evidence.
    (case,) = [case for case in bundled_cases() if case["id"] == "merge-articles"]
    trivial = {**case, "labels": {**case["labels"], "merge": []}}
    fixture = write_cases(
        tmp_path / "trivial.jsonl",
        [{**trivial, "id": f"trivial-{number}"} for number in range(40)],
    )
    path, _ = evaluate(tmp_path, fixture)

    with pytest.raises(CommandError, match="not of the shipped labelled fixture"):
        certify(path)
    assert not Certificate.objects.exists()


def test_an_edited_shipped_fixture_is_refused(results, tmp_path, monkeypatch, settings):
    from evaluation import certificates

    path, _ = results
    thinned = [{**case, "labels": {**case["labels"], "merge": []}} for case in bundled_cases()]
    monkeypatch.setattr(
        certificates, "DEFAULT_FIXTURES", write_cases(tmp_path / "thin.jsonl", thinned)
    )

    with pytest.raises(CommandError, match="is not the one reconsolidation is certified on"):
        certify(path)

    capabilities = dict(settings.REVERIE_CAPABILITIES)
    capabilities["reconsolidation"] = {**capabilities["reconsolidation"], "datasets": {}}
    settings.REVERIE_CAPABILITIES = capabilities
    with pytest.raises(CommandError, match="too small: merges = 0 is below 16"):
        certify(path)


def test_recall_evaluation_results_cannot_certify_reconsolidation(evaluated, tmp_path):
    _, recall_results = evaluated
    path = tmp_path / "results.json"
    path.write_text(json.dumps(recall_results), encoding="utf-8")

    with pytest.raises(CommandError, match="the results are of the recall evaluation"):
        certify(path)
