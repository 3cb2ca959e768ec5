"""Referee accounts: passwords, signing in, adding, resetting and switching off.

The web page, the JSON API's token call, the CLI and the demo all come here; none of
them hashes a password or writes an account itself.
"""

from __future__ import annotations

import functools
import os

from sqlite_utils import Database
from werkzeug.security import check_password_hash, generate_password_hash

from referee.rules import N_, RuleError
from referee.store import events, fold, referees, write
from referee.store.ledger import new_id

NAME_LIMIT = 40
# At least 10 characters, where the name-as-password accounts of the demo
# (demo / demo) are the one exception, made by the demo loader only.
PASSWORD_MIN = 10

# Set to 1 by the test suite only: a hash that costs microseconds instead of scrypt's
# half second, which would otherwise be most of the suite's time. The method is stored
# in each hash, so hashes of either kind verify whatever the variable says.
FAST_HASH_FOR_TESTS = "REFEREE_FAST_HASH_FOR_TESTS"
FAST_METHOD = "pbkdf2:sha256:1"


def _method() -> str:
    return FAST_METHOD if os.environ.get(FAST_HASH_FOR_TESTS) == "1" else "scrypt"


def hash_password(password: str) -> str:
    """A salted, slow hash (werkzeug's scrypt); the method is stored in the hash."""
    return generate_password_hash(password, method=_method())


@functools.cache
def _dummy_hash(method: str) -> str:
    # Made on first use, not at import: every `referee` command would pay for it.
    return generate_password_hash("not-a-password", method=method)


def authenticate(db: Database, name: str, password: str) -> dict | None:
    """The active account with this name and password, or None."""
    row = referees.by_name(db, name or "")
    if row is None:
        # A wrong name takes as long as a wrong password: logins do not reveal names.
        check_password_hash(_dummy_hash(_method()), password or "")
        return None
    if not check_password_hash(row["password_hash"], password or "") or not row["active"]:
        return None
    return row


def _check_password(password: str | None, demo: bool = False) -> str:
    if not password or (len(password) < PASSWORD_MIN and not demo):
        raise RuleError(None, N_("The password needs at least 10 characters: a short "
                                 "sentence is easy to remember and hard to guess."))
    return password


def add_referee(db: Database, name: str, password: str, organizer: bool,
                by: int | None, *, demo: bool = False) -> dict:
    """Create an account; the event records who added whom. ``demo`` lets the demo's
    accounts have their short, public passwords."""
    name = (name or "").strip()
    if not name or len(name) > NAME_LIMIT:
        raise RuleError(None, N_("A referee name of 1 to 40 characters is required."))
    password = _check_password(password, demo)
    with write(db):
        if referees.by_name(db, name):
            raise RuleError(None, N_("A referee called %(name)s already exists."), name=name)
        rid = new_id(db, "referees")
        fold.row(db, "referees", {
            "id": rid, "name": name, "password_hash": hash_password(password),
            "is_organizer": int(organizer), "active": 1, "created_at": events.now(),
        })
        events.record(db, referee_id=by, player_id=None, kind="referee",
                      changes={"referee": {"before": None, "after": name},
                               "organizer": {"before": None, "after": bool(organizer)}})
    added = referees.get(db, rid)
    assert added is not None  # stored just above; accounts are switched off, never deleted
    return added


def _not_yourself(referee_id: int, by: int) -> None:
    # An organizer who switched themselves off could lock everyone out of this page.
    if referee_id == by:
        raise RuleError(None, N_("You cannot change your own account here."))


def _set_account(db: Database, referee_id: int, by: int, values: dict) -> dict | None:
    with write(db):
        row = referees.get(db, referee_id)
        if row is None:
            return None
        if "password_hash" in values or values.get("active") == 0:
            # Its sessions and API tokens end, on every station, for good.
            values = {**values, "epoch": row["epoch"] + 1}
        fold.change(db, "referees", {"id": referee_id}, values)
        changes = {"referee": {"before": row["name"], "after": row["name"]}}
        if "active" in values:
            changes["active"] = {"before": bool(row["active"]), "after": bool(values["active"])}
        if "password_hash" in values:
            # Never log a password or its hash: only that it was reset.
            changes["password"] = {"before": "", "after": "reset"}
        events.record(db, referee_id=by, player_id=None, kind="referee", changes=changes)
    return referees.get(db, referee_id)


def reset_password(db: Database, referee_id: int, password: str, by: int) -> dict | None:
    """Give another referee a new password (their sessions end); None if no such account."""
    _not_yourself(referee_id, by)
    values = {"password_hash": hash_password(_check_password(password))}
    return _set_account(db, referee_id, by, values)


def set_active(db: Database, referee_id: int, active: bool, by: int) -> dict | None:
    """Switch another referee's account off (signed out at once) or on again."""
    _not_yourself(referee_id, by)
    return _set_account(db, referee_id, by, {"active": int(active)})


def revoke_token(db: Database, token_hash: str, by: int) -> dict | None:
    """An organizer ends one API token (a lost phone, a client gone); None if it no
    longer works anyway. Recorded as an event naming the account, never the token."""
    with write(db):
        row = referees.revoke_token(db, token_hash)
        if row is not None:
            events.record(db, referee_id=by, player_id=None, kind="referee", changes={
                "referee": {"before": row["name"], "after": row["name"]},
                "token": {"before": row["created_at"], "after": "revoked"}})
    return row
