"""Playing a stored game: load by replaying, apply one action, undo the latest.

Each game kind registers a `Kind`: how to start its engine from the stored setup, how
to read and write its actions as JSON, and, where a game moves passport stats (an
Underworld level, say), which player deltas lie between two states. Everything an
action changes is written in one transaction with its action row; a stale version is
refused with the fresh game so nothing is applied twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlite_utils import Database

from referee.notes import Note, note
from referee.players import service as player_service
from referee.rules import N_, RuleError
from referee.store import games as store
from referee.store import write


@dataclass(frozen=True)
class Kind:
    """How the store drives one game engine."""

    name: str
    start: Callable[[dict], object]              # stored setup -> initial state
    apply: Callable[[object, object], object]    # pure engine step
    action_from_dict: Callable[[object], object]
    action_to_dict: Callable[[object], dict]
    finished: Callable[[object], bool]
    # Passport stat deltas per player id between two states (most games have none).
    player_effects: Callable[[object, object], dict[int, dict]] | None = None


KINDS: dict[str, Kind] = {}

# Reasons on the player events a game step causes (the event's kind names the game).
REASON_STEP = N_("game #%(id)s")
REASON_UNDO = N_("game #%(id)s, step undone")


def register(kind: Kind) -> Kind:
    """Make a game kind known to the store."""
    KINDS[kind.name] = kind
    return kind


@dataclass
class Game:
    """A loaded game: its row, the current state and the actions that count."""

    row: dict
    state: object
    actions: list[dict] = field(default_factory=list)  # live rows, oldest first
    history: list[dict] = field(default_factory=list)  # every row, undo rows included

    @property
    def id(self) -> int:
        return self.row["id"]

    @property
    def version(self) -> int:
        return self.row["version"]


class Stale(Exception):
    """The screen acted on an old version: nothing was applied; `game` is the fresh one."""

    def __init__(self, game: Game) -> None:
        super().__init__(f"game {game.id} is at version {game.version}")
        self.game = game


def _kind(name: str) -> Kind:
    if name not in KINDS:
        raise RuleError(None, N_("Unknown game kind."))
    return KINDS[name]


def _fold(kind: Kind, row: dict, live: list[dict]) -> object:
    state = kind.start(row["setup"])
    for action_row in live:
        state = kind.apply(state, kind.action_from_dict(action_row["action"]))
    return state


def load(db: Database, game_id: int, kind: str | None = None) -> Game | None:
    """The game with its state rebuilt from its actions, or None if there is none."""
    row = store.get(db, game_id)
    if row is None or (kind and row["kind"] != kind):
        return None
    history = store.actions(db, game_id)
    live = store.live_actions(history)
    return Game(row, _fold(_kind(row["kind"]), row, live), live, history)


def _with_state(db: Database, game_id: int, state: object) -> Game:
    """The stored game with a state already computed (no second replay)."""
    history = store.actions(db, game_id)
    return Game(store.get(db, game_id), state, store.live_actions(history), history)


def create(db: Database, referee_id: int | None, kind_name: str, setup: dict,
           player_ids: list[int], title: str = "") -> Game:
    """Start a game: the engine checks the setup before anything is stored."""
    kind = _kind(kind_name)
    state = kind.start(setup)
    with write(db):
        game_id = store.create(db, kind=kind_name, title=title, setup=setup,
                               player_ids=player_ids, referee_id=referee_id)
        store.touch(db, game_id, version=0,
                    status="finished" if kind.finished(state) else "in_progress")
    return load(db, game_id)


def _check_version(game: Game, version: int | None) -> None:
    if version is not None and version != game.version:
        raise Stale(game)


def _write_effects(db: Database, kind: Kind, game: Game, before: object, after: object,
                   referee_id: int | None, reason: Note) -> None:
    if kind.player_effects is None:
        return
    for player_id, deltas in kind.player_effects(before, after).items():
        if any(deltas.values()):
            player_service.apply_in_transaction(
                db, referee_id, player_id, deltas, kind=kind.name, reason=reason)


def act(db: Database, referee_id: int | None, game_id: int, action: object,
        version: int | None = None) -> Game:
    """Apply one action made against `version`; refusals change nothing."""
    with write(db):
        game = load(db, game_id)
        if game is None:
            raise RuleError(None, N_("No such game: it may have been removed."))
        _check_version(game, version)
        kind = _kind(game.row["kind"])
        parsed = kind.action_from_dict(action)
        after = kind.apply(game.state, parsed)
        store.append(db, game_id, action=kind.action_to_dict(parsed), referee_id=referee_id)
        _write_effects(db, kind, game, game.state, after, referee_id,
                       note(REASON_STEP, id=game_id))
        store.touch(db, game_id, version=game.version + 1,
                    status="finished" if kind.finished(after) else "in_progress")
    return _with_state(db, game_id, after)


def undo(db: Database, referee_id: int | None, game_id: int, version: int | None = None
         ) -> Game:
    """Cancel the latest action that counts, appending an undo row (history stays)."""
    with write(db):
        game = load(db, game_id)
        if game is None:
            raise RuleError(None, N_("No such game: it may have been removed."))
        _check_version(game, version)
        if not game.actions:
            raise RuleError(None, N_("Nothing to undo: the game is at its start."))
        kind = _kind(game.row["kind"])
        latest = game.actions[-1]
        before = _fold(kind, game.row, game.actions[:-1])
        store.append(db, game_id, action=None, referee_id=referee_id, undoes=latest["id"])
        _write_effects(db, kind, game, game.state, before, referee_id,
                       note(REASON_UNDO, id=game_id))
        store.touch(db, game_id, version=game.version + 1,
                    status="finished" if kind.finished(before) else "in_progress")
    return _with_state(db, game_id, before)
