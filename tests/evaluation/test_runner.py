"""The multi-arm runner end to end: real arm processes, fresh databases, results and report."""

import pytest
from django.core.management import CommandError, call_command

from evaluation.arms import banks_for

from .fixtures import write_tiny_dataset


def test_every_arm_is_scored_with_the_metrics_of_the_contract(evaluated):
    _, results = evaluated

    assert set(results["arms"]) == {"control", "formation", "reconsolidation", "hybrid"}
    for metrics in results["arms"].values():
        for key in (
            "evidence_recall@1",
            "evidence_recall@5",
            "evidence_recall@10",
            "by_category",
            "context_chars_mean",
            "context_chars_p95",
            "formation_coverage",
            "fabrication",
            "failed_cases",
        ):
            assert key in metrics
        assert metrics["failed_cases"] == []
        assert metrics["unknown_evidence"] == ["conv-a:D9:9"]
    meta = results["meta"]
    assert meta["policy_versions"] == {
        "formation": "formation@2",
        "formation_provider": "formation@4",
        "reconsolidation": "reconsolidation@1",
        "reconsolidation_provider": "reconsolidation-assisted@1",
    }
    assert set(meta["code_digests"]) == {
        "formation",
        "formation_provider",
        "recall",
        "reconsolidation",
        "reconsolidation_provider",
    }
    assert len(meta["code_digest"]) == len(meta["dataset_digest"]) == 64
    assert meta["settings"]["k"] == 10


def test_the_control_arm_answers_from_original_messages(evaluated):
    _, results = evaluated
    control = results["arms"]["control"]
    cases = {c["question_id"]: c for c in results["cases"] if c["arm"] == "control"}

    # "What does Alice drive?" is asked of Alice's bank only and finds the turn.
    assert cases["conv-a:q0"]["banks"] == ["Alice"]
    assert cases["conv-a:q0"]["evidence_recall@10"] == 1.0
    assert {item["kind"] for c in cases.values() for item in c["items"]} == {"message"}
    assert control["formation_coverage"] is None
    assert control["consolidations"] == 0
    # The category-5 question has no evidence: unscorable, reported, not averaged.
    assert control["unscorable"] == ["conv-a:q3"]


def test_the_formation_arm_recalls_formed_memories_only(evaluated):
    _, results = evaluated
    formation = results["arms"]["formation"]
    beliefs = results["observed"]["formation"]["beliefs"]

    assert formation["consolidations"] == 6  # every session copy, once
    assert {
        item["kind"] for c in results["cases"] if c["arm"] == "formation" for item in c["items"]
    } <= {"belief"}
    assert {(b["speaker"], b["statement"]) for b in beliefs} >= {
        ("Alice", "User owns a Kindle."),
        ("Carol", "User lives in Lisbon."),
    }
    # Bob's dog is Bob's: Alice's bank never forms a memory from another participant's turn.
    assert not [b for b in beliefs if b["speaker"] == "Alice" and "Rex" in b["statement"]]
    assert formation["fabrication"] == 0.0
    assert 0 < formation["formation_coverage"] <= 1


def test_the_hybrid_arm_recalls_messages_beside_the_memories_formed_from_them(evaluated):
    _, results = evaluated
    arms = results["arms"]
    kinds = {item["kind"] for c in results["cases"] if c["arm"] == "hybrid" for item in c["items"]}

    # Its banks hold the formed memories, but each memory of these short conversations rests
    # on a turn the question finds as readily, which then comes first and gives what it says.
    assert arms["hybrid"]["consolidations"] == arms["formation"]["consolidations"] > 0
    assert "message" in kinds
    assert kinds <= {"belief", "message", "derived"}
    assert (
        results["arms"]["hybrid"]["evidence_recall@10"]
        >= results["arms"]["formation"]["evidence_recall@10"]
    )


@pytest.mark.parametrize("arm", ["reconsolidation", "hybrid"])
def test_the_arms_with_derived_memories_reconsolidate_every_bank_after_formation(evaluated, arm):
    _, results = evaluated
    metrics = results["arms"][arm]

    # Four speakers, four banks: at least one pass each, each to the end of a full scan.
    assert metrics["reconsolidation"]["passes"] >= 4
    assert set(metrics["reconsolidation"]) == {"passes", "outcomes", "derived"}
    assert metrics["consolidations"] == results["arms"]["formation"]["consolidations"]
    assert results["arms"]["formation"]["reconsolidation"] is None


def test_the_reconsolidation_arm_recalls_memories_and_derived_memories_only(evaluated):
    _, results = evaluated
    kinds = {
        item["kind"]
        for c in results["cases"]
        if c["arm"] == "reconsolidation"
        for item in c["items"]
    }

    assert "belief" in kinds
    assert kinds <= {"belief", "derived"}


def test_the_report_has_tables_and_a_chart(evaluated):
    out, _ = evaluated
    html = (out / "report.html").read_text()

    assert (out / "recall.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert '<img src="recall.png"' in html
    for arm in ("control", "formation", "reconsolidation", "hybrid"):
        assert f"<td>{arm}</td>" in html
    assert "1 session dates without a session" in html


def test_questions_go_to_the_bank_of_the_speaker_they_name():
    speakers = ("Alice Smith", "Bob")

    assert banks_for("What does Alice drive?", speakers) == ["Alice Smith"]
    assert banks_for("Where did bob go?", speakers) == ["Bob"]
    assert banks_for("Did Alice meet Bob?", speakers) == list(speakers)
    assert banks_for("Who went to Lisbon?", speakers) == list(speakers)
    assert banks_for("What did Alicex say?", speakers) == list(speakers)


def test_unknown_arms_and_bad_files_are_refused(tmp_path):
    path = write_tiny_dataset(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")

    with pytest.raises(CommandError, match="--arms takes some of"):
        call_command("evaluate", str(path), "--arms", "control,magic", "--out", str(tmp_path))
    with pytest.raises(CommandError, match="not a LoCoMo-format dataset"):
        call_command("evaluate", str(bad), "--out", str(tmp_path))
    assert not (tmp_path / "results.json").exists()
