"""Evaluate recall arms on a conversation dataset; write results.json and report.html."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from evaluation.arms import ARMS
from evaluation.locomo import DatasetError, read_dataset
from evaluation.paraphrase import ParaphraseError, read_paraphrase
from evaluation.report import write_report
from evaluation.results import KS
from evaluation.runner import EvaluationError, evaluate


class Command(BaseCommand):
    help = (
        "Import FILE (LoCoMo conversations) and the paraphrase set into a fresh database per "
        "arm, form memories where the arm needs it, ask every question and write "
        "DIR/results.json and DIR/report.html. Without FILE, the paraphrase set alone."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", nargs="?")
        parser.add_argument(
            "--no-paraphrase",
            action="store_true",
            help="leave out the paraphrase set (evaluation/fixtures/paraphrase.json)",
        )
        parser.add_argument("--arms", default="control,formation,reconsolidation,hybrid")
        parser.add_argument("--k", type=int, default=10)
        parser.add_argument("--out", required=True, help="directory for the results")
        parser.add_argument(
            "--keep-databases", action="store_true", help="keep the per-arm PostgreSQL databases"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        arms = [arm.strip() for arm in options["arms"].split(",") if arm.strip()]
        unknown = [arm for arm in arms if arm not in ARMS]
        if not arms or unknown:
            raise CommandError(f"--arms takes some of: {', '.join(ARMS)}")
        if options["k"] < max(KS):
            raise CommandError(f"--k must be at least {max(KS)} (recall is reported at {KS})")
        if not options["file"] and options["no_paraphrase"]:
            raise CommandError("nothing to evaluate: give FILE, or keep the paraphrase set")
        try:
            dataset = read_dataset(options["file"]) if options["file"] else None
            paraphrase = None if options["no_paraphrase"] else read_paraphrase()
        except (DatasetError, ParaphraseError) as error:
            raise CommandError(str(error)) from None
        try:
            results = evaluate(
                dataset,
                options["file"],
                arms=arms,
                k=options["k"],
                out_dir=options["out"],
                keep_databases=options["keep_databases"],
                progress=self.stderr.write,
                paraphrase=paraphrase,
            )
        except EvaluationError as error:
            raise CommandError(str(error)) from None
        report = write_report(results, options["out"])
        if dataset is not None:
            self._table(results)
        if paraphrase is not None:
            self._paraphrase_table(results)
        self.stdout.write(f"results: {options['out']}/results.json; report: {report}")

    def _paraphrase_table(self, results: dict[str, Any]) -> None:
        out = self.stdout.write
        out(f"paraphrase set (embeddings {results['meta']['embeddings']}):")
        out(
            f"{'arm':<15} {'split':<11} {'hit@1':>6} {'hit@3':>6} {'no-shared@3':>11} "
            f"{'no-answer answered':>18} {'profile':>7}"
        )
        for arm, metrics in results["paraphrase"]["arms"].items():
            rows = [("all", metrics), *metrics["splits"].items()]
            for split, m in rows:
                shared = (
                    metrics["categories"]["no_shared_words"]["hit@3"] if split == "all" else None
                )
                out(
                    f"{arm:<15} {split:<11} {_cell(m['hit@1'], 6)} {_cell(m['hit@3'], 6)} "
                    f"{_cell(shared, 11)} {_cell(m['no_answer_answered'], 18)} "
                    f"{_cell(m['profile_answered'], 7)}"
                )

    def _table(self, results: dict[str, Any]) -> None:
        out = self.stdout.write
        header = f"{'arm':<15} {'r@1':>7} {'r@5':>7} {'r@10':>7} {'chars':>8} {'p95':>7}"
        out(f"{header} {'coverage':>9} {'fabric.':>8} {'derived':>8} {'failed':>7}")
        for arm, m in results["arms"].items():

            def cell(value: float | None, width: int, digits: int = 4) -> str:
                return f"{'-' if value is None else round(value, digits):>{width}}"

            derived = (m.get("reconsolidation") or {}).get("derived")
            out(
                f"{arm:<15} {cell(m['evidence_recall@1'], 7)} {cell(m['evidence_recall@5'], 7)} "
                f"{cell(m['evidence_recall@10'], 7)} {cell(m['context_chars_mean'], 8, 1)} "
                f"{cell(m['context_chars_p95'], 7, 1)} {cell(m['formation_coverage'], 9)} "
                f"{cell(m['fabrication'], 8)} "
                f"{'-' if derived is None else sum(derived.values()):>8} "
                f"{len(m['failed_cases']):>7}"
            )


def _cell(value: float | None, width: int) -> str:
    return f"{'-' if value is None else round(value, 3):>{width}}"
