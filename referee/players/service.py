"""Player actions: validate, apply the stat rules, write the row and its event together."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from sqlite_utils import Database

from referee.notes import Note
from referee.rules import N_, RuleError, stats, whole
from referee.rules.cards import duel_deck, parse_suit
from referee.store import events, fold, ledger, players, write
from referee.store.events import now
from referee.store.ledger import new_id

TEXT_LIMITS = {"character": 80, "player": 80, "notes": 2000}
NUMBER_LIMITS = {"hp_max": (1, 99), "chance_max": (0, 99), "cartridges": (0, stats.CARTRIDGES_MAX),
                 "level": (stats.LEVEL_MIN, stats.LEVEL_MAX)}
EDITABLE = ("character", "player", "hp_max", "chance_max", "suit", "notes")


def new_token() -> str:
    """A passport token: 192 random bits, URL-safe, never derived from the row id."""
    return secrets.token_urlsafe(24)


def full_deck(suit: str) -> str:
    """D1: the nine cards of the passport's suit, as stored."""
    return ",".join(card.code for card in duel_deck(suit))


def _number(name: str, value: object) -> int:
    if isinstance(value, str) and (number := whole(value, signed=True)) is not None:
        value = number
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(None, N_("%(field)s must be a whole number."), field=name)
    low, high = NUMBER_LIMITS[name]
    if not low <= value <= high:
        raise RuleError(None, N_("%(field)s must be between %(low)s and %(high)s."),
                        field=name, low=low, high=high)
    return value


def _text(name: str, value: object, required: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise RuleError(None, N_("%(field)s must be text."), field=name)
    value = value.strip()
    if required and not value:
        raise RuleError(None, N_("%(field)s is required."), field=name)
    if len(value) > TEXT_LIMITS[name]:
        raise RuleError(None, N_("%(field)s is longer than %(limit)s characters."),
                        field=name, limit=TEXT_LIMITS[name])
    return value


def clean(data: dict, *, partial: bool = False) -> dict:
    """Validated player fields from a form, CSV row or JSON body (first problem raises)."""
    if not isinstance(data, dict):
        raise RuleError(None, N_("Send the player as an object of fields."))
    out: dict = {}
    required = () if partial else ("character", "hp_max", "chance_max", "cartridges", "suit")
    for name in required:
        if data.get(name) in (None, ""):
            raise RuleError(None, N_("%(field)s is required."), field=name)
    for name in ("character", "player", "notes"):
        if name in data:
            out[name] = _text(name, data[name], required=name == "character")
    for name in NUMBER_LIMITS:
        if name in data and data[name] not in (None, ""):
            out[name] = _number(name, data[name])
    if "suit" in data:
        out["suit"] = parse_suit(data["suit"])
    return out


def create(db: Database, referee_id: int | None, data: dict, reason: str = "") -> dict:
    """Register a player at full HP and chance (D1 deck of their suit) with an event."""
    fields = clean(data)
    return create_many(db, referee_id, [fields], reason)[0]


def create_many(db: Database, referee_id: int | None, cleaned: list[dict],
                reason: str = "", kind: str = "create") -> list[dict]:
    """Register already-cleaned players in one transaction (CSV import: all or nothing)."""
    with write(db):
        return create_in_write(db, referee_id, cleaned, reason, kind)


def create_in_write(db: Database, referee_id: int | None, cleaned: list[dict],
                    reason: str = "", kind: str = "create") -> list[dict]:
    """Register already-cleaned players inside a write already open; a player may carry
    the JoinRPG character it came from (``joinrpg_id``)."""
    created = []
    for fields in cleaned:
        at = now()
        row = {
            "character": fields["character"],
            "player": fields.get("player", ""),
            "hp": fields["hp_max"],
            "hp_max": fields["hp_max"],
            "chance": fields["chance_max"],
            "chance_max": fields["chance_max"],
            "cartridges": fields["cartridges"],
            "level": fields.get("level", 1),
            "status": stats.ACTIVE,
            "suit": fields["suit"],
            "duel_deck": full_deck(fields["suit"]),
            "notes": fields.get("notes", ""),
            "passport_token": new_token(),
            "wounded_at": None,
            "version": 1,
            "created_at": at,
            "updated_at": at,
        }
        if fields.get("joinrpg_id"):
            row["joinrpg_id"] = fields["joinrpg_id"]
        pid = row["id"] = new_id(db, "players")
        fold.row(db, "players", row)
        changes = {k: {"before": None, "after": row[k]} for k in
                   ("character", "player", "hp_max", "chance_max", "cartridges", "level",
                    "suit")}
        events.record(db, referee_id=referee_id, player_id=pid, kind=kind,
                      changes=changes, reason=reason, at=at)
        created.append(players.existing(db, pid))
    return created


def _diff(before: dict, after: dict) -> dict:
    return {k: {"before": before[k], "after": after[k]}
            for k in after if before.get(k) != after[k]}


def _missing(player_id: int) -> RuleError:
    return RuleError(None, N_("No player %(id)s: they may have been removed; reload the list."),
                     id=player_id)


NOTHING_CHANGES = N_("Nothing would change.")


def record_change(db: Database, row: dict, new: dict, *, referee_id: int | None, kind: str,
                  reason: str | Note, undoes: int | None = None, at: str | None = None,
                  tap: str | None = None) -> dict:
    """Write the changed fields and their event; bump the version. Inside write().

    ``at`` is when the change was made, if not now (a phone's tap sent later), and
    ``tap`` the id the phone gave it."""
    changes = _diff(row, new)
    if not changes:
        raise RuleError(None, NOTHING_CHANGES)
    event_id = events.record(db, referee_id=referee_id, player_id=row["id"], kind=kind,
                             changes=changes, reason=reason, undoes=undoes, at=at or now(),
                             sheet=True, tap=tap)
    # the row as the event left it (kept by the fold: no second read), else read
    result = ledger.current(db).players.pop(row["id"], None) or players.existing(db, row["id"])
    result["event_id"] = event_id
    return result


def wound_started(before: dict, status: str, restore: str | None = None) -> str | None:
    """When the heavy wound began (D10): kept while it lasts, cleared when it ends."""
    if status != stats.HEAVY_WOUND:
        return None
    if before["status"] == stats.HEAVY_WOUND and before["wounded_at"]:
        return before["wounded_at"]
    return restore or now()


def reverted_sheet(row: dict, changes: dict) -> dict:
    """The stats of ``row`` with an event's sheet changes taken back by delta, so other
    referees' taps since then survive; the heavy wound's start comes back with them."""
    sheet_changes = {k: v for k, v in changes.items() if k in players.SHEET_FIELDS}
    if not sheet_changes:
        return {}
    sheet = stats.revert(players.sheet(row), sheet_changes)
    restore = changes.get("wounded_at", {}).get("before")
    return {**sheet.values(), "wounded_at": wound_started(row, sheet.status, restore)}


def _change_locked(db: Database, referee_id: int | None, player_id: int, kind: str,
                   rule: Callable[[stats.Sheet], stats.Sheet], reason: str | Note,
                   at: str | None = None, tap: str | None = None) -> dict:
    row = players.get(db, player_id)
    if row is None:
        raise _missing(player_id)
    ledger.current(db).players[player_id] = row  # the fold works on this very row
    sheet = rule(players.sheet(row))
    new = sheet.values()
    new["wounded_at"] = wound_started(row, sheet.status, at)
    return record_change(db, row, new, referee_id=referee_id, kind=kind, reason=reason,
                         at=at, tap=tap)


def change_in_write(db: Database, referee_id: int | None, player_id: int, kind: str,
                    rule: Callable[[stats.Sheet], stats.Sheet], reason: str | Note = "",
                    at: str | None = None, tap: str | None = None) -> dict:
    """A stat rule on the newest row, inside a write already open (a phone's tap, made
    ``at`` and named ``tap`` by the phone)."""
    return _change_locked(db, referee_id, player_id, kind, rule, reason, at, tap)


def change_sheet(db: Database, referee_id: int | None, player_id: int, kind: str,
                 rule: Callable[[stats.Sheet], stats.Sheet], reason: str | Note = "") -> dict:
    """Apply a stat rule to the newest row, in one transaction with its event."""
    with write(db):
        return _change_locked(db, referee_id, player_id, kind, rule, reason)


def apply_in_transaction(db: Database, referee_id: int | None, player_id: int, deltas: dict,
                         *, kind: str, reason: str | Note = "") -> dict:
    """Stat deltas a game action causes, written inside that action's transaction."""
    return _change_locked(db, referee_id, player_id, kind,
                          lambda s: stats.adjust(s, deltas), reason)


def _typed(db: Database, referee_id: int | None, player_id: int, kind: str,
           rule: Callable[[stats.Sheet, dict], stats.Sheet], values: dict, reason: str) -> dict:
    """A change of the stats a referee typed, by ``rule``; refused when it names none."""
    if not values:
        raise RuleError(None, N_("Say which stat to change."))
    return change_sheet(db, referee_id, player_id, kind, lambda s: rule(s, values), reason)


def adjust(db: Database, referee_id: int | None, player_id: int, deltas: dict,
           reason: str = "") -> dict:
    """One tap: add deltas to stats; all apply or none."""
    return _typed(db, referee_id, player_id, "adjust", stats.adjust, deltas, reason)


def set_exact(db: Database, referee_id: int | None, player_id: int, values: dict,
              reason: str = "") -> dict:
    """Set stats to the values the referee typed."""
    return _typed(db, referee_id, player_id, "set", stats.set_exact, values, reason)


def heal(db: Database, referee_id: int | None, player_id: int, reason: str = "") -> dict:
    """Bring a heavily wounded player back to 1 HP."""
    return change_sheet(db, referee_id, player_id, "heal", stats.heal, reason)


def kill(db: Database, referee_id: int | None, player_id: int, reason: str = "") -> dict:
    """Mark a character dead."""
    return change_sheet(db, referee_id, player_id, "death", stats.kill, reason)


def edit(db: Database, referee_id: int | None, player_id: int, data: dict,
         reason: str = "") -> dict:
    """Change a player's names, maximums, suit or notes."""
    with write(db):
        return edit_in_write(db, referee_id, player_id, data, reason)


def edit_in_write(db: Database, referee_id: int | None, player_id: int, data: dict,
                  reason: str | Note = "") -> dict:
    """:func:`edit` inside a write already open (a JoinRPG re-import: all or nothing)."""
    fields = clean({k: v for k, v in data.items() if k in EDITABLE}, partial=True)
    row = players.get(db, player_id)
    if row is None:
        raise _missing(player_id)
    new = {k: v for k, v in fields.items() if row[k] != v}
    if "suit" in new:
        # D1: the deck is the passport's suit; once cards are surrendered the suit is
        # part of the record and cannot be swapped.
        if players.deck_cards(row) != full_deck(row["suit"]).split(","):
            raise RuleError("D1", N_("This player has already surrendered duel-deck cards; "
                                     "the suit can no longer change."))
        new["duel_deck"] = full_deck(new["suit"])
    if {"hp_max", "chance_max"} & new.keys():
        sheet = stats.set_exact(players.sheet(row), {
            "hp_max": new.get("hp_max", row["hp_max"]),
            "chance_max": new.get("chance_max", row["chance_max"]),
            # Lowering a maximum pulls the current value down with it.
            "hp": min(row["hp"], new.get("hp_max", row["hp_max"])),
            "chance": min(row["chance"], new.get("chance_max", row["chance_max"])),
        })
        new.update(sheet.values())
        new["wounded_at"] = wound_started(row, sheet.status)
    return record_change(db, row, new, referee_id=referee_id, kind="edit", reason=reason)


def reissue(db: Database, referee_id: int | None, player_id: int, reason: str = "") -> dict:
    """A new passport token; the old URL stops working at once."""
    with write(db):
        row = players.get(db, player_id)
        if row is None:
            raise _missing(player_id)
        # The token itself is a secret: the event records that it changed, not its value;
        # the old one is kept as a hash, so a scan of the old passport says it was reissued.
        fold.row(db, "retired_passports", {
            "id": new_id(db, "retired_passports"), "player_id": player_id,
            "token_hash": players.token_hash(row["passport_token"]), "at": now()})
        events.record(db, referee_id=referee_id, player_id=player_id, kind="reissue",
                      changes={"passport": {"before": "old", "after": "new"}},
                      reason=reason, sheet=True, hidden={"passport_token": new_token()})
        return players.existing(db, player_id)


UNDOABLE = {"adjust", "set", "heal", "death", "edit"}
# The kinds of entry a player's own screens write; any other kind of a player's event was
# written by a game step (a duel's round, a castle fight), taken back only in its game.
PLAYER_KINDS = UNDOABLE | {"create", "import", "reissue", "undo"}
GAME_STEP = N_("A change made by %(step)s cannot be undone on its own: undo it in that "
               "game, where Undo takes back the whole step.")


def is_game_step(event: dict) -> bool:
    """Whether a player's event was written by a game step (not by a tap or a form)."""
    return event["kind"] not in PLAYER_KINDS and not event["undoes"]


class AlreadyUndone(RuleError):
    """A second undo of one event: the screen or client was stale (the API answers 409)."""


def undo(db: Database, referee_id: int | None, event_id: int, reason: str = "") -> dict:
    """Append the compensating event of event_id; the original stays in the log."""
    with write(db):
        event = events.get(db, event_id)
        if event is None:
            raise RuleError(None, N_("No such event: reload the history."))
        if event["undone_by"]:
            raise AlreadyUndone(None, N_("This change was already undone."))
        if event["player_id"] is not None and is_game_step(event):
            raise RuleError(None, GAME_STEP, step=event["note"] or event["reason"] or
                            event["kind"])
        if event["undoes"] or event["kind"] not in UNDOABLE or event["player_id"] is None:
            raise RuleError(None, N_("This kind of entry cannot be undone; "
                                     "make the opposite change instead."))
        row = players.existing(db, event["player_id"])
        changes = event["changes"]
        new = reverted_sheet(row, changes)
        for name, change in changes.items():
            if name in players.SHEET_FIELDS or name == "wounded_at":
                continue
            if row[name] == change["after"]:
                new[name] = change["before"]
            elif row[name] != change["before"]:
                raise RuleError(None, N_("%(field)s has changed since; undo the later "
                                         "change first."), field=name)
        return record_change(db, row, new, referee_id=referee_id, kind="undo",
                     reason=reason, undoes=event_id)
