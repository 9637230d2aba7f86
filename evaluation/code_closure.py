"""The code a capability's decisions depend on: the project modules its entry points import,
and the modules the project's apps wire in when they start.

Computed, not listed by hand: starting from a part's entry modules, every
module of the project they import (directly, through a package's
``__init__``, or as a name imported from a package) is followed in turn, by
reading the source (``ast``), never by importing it. Modules loaded by name at
run time (a configured extractor, say) are named among the entries.

Imports alone miss what apps register into each other when Django starts: an
app's ``AppConfig.ready()`` hooks its handlers into another app's module (a
callback run when memories change, a recall source, a fake provider's answers),
and the module that calls them never imports them. So every closure also starts
from the ``apps`` module of every installed project app: whatever one of them
wires in can run inside any capability.
"""

import ast
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from django.apps import apps
from django.conf import settings


def _base() -> Path:
    return Path(settings.BASE_DIR)


@cache
def project_packages() -> frozenset[str]:
    """The project's packages: its installed apps and ``core``, which they build on. Anything
    else (Django, the standard library, settings) is not ours to digest."""
    base = _base()
    installed = {
        config.name for config in apps.get_app_configs() if Path(config.path).parent == base
    }
    return frozenset({"core", *installed})


def module_file(name: str) -> Path | None:
    """The file of project module ``name``, or None when it is not one."""
    if name.split(".")[0] not in project_packages():
        return None
    path = _base().joinpath(*name.split("."))
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    return None


def _project_file(name: str) -> Path:
    """The file of ``name``, a module known to be the project's."""
    path = module_file(name)
    if path is None:
        raise LookupError(f"{name} is not a module of the project")
    return path


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts) + 1)]


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The module an ``ImportFrom`` node names, resolved against ``module``."""
    if not node.level:
        return node.module or ""
    package = module.split(".")
    if not is_package:
        package = package[:-1]
    if node.level > 1:
        package = package[: len(package) - node.level + 1]
    return ".".join(package + ([node.module] if node.module else []))


@cache
def _imports(name: str, text: str) -> frozenset[str]:
    tree = ast.parse(text)
    is_package = _project_file(name).name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.update(_prefixes(alias.name))
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, name, is_package)
            found.update(_prefixes(base))
            # "from formation import hybrid" imports a module, not a name.
            found.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return frozenset(found)


def project_imports(name: str) -> set[str]:
    """The project modules that module ``name`` imports."""
    text = _project_file(name).read_text(encoding="utf-8")
    return {imported for imported in _imports(name, text) if module_file(imported)}


@cache
def app_modules() -> frozenset[str]:
    """The modules defining the installed project apps' ``AppConfig``s (``memory.apps``, ...)."""
    return frozenset(
        type(config).__module__
        for config in apps.get_app_configs()
        if config.name in project_packages() and module_file(type(config).__module__)
    )


def import_closure(entries: Iterable[str]) -> set[str]:
    """Every project module ``entries`` and the project's app modules import, transitively,
    with those modules themselves."""
    starts = [*entries, *sorted(app_modules())]
    seen: set[str] = set()
    pending = [prefix for entry in starts for prefix in _prefixes(entry) if module_file(prefix)]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        pending.extend(project_imports(name) - seen)
    return seen


def closure_files(entries: Iterable[str]) -> list[str]:
    """The files of ``import_closure(entries)``, relative to the project, sorted."""
    base = _base()
    return sorted(str(_project_file(name).relative_to(base)) for name in import_closure(entries))
