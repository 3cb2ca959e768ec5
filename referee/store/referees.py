"""Referee and organizer accounts and API tokens, as stored (hashing: accounts.service)."""

from __future__ import annotations

import hashlib
import secrets

from sqlite_utils import Database

from referee.store.db import fetch
from referee.store.events import now


def get(db: Database, referee_id: int) -> dict | None:
    """One account, or None."""
    rows = fetch(db, "SELECT * FROM referees WHERE id = ?", [referee_id])
    return rows[0] if rows else None


def by_name(db: Database, name: str) -> dict | None:
    """The account with this name (any case), or None."""
    rows = fetch(db, "SELECT * FROM referees WHERE name = ? COLLATE NOCASE", [name])
    return rows[0] if rows else None


def all_referees(db: Database) -> list[dict]:
    """Every account, by name."""
    return fetch(db, "SELECT * FROM referees ORDER BY name COLLATE NOCASE")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(db: Database, referee_id: int) -> str:
    """A new bearer token for the API; only its hash is stored."""
    token = secrets.token_urlsafe(32)
    db["api_tokens"].insert(
        {"token_hash": _digest(token), "referee_id": referee_id, "created_at": now()})
    return token


def by_token(db: Database, token: str) -> dict | None:
    """The active account a bearer token belongs to, or None."""
    rows = fetch(db,
        "SELECT r.* FROM api_tokens t JOIN referees r ON r.id = t.referee_id "
        "WHERE t.token_hash = ? AND r.active = 1", [_digest(token)])
    return rows[0] if rows else None
