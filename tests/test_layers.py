"""The layers of DESIGN.md, checked on the import graph (grimp, as import-linter uses it).

Data flows one way: the web layer calls services, services call the store and the pure
rules. A failure names the import chain that breaks the rule, first module first. No
module imports another that imports it back, however far round.
"""

from __future__ import annotations

import sys

import grimp
import pytest

# What a module imports directly or through others, function-level imports included.
GRAPH = grimp.build_graph("referee", include_external_packages=True, cache_dir=None)
MODULES = sorted(m for m in GRAPH.modules if m == "referee" or m.startswith("referee."))

WEB_LIBRARIES = {"flask", "flask_babel", "jinja2", "werkzeug", "waitress"}
# Modules named like this belong to the web layer wherever they are (each game's screens
# and API with its body schemas and answers, the hub, the player sheet's passport and feed, the
# underworld record...).
WEB_NAMES = {"web", "api", "schemas", "answers", "view", "passport", "feed", "hub", "record",
             "squads_web", "openapi"}
# The ones that build and run the app (and `python -m referee`): they import the web
# layer to assemble it.
ASSEMBLERS = {"referee.app", "referee.cli", "referee.serving", "referee.__main__"}
# Leaf modules at the top of the package that import nothing of the app: they stand
# with the pure rules, at the bottom (the store's events use notes, the CLI's server qr).
KIT = {"referee", "referee.notes", "referee.errors", "referee.assets", "referee.logs",
       "referee.qr", "referee.catalog"}


def is_rules(module: str) -> bool:
    """The shared pure rules (referee.rules) or a game's (referee.games.<game>.rules)."""
    parts = module.split(".")
    return module == "referee.rules" or module.startswith("referee.rules.") or (
        parts[:2] == ["referee", "games"] and len(parts) >= 4 and parts[3] == "rules")


def imports_flask(module: str, graph: grimp.ImportGraph = GRAPH) -> bool:
    """Whether the module itself imports Flask or Flask-Babel (werkzeug's password
    hashing alone does not make a module part of the web)."""
    return bool(graph.find_modules_directly_imported_by(module) & {"flask", "flask_babel"})


def is_web(module: str, graph: grimp.ImportGraph = GRAPH) -> bool:
    """referee.web.*, referee.api.*, any module with a web name, or one importing Flask."""
    return (module.split(".")[-1] in WEB_NAMES
            or module in ("referee.web", "referee.api")
            or module.startswith(("referee.web.", "referee.api."))
            or imports_flask(module, graph))


WEB = {m for m in MODULES if is_web(m)}
RULES = [m for m in MODULES if is_rules(m)]
# Importing a rules package runs its parents' __init__ too: they must stay as clean.
RULES_PARENTS = sorted({".".join(m.split(".")[:i]) for m in RULES
                        for i in range(1, len(m.split("."))) if not is_rules(
                            ".".join(m.split(".")[:i]))})


def chains(importers, forbidden) -> list[str]:
    """The imports that break the rule, each shown with a chain that leads to it.

    A chain is cut at its first forbidden module: the import into it is the one to
    change. Each such import is listed once, with the longest chain found to reach it.
    """
    forbidden = set(forbidden)
    targets = [t for t in sorted(forbidden) if t in GRAPH.modules]
    found: dict[tuple[str, str], list[str]] = {}
    for importer in importers:
        for target in targets:
            if importer == target or not GRAPH.chain_exists(importer, target):
                continue
            chain = GRAPH.find_shortest_chain(importer, target)
            chain = chain[:next(i for i, m in enumerate(chain) if i and m in forbidden) + 1]
            edge = (chain[-2], chain[-1])
            if len(chain) > len(found.get(edge, ())):
                found[edge] = chain
    return [f"{a} imports {b}:  " + " -> ".join(found[(a, b)]) for a, b in sorted(found)]


def test_the_graph_sees_the_layers():
    # A typo in a module name would make every check below pass vacuously.
    assert "referee.rules.stats" in RULES and "referee.games.duel.rules.model" in RULES
    assert {"referee.games.coup.rules", "referee.games.underworld.rules.engine",
            "referee.games.berserk.rules.strike"} <= set(RULES)
    assert {"referee.web.context", "referee.api.core", "referee.players.web",
            "referee.games.duel.web", "referee.games.hub"} <= WEB
    assert "referee.store.players" in MODULES and "referee.store.players" not in WEB
    assert "flask" in GRAPH.modules and "sqlite3" in GRAPH.modules


RULES_MAY_NOT_IMPORT = (
    WEB_LIBRARIES | {"sqlite3", "sqlite_utils"}
    # Chance comes in as data: the rules never read the clock or draw numbers.
    | {"random", "secrets", "time", "datetime"}
    | {m for m in MODULES if not is_rules(m) and m not in RULES_PARENTS})


def test_the_rules_are_pure():
    """No Flask, SQL, store, web, API, players or game services; no clock or chance."""
    found = chains(RULES + RULES_PARENTS, RULES_MAY_NOT_IMPORT)
    assert not found, "the pure rules import what they must not:\n" + "\n".join(found)


def test_the_store_knows_nothing_of_the_web():
    store = [m for m in MODULES if m == "referee.store" or m.startswith("referee.store.")]
    assert store
    found = chains(store, WEB_LIBRARIES | WEB)
    assert not found, "the store imports the web:\n" + "\n".join(found)


def test_only_the_app_factory_and_the_cli_import_the_web_layer():
    """Services, the store, printing, decks, the demo: none reaches a web module."""
    below = [m for m in MODULES if m not in WEB and m not in ASSEMBLERS
             and m != "referee"]  # the root package imports nothing
    found = chains(below, WEB)
    assert not found, ("modules below the web layer import it (move the shared code "
                       "down into a service):\n" + "\n".join(found))


@pytest.mark.parametrize("module", sorted(ASSEMBLERS))
def test_the_assemblers_exist(module):
    assert module in GRAPH.modules


# --- no circles --------------------------------------------------------------------------

def cycles(graph: grimp.ImportGraph, modules) -> list[frozenset[str]]:
    """The import circles among ``modules``: each set of modules that reach one another
    through direct imports, function-level imports included (Tarjan's strongly
    connected components)."""
    modules = set(modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module) & modules):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = {stack.pop()}
            while module not in component:
                component.add(stack.pop())
            if len(component) > 1 or module in graph.find_modules_directly_imported_by(module):
                found.append(frozenset(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * len(modules) + 100))
    try:
        for module in sorted(modules):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return found


def describe(graph: grimp.ImportGraph, cycle: frozenset[str]) -> str:
    """A circle as one chain of imports back to where it started."""
    first = min(cycle)
    back = min((graph.find_shortest_chain(m, first) or (m, first)
                for m in graph.find_modules_directly_imported_by(first) & cycle), key=len)
    return " -> ".join((first, *back))


def test_no_module_imports_one_that_imports_it_back():
    """DESIGN.md: "one module imports another that imports it back" is never done."""
    found = cycles(GRAPH, MODULES)
    assert not found, "import circles (break each: move what both need into a module " \
        "below them):\n" + "\n".join(describe(GRAPH, c) for c in found)


def _graph_of(imports: dict[str, tuple[str, ...]]) -> grimp.ImportGraph:
    graph = grimp.ImportGraph()
    for module, imported in imports.items():
        graph.add_module(module)
        for other in imported:
            graph.add_import(importer=module, imported=other)
    return graph


def test_a_circle_put_in_on_purpose_is_found():
    """The store's old circle (db -> ledger -> events -> fold -> db) and a module that
    imports itself, on a graph made for the test: both are reported, the rest is not."""
    graph = _graph_of({
        "referee.store.db": ("referee.store.ledger", "referee.store.sql"),
        "referee.store.ledger": ("referee.store.events", "referee.store.sql"),
        "referee.store.events": ("referee.store.fold",),
        "referee.store.fold": ("referee.store.db",),
        "referee.store.sql": (),
        "referee.qr": ("referee.qr",),
    })
    assert set(cycles(graph, graph.modules)) == {
        frozenset({"referee.store.db", "referee.store.ledger", "referee.store.events",
                   "referee.store.fold"}), frozenset({"referee.qr"})}
    assert describe(graph, frozenset({"referee.store.db", "referee.store.ledger",
                                      "referee.store.events", "referee.store.fold"})) == (
        "referee.store.db -> referee.store.ledger -> referee.store.events -> "
        "referee.store.fold -> referee.store.db")


def test_a_circle_through_an_import_inside_a_function_is_found(tmp_path, monkeypatch):
    """grimp reads imports made inside functions too: a circle closed by one counts."""
    package = tmp_path / "loop_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def later():\n    from loop_pkg import b\n    return b\n")
    (package / "b.py").write_text("import loop_pkg.a\n")
    (package / "c.py").write_text("import loop_pkg.b\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("loop_pkg", cache_dir=None)
    assert cycles(graph, graph.modules) == [frozenset({"loop_pkg.a", "loop_pkg.b"})]


# --- the layers, bottom to top -----------------------------------------------------------

LAYERS = ("the pure rules", "the store", "the games and the other services", "the web",
          "the app")


def layer_of(module: str, graph: grimp.ImportGraph = GRAPH) -> int:
    """Where a module stands, from the package layout (DESIGN.md, "Layers"): the pure
    rules (referee.rules, each game's rules/, and the leaf kit beside them), the store
    (referee.store), the games and the other services (games/, players/, accounts/,
    decks/, printing/, stations/, https/ below their screens), the web (referee.web,
    referee.api and every screen, API or Flask module), and the app that assembles it
    all (the app factory, the CLI and the server)."""
    if module in ASSEMBLERS:
        return 4
    if module in KIT or is_rules(module) or module in RULES_PARENTS \
            or is_declaration(module):
        return 0
    if module == "referee.store" or module.startswith("referee.store."):
        return 1
    if is_web(module, graph):
        return 3
    return 2


def is_declaration(module: str) -> bool:
    """What a game declares of itself, pure like its rules: its kind (``game``), its
    manifest, the interface they follow and the one list of manifests (the registry).
    The store reads its replicated tables there."""
    parts = module.split(".")
    return module in {"referee.games.interface", "referee.games.manifest",
                      "referee.games.registry"} or (
        len(parts) == 4 and parts[:2] == ["referee", "games"]
        and parts[3] in ("game", "manifest"))


def upward_imports(graph: grimp.ImportGraph, modules) -> list[str]:
    """Each import of a module by one in a layer below it."""
    modules = set(modules)
    return [f"{module} ({LAYERS[layer_of(module, graph)]}) imports {imported} "
            f"({LAYERS[layer_of(imported, graph)]})"
            for module in sorted(modules)
            for imported in sorted(graph.find_modules_directly_imported_by(module) & modules)
            if layer_of(imported, graph) > layer_of(module, graph)]


def test_the_layers_stand_in_order():
    """The pure rules, the store, the games, the web and the app, in that order: no
    module names a module of a layer above its own."""
    found = upward_imports(GRAPH, MODULES)
    assert not found, "modules import a layer above their own:\n" + "\n".join(found)


def test_the_layers_are_read_from_the_layout():
    assert [layer_of(m) for m in ("referee.rules.stats", "referee.games.duel.rules.model",
                                  "referee.notes", "referee.qr", "referee.store.sql",
                                  "referee.store.merge", "referee.games.service",
                                  "referee.players.service", "referee.stations.runtime",
                                  "referee.printing.passports", "referee.games.duel.web",
                                  "referee.api.stations", "referee.stations.current",
                                  "referee.app", "referee.serving")] == [
        0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4]
    assert {layer_of(m) for m in MODULES} == {0, 1, 2, 3, 4}


def test_an_import_up_the_layers_put_in_on_purpose_is_found():
    graph = _graph_of({
        "referee.rules.stats": (),
        "referee.store.fold": ("referee.rules.stats", "referee.games.service"),
        "referee.games.service": ("referee.store.fold",),
        "referee.app": ("referee.games.service",),
    })
    assert upward_imports(graph, graph.modules) == [
        "referee.store.fold (the store) imports referee.games.service (the games and the "
        "other services)"]


def test_one_module_makes_the_qr_codes():
    """Passports, pages and the terminal all get their QR codes from referee.qr."""
    assert sorted(GRAPH.find_modules_that_directly_import("qrcode")) == ["referee.qr"]
