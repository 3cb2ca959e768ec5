"""Coup tables: the stored game kind, the table setup from the registry, readable text.

A table is a generic stored game (:mod:`referee.services.games`) of kind ``coup``: its
setup names the seats by registry player id (as strings, the engine's player ids) in
seating order, and its actions are the engine's one-tap answers as JSON. Coins, cards and
influence belong to the table: nothing here touches a player's passport stats.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database

from referee.games import service
from referee.games.coup.game import BAD_SETUP, finished, start  # noqa: F401  (re-exported)
from referee.games.coup.rules import CHARACTER_NAMES, LogEntry
from referee.rules import N_, RuleError
from referee.store import games
from referee.store.db import fetch

KIND = "coup"
TITLE_MAX = 120
# Params of engine sentences that hold a player id, or a ", "-joined list of them.
PLAYER_PARAMS = ("player", "turn", "target", "claimant", "loser")
PLAYER_LIST_PARAMS = ("players", "targets")

NO_PLAYER = N_("No player %(id)s in the registry; choose players from the list.")
SEATED_TWICE = N_("%(player)s is seated twice; each player takes one seat.")
NOT_SEATED = N_("The starting player must sit at the table; choose one of the seats.")

# A gettext-like function: (message, **params) -> text in the reader's language.
Translate = Callable[..., str]


def english(message: str, _plural: str | None = None, _count: int = 1,
            **params: object) -> str:
    """The untranslated message (or its ``_plural`` when ``_count`` is not 1) with its
    placeholders filled."""
    if _plural is not None and _count != 1:
        message = _plural
    return message % params if params else message


# A log line keeps the message it was played with, the plural English; one whose count
# is 1 reads in the singular, and Russian has its three forms (ngettext).
PLURAL_LINES = {
    "%(player)s gains %(coins)s coins.": (N_("%(player)s gains %(coins)s coin."), "coins"),
    "%(player)s takes %(coins)s coins from %(target)s.":
        (N_("%(player)s takes %(coins)s coin from %(target)s."), "coins"),
    "%(player)s is out of the game; %(coins)s coins return to the supply.":
        (N_("%(player)s is out of the game; %(coins)s coin returns to the supply."), "coins"),
}


def _player_ids(value: object) -> list[int]:
    if not isinstance(value, list) or not all(
            type(v) is int for v in value):
        raise RuleError("C1", BAD_SETUP, field="players")
    return value


def create(db: Database, referee_id: int | None, player_ids: object,
           variant: object = "ambassador", first: object = None,
           one_coin_start: object = False, title: object = "") -> service.Game:
    """Seat registry players in this order and start the table (C1–C4)."""
    ids = _player_ids(player_ids)
    rows = {r["id"]: r for r in fetch(
        db, f"SELECT id, character FROM players WHERE id IN ({','.join('?' * len(ids))})",
        ids)} if ids else {}
    seen: set[int] = set()
    for pid in ids:
        if pid not in rows:
            raise RuleError("C1", NO_PLAYER, id=pid)
        if pid in seen:
            raise RuleError("C1", SEATED_TWICE, player=rows[pid]["character"])
        seen.add(pid)
    if first is not None and (type(first) is not int or first not in seen):
        raise RuleError("C4", NOT_SEATED)
    if not isinstance(title, str):
        raise RuleError(None, BAD_SETUP, field="title")
    setup: dict = {"players": [str(pid) for pid in ids], "variant": variant,
                   "one_coin_start": one_coin_start}
    if first is not None:
        setup["first"] = str(first)
    title = title.strip() or ", ".join(rows[pid]["character"] for pid in ids)
    return service.create(db, referee_id, KIND, setup, ids, title=title[:TITLE_MAX])


def load(db: Database, game_id: int) -> service.Game | None:
    """The table with its state replayed, or None when there is no such Coup table."""
    return service.load(db, KIND, game_id)


def listing(db: Database, player_id: int | None = None, limit: int = 200,
            before: int | None = None) -> list[dict]:
    """Tables newest first, optionally those where the player has a seat."""
    return games.listing(db, KIND, player_id, limit, before)


def names(db: Database, game: service.Game) -> dict[str, str]:
    """Engine player id → the character's name in the registry, for every seat."""
    ids = game.row["player_ids"]
    found = {r["id"]: r["character"] for r in fetch(
        db, f"SELECT id, character FROM players WHERE id IN ({','.join('?' * len(ids))})",
        ids)} if ids else {}
    return {str(pid): found.get(pid, f"#{pid}") for pid in ids}


def named_params(params: dict, names: dict[str, str]) -> dict:
    """Sentence params with player ids replaced by the characters' names."""
    out = dict(params)
    for key in PLAYER_PARAMS:
        if isinstance(out.get(key), str):
            out[key] = names.get(out[key], out[key])
    for key in PLAYER_LIST_PARAMS:
        if isinstance(out.get(key), str):
            out[key] = ", ".join(names.get(p, p) for p in out[key].split(", "))
    return out


def character_name(code: str | None, tr: Translate = english) -> str:
    """A Coup character in the reader's language (``duchess`` → Duchess / Герцогиня)."""
    return tr(CHARACTER_NAMES[code]) if code in CHARACTER_NAMES else str(code or "")


def log_line(entry: LogEntry, names: dict[str, str], tr: Translate = english,
             plurals: bool = False) -> str:
    """One line of the table's log, with names and characters in the reader's language;
    with ``plurals`` a count of 1 reads in the singular (the screen: the API's record
    is a contract and reads as it always has)."""
    params = named_params(dict(entry.params), names)
    if "character" in params:
        params["character"] = character_name(str(params["character"]), tr)
    if plurals and entry.message in PLURAL_LINES:
        singular, key = PLURAL_LINES[entry.message]
        return tr(singular, _plural=entry.message, _count=int(params[key]), **params)
    return tr(entry.message, **params) if params else tr(entry.message)


def named_error(err: RuleError, names: dict[str, str]) -> RuleError:
    """The same refusal, naming players by their characters instead of their ids."""
    return RuleError(err.rule, err.message, **named_params(err.params, names))
