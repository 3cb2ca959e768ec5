"""Playing any stored game: start it, load it by replaying, act on a version, undo.

Every kind (:mod:`referee.games.registry`) is served the same way. A step, its effects on
the players' passports (as player events) and the game's new version are written in one
transaction; undo appends a row cancelling the latest step and compensates each player
event that step wrote, so history is never rewritten. A write made against an old
version raises :class:`Conflict` carrying the fresh game, and nothing is applied twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlite_utils import Database

from referee.errors import Conflict
from referee.games import names, registry
from referee.games.interface import CANCELLED, GameKind, step_note
from referee.notes import Note, note
from referee.players.effects import apply_effect, compensate
from referee.rules import N_, RuleError
from referee.store import fold as projection
from referee.store import games as store
from referee.store import write

START = {"type": "start"}  # the stored first step of a kind whose start is a step

NO_GAME = N_("No such game: it may have been removed.")
NOTHING_TO_UNDO = N_("Nothing to undo: the game is at its start.")
NOTHING_LEFT = N_("Nothing left to undo: the start was undone, so the game was cancelled.")
WAS_CANCELLED = N_("This game was cancelled (its start was undone); start a new one.")
# Steps stored before they named their player events are taken back by recomputing.
REASON_UNDO = N_("game #%(id)s, step undone")
NOT_OWNER = N_("This game belongs to the station %(station)s: it is shown here read-only. "
               "Play it there, or ask an organizer to hand it over.")

__all__ = ["Conflict", "Game", "act", "create", "load", "undo"]


@dataclass
class Game:
    """A loaded game: its row, the current state and the steps that count.

    ``state`` is None for a game whose start was undone (a cancelled duel)."""

    kind: GameKind
    row: dict
    state: object | None
    actions: list[dict] = field(default_factory=list)  # live steps, oldest first
    history: list[dict] = field(default_factory=list)  # every row, undo rows included

    @property
    def id(self) -> int:
        """The game's number within its kind: what URLs and the API call its id."""
        return self.row["id"]

    @property
    def key(self) -> int:
        return self.row["key"]

    @property
    def version(self) -> int:
        return self.row["version"]

    @property
    def status(self) -> str:
        return self.row["status"]


def fold(kind: GameKind, setup: object, live: list[dict]) -> object | None:
    """The state after the live steps; None when a start that is a step was undone."""
    steps = live
    if kind.start_is_step:
        if not steps or steps[0]["action"] != START:
            return None
        steps = steps[1:]
    return kind.replay(setup, [kind.action_from_dict(r["action"]) for r in steps])


def _game(kind: GameKind, row: dict, history: list[dict], state: object = ...) -> Game:
    live = store.live_actions(history)
    if state is ...:
        state = fold(kind, row["setup"], live)
    return Game(kind, row, state, live, history)


def load(db: Database, kind: str, number: int) -> Game | None:
    """Game ``number`` of ``kind`` with its state rebuilt from its steps, or None."""
    row = store.find(db, kind, number) if type(number) is int else None
    if row is None:
        return None
    return _game(registry.kind(kind), row, store.actions(db, row["key"]))


def _reloaded(db: Database, kind: GameKind, number: int, state: object) -> Game:
    """The stored game with a state already computed (no second replay)."""
    row = store.find(db, kind.name, number)
    return _game(kind, row, store.actions(db, row["key"]), state)


def _for_write(db: Database, kind: str, number: int, version: int | None) -> Game:
    game = load(db, kind, number)
    if game is None:
        raise RuleError(None, NO_GAME)
    if version is not None and version != game.version:
        raise Conflict(game)
    owner = store.owner(db, game.row)
    if owner is not None:  # a game's steps are never interleaved from two stations
        raise RuleError(None, NOT_OWNER, station=owner)
    return game


def _effects(db: Database, kind: GameKind, before: object | None, after: object,
             referee_id: int | None, reason: Note) -> list[int]:
    """Write what the step did to each player's passport; the event ids."""
    ids = []
    for player_id, effect in kind.effects(before, after).items():
        if effect:
            event_id = apply_effect(db, referee_id, player_id, effect, kind=kind.name,
                                    reason=reason)
            if event_id is not None:
                ids.append(event_id)
    return ids


def _reason(db: Database, kind: GameKind, number: int, action: object | None,
             after: object) -> Note:
    """The reason on the player events of a step: the kind's own, else the game's name
    ("Castle game 2"), its number as said on every station (games.names)."""
    said = names.number_note(number, db)
    if kind.note is step_note:
        return names.name_note(kind.name, said)
    return kind.note(said, action, after)


def create(db: Database, referee_id: int | None, kind_name: str,
           setup: dict | Callable[[Database], dict], player_ids: list[int],
           title: str = "") -> Game:
    """Start a game: the rules check the setup before anything is stored.

    ``setup`` may be a function of the database, called inside the write so that it
    reads the newest rows (a duel snapshots both passports as it starts)."""
    kind = registry.kind(kind_name)
    with write(db):
        made = setup(db) if callable(setup) else setup
        state = kind.start(made)
        key, number = store.create(db, kind=kind.name, title=title, setup=made,
                                   player_ids=player_ids, referee_id=referee_id)
        version = 0
        if kind.start_is_step:
            ids = _effects(db, kind, None, state, referee_id,
                           _reason(db, kind, number, None, state))
            store.append(db, key, action=START, referee_id=referee_id, events=ids)
            version = 1
        store.touch(db, key, version=version, status=kind.status(state))
    return _reloaded(db, kind, number, state)


def act(db: Database, referee_id: int | None, kind: str, number: int, action: object,
        version: int | None = None) -> Game:
    """Apply one action (the engine's object or its JSON) made against ``version``.

    ``version`` None skips the check (the API allows that). Refusals change nothing."""
    with write(db):
        game = _for_write(db, kind, number, version)
        if game.state is None:
            raise RuleError(None, WAS_CANCELLED)
        rules = game.kind
        parsed = rules.action_from_dict(action) if action is None or isinstance(
            action, dict) else action
        after = rules.apply(game.state, parsed)
        ids = _effects(db, rules, game.state, after, referee_id,
                       _reason(db, rules, game.id, parsed, after))
        store.append(db, game.key, action=rules.action_to_dict(parsed),
                     referee_id=referee_id, events=ids)
        store.touch(db, game.key, version=game.version + 1, status=rules.status(after))
    return _reloaded(db, game.kind, game.id, after)


def undo(db: Database, referee_id: int | None, kind: str, number: int,
         version: int | None = None) -> Game:
    """Cancel the latest step that counts with all its effects (history stays)."""
    with write(db):
        game = _for_write(db, kind, number, version)
        if not game.actions:
            raise RuleError(None, NOTHING_LEFT if game.kind.start_is_step else NOTHING_TO_UNDO)
        rules, latest = game.kind, game.actions[-1]
        before = fold(rules, game.row["setup"], game.actions[:-1])
        if latest["events"] is None:  # stored before m006: recompute what it did
            ids = _effects(db, rules, game.state, before, referee_id,
                           note(REASON_UNDO, id=game.id))
        else:
            ids = [compensate(db, referee_id, e, kind=rules.undo_kind)
                   for e in latest["events"]]
        store.append(db, game.key, action=None, referee_id=referee_id, events=ids,
                     undoes=latest["id"])
        status = CANCELLED if before is None else rules.status(before)
        store.touch(db, game.key, version=game.version + 1, status=status)
    return _reloaded(db, game.kind, game.id, before)


def hand_over(db: Database, referee_id: int | None, kind: str, number: int,
              station_id: str) -> Game:
    """Give a game to another station (its own is gone, or the table moved): from now on
    only that station records its steps; steps its old station makes later are held."""
    with write(db):
        game = load(db, kind, number)
        if game is None:
            raise RuleError(None, NO_GAME)
        if not db.execute("SELECT 1 FROM stations WHERE id = ?", [station_id]).fetchone():
            raise RuleError(None, N_("No such station."))
        projection.change(db, "games", {"id": game.key}, {"station": station_id},
                          handover=True)
    return load(db, kind, number)
