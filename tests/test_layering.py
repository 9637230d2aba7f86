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
code of its own, except that a command may extend one of Django's commands.

An app runs SQL only on its own tables, and names only the URL routes of its own and of
the packages it imports: another app contributes through a registry (a recall source
registers its search, an app the labels of its routes), the way imports go."""

import ast
import functools
import re
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.urls import URLResolver, get_resolver

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


# -- SQL on another app's tables ----------------------------------------------------------

# A name in a string, unless it follows a colon: "review:memory_belief_change" is a route
# name, which the route check below reads, and "%s::bigint" a cast.
NAME = re.compile(r"(?<![\w:])[A-Za-z_]\w*")


def table_owners():
    """{table: package} of every model's table, auto-created many-to-many tables included.

    The owner is the package of the app the model belongs to (``_meta.app_label``), not a
    prefix of the table's name: a model moved to another app keeps its table."""
    packages = {config.label: config.name.split(".")[0] for config in apps.get_app_configs()}
    return {
        model._meta.db_table: packages[model._meta.app_label]
        for model in apps.get_models(include_auto_created=True)
    }


def table_named(name, owners):
    """The table ``name`` is, or is derived from (``<table>_fts``, its FTS5 index): the
    longest such table of ``owners``, or None."""
    tables = [table for table in owners if name == table or name.startswith(f"{table}_")]
    return max(tables, key=len, default=None)


def string_literals(tree):
    """``(line, text)`` of each string literal in ``tree`` (each literal part of an f-string)
    but docstrings and other bare strings, which are prose like comments."""
    prose = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            yield node.lineno, node.value


def may_name_any_table(path, base=BASE):
    """Whether the code in ``path`` may name the tables of any app.

    Migrations and migration operations (``migration_operations.py``, wherever it lives)
    are schema code: they build another app's search statistics, row security or
    triggers by the table names their migrations give them, and a migration is frozen
    history that keeps naming the tables as they were. The benchmarks are a development
    tool outside the production apps: they vacuum, measure and clear the tables they load,
    as an operator would."""
    parts = path.relative_to(base).parts
    return (
        "migrations" in parts or path.name == "migration_operations.py" or parts[0] == "benchmarks"
    )


def sql_on_other_apps_tables(owners, base=BASE):
    """ "file:line: table" of each string in a package's code that names a table of another
    app (by ``owners``, {table: package}), or one derived from it.

    Any string counts, not only a whole statement: a table's name may be written in one
    place and put into SQL in another (a ``memory.search.Collection``, say)."""
    for package in project_packages(base):
        for path in sorted((base / package).rglob("*.py")):
            if may_name_any_table(path, base):
                continue
            for line, text in string_literals(ast.parse(path.read_text(), filename=str(path))):
                for name in NAME.findall(text):
                    table = table_named(name, owners)
                    if table is not None and owners[table] != package:
                        yield f"{path.relative_to(base)}:{line}: {name}"


def test_no_app_runs_sql_on_the_tables_of_another():
    assert list(sql_on_other_apps_tables(table_owners())) == []


# Two apps, billing built on shop, and a base below them.
TINY_APPS = {
    "core/__init__.py": "",
    "shop/__init__.py": "",
    "shop/models.py": "",
    "billing/__init__.py": "",
    "billing/services.py": "from shop.models import Order\n",
    "billing/migrations/__init__.py": "",
}
# billing_archive is a table shop took over: it kept its name.
TINY_TABLES = {
    "shop_order": "shop",
    "shop_order_lines": "shop",
    "billing_invoice": "billing",
    "billing_archive": "shop",
}


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("billing/selectors.py", 'SQL = "SELECT id FROM shop_order WHERE owner_id = %s"\n'),
        (
            "billing/selectors.py",
            'def purge(ids):\n    return f"DELETE FROM shop_order_lines WHERE id IN ({ids})"\n',
        ),
        ("billing/search.py", 'INDEX = "shop_order_fts"\n'),
        ("billing/search.py", 'TABLES = ("billing_invoice", "shop_order")\n'),
        ("billing/archive.py", 'SQL = "SELECT * FROM billing_archive"\n'),
        ("core/cleanup.py", 'SQL = "VACUUM billing_invoice"\n'),
    ],
)
def test_the_check_flags_sql_on_another_apps_table(tmp_path, path, source):
    project = tiny_project(tmp_path, path, source, TINY_APPS)

    found = list(sql_on_other_apps_tables(TINY_TABLES, project))

    assert [place.split(":")[0] for place in found] == [path]


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("shop/selectors.py", 'SQL = "SELECT id FROM shop_order JOIN shop_order_lines"\n'),
        ("shop/archive.py", 'SQL = "SELECT * FROM billing_archive"\n'),
        ("billing/selectors.py", 'SQL = "SELECT id FROM billing_invoice_fts"\n'),
        ("billing/migrations/0002_backfill.py", 'SQL = "UPDATE shop_order SET paid = true"\n'),
        ("billing/migration_operations.py", 'SQL = "CREATE TRIGGER ON shop_order"\n'),
        ("billing/pages.py", 'def f():\n    """Reads what shop_order holds."""\n'),
        ("billing/pages.py", 'ROUTE = "admin:shop_order_change"\n'),
    ],
)
def test_the_check_passes_sql_on_the_apps_own_tables(tmp_path, path, source):
    project = tiny_project(tmp_path, path, source, TINY_APPS)

    assert list(sql_on_other_apps_tables(TINY_TABLES, project)) == []


# -- route names --------------------------------------------------------------------------

# Functions whose first argument is a route name, and ``{% url "name" %}`` in a template.
ROUTE_FUNCTIONS = ("reverse", "reverse_lazy", "redirect", "resolve_url")
URL_TAG = re.compile(r"""\{%\s*url\s+(['"])(.+?)\1""")
TEMPLATE_USE = re.compile(r"""\{%\s*(?:extends|include)\s+(['"])(.+?)\1""")


def view_package(callback, packages):
    """The package whose code ``callback``, a URL pattern's view, is; None for a library's.

    A model admin's pages are its model's app's, wherever the admin class is written."""
    model_admin = getattr(callback, "model_admin", None)
    if model_admin is not None:
        module = apps.get_app_config(model_admin.model._meta.app_label).name
    else:
        view = callback
        while getattr(view, "view_class", None) is None and (
            isinstance(view, functools.partial) or hasattr(view, "__wrapped__")
        ):
            view = view.func if isinstance(view, functools.partial) else view.__wrapped__
        module = getattr(getattr(view, "view_class", view), "__module__", "")
    return module.split(".")[0] if module.split(".")[0] in packages else None


def route_owners():
    """{route name: package} of every named URL pattern of the project's view code, with its
    namespaces ("review:index"); Django's own views belong to no package."""
    packages = project_packages()

    def walk(resolver, namespaces):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                inner = (*namespaces, *([pattern.namespace] if pattern.namespace else []))
                yield from walk(pattern, inner)
            elif pattern.name and (owner := view_package(pattern.callback, packages)):
                yield ":".join([*namespaces, pattern.name]), owner

    return dict(walk(get_resolver(), ()))


def route_names_in_python(tree, routes):
    """``(line, route name)`` of each route ``tree`` names: "namespace:name" anywhere (an
    argument of ``reverse``, a key of a dict of labels), a name without a namespace as
    the first argument of ``reverse`` or ``redirect``, and ``f"{site.name}:name"``, in
    whichever namespace, as "*:name"."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and ":" in str(node.value) and node.value in routes:
            yield node.lineno, node.value
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) in ROUTE_FUNCTIONS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and ":" not in str(node.args[0].value)
            and node.args[0].value in routes
        ):
            yield node.lineno, node.args[0].value
        elif isinstance(node, ast.JoinedStr) and isinstance(node.values[-1], ast.Constant):
            tail = node.values[-1].value
            if tail.startswith(":") and any(route.endswith(tail) for route in routes):
                yield node.lineno, f"*{tail}"


def template_owners(base, packages):
    """{template file: packages} of every template: an app's own (``<app>/templates/``), or,
    in the project's ``templates/``, those of the packages whose code names it, else of the
    package its path names (``admin/memory/...``), else of the templates that extend or
    include it."""
    names = {}
    for package in packages:
        for path in (base / package / "templates").rglob("*.html"):
            names[path] = (path.relative_to(base / package / "templates").as_posix(), {package})
    sources = {
        package: [path.read_text() for path in (base / package).rglob("*.py")]
        for package in packages
    }
    for path in (base / "templates").rglob("*.html"):
        name = path.relative_to(base / "templates").as_posix()
        named = {
            package
            for package, texts in sources.items()
            if any(f'"{name}"' in text or f"'{name}'" in text for text in texts)
        }
        by_path = [part for part in name.split("/")[:-1] if part in packages][:1]
        names[path] = (name, named or set(by_path))
    uses = {path: {match[1] for match in TEMPLATE_USE.findall(path.read_text())} for path in names}
    changed = True
    while changed:
        changed = False
        for path, (name, owners) in names.items():
            users = set().union(*(names[user][1] for user in names if name in uses[user]))
            if not users <= owners:
                names[path] = (name, owners | users)
                changed = True
    return {path: owners for path, (_, owners) in names.items()}


def foreign_route_names(routes, base=BASE):
    """ "file:line: route" of each route name a package's code or template uses that belongs
    (by ``routes``, {route name: package}) to a package it does not import, directly or
    through others: only routes of the packages below it, as its imports go."""
    packages = project_packages(base)
    edges = {(importer, imported) for importer, imported, _ in cross_package_imports(base)}
    may_name = {package: {package, *reachable(edges, package)} for package in packages}

    def owners(route):
        if route.startswith("*:"):
            return {owner for name, owner in routes.items() if name.endswith(route[1:])}
        return {routes[route]}

    for package in packages:
        for path in sorted((base / package).rglob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            for line, route in route_names_in_python(tree, routes):
                if not owners(route) & may_name[package]:
                    yield f"{path.relative_to(base)}:{line}: {route}"
    for path, users in sorted(template_owners(base, packages).items()):
        for route in (match[1] for match in URL_TAG.findall(path.read_text())):
            if route not in routes:
                continue
            if not users:
                yield f"{path.relative_to(base)}: {route} (no package uses this template)"
            for user in sorted(users):
                if routes[route] not in may_name[user]:
                    yield f"{path.relative_to(base)} ({user}): {route}"


def test_no_app_names_a_route_of_an_app_built_on_it_or_beside_it():
    assert list(foreign_route_names(route_owners())) == []


TINY_ROUTES = {
    "shop:cart": "shop",
    "home": "shop",
    "billing:invoice": "billing",
    "site:billing_invoice_change": "billing",
}


def flagged_places(found):
    return [place.split(":")[0].split(" ")[0] for place in found]


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("shop/views.py", 'from django.urls import reverse\nURL = reverse("billing:invoice")\n'),
        ("shop/access.py", 'LABELS = {"billing:invoice": "read an invoice"}\n'),
        ("shop/views.py", 'def back(s):\n    return reverse(f"{s}:billing_invoice_change")\n'),
        ("core/links.py", 'def go():\n    return redirect("home")\n'),
        ("shop/templates/shop/cart.html", "<a href=\"{% url 'billing:invoice' 7 %}\">Bill</a>\n"),
        ("templates/shop/cart.html", '{% url "billing:invoice" %}\n'),
    ],
)
def test_the_check_flags_a_route_name_of_an_app_built_on_the_one_naming_it(tmp_path, path, source):
    project = tiny_project(tmp_path, path, source, TINY_APPS)

    assert flagged_places(foreign_route_names(TINY_ROUTES, project)) == [path]


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("billing/views.py", 'URL = reverse("shop:cart")\n'),
        ("shop/views.py", 'URL = reverse("shop:cart")\n'),
        ("shop/views.py", 'def go():\n    return redirect("home")\n'),
        ("shop/views.py", 'def back(site):\n    return reverse(f"{site}:cart")\n'),
        ("shop/views.py", 'URL = reverse("admin:index")\n'),
        ("shop/subjects.py", 'SUBJECT = "billing:invoices"\n'),
        ("billing/templates/billing/invoice.html", "{% url 'shop:cart' %}\n"),
        ("templates/billing/invoice.html", "{% url 'billing:invoice' %}\n"),
    ],
)
def test_the_check_passes_route_names_of_the_app_and_of_those_it_builds_on(tmp_path, path, source):
    project = tiny_project(tmp_path, path, source, TINY_APPS)

    assert list(foreign_route_names(TINY_ROUTES, project)) == []
