"""Print how much of LoCoMo's observation facts the formation extractor forms a memory from
(``evaluation.formation_coverage``); nothing is written."""

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from evaluation.formation_coverage import coverage
from evaluation.locomo import DatasetError, read_dataset
from formation.services import MAX_CONSUMED


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


class Command(BaseCommand):
    help = "Report how many LoCoMo observation facts the formation extractor forms a memory from."

    requires_system_checks = []

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--locomo", required=True, help="path of the LoCoMo JSON file")
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["locomo"])
        try:
            dataset = read_dataset(path)
        except DatasetError as error:
            raise CommandError(str(error)) from None
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

    def _print(self, report: dict[str, Any], path: Path) -> None:
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
