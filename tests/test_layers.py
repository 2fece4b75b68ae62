"""The layers: the store is the only code that speaks SQL (DESIGN.md); an import inside a
function is there for start-up time, and says so.

Every module of ``src/shinpan`` outside ``store/`` is read with ``ast``: none may import
SQLAlchemy, Alembic or a database driver, nor the tables (``shinpan.store.schema``). Services
name the transaction's type from :mod:`shinpan.store.connection` and ask the store's typed
reads for what they need.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, get_args, get_origin, get_type_hints

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "shinpan"
DATABASE_MODULES = ("sqlalchemy", "alembic", "sqlite3", "psycopg", "psycopg2")
TABLES = "shinpan.store.schema"


def _imported(tree: ast.Module, module: str) -> set[str]:
    """Every module a file imports, by full name (``from a import b`` gives a and a.b)."""
    package = module.rsplit(".", 1)[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the file's package up
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _speaks_sql(imported: set[str]) -> set[str]:
    """What of the database a file imports: its libraries (by top name) and the tables."""
    found = {name.split(".")[0] for name in imported} & set(DATABASE_MODULES)
    if any(name == TABLES or name.startswith(TABLES + ".") for name in imported):
        found.add(TABLES)
    return found


@cache
def _outside_store() -> dict[str, set[str]]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("store/"):
            continue
        module = "shinpan." + relative.removesuffix(".py").replace("/", ".")
        out[relative] = _speaks_sql(_imported(ast.parse(path.read_text(encoding="utf-8")), module))
    return out


def test_only_the_store_speaks_sql() -> None:
    found = _outside_store()
    assert len(found) > 50  # the walk found the package
    speaking = {f: sorted(what) for f, what in found.items() if what}
    assert speaking == {}, "outside store/: ask a typed read of shinpan.store instead"


@pytest.mark.parametrize("package", ["store", "services", "files", "views"])
def test_a_package_names_every_module_in_its_all(package: str) -> None:
    """``shinpan.store``, ``shinpan.services``, ``shinpan.files`` and ``shinpan.views`` say what they hold; the
    Alembic migrations are scripts, not a module to import."""
    folder = PACKAGE / package
    tree = ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))
    (listed,) = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets)
    ]
    modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    modules |= {p.parent.name for p in folder.glob("*/__init__.py")} - {"migrations"}
    assert sorted(listed) == sorted(modules)


def test_the_walk_sees_every_way_of_importing() -> None:
    code = (
        "import sqlalchemy.exc\n"
        "from shinpan.store import schema\n"
        "from ..store.schema import rulings\n"
        "from shinpan.store.rulings import causes\n"
        "import json\n"
    )
    imported = _imported(ast.parse(code), "shinpan.services.example")
    assert _speaks_sql(imported) == {"sqlalchemy", TABLES}
    assert "shinpan.store.schema.rulings" in imported
    assert _speaks_sql(_imported(ast.parse("from shinpan.store.rulings import causes"), "shinpan.x")) == set()


def test_a_request_is_matched_against_the_apps_own_routes_the_json_api_first(tmp_path: Path) -> None:
    """FastAPI matches a request against an included router by walking its routes twice:
    every route sits on the app's own router, the JSON API (searches, records, live
    streams: the requests a big event sends most) before the pages."""
    from fastapi.routing import APIRoute
    from starlette.routing import Mount, Route

    from shinpan.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'routes.sqlite3'}")
    assert all(type(r) in (APIRoute, Route, Mount) for r in app.router.routes), "no router included"
    paths = [getattr(r, "path", "") for r in app.router.routes]
    search = paths.index("/api/events/{event_id}/players")
    assert search < paths.index("/events/{event_id}/desk") and search < paths.index("/login")
    assert len(app.openapi()["paths"]) >= 30, "the API is documented as before"


# -- what the services hand out is named (issue 24 item 3) -------------------------------------

SERVICES = PACKAGE / "services"
FILES = PACKAGE / "files"


def _service_modules() -> list[Path]:
    """The services' modules and the event file's, which hand out what the services do."""
    return sorted([*SERVICES.glob("*.py"), *FILES.glob("*.py")])


def _loose_returns(tree: ast.Module) -> list[str]:
    """Every function of a module (methods and functions inside functions too) annotated to
    return ``dict[str, Any]``, alone or inside another type (a list of them, ``| None``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            returns = ast.unparse(node.returns).replace(" ", "")
            if any(loose in returns for loose in ("dict[str,Any]", "Dict[str,Any]")):
                found.append(f"{node.name} (line {node.lineno}) -> {ast.unparse(node.returns)}")
    return found


def _is_loose(hint: object) -> bool:
    """Whether a resolved type is, or holds, ``dict[str, Any]`` (an alias of it too)."""
    if get_origin(hint) is dict and get_args(hint) == (str, Any):
        return True
    return any(_is_loose(arg) for arg in get_args(hint))


def test_no_service_returns_a_loose_dict() -> None:
    """A service hands out a named shape (a TypedDict, a frozen dataclass), never a
    ``dict[str, Any]`` whose keys the type checker cannot see."""
    modules = _service_modules()
    assert len(modules) > 25  # the walk found the package
    loose = {
        p.name: found for p in modules if (found := _loose_returns(ast.parse(p.read_text(encoding="utf-8"))))
    }
    assert loose == {}, "name the shape: a TypedDict or a frozen dataclass with as_json()"


def test_no_service_returns_a_loose_dict_under_another_name() -> None:
    """The same, read from the loaded functions: an alias of ``dict[str, Any]`` is caught too."""
    checked, loose = 0, []
    for path in _service_modules():
        module = importlib.import_module(f"shinpan.{path.parent.name}.{path.stem}")
        for function in _functions_of(module):
            try:
                hints = get_type_hints(function)
            except NameError:  # a name imported only for the type checker: the walk above reads it
                continue
            checked += 1
            if "return" in hints and _is_loose(hints["return"]):
                loose.append(f"{module.__name__}.{function.__qualname__}")
    assert checked > 300
    assert loose == []


def _functions_of(module: ModuleType) -> list[Callable[..., object]]:
    """The module's own functions and the methods of its own classes."""
    out: list[Callable[..., object]] = []
    for value in vars(module).values():
        if getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(value):
            out.append(value)
        elif inspect.isclass(value):
            out += [v for v in vars(value).values() if inspect.isfunction(v)]
    return out


def test_the_check_sees_a_loose_dict_wherever_it_is_written() -> None:
    code = (
        "def a() -> dict[str, Any]: ...\n"
        "def b() -> list[dict[str, Any]] | None: ...\n"
        "class C:\n    def as_json(self) -> dict[str, Any]: ...\n"
        "def d() -> None:\n    def act() -> dict[str,  Any]: ...\n"
        "def e() -> dict[str, int]: ...\n"
    )
    assert [f.split(" ")[0] for f in _loose_returns(ast.parse(code))] == ["a", "b", "as_json", "act"]
    assert _is_loose(list[dict[str, Any]] | None) and not _is_loose(dict[str, int])


def _late_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import inside a function (at any depth)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(tree, False)
    return found


def test_an_import_inside_a_function_is_there_for_start_up_and_says_so() -> None:
    """One way to import late (see :mod:`shinpan.cli`): at the top of the module, or inside
    the function that needs it with ``# start-up`` on the line, for what would slow a
    command's start for nothing."""
    unmarked = []
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in _late_imports(ast.parse("\n".join(lines))):
            span = lines[node.lineno - 1 : node.end_lineno]
            if not any("# start-up" in line for line in span):
                unmarked.append(
                    f"{path.relative_to(PACKAGE)}:{node.lineno}: {lines[node.lineno - 1].strip()}"
                )
    assert unmarked == [], "import at the top, or mark a late import `# start-up`"


def test_the_walk_finds_a_late_import_at_any_depth() -> None:
    code = "import os\ndef f():\n    import re\n    def g():\n        from json import dumps\n"
    assert [n.lineno for n in _late_imports(ast.parse(code))] == [3, 5]


def test_the_core_and_the_services_are_typed_without_exceptions() -> None:
    """mypy strict holds in ``services/``, ``files/``, ``engine/`` and ``tournament/`` with nothing
    silenced: a ``type: ignore`` there would hide the very mix-ups the types exist for."""
    silenced = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for part in ("services", "files", "engine", "tournament")
        for path in sorted((PACKAGE / part).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "type: ignore" in line
    ]
    assert silenced == []


# -- the files in and out (issue 32 item 4) ----------------------------------------------------

FORMATS = ("csvio", "csv_messages", "decklists", "guidelines")  # read below the services
EVENT_FILE = (
    "transfer",
    "reimport",
    "reimport_decks",
    "reimport_rounds",
    "reimport_rulings",
    "seals",
)  # beside the services
CORE = ("engine", "tournament", "guideline", "entries")


def _imports_of(relative: str) -> set[str]:
    path = PACKAGE / relative
    module = "shinpan." + relative.removesuffix(".py").replace("/", ".")
    return _imported(ast.parse(path.read_text(encoding="utf-8")), module)


def _under(imported: set[str], *packages: str) -> list[str]:
    return sorted(name for name in imported if any(name == p or name.startswith(p + ".") for p in packages))


def test_the_files_sit_in_their_layers() -> None:
    """A format is read with the standard library and the core: no store, no services, no
    event file (so a service, and a command's start, use it without loading them). The
    event's file reads the store and runs the services' commands, and is asked by the CLI
    and the web app, never the other way. The core imports no file module; a service
    imports only the formats."""
    assert sorted([*FORMATS, *EVENT_FILE]) == sorted(
        p.stem for p in FILES.glob("*.py") if p.stem != "__init__"
    )
    event_file = tuple(f"shinpan.files.{m}" for m in EVENT_FILE)
    found = {}
    for name in FORMATS:
        wrong = _under(
            _imports_of(f"files/{name}.py"),
            "shinpan.store",
            "shinpan.services",
            "shinpan.web",
            "shinpan.cli",
            "shinpan.reports",
            *event_file,
        )
        if wrong:
            found[f"files/{name}.py"] = wrong
    for name in EVENT_FILE:
        wrong = _under(_imports_of(f"files/{name}.py"), "shinpan.web", "shinpan.cli", "shinpan.reports")
        if wrong:
            found[f"files/{name}.py"] = wrong
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.split("/")[0] in CORE:
            wrong = _under(_imports_of(relative), "shinpan.files")
        elif relative.startswith("services/"):
            wrong = _under(_imports_of(relative), *event_file)
        else:
            continue
        if wrong:
            found[relative] = wrong
    assert found == {}


def test_the_layer_check_sees_an_import_of_the_event_file() -> None:
    imported = _imported(
        ast.parse("from shinpan.files import transfer\nfrom ..files.csvio import decode"),
        "shinpan.services.x",
    )
    assert _under(imported, "shinpan.files.transfer") == ["shinpan.files.transfer"]
    assert _under(imported, "shinpan.files.csvio") == ["shinpan.files.csvio", "shinpan.files.csvio.decode"]


# The house rule is "modules near 500 lines max" (issue 32 item 4): 550 leaves a module room
# to grow a little past 500 before it must be split by topic, and no more.
MAX_MODULE_LINES = 550


def test_no_module_is_longer_than_the_house_allows() -> None:
    """A module past :data:`MAX_MODULE_LINES` is split by topic (as the projector's and the
    import's registries are: one module per topic registering with the same decorator)."""
    sizes = {
        path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert len(sizes) > 200  # the walk found the package
    long = {name: n for name, n in sorted(sizes.items()) if n > MAX_MODULE_LINES}
    assert long == {}, f"split these by topic (at most {MAX_MODULE_LINES} lines a module)"


# -- the ledger's JSON is read once, in the store ---------------------------------------


@cache
def _json_columns() -> frozenset[str]:
    """The names of the store's text columns (the JSON ones among them: a ruling's
    penalties and effects, an entry's body and refs, …) and of an entry's JSON as written."""
    from sqlalchemy import Text

    from shinpan.store.schema import metadata

    columns = {c.name for t in metadata.tables.values() for c in t.columns if isinstance(c.type, Text)}
    return frozenset({*columns, "body_json", "stored"})


def _ledger_json_parsed(tree: ast.Module) -> list[int]:
    """The lines where ``json.loads`` (or a ``loads`` taken from json) parses something named
    as a column of the store (``row.penalties``, ``entry.body_json``, ``body``)."""
    loads = {"json.loads"} | {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "json"
        for alias in node.names
        if alias.name == "loads"
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in loads and node.args:
            names = {n.attr for n in ast.walk(node.args[0]) if isinstance(n, ast.Attribute)}
            names |= {n.id for n in ast.walk(node.args[0]) if isinstance(n, ast.Name)}
            if names & _json_columns():
                found.append(node.lineno)
    return sorted(found)


def test_no_service_parses_the_ledgers_json() -> None:
    """The store reads a column's JSON once into typed values (a ruling's codes as tuples,
    :class:`shinpan.store.feed.RulingRow`; an entry's body, :class:`shinpan.store.entry.Entry`);
    a service takes them as they come."""
    parsed = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in sorted(SERVICES.rglob("*.py"))
        for line in _ledger_json_parsed(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert parsed == [], "ask the store's typed read for the values, parsed once"


def test_the_check_sees_the_ledgers_json_parsed_however_it_is_written() -> None:
    code = (
        "import json\n"
        "from json import loads as parse\n"
        "a = json.loads(row.penalties)\n"
        "b = tuple(json.loads(entry.body_json))\n"
        "c = parse(body)\n"
        "d = json.loads(line)\n"  # a line of a file: not the ledger
        "e = json.dumps(row.effects)\n"
    )
    assert _ledger_json_parsed(ast.parse(code)) == [3, 4, 5]


# -- no import runs upward (issue 32) ---------------------------------------------------------

# The layers from the bottom: the pure core and its values (the guideline, the engine, the
# tournament, the ledger's entries, Japanese text, QR codes); the file formats, read with the
# core alone; the store; the services and the views beside them (a command reads a view where
# it needs what a view shows); the event's file (export, import), which runs the commands;
# the reports; the web app; the CLI, which serves the web app.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("guideline", "engine", "tournament", "entries", "errors", "kana", "romaji", "qr"),
    ("files", *(f"files.{m}" for m in FORMATS)),
    ("store", "ledger_head"),
    ("services", "views"),
    tuple(f"files.{m}" for m in EVENT_FILE),
    ("reports",),
    ("web",),
    ("cli",),
)


def _layer(module: str) -> int | None:
    """The layer of a module of shinpan (its longest listed prefix), or None: not shinpan's."""
    name = module.removeprefix("shinpan.")
    if name == module:
        return None
    found = [
        (len(prefix), n)
        for n, prefixes in enumerate(LAYERS)
        for prefix in prefixes
        if name == prefix or name.startswith(prefix + ".")
    ]
    return max(found)[1] if found else None


def _upward(relative: str, code: str) -> list[str]:
    module = "shinpan." + relative.removesuffix(".py").replace("/", ".")
    own = _layer(module.removesuffix(".__init__"))
    assert own is not None, f"{relative} is in no layer: name its package in LAYERS"
    return sorted(
        name
        for name in _imported(ast.parse(code), module)
        if (layer := _layer(name)) is not None and layer > own
    )


def test_no_import_runs_upward() -> None:
    """Every module imports only its own layer and those below it, at its top or late."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative == "__init__.py":
            continue
        wrong = _upward(relative, path.read_text(encoding="utf-8"))
        if wrong:
            found[relative] = wrong
    assert found == {}


def test_the_check_sees_an_upward_import_even_late() -> None:
    code = "def f():\n    from shinpan.reports.common import local_time  # start-up\n"
    assert _upward("services/closed.py", code) == [
        "shinpan.reports.common",
        "shinpan.reports.common.local_time",
    ]
    assert _upward("files/csvio.py", "from shinpan.store.db import Database") == [
        "shinpan.store.db",
        "shinpan.store.db.Database",
    ]
    assert _upward("files/transfer.py", "from shinpan.services import events") == []
    assert _upward("views/events.py", "from shinpan.services.context import zone_of") == []
