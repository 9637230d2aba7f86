"""Qualify the configured provider on the shipped data; certify the capability on success."""

import errno
import json
import os
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from evaluation.certificates import CertificationError, certify
from evaluation.qualification.report import figure_rows
from evaluation.qualification.runs import KINDS, QualificationError, estimate, preflight, qualify

BAR = 30


class Command(BaseCommand):
    help = (
        "Run the qualification data shipped with Reverie through the product twice, in "
        "throwaway accounts: without the provider (deterministic) and with the configured "
        "provider (formation_provider or reconsolidation_provider), under the live egress "
        "rules. Prints both arms side by side and certifies the capability when the "
        "provider is useful (a lift over the deterministic arm at no loss of precision) "
        "and safe (nothing unsafe stored, nothing of the owner's overruled). Before any "
        "call it prints how many calls it makes and what they cost at most, and asks to "
        "go on unless --yes."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("kind", choices=sorted(KINDS))
        parser.add_argument("--out", default=".", help="directory for qualification.json (.)")
        parser.add_argument("--yes", action="store_true", help="do not ask before calling")

    def handle(self, *args: Any, kind: str, out: str, yes: bool, **options: Any) -> None:
        try:
            check = preflight(kind)
        except QualificationError as error:
            raise CommandError(f"not qualified: {error}") from None
        path = Path(out) / "qualification.json"
        try:
            # Before any call: a run whose file cannot be written has spent for nothing.
            path.parent.mkdir(parents=True, exist_ok=True)
            if not os.access(path.parent, os.W_OK):
                raise PermissionError(errno.EACCES, "Permission denied")
        except OSError as error:
            raise CommandError(f"not qualified: cannot write {path}: {error.strerror}") from None
        plan = estimate(check)
        self.stdout.write(
            f"{check.spec.name} with {check.config.model} at {check.config.base_url}: "
            f"{plan.cases} cases, at most {plan.calls_most} calls, at most "
            f"${plan.usd_most:.4f} (typically about ${plan.usd_typical:.4f}); the calls count "
            "against the daily spend caps"
        )
        if not yes and not self._confirmed():
            raise CommandError("not qualified: stopped before any call (pass --yes to go on)")
        results = qualify(check, progress=self._progress)
        self.stderr.write("")
        raw = json.dumps(results, indent=1, sort_keys=True).encode()
        path.write_bytes(raw)
        for line in figure_rows(check.spec, results["arms"][check.spec.name]):
            self.stdout.write(line)
        self.stdout.write(f"qualification: {path}")
        try:
            certificate = certify(raw_results=raw, capability_name=check.spec.name)
        except CertificationError as error:
            raise CommandError(f"not qualified: {error}") from None
        self.stdout.write(
            f"certified {certificate.capability} (certificate {certificate.pk}): switch it on in "
            "the operator admin, Memory > Flags"
        )

    def _confirmed(self) -> bool:
        if not sys.stdin.isatty():
            return False
        return input("Go on? [y/N] ").strip().lower() in ("y", "yes")

    def _progress(self, arm: str, done: int, total: int) -> None:
        filled = BAR * done // total
        self.stderr.write(
            f"\r{arm:<26} [{'#' * filled}{'.' * (BAR - filled)}] {done}/{total}", ending=""
        )
        self.stderr.flush()
        if done == total:
            self.stderr.write("")
