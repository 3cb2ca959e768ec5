"""Card duels on the players: start, rounds, D12 decisions and undo, each in one transaction.

A duel is stored as its log of actions and rebuilt by replaying them through the pure
engine (:mod:`referee.rules.duel`). Every stat the engine changes — cartridges, HP,
chance tokens, surrendered duel-deck cards, the heavy wound — is written to the player
rows as a ``duel`` event in the same transaction as the action; undoing the latest action
appends ``duel_undo`` events that compensate each of them. Nothing is ever deleted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

from sqlite_utils import Database

from referee.games.duel import rules as duel
from referee.games.duel.rules import Duelist, DuelState, Extension, Round, model
from referee.notes import Note, note
from referee.players.service import record_change, wound_started
from referee.rules import N_, RuleError, stats
from referee.rules.cards import sort_codes
from referee.store import duels as store
from referee.store import events, write
from referee.store import players as rows
from referee.store.events import now

CANCELLED = "cancelled"  # the start itself was undone: the duel never happened
DUEL, DUEL_UNDO = "duel", "duel_undo"  # kinds of the player events

# Reasons written on the player events as notes, read in each reader's language.
REASON_START = N_("duel #%(duel)s, start")
REASON_ROUND = N_("duel #%(duel)s, round %(round)s")
REASON_EXTENSION = N_("duel #%(duel)s, extension decision")
REASON_UNDO = N_("undone: %(reason)s")

NO_PLAYER = N_("No player %(id)s: they may have been removed; reload the list.")
NO_DUEL = N_("No duel %(id)s: it may have been mistyped; open the list of duels.")
WAS_CANCELLED = N_("This duel was cancelled (its start was undone); start a new duel instead.")
NOTHING_TO_UNDO = N_("Nothing left to undo in this duel.")
DEAD_SINCE = N_("%(player)s has been marked dead since; undo the death on their sheet "
                "first.")

class Stale(Exception):
    """The request named an older version of the duel; nothing was applied."""

    def __init__(self, view: DuelView) -> None:
        super().__init__(f"duel {view.id} is at version {view.version}")
        self.view = view


@dataclass(frozen=True)
class DuelView:
    """A stored duel: its row, its log and the state rebuilt from the active actions."""

    row: dict
    log: tuple[dict, ...]
    state: DuelState | None  # None once the start was undone

    @property
    def id(self) -> int:
        return self.row["id"]

    @property
    def version(self) -> int:
        return self.row["version"]

    @property
    def status(self) -> str:
        return self.row["status"]

    @property
    def active(self) -> tuple[dict, ...]:
        """Start, rounds and decisions not undone, in order."""
        return tuple(r for r in self.log if r["kind"] != "undo" and not r["undone_by"])

    @property
    def last(self) -> dict | None:
        """The action an undo would take back."""
        return self.active[-1] if self.active else None

    def player_id(self, side: str) -> int:
        return self.row[side]


def snapshot(row: dict) -> Duelist:
    """The engine's view of a player row as the duel starts (D1, D4)."""
    return Duelist(
        player=row["id"], hp=row["hp"], chance=row["chance"], chance_max=row["chance_max"],
        cartridges=row["cartridges"], duel_deck=tuple(rows.deck_cards(row)), suit=row["suit"],
        can_fight=row["status"] == stats.ACTIVE, name=row["character"],
    )


def _player(db: Database, player_id: object) -> dict:
    row = rows.get(db, player_id) if type(player_id) is int else None
    if row is None:
        raise RuleError(None, NO_PLAYER, id=str(player_id))
    return row


def check_start(db: Database, a_id: int, b_id: int) -> DuelState:
    """The duel these two would start now; RuleError (D4…) if they may not."""
    return duel.start(snapshot(_player(db, a_id)), snapshot(_player(db, b_id)))


def _rebuild(row: dict, log: list[dict]) -> DuelView:
    active = [r for r in log if r["kind"] != "undo" and not r["undone_by"]]
    state = None
    if active and active[0]["kind"] == "start":
        state = duel.replay(duel.duelist_from_dict(row["a_start"]),
                            duel.duelist_from_dict(row["b_start"]),
                            [duel.action_from_dict(r["action"]) for r in active[1:]])
    return DuelView(row=row, log=tuple(log), state=state)


def load(db: Database, duel_id: int) -> DuelView | None:
    """A stored duel with its rebuilt state, or None."""
    row = store.get(db, duel_id)
    return None if row is None else _rebuild(row, store.log(db, duel_id))


def _load_for_write(db: Database, duel_id: int, version: int | None) -> DuelView:
    view = load(db, duel_id)
    if view is None:
        raise RuleError(None, NO_DUEL, id=duel_id)
    if version is not None and version != view.version:
        raise Stale(view)
    return view


# Effects on the player rows ---------------------------------------------------------


def _effects(before: DuelState | None, after: DuelState) -> dict[str, dict]:
    """Per side: deltas of hp, chance and cartridges, cards surrendered, D13 restore."""
    if before is None:  # D4: the start takes one cartridge from each
        return {k: {"hp": 0, "chance": 0, "surrendered": (), "restore": False,
                    "cartridges": after.side(k).cartridges - after.side(k).start.cartridges}
                for k in duel.SIDES}
    out = duel.effects_between(before, after)
    won = after.result.winner if after.result and before.result is None else None
    for key in duel.SIDES:
        out[key]["restore"] = won == key
    return out


def _affect(db: Database, referee_id: int | None, player_id: int, effect: dict,
            reason: Note) -> int | None:
    """Write one duelist's effect on their row and its event; the event id, if any."""
    row = rows.get(db, player_id)
    deltas = {k: effect[k] for k in ("hp", "chance", "cartridges") if effect[k]}
    if effect["restore"]:  # D13: back to the maximum on the passport
        deltas["chance"] = row["chance_max"] - row["chance"]
    # stats.adjust keeps the bounds (D4 cartridges, D8 chance, D10 HP) and derives the
    # heavy wound at 0 HP; a row changed elsewhere mid-duel is refused, never broken.
    sheet = stats.adjust(rows.sheet(row), deltas) if deltas else rows.sheet(row)
    new: dict = asdict(sheet)
    new["wounded_at"] = wound_started(row, sheet.status)
    deck = rows.deck_cards(row)
    for card in effect["surrendered"]:
        if card not in deck:  # D1: surrendered elsewhere since this duel started
            raise RuleError("D7", model.HAND_GONE, card=card, player=row["character"],
                            cards=", ".join(deck))
    new["duel_deck"] = ",".join(c for c in deck if c not in effect["surrendered"])
    if all(row[k] == v for k, v in new.items()):
        return None
    return record_change(db, row, new, referee_id=referee_id, kind=DUEL, reason=reason)["event_id"]


def _affect_both(db: Database, referee_id: int | None, view_row: dict, effects: dict,
                 reason: Note) -> list[int]:
    ids = [_affect(db, referee_id, view_row[k], effects[k], reason) for k in duel.SIDES]
    return [i for i in ids if i is not None]


def _project(db: Database, duel_id: int, version: int, at: str) -> None:
    view = _rebuild(store.get(db, duel_id), store.log(db, duel_id))
    state = view.state
    if state is None:
        store.set_projection(db, duel_id, status=CANCELLED, winner=None, reason=None,
                             version=version, at=at)
        return
    result = state.result
    store.set_projection(db, duel_id, status=state.status,
                         winner=result.winner if result else None,
                         reason=result.reason if result else None, version=version, at=at)


# Actions ---------------------------------------------------------------------------


def start(db: Database, referee_id: int | None, a_id: int, b_id: int) -> DuelView:
    """Open a duel (D4): both pay their cartridge; version 1."""
    with write(db):
        row_a, row_b = _player(db, a_id), _player(db, b_id)
        first_a, first_b = snapshot(row_a), snapshot(row_b)
        state = duel.start(first_a, first_b)
        at = now()
        duel_id = store.create(db, a=row_a["id"], b=row_b["id"],
                               a_start=duel.duelist_to_dict(state.a.start),
                               b_start=duel.duelist_to_dict(state.b.start),
                               created_by=referee_id, at=at)
        ids = _affect_both(db, referee_id, {"a": row_a["id"], "b": row_b["id"]},
                           _effects(None, state), note(REASON_START, duel=duel_id))
        store.append(db, duel_id=duel_id, seq=1, kind="start", action={"type": "start"},
                     event_ids=ids, at=at, referee_id=referee_id)
        _project(db, duel_id, 1, at)
    return load(db, duel_id)


def record(db: Database, referee_id: int | None, duel_id: int, action: Round | Extension,
           version: int | None = None) -> DuelView:
    """Apply a round (D6–D11) or an extension decision (D12) with its effects.

    ``version``: the duel version the referee saw; a different one raises Stale and
    nothing is applied. None skips the check (the API allows that).
    """
    with write(db):
        view = _load_for_write(db, duel_id, version)
        if view.state is None:
            raise RuleError(None, WAS_CANCELLED)
        after = duel.apply(view.state, action)
        if isinstance(action, Round):
            kind, reason = "round", note(REASON_ROUND, duel=duel_id, round=len(after.rounds))
        else:
            kind, reason = "extension", note(REASON_EXTENSION, duel=duel_id)
        ids = _affect_both(db, referee_id, view.row, _effects(view.state, after), reason)
        at = now()
        store.append(db, duel_id=duel_id, seq=view.version + 1, kind=kind,
                     action=duel.action_to_dict(action), event_ids=ids, at=at,
                     referee_id=referee_id)
        _project(db, duel_id, view.version + 1, at)
    return load(db, duel_id)


def _compensate(db: Database, referee_id: int | None, event_id: int) -> int:
    """Append the duel_undo event that reverses one duel event on its player."""
    event = events.get(db, event_id)
    row = rows.get(db, event["player_id"])
    if row["status"] == stats.DEAD:
        raise RuleError(None, DEAD_SINCE, player=row["character"])
    changes = event["changes"]
    new: dict = {}
    sheet_changes = {k: v for k, v in changes.items() if k in rows.SHEET_FIELDS}
    if sheet_changes:
        # By delta, so another referee's taps since then survive (as with player undo).
        sheet = stats.revert(rows.sheet(row), sheet_changes)
        new.update(asdict(sheet))
        restore = changes.get("wounded_at", {}).get("before")
        new["wounded_at"] = wound_started(row, sheet.status, restore)
    if "duel_deck" in changes:
        before = set(filter(None, (changes["duel_deck"]["before"] or "").split(",")))
        after = set(filter(None, (changes["duel_deck"]["after"] or "").split(",")))
        # D1: a card comes back only because its laying is undone.
        new["duel_deck"] = ",".join(sort_codes({*rows.deck_cards(row), *(before - after)}))
    saved = record_change(db, row, new, referee_id=referee_id, kind=DUEL_UNDO,
                           reason=note(REASON_UNDO, reason=event["note"] or event["reason"]),
                           undoes=event_id)
    return saved["event_id"]


def undo(db: Database, referee_id: int | None, duel_id: int, version: int | None = None
         ) -> DuelView:
    """Take back the duel's latest action and every effect it had on the players."""
    with write(db):
        view = _load_for_write(db, duel_id, version)
        target = view.last
        if target is None:
            raise RuleError(None, NOTHING_TO_UNDO)
        ids = [_compensate(db, referee_id, e) for e in target["events"]]
        at = now()
        store.append(db, duel_id=duel_id, seq=view.version + 1, kind="undo",
                     action={"type": "undo", "seq": target["seq"]}, event_ids=ids, at=at,
                     referee_id=referee_id, undoes=target["id"])
        _project(db, duel_id, view.version + 1, at)
    return load(db, duel_id)


# Lists -----------------------------------------------------------------------------


def views(db: Database, duel_rows: Iterable[dict]) -> list[DuelView]:
    """Rebuild each listed duel (for scores and surrendered cards)."""
    return [_rebuild(row, store.log(db, row["id"])) for row in duel_rows]


def for_player(db: Database, player_id: int) -> list[DuelView]:
    """A player's duels, newest first."""
    return views(db, store.for_player(db, player_id))


def recent(db: Database, limit: int = 100) -> list[DuelView]:
    """The newest duels of the event."""
    return views(db, store.recent(db, limit))


def surrendered(player_views: Iterable[DuelView], player_id: int) -> list[tuple[str, int]]:
    """(card, duel id) for each duel-deck card this player laid in these duels (D1)."""
    out = []
    for view in player_views:
        if view.state is None:
            continue
        for key in duel.SIDES:
            if view.player_id(key) == player_id:
                out.extend((card, view.id) for card in view.state.side(key).surrendered)
    order = {card: i for i, card in enumerate(sort_codes(card for card, _ in out))}
    return sorted(out, key=lambda pair: order[pair[0]])
