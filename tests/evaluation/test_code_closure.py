"""A policy's code digest covers every project module its entry points import: checked
against the standard library's own import finder, which shares no code with ours."""

from modulefinder import ModuleFinder
from pathlib import Path

import pytest
from django.conf import settings

from evaluation import provenance
from evaluation.code_closure import import_closure, project_packages


def found_by_modulefinder(entries, tmp_path):
    script = tmp_path / "entries.py"
    script.write_text("".join(f"import {entry}\n" for entry in entries))
    # Only the project on the path: Django and the standard library are not followed.
    finder = ModuleFinder(path=[str(Path(settings.BASE_DIR))])
    finder.run_script(str(script))
    return {name for name in finder.modules if name.split(".")[0] in project_packages()}


@pytest.mark.parametrize("part", sorted(provenance.POLICY_ENTRIES))
def test_the_closure_holds_every_module_the_entries_import(part, tmp_path):
    entries = provenance.POLICY_ENTRIES[part]
    found = found_by_modulefinder(entries, tmp_path)

    assert set(entries) <= found  # the finder did follow the project
    assert found - import_closure(entries) == set()


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


def test_a_change_to_an_imported_module_changes_the_digest(monkeypatch, tmp_path):
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

    assert provenance.code_digest(["reconsolidation"]) != before


def test_modules_outside_the_project_are_not_followed():
    closure = import_closure(["memory.selectors.recall"])

    assert all(name.split(".")[0] in project_packages() for name in closure)
