"""SQLite storage through sqlite-utils: migrations, the event log and projections."""

from referee.store.db import connect, default_path, init, write

__all__ = ["connect", "default_path", "init", "write"]
