"""Referee and organizer accounts and API tokens, as stored (hashing: accounts.service)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta

from sqlite_utils import Database

from referee.store import settings
from referee.store.db import fetch
from referee.store.events import now
from referee.store.sql import fetch_one


def get(db: Database, referee_id: int) -> dict | None:
    """One account, or None."""
    return fetch_one(db, "SELECT * FROM referees WHERE id = ?", [referee_id])


def by_name(db: Database, name: str) -> dict | None:
    """The account with this name (any case), or None."""
    return fetch_one(db, "SELECT * FROM referees WHERE name = ? COLLATE NOCASE", [name])


def all_referees(db: Database) -> list[dict]:
    """Every account, by name."""
    return fetch(db, "SELECT * FROM referees ORDER BY name COLLATE NOCASE")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


TOKEN_DAYS = 30  # an API token's life unless the event's settings say otherwise
# A token works while its account is on, in the epoch it was made in, and not expired.
_TOKEN_WORKS = "r.active = 1 AND t.epoch = r.epoch AND t.expires_at > ?"


def _epoch(db: Database, referee_id: int) -> int:
    return db.execute("SELECT epoch FROM referees WHERE id = ?", [referee_id]).fetchone()[0]


def token_days(db: Database) -> int:
    """How many days a new API token works: the event's setting (checked when saved),
    else TOKEN_DAYS."""
    days = settings.get(db, "token_days")
    if days.isascii() and days.isdigit() and 0 < len(days) <= 3 and int(days) > 0:
        return int(days)
    return TOKEN_DAYS


def issue_token(db: Database, referee_id: int) -> str:
    """A new bearer token for the API, good for the event's token_days setting (checked
    when saved; TOKEN_DAYS if unreadable); only its hash is stored."""
    token = secrets.token_urlsafe(32)
    expires = (datetime.now(UTC) + timedelta(days=token_days(db))).isoformat(timespec="seconds")
    db.table("api_tokens").insert(
        {"token_hash": _digest(token), "referee_id": referee_id, "created_at": now(),
         "epoch": _epoch(db, referee_id), "expires_at": expires})
    return token


# Tokens that worked, by database file and hash: the tally they were read at (an account,
# token or setting changed since moves it: store.migrations.m018_config_tally), the
# account, and when the token expires. Read again once the tally moved, so a reset
# password, a switched-off account or a revoked token ends the token at the next call.
_WORKED: dict[tuple[str, str], tuple[int, dict, str]] = {}
_WORKED_MAX = 4096  # a few per referee's phone; forgotten all at once beyond this


def by_token(db: Database, token: str, tally: int | None = None) -> dict | None:
    """The active account a bearer token belongs to, or None: not once it expired, nor
    after the account's password was reset or the account switched off (its epoch).

    ``tally``: the config tally (settings.config_tally) as this request read it; an
    answer found at that tally is given again from memory, without the join."""
    digest, at = _digest(token), now()
    if tally is None:
        tally = settings.config_tally(db)
    key = (getattr(db, "referee_path", None) or "", digest)
    seen = _WORKED.get(key)
    if seen is not None and seen[0] == tally and seen[2] > at:
        return dict(seen[1])
    rows = fetch(db, "SELECT r.*, t.expires_at AS token_expires_at FROM api_tokens t JOIN "
                     f"referees r ON r.id = t.referee_id WHERE t.token_hash = ? AND "
                     f"{_TOKEN_WORKS}", [digest, at])
    if not rows:
        _WORKED.pop(key, None)
        return None
    row = rows[0]
    expires = row.pop("token_expires_at")
    if len(_WORKED) >= _WORKED_MAX:
        _WORKED.clear()
    _WORKED[key] = (tally, row, expires)
    return dict(row)


def live_tokens(db: Database) -> list[dict]:
    """Every API token that still works, newest first, with its referee's name."""
    return fetch(db,
        "SELECT t.token_hash, t.created_at, t.expires_at, r.name, r.id AS referee_id "
        f"FROM api_tokens t JOIN referees r ON r.id = t.referee_id WHERE {_TOKEN_WORKS} "
        "ORDER BY t.created_at DESC, r.name", [now()])


def revoke_token(db: Database, token_hash: str) -> dict | None:
    """End one working API token now (it expires this second); the token as it was, or
    None if it did not work anyway."""
    rows = fetch(db, "SELECT t.*, r.name FROM api_tokens t JOIN referees r "
                     f"ON r.id = t.referee_id WHERE t.token_hash = ? AND {_TOKEN_WORKS}",
                 [token_hash, now()])
    if rows:
        db.execute("UPDATE api_tokens SET expires_at = ? WHERE token_hash = ?",
                   [now(), token_hash])
    return rows[0] if rows else None


def start_session(db: Database, referee_id: int) -> str:
    """A browser's sign-in: its secret id (only the hash is kept here)."""
    sid = secrets.token_urlsafe(32)
    db.table("sessions").insert({"sid_hash": _digest(sid), "referee_id": referee_id,
                           "epoch": _epoch(db, referee_id), "created_at": now(),
                           "ended_at": None})
    return sid


def by_session(db: Database, sid: str) -> dict | None:
    """The active account a sign-in belongs to, or None once it was signed out, the
    password reset or the account switched off."""
    return fetch_one(db,
        "SELECT r.* FROM sessions s JOIN referees r ON r.id = s.referee_id "
        "WHERE s.sid_hash = ? AND s.ended_at IS NULL AND r.active = 1 AND s.epoch = r.epoch",
        [_digest(sid)])


def end_session(db: Database, sid: str) -> None:
    db.execute("UPDATE sessions SET ended_at = ? WHERE sid_hash = ? AND ended_at IS NULL",
               [now(), _digest(sid)])
