"""Reading rows straight from the connection: the lowest part of the store.

Everything in the store reads through these, so they import nothing of it (the ledger,
the once keys and the fold are below :func:`referee.store.db.write`, which uses them).
"""

from __future__ import annotations

import sqlite_utils


def fetch(db: sqlite_utils.Database, sql: str, params: list | tuple = ()) -> list[dict]:
    """Rows as dicts, straight from the connection.

    sqlite-utils' query() wraps every read in a savepoint; on the hot path of a tap
    that doubles the statements for nothing.
    """
    cursor = db.conn.execute(sql, params)
    names = [c[0] for c in cursor.description]
    return [dict(zip(names, row, strict=False)) for row in cursor.fetchall()]


def fetch_one(db: sqlite_utils.Database, sql: str, params: list | tuple = ()) -> dict | None:
    """The first row as a dict, or None when there is none."""
    rows = fetch(db, sql, params)
    return rows[0] if rows else None


def where(*conditions: tuple[str, object]) -> tuple[str, list]:
    """`` WHERE a AND b`` and its parameters, for the (sql, value) pairs whose value is
    given (None: that condition is left out); nothing when none is."""
    kept = [(sql, value) for sql, value in conditions if value is not None]
    if not kept:
        return "", []
    return " WHERE " + " AND ".join(sql for sql, _ in kept), [value for _, value in kept]
