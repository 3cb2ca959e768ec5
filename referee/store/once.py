"""One-time keys: a form that creates something, sent twice, creates it once.

A create form carries a fresh, unguessable key (:func:`fresh`). The view runs the
creation inside :func:`claiming`: the first write transaction that commits there also
stores the key with the row it created, in that same transaction, so a crash can leave
neither a key without its object nor an object without its key. A later submission of
the same key (Back, then submit again; a second tap; a resent POST) finds the key as
soon as its transaction begins and raises :class:`Repeated` with what the first made,
having written nothing. BEGIN IMMEDIATE serialises writers, so even two submissions at
the same instant make one object.

The keys belong to this database alone. A form is sent back to the station that
rendered it, so no other station ever needs its key: ``once_keys`` is written straight,
not through :mod:`referee.store.fold`, and so never enters the station log, a founding
snapshot or the rewind of a late fact (like ``sessions`` and ``heard``).
"""

from __future__ import annotations

import contextlib
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlite_utils import Database

from referee.store import tables
from referee.store.clock import now
from referee.store.sql import fetch

_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")
# How long a used key is remembered: longer than any form is left open on a phone, or an
# API client retries, over an event's days. Older keys are dropped as new ones come, so
# the table holds about a week's creations; a form resent after that creates again.
KEPT = timedelta(days=7)


@dataclass(frozen=True)
class Made:
    """What the first submission of a key created: the table and the row's id (its
    storage id; a game's number is looked up from it), or None if it made no row."""

    table: str | None
    ref: int | None


class Repeated(Exception):
    """This key was used already; nothing was written this time."""

    def __init__(self, made: Made) -> None:
        super().__init__(made)
        self.made = made


def fresh() -> str:
    """A new key: 144 random bits, URL-safe (it may ride in the form page's address)."""
    return secrets.token_urlsafe(18)


def usable(text: object) -> str | None:
    """The key as sent, if it has a key's shape; anything else counts as no key."""
    return text if isinstance(text, str) and _SHAPE.fullmatch(text) else None


@contextlib.contextmanager
def claiming(db: Database, key: str | None, scope: str) -> Iterator[None]:
    """Inside: the first write that commits claims ``key`` (None: no key, as before).

    ``scope`` names the form (``coup``, ``api:players``...): a key is only ever
    recognised by the form it was made for."""
    if key is None:
        yield
        return
    db.referee_once = f"{scope}:{key}"  # type: ignore[attr-defined]  # ours, on sqlite-utils' object
    try:
        yield
    finally:
        db.referee_once = None  # type: ignore[attr-defined]  # ours, on sqlite-utils' object


def begin(db: Database, tx) -> None:
    """At BEGIN of a write (store.write): refuse a key already used, else hold it."""
    pending = getattr(db, "referee_once", None)
    if pending is None:
        return
    rows = fetch(db, "SELECT tbl, ref FROM once_keys WHERE key = ?", [pending])
    if rows:
        raise Repeated(Made(rows[0]["tbl"], rows[0]["ref"]))
    tx.once = pending


def made(tx, table: str, values: dict) -> None:
    """A row this transaction created (fold.row): the first one a key will name (of
    the tables a creation makes, store.tables)."""
    if tx.once is not None and tx.made is None and table in tables.made():
        tx.made = (table, values.get("id"))


def seal(db: Database, tx) -> None:
    """Before COMMIT (store.write): store the key with what was made. Later writes of
    the same claim (a creation done in steps) find the key already spent and go on."""
    if tx.once is None:
        return
    table, ref = tx.made or (None, None)
    db.conn.execute("INSERT INTO once_keys (key, tbl, ref, at) VALUES (?, ?, ?, ?)",
                    [tx.once, table, ref, now()])
    # the same ISO form as now(), so the text order is the time order
    cutoff = (datetime.now(UTC) - KEPT).isoformat(timespec="seconds")
    db.conn.execute("DELETE FROM once_keys WHERE at < ?", [cutoff])
    db.referee_once = None  # type: ignore[attr-defined]  # ours, on sqlite-utils' object
