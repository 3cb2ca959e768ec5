"""The layers of DESIGN.md, checked on the import graph (grimp, as import-linter uses it).

Data flows one way: the web layer calls services, services call the store and the pure
rules. A failure names the import chain that breaks the rule, first module first.
"""

from __future__ import annotations

import grimp
import pytest

# What a module imports directly or through others, function-level imports included.
GRAPH = grimp.build_graph("referee", include_external_packages=True, cache_dir=None)
MODULES = sorted(m for m in GRAPH.modules if m == "referee" or m.startswith("referee."))

WEB_LIBRARIES = {"flask", "flask_babel", "jinja2", "werkzeug", "waitress"}
# Modules named like this belong to the web layer wherever they are (each game's screens
# and API with its body schemas, the hub, the player sheet's passport and feed, the
# underworld record...).
WEB_NAMES = {"web", "api", "schemas", "view", "passport", "feed", "hub", "record",
             "squads_web", "openapi"}
# The ones that build and run the app (and `python -m referee`): they import the web
# layer to assemble it.
ASSEMBLERS = {"referee.app", "referee.cli", "referee.__main__"}


def is_rules(module: str) -> bool:
    """The shared pure rules (referee.rules) or a game's (referee.games.<game>.rules)."""
    parts = module.split(".")
    return module == "referee.rules" or module.startswith("referee.rules.") or (
        parts[:2] == ["referee", "games"] and len(parts) >= 4 and parts[3] == "rules")


def imports_flask(module: str) -> bool:
    """Whether the module itself imports Flask or Flask-Babel (werkzeug's password
    hashing alone does not make a module part of the web)."""
    return bool(GRAPH.find_modules_directly_imported_by(module) & {"flask", "flask_babel"})


def is_web(module: str) -> bool:
    """referee.web.*, referee.api.*, any module with a web name, or one importing Flask."""
    return (module.split(".")[-1] in WEB_NAMES
            or module in ("referee.web", "referee.api")
            or module.startswith(("referee.web.", "referee.api."))
            or imports_flask(module))


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
