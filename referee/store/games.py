"""Every game table (duels, Coup, underworld games, battles) stored as its setup and steps.

A game row holds its kind, its number within that kind (what screens, URLs and the API
call its id: "duel 3", "Coup table 2"), its setup and a version. Its steps are appended
to ``game_actions``, never changed; each names the player events it wrote. Undo appends
a row naming the step it cancels; the current state is the fold of the setup with every
step not cancelled. Call the writers inside store.write().

Rows come back with ``id`` = the number within the kind and ``key`` = the storage id.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlite_utils import Database

from referee.store import fold, ledger
from referee.store.db import fetch, where
from referee.store.events import now

_COLUMNS = ("g.number AS id, g.id AS key, g.kind, g.title, g.setup, g.status, g.version, "
            "g.created_by, g.created_at, g.updated_at, g.station, g.reading")


def create(db: Database, *, kind: str, title: str, setup: dict, player_ids: list[int],
           referee_id: int | None, reading: int | None = None) -> tuple[int, int]:
    """A new game row and its seats; returns its storage key and its number."""
    at = now()
    tx = ledger.current(db)
    key = ledger.new_id(db, "games")
    number = ledger.new_id(db, "games", counter=f"number:{kind}", where=("kind = ?", [kind]))
    fold.row(db, "games", {
        "id": key, "kind": kind, "number": number, "title": title,
        "setup": json.dumps(setup, ensure_ascii=False), "status": "in_progress",
        "version": 0, "created_by": referee_id, "created_at": at, "updated_at": at,
        "station": tx.station["id"] if tx.station else "", "reading": reading})
    for seat, player_id in enumerate(player_ids):
        fold.row(db, "game_players", {"game_id": key, "player_id": player_id, "seat": seat})
    return key, number


def find(db: Database, kind: str, number: int) -> dict | None:
    """The game ``number`` of ``kind`` with its setup decoded and its seats, or None."""
    rows = fetch(db, f"SELECT {_COLUMNS} FROM games g WHERE g.kind = ? AND g.number = ?",
                 [kind, number])
    if not rows:
        return None
    row = rows[0]
    row["setup"] = json.loads(row["setup"])
    row["player_ids"] = [r["player_id"] for r in fetch(
        db, "SELECT player_id FROM game_players WHERE game_id = ? ORDER BY seat", [row["key"]])]
    return row


def number_of(db: Database, key: int | None) -> int | None:
    """The number within its kind of the game stored under ``key``."""
    row = db.execute("SELECT number FROM games WHERE id = ?", [key]).fetchone()
    return row[0] if row else None


def _decoded(row: dict) -> dict:
    row["action"] = json.loads(row["action"]) if row["action"] else None
    row["events"] = json.loads(row["events"]) if row["events"] is not None else None
    return row


def actions(db: Database, key: int) -> list[dict]:
    """Every step of a game in order, undo rows included, with referee names."""
    rows = fetch(db, """
        SELECT a.*, r.name AS referee,
               (SELECT u.id FROM game_actions u WHERE u.undoes = a.id) AS undone_by
        FROM game_actions a LEFT JOIN referees r ON r.id = a.referee_id
        WHERE a.game_id = ? ORDER BY a.seq""", [key])
    return [_decoded(row) for row in rows]


def live_actions(rows: list[dict]) -> list[dict]:
    """The steps that count: those no undo row cancels, without the undo rows."""
    cancelled = {r["undoes"] for r in rows if r["undoes"]}
    return [r for r in rows if not r["undoes"] and r["id"] not in cancelled]


def append(db: Database, key: int, *, action: dict | None, referee_id: int | None,
           events: Sequence[int] = (), undoes: int | None = None) -> int:
    """Append one step (or an undo row) with the player events it wrote; its id."""
    seq = db.execute("SELECT coalesce(max(seq), 0) + 1 FROM game_actions WHERE game_id = ?",
                     [key]).fetchone()[0]
    action_id = ledger.new_id(db, "game_actions")
    fold.row(db, "game_actions", {
        "id": action_id, "game_id": key, "seq": seq,
        "action": json.dumps(action, ensure_ascii=False) if action is not None else None,
        "at": now(), "referee_id": referee_id, "undoes": undoes,
        "events": json.dumps(list(events))})
    return action_id


def touch(db: Database, key: int, *, version: int, status: str) -> None:
    """Record the game's new version and status after a step."""
    fold.change(db, "games", {"id": key},
                {"version": version, "status": status, "updated_at": now()})


def set_reading(db: Database, key: int, reading: int) -> None:
    """Mark the reading of the rules a game stored before readings were kept is read
    under, once it goes on (so that what it shows can no longer change)."""
    fold.change(db, "games", {"id": key}, {"reading": reading})


def owner(db: Database, row: dict) -> str | None:
    """The station a game belongs to when it is not this one (None: it is ours)."""
    here = ledger.station(db)
    if here is None or not row.get("station") or row["station"] == here["id"]:
        return None
    return fold.station_name(db, row["station"])


def listing(db: Database, kind: str, player_id: int | None = None, limit: int = 200,
            before: int | None = None) -> list[dict]:
    """Games of a kind, newest first, optionally only those a player sits at, at most
    ``limit``, only older than game number ``before`` if given; each with its ``seated``
    players (player id, character) in seat order."""
    seated = " JOIN game_players s ON s.game_id = g.id" if player_id is not None else ""
    condition, params = where(("g.kind = ?", kind), ("s.player_id = ?", player_id),
                              ("g.number < ?", before))
    found = fetch(db, f"SELECT {_COLUMNS} FROM games g{seated}{condition} "
                      "ORDER BY g.number DESC LIMIT ?", [*params, limit])
    by_key: dict[int, list[dict]] = {g["key"]: [] for g in found}
    for seat in seats(db, list(by_key)):
        by_key[seat["key"]].append(seat)
    for game in found:
        game["seated"] = by_key[game["key"]]
    return found


def count(db: Database, kind: str, player_id: int | None = None) -> int:
    """How many games of a kind there are (at which a player sits)."""
    if player_id is None:
        return db.execute("SELECT count(*) FROM games WHERE kind = ?", [kind]).fetchone()[0]
    return db.execute("SELECT count(DISTINCT g.id) FROM games g JOIN game_players s ON "
                      "s.game_id = g.id WHERE g.kind = ? AND s.player_id = ?",
                      [kind, player_id]).fetchone()[0]


def running(db: Database, limit: int = 20) -> list[dict]:
    """Games of every kind still in progress, the latest touched first (the Games hub)."""
    return fetch(db, f"SELECT {_COLUMNS} FROM games g WHERE g.status = 'in_progress' "
                     "ORDER BY g.updated_at DESC LIMIT ?", [limit])


def seats(db: Database, keys: list[int]) -> list[dict]:
    """(game key, seat, player id, character) for the given games, in seat order."""
    if not keys:
        return []
    marks = ",".join("?" * len(keys))
    return fetch(db, f"""
        SELECT s.game_id AS key, s.seat, s.player_id, p.character FROM game_players s
        JOIN players p ON p.id = s.player_id WHERE s.game_id IN ({marks})
        ORDER BY s.game_id, s.seat""", keys)


def seated_in(db: Database, kind: str, statuses: tuple[str, ...]) -> dict[int, list[int]]:
    """Player id → the numbers of the games of ``kind`` in one of ``statuses`` where they
    sit (one query, for a list of many players)."""
    if not statuses:
        return {}
    out: dict[int, list[int]] = {}
    for player_id, number in db.execute(
            "SELECT s.player_id, g.number FROM games g JOIN game_players s ON s.game_id = g.id"
            f" WHERE g.kind = ? AND g.status IN ({','.join('?' * len(statuses))})"
            " ORDER BY g.number", [kind, *statuses]).fetchall():
        out.setdefault(player_id, []).append(number)
    return out


def step_of(db: Database, player_id: int, event_id: int) -> dict | None:
    """The game whose step wrote player event ``event_id`` (a game the player sits at):
    its kind and number, or None (a step stored before steps named their events)."""
    found = fetch(db, """
        SELECT g.kind, g.number AS id FROM game_players s
        JOIN games g ON g.id = s.game_id
        JOIN game_actions a ON a.game_id = g.id, json_each(a.events) j
        WHERE s.player_id = ? AND a.events IS NOT NULL AND j.value = ?
        LIMIT 1""", [player_id, event_id])
    return found[0] if found else None
