"""Coup (C1–C10) as a game kind: a table starts from its stored setup.

The setup names the seats by registry player id (as strings, the engine's player ids)
in seating order; the actions are the engine's one-tap answers as JSON. Coins, cards and
influence belong to the table: nothing here touches a player's passport.
"""

from __future__ import annotations

from referee.games.coup import rules
from referee.games.coup.rules import CoupState
from referee.games.interface import GameKind, default_status
from referee.rules import N_, RuleError

SETUP_KEYS = {"players", "variant", "first", "one_coin_start"}
BAD_SETUP = N_("This table setup is malformed (%(field)s); send players, variant, first "
               "and one_coin_start.")


def start(setup: object) -> CoupState:
    """The initial table of a stored setup; a bad setup raises ``RuleError`` (C1–C4)."""
    if not isinstance(setup, dict):
        raise RuleError("C1", BAD_SETUP, field="setup")
    unknown = sorted(set(setup) - SETUP_KEYS)
    if unknown:
        raise RuleError("C1", BAD_SETUP, field=", ".join(map(str, unknown)))
    players = setup.get("players")
    if not isinstance(players, list):
        raise RuleError("C1", BAD_SETUP, field="players")
    one_coin = setup.get("one_coin_start", False)
    if not isinstance(one_coin, bool):
        raise RuleError("C3", BAD_SETUP, field="one_coin_start")
    return rules.new_game(players, setup.get("variant", "ambassador"), setup.get("first"),
                          one_coin)


def finished(state: CoupState) -> bool:
    """C10: the table is over once there is a winner."""
    return state.winner is not None


KIND = GameKind(
    name="coup", title=N_("Coup tables"), start=start, legal=rules.options, apply=rules.apply,
    read=rules.state_to_dict, action_from_dict=rules.action_from_dict,
    action_to_dict=rules.action_to_dict, status=default_status(finished))
