"""Card duels on the players, through the one game service: start, rounds, D12, undo.

A duel is a stored game of kind ``duel`` (:mod:`referee.games.duel.game`): its setup is
both passports as the duel began, its steps the start, the rounds and the D12 decisions.
Every stat the engine changes (cartridges, HP, chance tokens, surrendered duel-deck
cards, the heavy wound) is written to the players as ``duel`` events in the step's
transaction; undoing the latest step appends ``duel_undo`` events compensating each of
them. This module only adds what is the duel's own: snapshots of two registry players,
and the view the screens and the API read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sqlite_utils import Database

from referee.errors import Conflict
from referee.games import service
from referee.games.duel import rules
from referee.games.duel.game import NAME, setup_of
from referee.games.duel.rules import Duelist, DuelState, Extension, Round
from referee.games.interface import CANCELLED
from referee.rules import RuleError, stats
from referee.rules.cards import sort_codes
from referee.store import events, games, players

KIND = NAME
DUEL, DUEL_UNDO = "duel", "duel_undo"  # kinds of the player events

__all__ = ["CANCELLED", "DUEL", "DUEL_UNDO", "DuelView", "check_start", "for_player",
           "load", "recent", "record", "start", "surrendered", "undo", "views"]


@dataclass(frozen=True)
class DuelView:
    """A stored duel as screens read it: its row, its log and the rebuilt state."""

    game: service.Game
    names: tuple[str, str]  # the duelists' characters, a and b

    @property
    def state(self) -> DuelState | None:  # None once the start was undone
        state = self.game.state
        assert state is None or isinstance(state, DuelState)  # a duel: the duel kind's state
        return state

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def status(self) -> str:
        return self.game.status

    @property
    def row(self) -> dict:
        """The game row with what lists of duels show: the sides and the result."""
        a, b = self.game.row["player_ids"][:2]
        result = self.state.result if self.state else None
        return {**self.game.row, "a": a, "b": b, "a_character": self.names[0],
                "b_character": self.names[1], "winner": result.winner if result else None,
                "reason": result.reason if result else None}

    @property
    def log(self) -> tuple[dict, ...]:
        """Every step with its kind (start, round, extension, undo), oldest first."""
        return tuple({**r, "kind": _step_kind(r)} for r in self.game.history)

    @property
    def active(self) -> tuple[dict, ...]:
        """Start, rounds and decisions not undone, in order."""
        return tuple({**r, "kind": _step_kind(r)} for r in self.game.actions)

    @property
    def last(self) -> dict | None:
        """The step an undo would take back."""
        return self.active[-1] if self.active else None

    def player_id(self, side: str) -> int:
        return self.row[side]


def _step_kind(row: dict) -> str:
    if row["undoes"]:
        return "undo"
    action = row["action"] or {}
    return {"start": "start", "extension": "extension"}.get(action.get("type", ""), "round")


def snapshot(row: dict) -> Duelist:
    """The engine's view of a player row as the duel starts (D1, D4)."""
    return Duelist(
        player=row["id"], hp=row["hp"], chance=row["chance"], chance_max=row["chance_max"],
        cartridges=row["cartridges"], duel_deck=tuple(players.deck_cards(row)), suit=row["suit"],
        can_fight=row["status"] == stats.ACTIVE, name=row["character"],
    )


def check_start(db: Database, a_id: int, b_id: int) -> DuelState:
    """The duel these two would start now; RuleError (D4…) if they may not."""
    return rules.start(snapshot(players.existing(db, a_id)), snapshot(players.existing(db, b_id)))


def check_duelist(db: Database, player_id: int, other: int | None = None) -> None:
    """RuleError (D4) if this player may not take a duel's slot now, opposite ``other``."""
    rules.may_duel(snapshot(players.existing(db, player_id)), other)


def _view(db: Database, game: service.Game, seated: dict[int, str] | None = None) -> DuelView:
    """The duel as screens read it; ``seated`` (player id → character) when a list knows."""
    if seated is None:
        seated = {r["id"]: r["character"]
                  for r in (players.get(db, p) for p in game.row["player_ids"]) if r}
    a, b = game.row["player_ids"][:2]
    return DuelView(game, (seated.get(a, f"#{a}"), seated.get(b, f"#{b}")))


def load(db: Database, duel_id: int) -> DuelView | None:
    """A stored duel with its rebuilt state, or None."""
    game = service.load(db, KIND, duel_id)
    return None if game is None else _view(db, game)


def start(db: Database, referee_id: int | None, a_id: object, b_id: object) -> DuelView:
    """Open a duel (D4): both pay their cartridge; version 1."""
    ids = [players.existing(db, a_id)["id"], players.existing(db, b_id)["id"]]

    def both_now(db: Database) -> dict:  # read inside the write: the newest rows
        return setup_of(check_start(db, *ids))

    return _view(db, service.create(db, referee_id, KIND, both_now, ids))


def record(db: Database, referee_id: int | None, duel_id: int, action: Round | Extension,
           version: int | None = None) -> DuelView:
    """Apply a round (D6–D11) or an extension decision (D12) with its effects.

    ``version``: the duel version the referee saw; a different one raises Conflict and
    nothing is applied. None skips the check (the API allows that).
    """
    return _viewed(db, lambda: service.act(db, referee_id, KIND, duel_id, action, version))


def undo(db: Database, referee_id: int | None, duel_id: int, version: int | None = None
         ) -> DuelView:
    """Take back the duel's latest step and every effect it had on the players."""
    return _viewed(db, lambda: service.undo(db, referee_id, KIND, duel_id, version))


def _viewed(db: Database, write: Callable[[], service.Game]) -> DuelView:
    """The duel after ``write``; a Conflict carries the fresh duel as screens read it."""
    try:
        return _view(db, write())
    except Conflict as err:
        fresh = err.fresh
        assert isinstance(fresh, service.Game)  # the game service's conflicts carry the game
        raise Conflict(_view(db, fresh)) from None


# Lists -----------------------------------------------------------------------------


def views(db: Database, duel_rows: Iterable[dict]) -> list[DuelView]:
    """Rebuild each listed duel (for its score), naming the duelists the list names."""
    out = []
    for row in duel_rows:
        game = service.load(db, KIND, row["id"])
        assert game is not None  # listed just now; a game is never deleted
        out.append(_view(db, game, {s["player_id"]: s["character"] for s in row["seated"]}))
    return out


def for_player(db: Database, player_id: int, limit: int = 200) -> list[DuelView]:
    """A player's duels, newest first."""
    return views(db, games.listing(db, KIND, player_id, limit))


def recent(db: Database, limit: int = 100) -> list[DuelView]:
    """The newest duels of the event."""
    return views(db, games.listing(db, KIND, None, limit))


def refusal(row: dict) -> RuleError | None:
    """Why this player may not duel now, whoever the other is (D4): the refusal the
    start would give on their account, or None."""
    try:
        rules.check_duelist(snapshot(row))
    except RuleError as err:
        return err
    return None


def unfinished(db: Database) -> dict[int, list[int]]:
    """Player id → the numbers of the unfinished duels they sit in, for the pickers."""
    return games.seated_in(db, KIND, (rules.IN_PROGRESS, rules.EXTENSION))


def _duel_number(event: dict) -> int | None:
    """Which duel wrote a duel event: its note's number, or (events written before notes,
    m005) the number in its English reason "duel #3, round 2"."""
    if event["note"]:
        return event["note"]["params"].get("duel")
    found = re.match(r"duel #(\d+)", event["reason"] or "")
    return int(found.group(1)) if found else None


def surrendered(db: Database, player_id: int) -> list[tuple[str, int]]:
    """(card, duel number) for each duel-deck card this player laid and lost (D1, D7).

    Read from the player's own duel events, so the sheet replays no duel: a card left
    the deck in the step whose event took it away and was not undone since."""
    deck = set(players.deck_cards(players.get(db, player_id) or {"duel_deck": ""}))
    out: dict[str, int] = {}
    for event in events.standing(db, player_id, DUEL):
        change = event["changes"].get("duel_deck")
        number = _duel_number(event)
        if not change or number is None:
            continue
        before = set(filter(None, (change["before"] or "").split(",")))
        after = set(filter(None, (change["after"] or "").split(",")))
        for card in before - after:
            if card not in deck:
                out[card] = number
    return [(card, out[card]) for card in sort_codes(out)]
