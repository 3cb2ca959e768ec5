"""Card duels as stored: a row per duel and its append-only log of actions.

The duel's state is rebuilt from the start snapshots and the actions that were not
undone (see :mod:`referee.services.duels`); this module only reads and appends rows.
"""

from __future__ import annotations

import json

from sqlite_utils import Database

from referee.store.db import fetch

# A duel in the list, with both duelists' names for display.
_SELECT = """
SELECT d.*, pa.character AS a_character, pb.character AS b_character
FROM duels d
JOIN players pa ON pa.id = d.a
JOIN players pb ON pb.id = d.b
"""


def _row(row: dict) -> dict:
    row = dict(row)
    row["a_start"] = json.loads(row["a_start"])
    row["b_start"] = json.loads(row["b_start"])
    return row


def get(db: Database, duel_id: int) -> dict | None:
    """One duel row (start snapshots decoded), or None."""
    rows = fetch(db, _SELECT + " WHERE d.id = ?", [duel_id])
    return _row(rows[0]) if rows else None


def create(db: Database, *, a: int, b: int, a_start: dict, b_start: dict,
           created_by: int | None, at: str) -> int:
    """Insert a duel at version 0 (its start action follows). Call inside write()."""
    cursor = db.execute(
        "INSERT INTO duels (a, b, a_start, b_start, status, version, created_at, updated_at,"
        " created_by) VALUES (?, ?, ?, ?, 'in_progress', 0, ?, ?, ?)",
        [a, b, json.dumps(a_start, ensure_ascii=False), json.dumps(b_start, ensure_ascii=False),
         at, at, created_by])
    return cursor.lastrowid


def set_projection(db: Database, duel_id: int, *, status: str, winner: str | None,
                   reason: str | None, version: int, at: str) -> None:
    """Store what lists show (status, result) and the new version. Inside write()."""
    db.execute(
        "UPDATE duels SET status = ?, winner = ?, reason = ?, version = ?, updated_at = ? "
        "WHERE id = ?", [status, winner, reason, version, at, duel_id])


def append(db: Database, *, duel_id: int, seq: int, kind: str, action: dict,
           event_ids: list[int], at: str, referee_id: int | None,
           undoes: int | None = None) -> int:
    """Append one row to the duel's log and return its id. Inside write()."""
    cursor = db.execute(
        "INSERT INTO duel_actions (duel_id, seq, kind, action, events, at, referee_id, undoes)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [duel_id, seq, kind, json.dumps(action, ensure_ascii=False), json.dumps(event_ids),
         at, referee_id, undoes])
    return cursor.lastrowid


def log(db: Database, duel_id: int) -> list[dict]:
    """Every row of the duel's log in order, with who recorded it and whether undone."""
    rows = fetch(db, """
        SELECT x.*, r.name AS referee,
               (SELECT u.id FROM duel_actions u WHERE u.undoes = x.id) AS undone_by
        FROM duel_actions x LEFT JOIN referees r ON r.id = x.referee_id
        WHERE x.duel_id = ? ORDER BY x.seq""", [duel_id])
    for row in rows:
        row["action"] = json.loads(row["action"])
        row["events"] = json.loads(row["events"])
    return rows


def for_player(db: Database, player_id: int, limit: int = 200) -> list[dict]:
    """The duels a player fought or is fighting, newest first."""
    sql = _SELECT + " WHERE d.a = ? OR d.b = ? ORDER BY d.id DESC LIMIT ?"
    return [_row(r) for r in fetch(db, sql, [player_id, player_id, limit])]


def recent(db: Database, limit: int = 100) -> list[dict]:
    """The newest duels of the event."""
    return [_row(r) for r in fetch(db, _SELECT + " ORDER BY d.id DESC LIMIT ?", [limit])]


def open_for(db: Database, player_id: int) -> list[dict]:
    """Unfinished duels of a player (in progress or waiting for the D12 decision)."""
    sql = _SELECT + (" WHERE (d.a = ? OR d.b = ?) AND d.status IN ('in_progress', 'extension')"
                     " ORDER BY d.id DESC")
    return [_row(r) for r in fetch(db, sql, [player_id, player_id])]
