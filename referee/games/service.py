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
from typing import TypeVar

from sqlite_utils import Database

from referee.errors import Conflict
from referee.games import names, registry
from referee.games.interface import CANCELLED, GameKind, step_note
from referee.notes import Note, note
from referee.players.effects import apply_effect, compensate
from referee.rules import N_, RuleError
from referee.store import fold, games, write

S = TypeVar("S")

START = {"type": "start"}  # the stored first step of a kind whose start is a step

NO_GAME = N_("No such game: it may have been removed.")
NOTHING_TO_UNDO = N_("Nothing to undo: the game is at its start.")
NOTHING_LEFT = N_("Nothing left to undo: the start was undone, so the game was cancelled.")
WAS_CANCELLED = N_("This game was cancelled (its start was undone); start a new one.")
# Steps stored before they named their player events are taken back by recomputing.
REASON_UNDO = N_("game #%(id)s, step undone")
NOT_OWNER = N_("This game belongs to the station %(station)s: it is shown here read-only. "
               "Play it there, or ask an organizer to hand it over.")

__all__ = ["Conflict", "Game", "Replay", "act", "create", "load", "replay", "undo"]


EARLIER_RULES = N_("This game was recorded under earlier rules, and today's cannot replay its "
                  "step %(seq)s: it is shown as it was recorded and cannot go on. Undo "
                  "its latest step, or start a new game.")


@dataclass(frozen=True)
class Replay:
    """A game's live steps folded: the state, and under which reading of the rules.

    ``reading`` is the reading the steps were read under; ``earlier`` says it is not
    today's (the game was recorded under earlier rules, and today's read its steps
    otherwise); ``unread`` holds the live steps that no reading the code still knows can
    replay, from the first refused one on: they are shown as recorded, never re-judged."""

    state: object | None
    reading: int
    earlier: bool = False
    unread: tuple[dict, ...] = ()
    replayed: int = 0  # how many live steps the state folds (the rest are unread)


@dataclass
class Game:
    """A loaded game: its row, the current state and the steps that count.

    ``state`` is None for a game whose start was undone (a cancelled duel). ``actions``
    and ``history`` hold the steps the state folds; ``unread`` the live steps recorded
    under earlier rules that today's cannot replay (see :class:`Replay`)."""

    kind: GameKind
    row: dict
    state: object | None
    actions: list[dict] = field(default_factory=list)  # live steps, oldest first
    history: list[dict] = field(default_factory=list)  # every row, undo rows included
    reading: int = 1
    earlier: bool = False
    unread: list[dict] = field(default_factory=list)

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

    def state_as(self, folded: type[S]) -> S:
        """The state, of the type its kind folds: a kind whose start is no step never
        leaves it None."""
        state = self.state
        assert isinstance(state, folded)  # the kind's fold makes nothing else
        return state


def _fold_under(kind: GameKind, setup: object, live: list[dict],
                reading: int) -> tuple[object | None, int]:
    """The state after as many live steps as ``reading`` replays, and how many that is:
    a step the rules refuse stops the fold there."""
    steps = live
    if kind.start_is_step:
        if not steps or steps[0]["action"] != START:
            return None, len(live)
        steps = steps[1:]
    state = kind.start_under(setup, reading)
    done = len(live) - len(steps)
    for row in steps:
        try:
            state = kind.apply(state, kind.action_from_dict(row["action"]))
        except RuleError:
            break
        done += 1
    return state, done


def replay(kind: GameKind, setup: object, live: list[dict],
           reading: int | None = None) -> Replay:
    """Fold the live steps under the game's reading; None: a game stored before readings
    were kept, read under the reading its steps need.

    Such a game is read under today's reading when that replays every step and no
    earlier one would show it otherwise; when only an earlier one replays it, or an
    earlier one replays it too but ends elsewhere (it was most likely recorded by the
    code of that reading, which is older than the game's missing mark), under that one.
    When none replays every step, the one that goes furthest wins (today's on a tie)."""
    if reading is not None:
        state, done = _fold_under(kind, setup, live, reading)
        return Replay(state, reading, reading != kind.reading or done < len(live),
                      tuple(live[done:]), done)
    tried = [(r, *_fold_under(kind, setup, live, r)) for r in kind.readings]
    whole = [(r, state) for r, state, done in tried if done == len(live)]
    if whole:
        r, state = whole[-1]  # the earliest that replays every step
        if r != kind.reading and whole[0][0] == kind.reading and \
                _shown(kind, state) == _shown(kind, whole[0][1]):
            r, state = whole[0]  # it reads them as today's does: nothing to mark
        return Replay(state, r, r != kind.reading, (), len(live))
    r, state, done = max(tried, key=lambda t: t[2])  # max keeps the first of a tie
    return Replay(state, r, True, tuple(live[done:]), done)


def _shown(kind: GameKind, state: object | None) -> object:
    return None if state is None else kind.read(state)


def _game(kind: GameKind, row: dict, history: list[dict],
          folded: Replay | None = None) -> Game:
    live = games.live_actions(history)
    if folded is None:
        folded = replay(kind, row["setup"], live, row.get("reading"))
    unread = list(folded.unread)
    if unread:  # the record is of the steps the state folds; the rest are listed apart
        skipped = {r["id"] for r in unread}
        history = [r for r in history if r["id"] not in skipped]
        live = live[:folded.replayed]
    return Game(kind, row, folded.state, live, history, folded.reading, folded.earlier,
                unread)


def load(db: Database, kind: str, number: int) -> Game | None:
    """Game ``number`` of ``kind`` with its state rebuilt from its steps, or None."""
    row = games.find(db, kind, number) if type(number) is int else None
    if row is None:
        return None
    return _game(registry.kind(kind), row, games.actions(db, row["key"]))


def _reloaded(db: Database, kind: GameKind, number: int, folded: Replay) -> Game:
    """The stored game with a state already computed (no second replay)."""
    row = games.find(db, kind.name, number)
    assert row is not None  # written by this request; a game is never deleted
    return _game(kind, row, games.actions(db, row["key"]), folded)


def _for_write(db: Database, kind: str, number: int, version: int | None) -> Game:
    game = load(db, kind, number)
    if game is None:
        raise RuleError(None, NO_GAME)
    if version is not None and version != game.version:
        raise Conflict(game)
    owner = games.owner(db, game.row)
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
        key, number = games.create(db, kind=kind.name, title=title, setup=made,
                                   player_ids=player_ids, referee_id=referee_id,
                                   reading=kind.reading)
        version = 0
        if kind.start_is_step:
            ids = _effects(db, kind, None, state, referee_id,
                           _reason(db, kind, number, None, state))
            games.append(db, key, action=START, referee_id=referee_id, events=ids)
            version = 1
        games.touch(db, key, version=version, status=kind.status(state))
    return _reloaded(db, kind, number, Replay(state, kind.reading, replayed=version))


def act(db: Database, referee_id: int | None, kind: str, number: int, action: object,
        version: int | None = None) -> Game:
    """Apply one action (the engine's object or its JSON) made against ``version``.

    ``version`` None skips the check (the API allows that). Refusals change nothing."""
    with write(db):
        game = _for_write(db, kind, number, version)
        if game.state is None:
            raise RuleError(None, WAS_CANCELLED)
        if game.unread:  # never re-judged, so never gone on from a state it did not reach
            raise RuleError(None, EARLIER_RULES, seq=game.unread[0]["seq"])
        rules = game.kind
        parsed = rules.action_from_dict(action) if action is None or isinstance(
            action, dict) else action
        after = rules.apply(game.state, parsed)
        ids = _effects(db, rules, game.state, after, referee_id,
                       _reason(db, rules, game.id, parsed, after))
        games.append(db, game.key, action=rules.action_to_dict(parsed),
                     referee_id=referee_id, events=ids)
        games.touch(db, game.key, version=game.version + 1, status=rules.status(after))
        if game.row.get("reading") is None:  # stored before readings were kept: from now
            games.set_reading(db, game.key, game.reading)  # on it is read as it goes on
    return _reloaded(db, game.kind, game.id,
                     Replay(after, game.reading, game.earlier, (), len(game.actions) + 1))


def undo(db: Database, referee_id: int | None, kind: str, number: int,
         version: int | None = None) -> Game:
    """Cancel the latest step that counts with all its effects (history stays)."""
    with write(db):
        game = _for_write(db, kind, number, version)
        live = game.actions + game.unread
        if not live:
            raise RuleError(None, NOTHING_LEFT if game.kind.start_is_step else NOTHING_TO_UNDO)
        rules, latest = game.kind, live[-1]
        # Under the reading the game was read under (kept if it was not stored yet)
        folded = replay(rules, game.row["setup"], live[:-1], game.reading)
        before = folded.state
        if latest["events"] is None:  # stored before m006: recompute what it did
            ids = _effects(db, rules, game.state, before, referee_id,
                           note(REASON_UNDO, id=game.id))
        else:
            ids = [compensate(db, referee_id, e, kind=rules.undo_kind)
                   for e in latest["events"]]
        games.append(db, game.key, action=None, referee_id=referee_id, events=ids,
                     undoes=latest["id"])
        status = CANCELLED if before is None else rules.status(before)
        games.touch(db, game.key, version=game.version + 1, status=status)
        if game.row.get("reading") is None:
            games.set_reading(db, game.key, game.reading)
    return _reloaded(db, game.kind, game.id, folded)


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
        fold.change(db, "games", {"id": game.key}, {"station": station_id},
                          handover=True)
    handed = load(db, kind, number)
    assert handed is not None  # found above; a game is never deleted
    return handed
