"""Event-wide settings, kept in the database so every referee's phone sees the same."""

from __future__ import annotations

from sqlite_utils import Database

from referee.store.db import fetch

# The settings an organizer may edit, with their defaults.
EDITABLE = {"event_name": "", "death_minutes": "0", "public_url": "", "token_days": "30"}


def get_all(db: Database) -> dict[str, str]:
    """Every setting, defaults filled in."""
    values = dict(EDITABLE)
    values.update({r["key"]: r["value"] for r in fetch(db, "SELECT key, value FROM settings")})
    return values


def get(db: Database, key: str) -> str:
    """One setting's value."""
    rows = fetch(db, "SELECT value FROM settings WHERE key = ?", [key])
    return rows[0]["value"] if rows else EDITABLE.get(key, "")


def put(db: Database, key: str, value: str) -> None:
    """Store one setting. Call inside store.write()."""
    from referee.store import fold

    fold.setting(db, key, value)
