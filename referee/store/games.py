"""Game tables (Coup, Berserk battles, Underworld castles) stored as their actions.

A game row holds its setup and a version; its actions are appended, never changed.
Undo appends an `undo` row naming the action it cancels; the current state is the fold
of the setup with every action not cancelled. Call the writers inside store.write().
"""

from __future__ import annotations

import json

from sqlite_utils import Database

from referee.store.db import fetch
from referee.store.events import now


def create(db: Database, *, kind: str, title: str, setup: dict, player_ids: list[int],
           referee_id: int | None) -> int:
    """A new game row and its seats; returns the game id."""
    at = now()
    cursor = db.execute(
        "INSERT INTO games (kind, title, setup, status, version, created_by, created_at, "
        "updated_at) VALUES (?, ?, ?, 'in_progress', 0, ?, ?, ?)",
        [kind, title, json.dumps(setup, ensure_ascii=False), referee_id, at, at])
    game_id = cursor.lastrowid
    for seat, player_id in enumerate(player_ids):
        db.execute("INSERT INTO game_players (game_id, player_id, seat) VALUES (?, ?, ?)",
                   [game_id, player_id, seat])
    return game_id


def get(db: Database, game_id: int) -> dict | None:
    """The game row with its setup decoded, or None."""
    rows = fetch(db, "SELECT * FROM games WHERE id = ?", [game_id])
    if not rows:
        return None
    row = rows[0]
    row["setup"] = json.loads(row["setup"])
    row["player_ids"] = [r["player_id"] for r in fetch(
        db, "SELECT player_id FROM game_players WHERE game_id = ? ORDER BY seat", [game_id])]
    return row


def actions(db: Database, game_id: int) -> list[dict]:
    """Every action row of a game in order, undo rows included, with referee names."""
    rows = fetch(db, """
        SELECT a.*, r.name AS referee FROM game_actions a
        LEFT JOIN referees r ON r.id = a.referee_id
        WHERE a.game_id = ? ORDER BY a.seq""", [game_id])
    for row in rows:
        row["action"] = json.loads(row["action"]) if row["action"] else None
    return rows


def live_actions(rows: list[dict]) -> list[dict]:
    """The actions that count: those no undo row cancels, without the undo rows."""
    cancelled = {r["undoes"] for r in rows if r["undoes"]}
    return [r for r in rows if not r["undoes"] and r["id"] not in cancelled]


def append(db: Database, game_id: int, *, action: dict | None, referee_id: int | None,
           undoes: int | None = None) -> int:
    """Append one action (or an undo row) and return its id."""
    seq = db.execute("SELECT coalesce(max(seq), 0) + 1 FROM game_actions WHERE game_id = ?",
                     [game_id]).fetchone()[0]
    cursor = db.execute(
        "INSERT INTO game_actions (game_id, seq, action, at, referee_id, undoes) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [game_id, seq, json.dumps(action, ensure_ascii=False) if action is not None else None,
         now(), referee_id, undoes])
    return cursor.lastrowid


def touch(db: Database, game_id: int, *, version: int, status: str) -> None:
    """Record the game's new version and status after an action."""
    db.execute("UPDATE games SET version = ?, status = ?, updated_at = ? WHERE id = ?",
               [version, status, now(), game_id])


def listing(db: Database, kind: str, player_id: int | None = None, limit: int = 200
            ) -> list[dict]:
    """Games of a kind, newest first, optionally only those a player sits at."""
    if player_id is None:
        return fetch(db, "SELECT * FROM games WHERE kind = ? ORDER BY id DESC LIMIT ?",
                     [kind, limit])
    return fetch(db, """
        SELECT g.* FROM games g JOIN game_players s ON s.game_id = g.id
        WHERE g.kind = ? AND s.player_id = ? ORDER BY g.id DESC LIMIT ?""",
                 [kind, player_id, limit])


def running(db: Database, limit: int = 20) -> list[dict]:
    """Games of every kind still in progress, the latest touched first."""
    return fetch(db, "SELECT id, kind, title, updated_at FROM games "
                     "WHERE status = 'in_progress' ORDER BY updated_at DESC LIMIT ?", [limit])
