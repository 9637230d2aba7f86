"""``memory`` is the base the other apps build on: it never imports them. They reach its
surfaces through its registries (``memory.changes``, ``memory.derived``, recall sources,
maintenance extensions, review sections)."""

import ast
from pathlib import Path

from django.conf import settings

BUILT_ON_MEMORY = ("reconsolidation", "evaluation")


def imported_modules(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def test_memory_never_imports_the_apps_built_on_it():
    offending = [
        f"{path.relative_to(settings.BASE_DIR)}: {module}"
        for path in sorted((Path(settings.BASE_DIR) / "memory").rglob("*.py"))
        for module in imported_modules(path)
        if module.split(".")[0] in BUILT_ON_MEMORY
    ]

    assert offending == []


PRODUCTION_APPS = ("accounts", "memory", "reconsolidation", "evaluation", "config")


def test_no_production_app_imports_the_benchmarks():
    offending = [
        f"{path.relative_to(settings.BASE_DIR)}: {module}"
        for app in PRODUCTION_APPS
        for path in sorted((Path(settings.BASE_DIR) / app).rglob("*.py"))
        for module in imported_modules(path)
        if module.split(".")[0] == "benchmarks"
    ]

    assert offending == []
