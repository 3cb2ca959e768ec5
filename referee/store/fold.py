"""Writing the projections: the one path for a station's own changes and for facts from
other stations.

A part is plain data: a row inserted or updated (``{"t": "row"}``), or a player event
(``{"t": "event"}``) whose changes are replayed on the player as they stand here (see
:func:`rebased`). When the player still is as the change found them, the change lands
exactly as it was made; otherwise stat changes move by their delta, names and notes take
the later value, and a change that would break a bound raises the bound's RuleError,
which the merge holds as a conflict. On a station each write also keeps the row as it
was (``undo_log``), so a fact that arrives late can be folded in at its place.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from sqlite_utils import Database

from referee.rules import N_, RuleError, stats
from referee.rules.cards import sort_codes
from referee.store import ledger, once, tables
from referee.store.sql import fetch

GAME_TABLES = {"games", "game_players", "game_actions"}
PLAYER_COLUMNS = ("character", "player", "hp", "hp_max", "chance", "chance_max",
                  "cartridges", "level", "status", "suit", "duel_deck", "notes",
                  "passport_token", "wounded_at")
CLASH = N_("This row clashes with one already here (%(detail)s).")


def _remember(db: Database, tx: ledger.Tx, table: str, key: dict,
              before: dict | None) -> None:
    if tx.recording and not ledger.stamp(db, tx).startswith(ledger.GENESIS_HLC):
        # kept here only: plain JSON, no canonical spelling needed; written in one go
        # when the transaction ends (ledger.flush)
        tx.kept.append((tx.ord, table, json.dumps(key),
                        None if before is None else json.dumps(before)))


def _where(table: str, key: dict) -> tuple[str, list]:
    names = tables.keys()[table]
    return " AND ".join(f"{n} = ?" for n in names), [key[n] for n in names]


def insert(db: Database, table: str, values: dict) -> None:
    """Insert one projection row (its key included in ``values``)."""
    tx = ledger.current(db)
    key = {n: values[n] for n in tables.keys()[table]}
    names = list(values)
    try:
        db.conn.execute(f"INSERT INTO {table} ({', '.join(names)}) VALUES "
                   f"({', '.join('?' * len(names))})", [values[n] for n in names])
    except sqlite3.IntegrityError as err:
        raise RuleError(None, CLASH, detail=str(err)) from err
    _remember(db, tx, table, key, None)


def update(db: Database, table: str, key: dict, values: dict,
           row: dict | None = None) -> None:
    """Change columns of one projection row (``row``: as it stands, if already read)."""
    tx = ledger.current(db)
    condition, params = _where(table, key)
    if tx.recording:
        if row is None:
            rows = fetch(db, f"SELECT {', '.join(values)} FROM {table} WHERE {condition}",
                         params)
            row = rows[0] if rows else {}
        _remember(db, tx, table, key, {n: row[n] for n in values if n in row})
    assignments = ", ".join(f"{n} = ?" for n in values)
    try:
        db.conn.execute(f"UPDATE {table} SET {assignments} WHERE {condition}",
                   [*values.values(), *params])
    except sqlite3.IntegrityError as err:
        raise RuleError(None, CLASH, detail=str(err)) from err


def put_setting(db: Database, key: str, value: str) -> None:
    if fetch(db, "SELECT key FROM settings WHERE key = ?", [key]):
        update(db, "settings", {"key": key}, {"value": value})
    else:
        insert(db, "settings", {"key": key, "value": value})


# --- parts -----------------------------------------------------------------------------

def _owner_check(db: Database, part: dict, origin: str | None) -> None:
    """A game's rows are written only by the station it belongs to (hand-overs aside)."""
    table = part["tbl"]
    if origin is None or table not in GAME_TABLES or part.get("handover"):
        return
    values = part.get("v") or {}
    if table == "games" and "v" in part:
        owner = values.get("station") or origin
    else:
        game_id = values.get("game_id") or (part.get("pk") or {}).get("id")
        rows = fetch(db, "SELECT station FROM games WHERE id = ?", [game_id])
        owner = rows[0]["station"] if rows else origin
    if owner and owner != origin:
        raise RuleError(None, N_("This game belongs to the station %(station)s; only it "
                                 "records the game's steps (an organizer can hand the game "
                                 "over)."), station=station_name(db, owner))


def station_name(db: Database, station_id: str) -> str:
    rows = fetch(db, "SELECT name FROM stations WHERE id = ?", [station_id])
    return rows[0]["name"] if rows else station_id


def apply_row(db: Database, part: dict, origin: str | None = None) -> None:
    _owner_check(db, part, origin)
    if "v" in part:
        if part["tbl"] == "settings":
            put_setting(db, part["v"]["key"], part["v"]["value"])
        else:
            insert(db, part["tbl"], part["v"])
    else:
        update(db, part["tbl"], part["pk"], part["set"])


def _own(tx: ledger.Tx) -> str | None:
    return tx.station["id"] if tx.station is not None else None


def row(db: Database, table: str, values: dict) -> None:
    """A station's own new row: written, and captured for the other stations."""
    tx = ledger.current(db)
    part = {"t": "row", "tbl": table, "v": values}
    apply_row(db, part, _own(tx))
    ledger.capture(tx, part)
    once.made(tx, table, values)  # what a form's one-time key will name


def change(db: Database, table: str, key: dict, values: dict, **extra: object) -> None:
    """A station's own change to a row: written, and captured."""
    tx = ledger.current(db)
    part = {"t": "row", "tbl": table, "pk": key, "set": values, **extra}
    apply_row(db, part, _own(tx))
    ledger.capture(tx, part)


def setting(db: Database, key: str, value: str) -> None:
    """A station's own setting: written, and captured (last write by clock wins)."""
    part = {"t": "row", "tbl": "settings", "v": {"key": key, "value": value}}
    apply_row(db, part)
    ledger.capture(ledger.current(db), part)


# --- player events ---------------------------------------------------------------------

def _cards(text: str | None) -> list[str]:
    return [c for c in (text or "").split(",") if c]


def rebased(row: dict, part: dict, force: bool = False) -> dict:
    """The player's new column values once the event's changes land on ``row``."""
    changes = part["changes"]
    columns = {k: c for k, c in changes.items() if k in PLAYER_COLUMNS}
    hidden = part.get("set") or {}
    if not part.get("replay") and all(row[k] == c["before"] for k, c in columns.items()):
        # as the change found them: it lands exactly as it was made (a phone's tap held on
        # arrival is always replayed by its rule: it broke a bound as made)
        return {**{k: c["after"] for k, c in columns.items()}, **hidden}
    new: dict = dict(hidden)
    kind = part["kind"]
    if kind in ("death", "heal") or set(columns) & {*stats.NUMBERS, "status"}:
        sheet = stats.rebase(stats.Sheet(**{k: row[k] for k in (*stats.NUMBERS, "status")}),
                             columns, kind, force)
        new.update({k: getattr(sheet, k) for k in (*stats.NUMBERS, "status")
                    if getattr(sheet, k) != row[k]})
    for name in ("character", "player", "notes", "suit", "passport_token"):
        if name in columns:
            new[name] = columns[name]["after"]
    if "duel_deck" in columns:
        before = set(_cards(columns["duel_deck"]["before"]))
        after = set(_cards(columns["duel_deck"]["after"]))
        held = _cards(row["duel_deck"])
        for card in sorted(before - after):
            if card not in held and not force:
                raise RuleError("D1", N_("%(card)s was already surrendered by %(player)s on "
                                         "another station; a surrendered card never comes "
                                         "back."), card=card, player=row["character"])
        new["duel_deck"] = ",".join(sort_codes(
            {*[c for c in held if c not in before - after], *(after - before)}))
    status = new.get("status", row["status"])
    if status == stats.HEAVY_WOUND:
        if "wounded_at" in columns and columns["wounded_at"]["after"]:
            new["wounded_at"] = columns["wounded_at"]["after"]
        elif row["status"] != stats.HEAVY_WOUND or not row["wounded_at"]:
            new["wounded_at"] = part["at"]
    elif row["wounded_at"] is not None:
        new["wounded_at"] = None
    return {k: v for k, v in new.items() if row[k] != v}


def apply_event(db: Database, part: dict, force: bool = False) -> int:
    """Write one player event (and, for a change, the player's row); the event id."""
    tx = ledger.current(db)
    changes = part["changes"]
    if part.get("undoes") is not None:
        undone = db.conn.execute("SELECT 1 FROM events WHERE undoes = ?", [part["undoes"]])
        if undone.fetchone():
            raise RuleError(None, N_("This change was already undone (on another station, "
                                     "perhaps)."))
        if not db.conn.execute("SELECT 1 FROM events WHERE id = ?",
                               [part["undoes"]]).fetchone():
            raise RuleError(None, N_("The change this one refers to is not here: it was held "
                                     "as a conflict."))
    current: dict | None = None
    if part["player"] is not None and part.get("sheet", True):
        current = tx.players.pop(part["player"], None)
        if current is None:
            rows = fetch(db, "SELECT * FROM players WHERE id = ?", [part["player"]])
            if not rows:
                raise RuleError(None, N_("No player %(id)s here."), id=part["player"])
            current = rows[0]
        new = rebased(current, part, force)
        changes = {**{k: c for k, c in changes.items() if k not in PLAYER_COLUMNS},
                   **{k: {"before": current[k], "after": v} for k, v in new.items()
                      if k not in part.get("set", {})}}
    # The event first: it is the write that may still be refused (an undo made twice);
    # the player's row after it cannot be, so a refused part leaves nothing behind.
    values = {
        "id": part["id"], "at": part["at"], "referee_id": part["referee"],
        "player_id": part["player"], "kind": part["kind"],
        "changes": json.dumps(changes, ensure_ascii=False, sort_keys=True),
        "reason": part["reason"], "undoes": part.get("undoes"),
        "note": None if part.get("note") is None else json.dumps(
            part["note"], ensure_ascii=False, sort_keys=True),
        "tap": part.get("tap")}
    if part["id"] is None:
        part["id"] = _numbered_event(db, values)
    else:
        values["ord"] = (ledger.part_ord(db, tx) if tx.station is not None
                         else f"0|{part['id']:012d}")
        insert(db, "events", values)
    if current is not None:  # the part changes the player's sheet
        written = {**new, "version": current["version"] + 1, "updated_at": part["at"]}
        update(db, "players", {"id": part["player"]}, written, row=current)
        if not {"character", "player"} & set(new):  # else triggers change its search key
            tx.players[part["player"]] = {**current, **written}
    return part["id"]


_NUMBERED = ", ".join(EVENT_COLUMNS := ("at", "referee_id", "player_id", "kind", "changes",
                                          "reason", "undoes", "note", "tap"))
# A database that is no station numbers its events as SQLite numbers rows (the largest
# + 1), in the INSERT itself, with the order that number gives (one statement).
_NUMBER_EVENT = (
    f"INSERT INTO events (id, ord, {_NUMBERED}) SELECT n, '0|' || printf('%012d', n), "
    f"{', '.join('?' * len(EVENT_COLUMNS))} FROM (SELECT coalesce(max(id), 0) + 1 AS n "
    "FROM events) RETURNING id")


def _numbered_event(db: Database, values: dict) -> int:
    """Insert an event of a database that is no station; its id."""
    try:
        return db.conn.execute(_NUMBER_EVENT, [values[n] for n in EVENT_COLUMNS]
                               ).fetchone()[0]
    except sqlite3.IntegrityError as err:
        raise RuleError(None, CLASH, detail=str(err)) from err


def event(db: Database, *, player_id: int | None, kind: str, referee_id: int | None,
          changes: dict, reason: str, note: dict | None, undoes: int | None, at: str,
          sheet: bool = True, hidden: dict | None = None, tap: str | None = None) -> int:
    """A station's own player event: written, captured, and its id returned.

    With ``sheet`` the changes are also made on the player's row (a tap, an edit, a
    game's effect); without, the event only records (a creation, an account change)."""
    tx = ledger.current(db)
    # no station: numbered by the INSERT (apply_event); a station: from its block
    number = ledger.new_id(db, "events") if tx.station is not None else None
    part: dict[str, Any] = {"t": "event", "id": number, "player": player_id,
            "kind": kind, "referee": referee_id, "changes": changes, "reason": reason,
            "note": note, "undoes": undoes, "at": at, "sheet": sheet}
    if hidden:
        part["set"] = hidden
    if tap:  # a phone's tap: its id makes a second arrival of it a clash, never a double
        part["tap"] = tap
    apply_event(db, part)
    ledger.capture(tx, part)
    return part["id"]
