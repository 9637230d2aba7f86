"""``common`` is the layer every app builds on, ``memory`` the domain that ``providers``,
``formation``, ``reconsolidation`` and ``evaluation`` build on: neither imports what is
built on it. Those apps reach memory's surfaces through its registries (``memory.changes``,
``memory.derived``, recall sources, overview figures, account erasure, review sections)
and the maintenance slot through ``common.schedules``.

The packages are layers, bottom to top: core, accounts, common, memory, providers, formation,
reconsolidation, evaluation, then config and benchmarks; each imports only those below it.
``providers`` serves the apps that ask a model something without knowing them: even its fake
answers their requests through what they register.

No two of the project's packages import each other, even through a third, and none
imports another's private (``_``-prefixed) module or name: what every app needs (errors,
public ids, scopes) is in ``core``, which imports none of them.

A management command is an entry point: it parses its arguments, calls library
code and prints. No module imports one, and no test: a test runs a command through
``call_command`` or calls the library code behind it. What commands share is library
code of its own, except that a command may extend one of Django's commands."""

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings

BASE = Path(settings.BASE_DIR)


def module_name(path, base=BASE):
    """The dotted name of the module in ``path``, a file of the project at ``base``."""
    parts = path.relative_to(base).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def syntax_tree(path):
    return ast.parse(path.read_text(), filename=str(path))


def imports(path, base=BASE, tree=None):
    """``(module, names)`` of each import in ``path``, imports inside functions included and
    relative ones resolved against the module's own package: ``names`` are those a ``from``
    import takes from the module. ``tree`` is the file's, when the caller has parsed it."""
    tree = tree or syntax_tree(path)
    package = module_name(path, base).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module
            if node.level:
                parent = package[: len(package) - node.level + 1]
                module = ".".join([*parent, *([node.module] if node.module else [])])
            yield module, tuple(alias.name for alias in node.names)


def imported_modules(path):
    for module, _ in imports(path):
        yield module


def project_packages(base=BASE):
    """The project's own top-level packages: the apps, ``config`` and ``core``."""
    return sorted(
        path.name
        for path in base.iterdir()
        if (path / "__init__.py").is_file() and path.name != "tests"
    )


def imported_names(path, base=BASE):
    """Every module an import in ``path`` names, and each name a ``from`` import takes from
    one (``from memory.selectors import _ids`` gives ``memory.selectors._ids``)."""
    for module, names in imports(path, base):
        yield module
        yield from (f"{module}.{name}" for name in names)


def cross_package_imports(base=BASE):
    """``(importer, imported, "file: name")`` for every import one package makes of another
    (a lazy import inside a function is still a dependency)."""
    packages = project_packages(base)
    for package in packages:
        for path in sorted((base / package).rglob("*.py")):
            for name in imported_names(path, base):
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


# Bottom to top: each package imports only those below it.
LAYERS = (
    "core",
    "accounts",
    "common",
    "memory",
    "providers",
    "formation",
    "reconsolidation",
    "evaluation",
    "config",
    "benchmarks",
)


def imports_against_the_layers(base=BASE, layers=LAYERS):
    """ "file imports package" for each package not below its own that a file imports, and
    "package is in no layer" for a package the layers leave out."""
    yield from (f"{name} is in no layer" for name in project_packages(base) if name not in layers)
    # A package in no layer counts as the top one: nothing may import it.
    unplaced = len(layers)
    rank = {
        name: layers.index(name) if name in layers else unplaced for name in project_packages(base)
    }
    found = (
        f"{place.split(': ')[0]} imports {imported}"
        for importer, imported, place in cross_package_imports(base)
        if rank[imported] > rank[importer]
    )
    yield from dict.fromkeys(found)


def test_each_package_imports_only_the_layers_below_it():
    assert list(imports_against_the_layers()) == []


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


def is_command_module(name):
    """Whether ``name`` is a management command module, or the package that holds them."""
    parts = name.split(".")
    return any(parts[at : at + 2] == ["management", "commands"] for at in range(len(parts) - 1))


DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def dotted_strings(tree):
    """Strings in ``tree`` that are a dotted name and nothing else: a patch target such as
    ``monkeypatch.setattr("app.module.name", ...)`` imports the module it names."""
    strings = (
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )
    yield from (string for string in strings if DOTTED_NAME.fullmatch(string))


def named_modules(path, base=BASE):
    """For each import in ``path``, the module and the names it takes from it; for each
    dotted string, that name alone."""
    tree = syntax_tree(path)
    for module, names in imports(path, base, tree):
        yield [module, *(f"{module}.{name}" for name in names)]
    for name in dotted_strings(tree):
        yield [name]


def command_imports(base=BASE):
    """ "file: module" of every import of a management command module by a module or a test
    of the project at ``base``, a patch target naming one included, but for a command
    importing one of Django's (or another library's) to extend it."""
    packages = project_packages(base)
    for directory in (*packages, "tests"):
        for path in sorted((base / directory).rglob("*.py")):
            in_a_command = is_command_module(module_name(path, base))
            for named in named_modules(path, base):
                command = next((name for name in named if is_command_module(name)), None)
                if command is None or (in_a_command and command.split(".")[0] not in packages):
                    continue
                yield f"{path.relative_to(base)}: {command}"


def test_no_module_imports_a_management_command():
    assert list(command_imports()) == []


# A project of one app whose command and library module import correctly; each case below
# adds one module to it.
TINY_PROJECT = {
    "app/__init__.py": "",
    "app/services.py": "def shared():\n    return 1\n",
    "app/management/__init__.py": "",
    "app/management/commands/__init__.py": "",
    "app/management/commands/tool.py": "from app.services import shared\n",
    "app/reports/__init__.py": "",
    "tests/__init__.py": "",
}


def tiny_project(tmp_path, path, source, files=TINY_PROJECT):
    for relative, text in {**files, path: source}.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("app/library.py", "from app.management.commands.tool import shared\n"),
        ("app/library.py", "import app.management.commands.tool\n"),
        ("app/library.py", "from app.management import commands\n"),
        ("app/library.py", "from .management.commands.tool import shared\n"),
        ("app/reports/figures.py", "from ..management.commands.tool import shared\n"),
        ("app/library.py", "def later():\n    from app.management.commands import tool\n"),
        ("app/library.py", "from django.core.management.commands.migrate import Command\n"),
        ("app/management/commands/other.py", "from app.management.commands.tool import shared\n"),
        ("app/management/commands/other.py", "from .tool import shared\n"),
        ("tests/test_tool.py", "from app.management.commands.tool import shared\n"),
        ("tests/app/test_tool.py", "from app.management.commands import tool\n"),
        (
            "tests/test_tool.py",
            "def test_it(monkeypatch):\n"
            '    monkeypatch.setattr("app.management.commands.tool.shared", int)\n',
        ),
    ],
)
def test_the_check_flags_an_import_of_a_command(tmp_path, path, source):
    found = list(command_imports(tiny_project(tmp_path, path, source)))

    assert [place.split(": ")[0] for place in found] == [path]


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("app/library.py", "from app.services import shared\n"),
        ("app/library.py", "from .services import shared\n"),
        ("app/library.py", "from django.core.management import call_command\n"),
        ("app/management/commands/other.py", "from app.services import shared\n"),
        (
            "app/management/commands/migrate.py",
            "from django.core.management.commands import migrate\n",
        ),
    ],
)
def test_the_check_passes_a_command_that_calls_library_code(tmp_path, path, source):
    assert list(command_imports(tiny_project(tmp_path, path, source))) == []


@pytest.mark.parametrize(
    "source",
    [
        "from django.core.management import call_command\n"
        "def test_it():\n"
        '    call_command("tool")\n',
        "from app.services import shared\n",
        'def test_it(monkeypatch):\n    monkeypatch.setattr("app.services.shared", int)\n',
    ],
)
def test_the_check_passes_a_test_that_runs_a_command_by_its_name_or_calls_library_code(
    tmp_path, source
):
    assert list(command_imports(tiny_project(tmp_path, "tests/test_tool.py", source))) == []


# Six layers, each importing the one below it; each case below adds one module.
LAYERED_PROJECT = {
    "core/__init__.py": "",
    "memory/__init__.py": "from core import errors\n",
    "providers/__init__.py": "",
    "providers/client.py": "from memory import enums\n",
    "formation/__init__.py": "",
    "formation/hybrid.py": "from providers.client import complete\n",
    "reconsolidation/__init__.py": "from formation import subjects\n",
    "evaluation/__init__.py": "import reconsolidation\n",
}
TINY_LAYERS = ("core", "memory", "providers", "formation", "reconsolidation", "evaluation")


def layered_project(tmp_path, path, source):
    return tiny_project(tmp_path, path, source, files=LAYERED_PROJECT)


@pytest.mark.parametrize(
    ("path", "source", "found"),
    [
        ("providers/fake.py", "from formation.hybrid import PROPOSALS\n", "formation"),
        (
            "providers/fake.py",
            "def answer():\n    import reconsolidation.assisted\n",
            "reconsolidation",
        ),
        ("providers/__init__.py", "from evaluation import arms\n", "evaluation"),
        ("memory/services.py", "from providers import client\n", "providers"),
        ("core/__init__.py", "import memory\n", "memory"),
        ("app/__init__.py", "", None),
    ],
)
def test_the_check_flags_an_import_of_a_higher_layer_and_a_package_in_none(
    tmp_path, path, source, found
):
    project = layered_project(tmp_path, path, source)

    offending = list(imports_against_the_layers(project, TINY_LAYERS))

    assert offending == [f"{path} imports {found}" if found else "app is in no layer"]


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("providers/fake.py", "from memory import enums\nimport core\n"),
        ("reconsolidation/assisted.py", "from providers.client import complete\n"),
        ("formation/fake_answers.py", "from providers.fake import register\n"),
    ],
)
def test_the_check_passes_imports_of_lower_layers(tmp_path, path, source):
    project = layered_project(tmp_path, path, source)

    assert list(imports_against_the_layers(project, TINY_LAYERS)) == []
