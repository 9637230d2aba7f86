"""``memory`` is the base the other apps build on: it never imports them. They reach its
surfaces through its registries (``memory.changes``, ``memory.derived``, recall sources,
maintenance extensions, review sections).

No two of the project's packages import each other, even through a third, and none
imports another's private (``_``-prefixed) module or name: what every app needs (errors,
public ids, scopes) is in ``core``, which imports none of them."""

import ast
from pathlib import Path

from django.conf import settings

BUILT_ON_MEMORY = ("reconsolidation", "evaluation")


def imports(path):
    """``(module, names)`` of each absolute import in ``path``, imports inside functions
    included: ``names`` are those a ``from`` import takes from the module."""
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, tuple(alias.name for alias in node.names)


def imported_modules(path):
    for module, _ in imports(path):
        yield module


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


def project_packages():
    """The project's own top-level packages: the apps, ``config`` and ``core``."""
    base = Path(settings.BASE_DIR)
    return sorted(
        path.name
        for path in base.iterdir()
        if (path / "__init__.py").is_file() and path.name != "tests"
    )


def imported_names(path):
    """Every module an import in ``path`` names, and each name a ``from`` import takes from
    one (``from memory.selectors import _ids`` gives ``memory.selectors._ids``)."""
    for module, names in imports(path):
        yield module
        yield from (f"{module}.{name}" for name in names)


def cross_package_imports():
    """``(importer, imported, "file: name")`` for every import one package makes of another
    (a lazy import inside a function is still a dependency)."""
    base = Path(settings.BASE_DIR)
    packages = project_packages()
    for package in packages:
        for path in sorted((base / package).rglob("*.py")):
            for name in imported_names(path):
                target = name.split(".")[0]
                if target in packages and target != package:
                    yield package, target, f"{path.relative_to(base)}: {name}"


def reachable(edges, start):
    seen, todo = set(), [start]
    while todo:
        current = todo.pop()
        for importer, imported in edges:
            if importer == current and imported not in seen:
                seen.add(imported)
                todo.append(imported)
    return seen


def test_no_two_packages_import_each_other_even_through_a_third():
    first_place = {}
    for importer, imported, place in cross_package_imports():
        first_place.setdefault((importer, imported), place)
    # An import closes a cycle when the package it imports reaches back to the importer.
    closing = [
        f"{importer} -> {imported} ({place})"
        for (importer, imported), place in first_place.items()
        if importer in reachable(first_place, imported)
    ]

    assert closing == []


def test_no_package_imports_a_private_module_or_name_of_another():
    offending = [
        place
        for _, _, place in cross_package_imports()
        if any(
            part.startswith("_") and not part.startswith("__")
            for part in place.split(": ", 1)[1].split(".")[1:]
        )
    ]

    assert offending == []
