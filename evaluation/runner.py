"""The multi-arm evaluation: each arm in its own process against its own fresh database.

A fresh database per arm keeps arms from seeing each other's memories, and a
separate process lets each arm's Django connect to it. On SQLite the databases
are files under ``DIR/work``; on PostgreSQL they are created beside the
configured database (``<name>_eval_<arm>``), which needs the CREATEDB right,
and dropped afterwards.
"""

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.db import connection

from formation.services import MAX_CONSUMED

from .arms import ARMS
from .locomo import Dataset
from .paraphrase import PARAPHRASE, ParaphraseSet, paraphrase_metrics
from .provenance import POLICY_ENTRIES, code_digest, policy_versions
from .results import Labels, arm_metrics, case_records, labels_of


class EvaluationError(RuntimeError):
    pass


def _sqlite_database(arm: str, work: Path) -> tuple[str, Callable[[], None]]:
    path = work / f"{arm}.sqlite3"
    path.unlink(missing_ok=True)
    return f"sqlite:///{path}", lambda: None


def _postgres_database(arm: str) -> tuple[str, Callable[[], None]]:
    params = connection.settings_dict
    name = f"{params['NAME']}_eval_{arm}"[:63]
    quoted = connection.ops.quote_name(name)

    def drop() -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {quoted}")

    drop()
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE {quoted}")
    credentials = quote(params.get("USER") or "")
    if params.get("PASSWORD"):
        credentials += ":" + quote(params["PASSWORD"])
    host = params.get("HOST") or "127.0.0.1"
    port = params.get("PORT") or 5432
    return f"postgres://{credentials}@{host}:{port}/{name}", drop


def fresh_database(arm: str, work: Path) -> tuple[str, Callable[[], None]]:
    """A URL of a new, empty database for ``arm`` and a function that removes it."""
    if connection.vendor == "sqlite":
        return _sqlite_database(arm, work)
    if connection.vendor == "postgresql":
        return _postgres_database(arm)
    raise EvaluationError(f"evaluation does not support {connection.vendor}")


def _run_arm_process(
    arm: str,
    path: str | Path | None,
    k: int,
    url: str,
    out: Path,
    paraphrase: str | Path | None = None,
) -> dict[str, Any]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": url,
        "SECRET_KEY": settings.SECRET_KEY,
    }
    completed = subprocess.run(
        [
            sys.executable,
            str(Path(settings.BASE_DIR) / "manage.py"),
            "evaluate_arm",
            *([str(path)] if path is not None else []),
            "--arm",
            arm,
            "--k",
            str(k),
            "--out",
            str(out),
            *(["--paraphrase", str(paraphrase)] if paraphrase is not None else []),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise EvaluationError(
            f"arm {arm} failed (exit {completed.returncode}):\n{completed.stderr[-4000:]}"
        )
    record: dict[str, Any] = json.loads(Path(out).read_text(encoding="utf-8"))
    return record


def evaluate(
    dataset: Dataset | None,
    path: str | Path | None,
    *,
    arms: Sequence[str],
    k: int,
    out_dir: str | Path,
    keep_databases: bool = False,
    progress: Callable[[str], None] | None = None,
    paraphrase: ParaphraseSet | None = None,
    paraphrase_path: str | Path = PARAPHRASE,
) -> dict[str, Any]:
    """Run ``arms`` over ``dataset`` (read from ``path``) and the ``paraphrase`` set (read
    from ``paraphrase_path``), either of which may be left out; write and return
    ``results.json``. The paraphrase set's figures are kept apart from the conversations'
    cases (``results["paraphrase"]`` and each arm's ``paraphrase``)."""
    unknown = [arm for arm in arms if arm not in ARMS]
    if unknown:
        raise EvaluationError(f"unknown arms: {', '.join(unknown)} (known: {', '.join(ARMS)})")
    out_dir = Path(out_dir)
    work = out_dir / "work"
    work.mkdir(parents=True, exist_ok=True)
    if dataset is None and paraphrase is None:
        raise EvaluationError("nothing to evaluate: give a dataset, the paraphrase set, or both")
    labels: Labels = (
        labels_of(dataset)
        if dataset is not None
        else {"questions": [], "known_turns": [], "facts": []}
    )
    results: dict[str, Any] = {
        "meta": {
            "policy_versions": policy_versions(),
            "code_digest": code_digest(),
            "code_digests": {part: code_digest([part]) for part in POLICY_ENTRIES},
            "dataset_digest": dataset.digest if dataset is not None else "",
            "dataset": Path(path).name if path is not None else "",
            "embeddings": settings.REVERIE_EMBEDDINGS["mode"],
            "database": None,
            "settings": {
                "k": k,
                "recall_budget_chars": settings.REVERIE_LIMITS["recall_default_budget_chars"],
                "formation_max_consumed": MAX_CONSUMED,
            },
            "quirks": dict(sorted(dataset.quirks.items())) if dataset is not None else {},
            "seconds": {},
        },
        "labels": labels,
        "arms": {},
        "observed": {},
        "cases": [],
    }
    if paraphrase is not None:
        results["paraphrase"] = {"digest": paraphrase.digest, "arms": {}}
    for arm in arms:
        if progress:
            progress(f"arm {arm}: {ARMS[arm].description}")
        started = time.perf_counter()
        url, drop = fresh_database(arm, work)
        try:
            record = _run_arm_process(
                arm,
                path if dataset is not None else None,
                k,
                url,
                work / f"{arm}.json",
                paraphrase_path if paraphrase is not None else None,
            )
        finally:
            if not keep_databases:
                drop()
        results["meta"]["database"] = record["database"]
        # As the arm's own process had it (its settings come from the environment).
        results["meta"]["embeddings"] = record["embeddings"]
        results["meta"]["seconds"][arm] = round(time.perf_counter() - started, 1)
        if paraphrase is not None:
            results["paraphrase"]["arms"][arm] = paraphrase_metrics(
                paraphrase, record["paraphrase"]
            )
        if dataset is None:
            continue
        cases = case_records(arm, labels, record)
        observed = {"beliefs": record["beliefs"], "turn_texts": record["turn_texts"]}
        results["cases"].extend(cases)
        results["observed"][arm] = observed
        results["arms"][arm] = {
            "description": ARMS[arm].description,
            "consolidations": record["consolidations"],
            "reconsolidation": record.get("reconsolidation"),
            **arm_metrics(labels, cases, observed, forms=ARMS[arm].forms),
        }
    (out_dir / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    return results
