"""The players projection: current values, kept in step with the event log."""

from __future__ import annotations

from sqlite_utils import Database

from referee.rules.stats import Sheet
from referee.store.db import fetch

SHEET_FIELDS = ("hp", "hp_max", "chance", "chance_max", "cartridges", "level", "status")


def get(db: Database, player_id: int) -> dict | None:
    """One player row, or None."""
    rows = fetch(db, "SELECT * FROM players WHERE id = ?", [player_id])
    return rows[0] if rows else None


def by_token(db: Database, token: str) -> dict | None:
    """The player whose current passport token this is, or None."""
    rows = fetch(db, "SELECT * FROM players WHERE passport_token = ?", [token])
    return rows[0] if rows else None


def search(db: Database, q: str = "", limit: int = 500) -> list[dict]:
    """Players whose character or player name contains q (any case), by character."""
    q = q.strip()
    if not q:
        return fetch(db,
            "SELECT * FROM players ORDER BY character COLLATE NOCASE, id LIMIT ?", [limit])
    # SQLite's LIKE/lower() only fold ASCII; Russian names need Python's casefold.
    needle = q.casefold()
    rows = fetch(db, "SELECT * FROM players ORDER BY character COLLATE NOCASE, id")
    found = [r for r in rows
             if needle in r["character"].casefold() or needle in (r["player"] or "").casefold()]
    return found[:limit]


COLUMNS = frozenset({
    "character", "player", "hp", "hp_max", "chance", "chance_max", "cartridges", "level",
    "status", "suit", "duel_deck", "notes", "passport_token", "wounded_at", "version",
    "updated_at"})


def update(db: Database, player_id: int, values: dict) -> None:
    """Write these columns of one player (names from our code only, never from input)."""
    unknown = set(values) - COLUMNS
    if unknown:
        raise ValueError(f"not player columns: {sorted(unknown)}")
    assignments = ", ".join(f"{name} = ?" for name in values)
    db.execute(f"UPDATE players SET {assignments} WHERE id = ?", [*values.values(), player_id])


def sheet(row: dict) -> Sheet:
    """The part of a row the stat rules work on."""
    return Sheet(**{k: row[k] for k in SHEET_FIELDS})


def deck_cards(row: dict) -> list[str]:
    """The duel-deck cards the player still holds (D1), canonical codes."""
    return [c for c in (row["duel_deck"] or "").split(",") if c]
