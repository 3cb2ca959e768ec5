"""Opening the database, migrating it, and the one way to write to it."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import sqlite_utils

from referee.store.migrations import migrations

DEFAULT_FILE = "referee.db"

# One lock per database file for the writers of this process. SQLite would serialize
# them too, but its busy handler sleeps and polls (up to 100 ms a try), which shows up
# as long tail latency when many referees tap at once; a lock wakes the next writer at
# once. BEGIN IMMEDIATE still guards against other processes.
_write_locks: dict[str, threading.Lock] = {}
_write_locks_guard = threading.Lock()


def _lock_for(db: sqlite_utils.Database) -> threading.Lock:
    name = getattr(db, "referee_path", None) or \
        db.conn.execute("PRAGMA database_list").fetchone()[2]
    with _write_locks_guard:
        return _write_locks.setdefault(name, threading.Lock())


def fetch(db: sqlite_utils.Database, sql: str, params: list | tuple = ()) -> list[dict]:
    """Rows as dicts, straight from the connection.

    sqlite-utils' query() wraps every read in a savepoint; on the hot path of a tap
    that doubles the statements for nothing.
    """
    cursor = db.conn.execute(sql, params)
    names = [c[0] for c in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def default_path() -> str:
    """The database path: $REFEREE_DB, else a file in the working folder."""
    return os.environ.get("REFEREE_DB") or DEFAULT_FILE


def _casefold(text: object) -> object:
    return text.casefold() if isinstance(text, str) else text


def connect(path: str | Path) -> sqlite_utils.Database:
    """Open a connection with foreign keys on and a wait instead of 'database is locked'."""
    conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
    # Search folds case as Python does, Russian included (store.players.search).
    conn.create_function("casefold", 1, _casefold, deterministic=True)
    db = sqlite_utils.Database(conn)
    db.referee_path = os.path.abspath(path)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 30000")
    # WAL makes NORMAL durable against application crashes; only a power cut may lose
    # the last commit, never corrupt the file.
    db.execute("PRAGMA synchronous = NORMAL")
    return db


def init(path: str | Path) -> sqlite_utils.Database:
    """Create or upgrade the database at path and return an open connection."""
    db = connect(path)
    with db.ensure_autocommit_on():
        db.execute("PRAGMA journal_mode = WAL")
    migrations.apply(db)
    return db


@contextlib.contextmanager
def write(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One write transaction, taken with BEGIN IMMEDIATE.

    IMMEDIATE takes the write lock up front, so two referees tapping the same player
    queue up behind each other and each reads the newest row before changing it.
    """
    if db.conn.in_transaction:
        raise RuntimeError("write() does not nest")
    from referee.store import ledger

    with _lock_for(db):
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            tx = db.referee_tx = ledger.begin(db)
            yield db
            ledger.flush(db, tx)
            ledger.seal(db, tx)  # a station's transaction becomes one fact of its log
        except BaseException:
            db.conn.execute("ROLLBACK")
            raise
        else:
            db.conn.execute("COMMIT")
        finally:
            db.referee_tx = None
