"""A policy's code digest covers every project module its entry points import and every
module the project's apps wire in when they start: checked against the standard library's own
import finder, which shares no code with ours, and against the files whose code actually runs
when a capability works, which needs no import analysis at all."""

import json
import subprocess
import sys
from modulefinder import ModuleFinder
from pathlib import Path

import pytest
from django.conf import settings

from evaluation import provenance
from evaluation.code_closure import app_modules, import_closure, project_packages


def found_by_modulefinder(entries, tmp_path):
    script = tmp_path / "entries.py"
    script.write_text("".join(f"import {entry}\n" for entry in entries))
    # Only the project on the path: Django and the standard library are not followed.
    finder = ModuleFinder(path=[str(Path(settings.BASE_DIR))])
    finder.run_script(str(script))
    return {name for name in finder.modules if name.split(".")[0] in project_packages()}


@pytest.mark.parametrize("part", sorted(provenance.POLICY_ENTRIES))
def test_the_closure_holds_every_module_the_entries_and_the_apps_import(part, tmp_path):
    entries = provenance.POLICY_ENTRIES[part]
    # What the apps register when Django starts runs inside any capability, though the
    # entries never import it: the apps modules are started from as well.
    found = found_by_modulefinder([*entries, *sorted(app_modules())], tmp_path)

    assert set(entries) | app_modules() <= found  # the finder did follow the project
    assert found - import_closure(entries) == set()


def test_every_installed_project_app_wires_through_its_apps_module():
    assert app_modules() >= {
        "formation.apps",
        "memory.apps",
        "providers.apps",
        "reconsolidation.apps",
    }


def test_a_hook_another_app_registers_is_in_the_digest(monkeypatch, tmp_path, forget_digests):
    # reconsolidation hooks its invalidation into memory's erasure; formation never imports
    # it, and yet it runs when an owner deletes a memory formation made.
    assert "reconsolidation/services/invalidation.py" in provenance.code_files(
        ["formation_provider"]
    )
    base = Path(settings.BASE_DIR)
    hook = base / "reconsolidation/services/invalidation.py"
    before = provenance.code_digest(["formation_provider"])
    changed = hook.read_bytes() + b"\n# changed\n"
    real_read_bytes = Path.read_bytes
    monkeypatch.setattr(
        Path, "read_bytes", lambda path: changed if path == hook else real_read_bytes(path)
    )
    forget_digests()

    assert provenance.code_digest(["formation_provider"]) != before


CAPABILITY_RAN = {
    "formation_provider": {"formation/hybrid.py"},
    "reconsolidation_provider": {"reconsolidation/assisted/execution.py"},
}


@pytest.mark.parametrize("part", sorted(CAPABILITY_RAN))
def test_every_project_file_that_runs_when_the_capability_works_is_in_its_digest(part, tmp_path):
    # In a fresh process, so that what runs is recorded without this suite's fixtures and
    # patches, and against its own SQLite database (tests/evaluation/executed_files.py).
    base = Path(settings.BASE_DIR)
    done = subprocess.run(
        [sys.executable, "-m", "tests.evaluation.executed_files", part, str(tmp_path)],
        cwd=base,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    executed = {name for name in json.loads(done.stdout) if (base / name).is_file()}

    # The run did reach the provider and the deletion, and what apps hooked into it.
    assert {*CAPABILITY_RAN[part], "providers/client.py", "memory/services/erasure.py"} <= executed
    assert executed - set(provenance.code_files([part])) == set()


@pytest.mark.parametrize("part", ["reconsolidation", "reconsolidation_provider"])
def test_the_code_that_decides_merges_and_recall_is_in_the_reconsolidation_digest(part):
    files = provenance.code_files([part])

    for relative in (
        "memory/text.py",
        "memory/search/__init__.py",
        "memory/selectors/recall.py",
        "reconsolidation/models.py",
        "reconsolidation/selectors/dependents.py",
        "reconsolidation/planning.py",
    ):
        assert relative in files


def test_a_change_to_an_imported_module_changes_the_digest(monkeypatch, tmp_path, forget_digests):
    base = Path(settings.BASE_DIR)
    before = provenance.code_digest(["reconsolidation"])
    original = (base / "memory/text.py").read_bytes()
    changed = tmp_path / "text.py"
    changed.write_bytes(original + b"\n# changed\n")
    real_read_bytes = Path.read_bytes

    def read_bytes(path):
        if path == base / "memory/text.py":
            return real_read_bytes(changed)
        return real_read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    forget_digests()

    assert provenance.code_digest(["reconsolidation"]) != before


def test_modules_outside_the_project_are_not_followed():
    closure = import_closure(["memory.selectors.recall"])

    assert all(name.split(".")[0] in project_packages() for name in closure)


def test_a_process_reads_the_code_once(monkeypatch, forget_digests):
    provenance.code_digests_read()
    reads = []
    real_read_bytes = Path.read_bytes

    def read_bytes(path):
        reads.append(path)
        return real_read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)

    provenance.code_digest(["formation_provider"])
    provenance.code_digest(["reconsolidation"])
    assert reads == []
