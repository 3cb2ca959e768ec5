"""Event-wide settings, kept in the database so every referee's phone sees the same."""

from __future__ import annotations

from sqlite_utils import Database

from referee.store.db import fetch

# Every setting of a database file as last read, and the config tally it was read at
# (store.migrations.m018_config_tally): a tap's answer names the public URL without a read.
_READ: dict[str, tuple[int, dict[str, str]]] = {}

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


def config_tally(db: Database) -> int:
    """The count that moves on every change of a setting, an account or an API token (kept
    by triggers, so whoever writes): what was read at the same count is still true."""
    return db.conn.execute("SELECT n FROM tallies WHERE name = 'config'").fetchone()[0]


def get_cached(db: Database, key: str, tally: int | None = None) -> str:
    """:func:`get`, from memory while the config tally stands where it stood when it was
    read (``tally``: the tally as read already in this request, else read now)."""
    if tally is None:
        tally = config_tally(db)
    path = getattr(db, "referee_path", None) or ""
    seen = _READ.get(path)
    if seen is None or seen[0] != tally:
        # the tally read first: a change made between the two reads leaves the values
        # newer than their tally, which only means one more read next time
        seen = _READ[path] = (tally, get_all(db))
    return seen[1].get(key, EDITABLE.get(key, ""))


def put(db: Database, key: str, value: str) -> None:
    """Store one setting. Call inside store.write()."""
    from referee.store import fold

    fold.setting(db, key, value)
