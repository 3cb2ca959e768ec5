"""Each game of the registry as the tests that play every game alike use it.

A game's tests hold its sample (``tests/games/<kind>/sample.py``): ``setup(rnd)`` a
random stored setup, ``invariants(state)`` its own promises (D8, C2, U4, B10…),
``LISTING`` its API list, ``NAMES`` its game number 1 in English and in Russian,
``created(api, a, b)`` the API call that starts one between two players and
``step(game)`` a step it takes. The generic tests (test_random_play,
api/test_game_names) run each game of the registry through them.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from referee.games import registry
from referee.games.manifest import Manifest


def sample(game: Manifest) -> ModuleType:
    """The game's sample; a game registered without one fails here, saying so."""
    try:
        return importlib.import_module(f"tests.games.{game.key}.sample")
    except ModuleNotFoundError as err:
        raise AssertionError(f"the game {game.key!r} needs tests/games/{game.key}/sample.py "
                             "for the tests that play every game") from err


def every() -> list[tuple[str, ModuleType]]:
    """Each registered game's kind name with its sample, in the registry's order."""
    return [(game.key, sample(game)) for game in registry.GAMES]
