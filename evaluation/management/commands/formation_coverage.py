"""How much of LoCoMo's observation facts the formation extractor forms a memory from.

For each conversation and each of its two speakers, that speaker plays the
owner: their turns are the owner's user messages and the other speaker's
turns are participant messages, which must form nothing. Sessions are read in
order, each as one extraction request that knows what earlier sessions
accepted. An observation fact (the dataset authors' per-speaker facts, each
citing its evidence turns) counts as covered when at least one accepted
proposal was read from one of its evidence turns.

Nothing is written anywhere, and the dataset is read in place.
"""

import json
import time
from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand

from evaluation.locomo import Dataset
from evaluation.management.commands.import_conversations import read_dataset
from memory.enums import EventType
from memory.formation.candidates import PROPOSER_MODEL, ExtractionRequest
from memory.formation.extraction import KnownLedger, extraction_decide, user_message
from memory.formation.extractor import DeterministicExtractor
from memory.formation.scoring import fabricated
from memory.services.formation import MAX_CONSUMED


def coverage(dataset: Dataset, *, extractor=None):
    """Coverage figures of a parsed dataset, per conversation and overall."""
    extractor = extractor or DeterministicExtractor()
    report = {
        "conversations": [],
        "facts": 0,
        "covered": 0,
        "principal_turns": 0,
        "proposals": 0,
        "accepted": 0,
        "participant_proposals": 0,
        "consolidations": 0,
        "over_ceiling": 0,
        "types": Counter(),
        "reasons": Counter(),
        # "<sample>:<fact number>" of every covered fact, for a certificate to recount.
        "covered_facts": [],
        # Accepted proposals a model made, and those of them naming an entity or a
        # number their source turns do not (``memory.formation.scoring.fabricated``).
        "model_accepted": 0,
        "model_fabricated": 0,
    }
    started = time.perf_counter()
    for conversation in dataset.conversations:
        sample_id = conversation.sample_id
        accepted_turns = {}
        row = Counter()
        for principal in conversation.speakers:
            accepted_turns[principal] = set()
            ledger = KnownLedger()
            for dialog in conversation.sessions:
                messages = []
                for turn in dialog.turns:
                    own = turn.speaker == principal
                    row["principal_turns"] += own
                    messages.append(
                        user_message(
                            id=f"{sample_id}:{turn.dia_id}",
                            text=tuple(part for part in (turn.text, turn.caption) if part),
                            occurred_at=dialog.started_at,
                            event_type=EventType.USER_MESSAGE
                            if own
                            else EventType.PARTICIPANT_MESSAGE,
                        )
                    )
                by_id = {m.id: m for m in messages}
                request = ExtractionRequest(messages=tuple(messages), known=ledger.known)
                outcome = extraction_decide(request, extractor=extractor)
                ledger.record(outcome.decisions)
                report["consolidations"] += 1
                accepted_here = 0
                for decision in outcome.decisions:
                    candidate = decision.candidate
                    row["proposals"] += 1
                    if any(
                        by_id[s].event_type != EventType.USER_MESSAGE
                        for s in candidate.source_ids
                        if s in by_id
                    ):
                        row["participant_proposals"] += 1
                    if not decision.accepted:
                        report["reasons"][decision.reason] += 1
                        continue
                    accepted_here += 1
                    row["accepted"] += 1
                    if candidate.proposer == PROPOSER_MODEL:
                        report["model_accepted"] += 1
                        sources = [by_id[s].text for s in candidate.source_ids if s in by_id]
                        report["model_fabricated"] += fabricated(candidate, sources)
                    report["types"][str(candidate.type)] += 1
                    for source in candidate.source_ids:
                        accepted_turns[principal].add(source.split(":", 1)[1])
                report["over_ceiling"] += accepted_here > MAX_CONSUMED
        for number, fact in enumerate(conversation.facts):
            row["facts"] += 1
            turns = accepted_turns.get(fact.speaker, set())
            if any(dia_id in turns for dia_id in fact.evidence):
                row["covered"] += 1
                report["covered_facts"].append(f"{sample_id}:{number}")
        report["conversations"].append({"sample_id": sample_id, **row})
        for name in ("facts", "covered", "principal_turns", "proposals", "accepted"):
            report[name] += row[name]
        report["participant_proposals"] += row["participant_proposals"]
    report["seconds"] = round(time.perf_counter() - started, 3)
    return report


def _ratio(part, whole):
    return part / whole if whole else 0.0


class Command(BaseCommand):
    help = "Report how many LoCoMo observation facts the formation extractor forms a memory from."

    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--locomo", required=True, help="path of the LoCoMo JSON file")
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")

    def handle(self, *args, **options):
        path = Path(options["locomo"])
        dataset = read_dataset(path)
        report = coverage(dataset)
        if options["json"]:
            report = {
                **{key: value for key, value in report.items() if key != "covered_facts"},
                "types": dict(report["types"]),
                "reasons": dict(report["reasons"]),
                "coverage": round(_ratio(report["covered"], report["facts"]), 4),
            }
            self.stdout.write(json.dumps(report, indent=2, sort_keys=True))
            return
        self._print(report, path)

    def _print(self, report, path):
        out = self.stdout.write
        out(f"LoCoMo formation coverage: {path}")
        out(
            f"observation facts with an accepted memory from their evidence turn: "
            f"{report['covered']} / {report['facts']} "
            f"({_ratio(report['covered'], report['facts']):.1%})"
        )
        for row in report["conversations"]:
            out(
                f"  {row['sample_id']}: {row['covered']} / {row['facts']} "
                f"({_ratio(row['covered'], row['facts']):.1%}), "
                f"{row['principal_turns']} owner turns, {row['accepted']} accepted"
            )
        turns = report["principal_turns"]
        out(
            f"candidates per owner turn: {_ratio(report['proposals'], turns):.3f} proposed, "
            f"{_ratio(report['accepted'], turns):.3f} accepted ({turns} turns)"
        )
        out(f"accepted by type: {dict(sorted(report['types'].items()))}")
        out(f"rejected by reason: {dict(sorted(report['reasons'].items()))}")
        out(f"proposals citing a participant's turn: {report['participant_proposals']}")
        out(
            f"consolidations with more than {MAX_CONSUMED} accepted proposals: "
            f"{report['over_ceiling']} of {report['consolidations']}"
        )
        out(f"extraction time: {report['seconds']} s")
