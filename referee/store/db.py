"""Opening the database, migrating it, and the one way to write to it."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import sqlite_utils

from referee.store import ledger, once
from referee.store.migrations import migrations
from referee.store.sql import fetch as fetch  # reading rows is sql's; callers find it here
from referee.store.sql import where as where

DEFAULT_FILE = "referee.db"

# One lock per database file for the writers of this process. SQLite would serialize
# them too, but its busy handler sleeps and polls (up to 100 ms a try), which shows up
# as long tail latency when many referees tap at once; a lock wakes the next writer at
# once. BEGIN IMMEDIATE still guards against other processes.
_write_locks: dict[str, threading.Lock] = {}
_write_locks_guard = threading.Lock()


def _path_of(db: sqlite_utils.Database) -> str:
    return getattr(db, "referee_path", None) or \
        db.conn.execute("PRAGMA database_list").fetchone()[2]


def _lock_for(db: sqlite_utils.Database) -> threading.Lock:
    name = _path_of(db)
    with _write_locks_guard:
        return _write_locks.setdefault(name, threading.Lock())


class Durability:
    """Group commit: a write is answered only once the disk holds it, and one fsync
    covers every commit made while the last one ran.

    Transactions commit with synchronous=NORMAL, which in WAL mode writes the commit's
    frames to the WAL file without waiting for the disk. Then each writer, after giving
    up the write lock, waits here until an fsync of the WAL file that began after its
    commit has finished. fsync(2) flushes the file, whichever descriptor names it, so
    this is the guarantee of synchronous=FULL (a commit that was answered survives a
    power cut), paid once for all the writers that queue behind one disk flush instead
    of once each. A later commit's flush covers the earlier ones: the WAL is written
    in order."""

    def __init__(self, path: str) -> None:
        self.wal = path + "-wal"
        self.path = path
        self.cond = threading.Condition()
        self.committed = 0   # commits made (numbered in commit order, under the lock)
        self.flushed = 0     # commits a finished fsync covers
        self.flushing = False

    def committed_one(self) -> int:
        """Count a commit just made (the write lock is still held); its ticket."""
        with self.cond:
            self.committed += 1
            return self.committed

    def wait(self, ticket: int) -> None:
        """Return once the commit ``ticket`` is on the disk: flush, or wait for the
        flush under way and then flush again if it began too early."""
        with self.cond:
            while self.flushed < ticket:
                if self.flushing:
                    self.cond.wait()
                    continue
                self.flushing, target = True, self.committed
                self.cond.release()
                try:
                    self._fsync()
                finally:
                    self.cond.acquire()
                    self.flushing = False
                    self.cond.notify_all()
                self.flushed = max(self.flushed, target)

    def _fsync(self) -> None:
        for name in (self.wal, self.path):  # no WAL file: the commit is in the database
            try:
                fd = os.open(name, os.O_RDONLY)
            except FileNotFoundError:
                continue
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            return


_durability: dict[str, Durability] = {}


def durability_for(db: sqlite_utils.Database) -> Durability:
    """The group commit of this database file."""
    name = _path_of(db)
    with _write_locks_guard:
        return _durability.setdefault(name, Durability(name))


def default_path() -> str:
    """The database path: $REFEREE_DB, else a file in the working folder."""
    return os.environ.get("REFEREE_DB") or DEFAULT_FILE


def _casefold(text: str | None) -> str | None:
    return text.casefold() if isinstance(text, str) else text


def connect(path: str | Path) -> sqlite_utils.Database:
    """Open a connection with foreign keys on and a wait instead of 'database is locked'."""
    conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
    # Search folds case as Python does, Russian included (store.players.search).
    conn.create_function("casefold", 1, _casefold, deterministic=True)
    db = sqlite_utils.Database(conn)
    db.referee_path = os.path.abspath(path)  # type: ignore[attr-defined]  # ours, on sqlite-utils' object
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 30000")
    # NORMAL: a commit does not wait for the disk here; write() waits for it, once for
    # all the commits that queue behind one flush (Durability).
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
    queue up behind each other and each reads the newest row before changing it. The
    block ends once the disk holds the commit (Durability), with the lock already given
    to the next writer.
    """
    if db.conn.in_transaction:
        raise RuntimeError("write() does not nest")

    durable = durability_for(db)
    ticket = 0  # none if the transaction rolled back
    with _lock_for(db):
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            tx = db.referee_tx = ledger.begin(db)  # type: ignore[attr-defined]  # ours, on sqlite-utils' object
            once.begin(db, tx)  # a form's key used already: Repeated, nothing written
            yield db
            once.seal(db, tx)
            ledger.flush(db, tx)
            ledger.seal(db, tx)  # a station's transaction becomes one fact of its log
        except BaseException:
            db.conn.execute("ROLLBACK")
            raise
        else:
            db.conn.execute("COMMIT")
            ticket = durable.committed_one()
        finally:
            db.referee_tx = None  # type: ignore[attr-defined]  # ours, on sqlite-utils' object
    if ticket:
        durable.wait(ticket)
