"""The append-only event log: who, when, which player, what changed and why."""

from __future__ import annotations

import json

from sqlite_utils import Database

from referee.notes import Note, is_note, render
from referee.store import fold
from referee.store.clock import now as now  # events.now, as callers know it
from referee.store.sql import fetch


def record(
    db: Database,
    *,
    referee_id: int | None,
    player_id: int | None,
    kind: str,
    changes: dict,
    reason: str | Note = "",
    undoes: int | None = None,
    at: str | None = None,
    sheet: bool = False,
    hidden: dict | None = None,
    tap: str | None = None,
) -> int:
    """Append one event and return its id. Call inside store.write().

    ``reason`` is the referee's words, or a note the app made (:mod:`referee.notes`):
    a note is stored as data for each reader's language, and its English text in
    ``reason`` for readers that do not render notes. With ``sheet`` the changes are made
    on the player's row too (see :mod:`referee.store.fold`); ``hidden`` are columns of
    that row set without being shown in the event (a new passport token).
    """
    note = reason if is_note(reason) else None
    return fold.event(db, player_id=player_id, kind=kind, referee_id=referee_id,
                      changes=changes, reason=render(reason), note=note, undoes=undoes,
                      at=at or now(), sheet=sheet, hidden=hidden, tap=tap)


# An undo row carries what it took back (``undid``: the undone event's kind, changes,
# time and referee), so a history names it in words, never by its id.
_SELECT = """
SELECT e.id, e.at, e.kind, e.changes, e.reason, e.note, e.undoes, e.player_id, e.referee_id,
       r.name AS referee, p.character AS character,
       (SELECT u.id FROM events u WHERE u.undoes = e.id) AS undone_by,
       o.kind AS undid_kind, o.changes AS undid_changes, o.at AS undid_at,
       o.referee_id AS undid_referee_id, ro.name AS undid_referee
FROM events e
LEFT JOIN referees r ON r.id = e.referee_id
LEFT JOIN players p ON p.id = e.player_id
LEFT JOIN events o ON o.id = e.undoes
LEFT JOIN referees ro ON ro.id = o.referee_id
"""
_UNDID = ("undid_kind", "undid_changes", "undid_at", "undid_referee_id", "undid_referee")


def _row(row: dict) -> dict:
    row = dict(row)
    row["changes"] = json.loads(row["changes"])
    row["note"] = json.loads(row["note"]) if row["note"] else None
    undid = {k[len("undid_"):]: row.pop(k) for k in _UNDID}
    row["undid"] = None
    if undid["kind"] is not None:  # an undo whose original is in the log
        undid["changes"] = json.loads(undid["changes"])
        row["undid"] = undid
    return row


def get(db: Database, event_id: int) -> dict | None:
    """One event with its referee's name and whether it was undone."""
    rows = fetch(db, _SELECT + " WHERE e.id = ?", [event_id])
    return _row(rows[0]) if rows else None


def for_player(db: Database, player_id: int, limit: int = 200,
               before: int | None = None) -> list[dict]:
    """A player's history, newest first (``before``: only events older than that one)."""
    if before:
        sql = _SELECT + (" WHERE e.player_id = ? AND e.ord < coalesce((SELECT b.ord FROM "
                         "events b WHERE b.id = ?), '0|' || printf('%012d', ?)) "
                         "ORDER BY e.ord DESC LIMIT ?")
        return [_row(r) for r in fetch(db, sql, [player_id, before, before, limit])]
    sql = _SELECT + " WHERE e.player_id = ? ORDER BY e.ord DESC LIMIT ?"
    return [_row(r) for r in fetch(db, sql, [player_id, limit])]


def standing(db: Database, player_id: int, kind: str) -> list[dict]:
    """A player's events of one kind that were not undone, oldest first."""
    sql = _SELECT + (" WHERE e.player_id = ? AND e.kind = ? AND NOT EXISTS "
                     "(SELECT 1 FROM events u WHERE u.undoes = e.id) ORDER BY e.ord")
    return [_row(r) for r in fetch(db, sql, [player_id, kind])]


def total(db: Database, player_id: int | None = None) -> int:
    """How many events there are (kept by a trigger), or how many a player has."""
    if player_id is None:
        return db.execute("SELECT n FROM tallies WHERE name = 'events'").fetchone()[0]
    return db.execute("SELECT count(*) FROM events WHERE player_id = ?",
                      [player_id]).fetchone()[0]


def recent(db: Database, limit: int = 100, before: int | None = None) -> list[dict]:
    """The feed of recent actions across all players, newest first."""
    if before:
        sql = _SELECT + (" WHERE e.ord < coalesce((SELECT b.ord FROM events b WHERE b.id = ?),"
                         " '0|' || printf('%012d', ?)) ORDER BY e.ord DESC LIMIT ?")
        return [_row(r) for r in fetch(db, sql, [before, before, limit])]
    return [_row(r) for r in fetch(db, _SELECT + " ORDER BY e.ord DESC LIMIT ?", [limit])]
