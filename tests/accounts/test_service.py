"""Accounts without the web: adding, signing in, resetting and switching off."""

from __future__ import annotations

import pytest
from werkzeug.security import check_password_hash

from referee.accounts import service as accounts
from referee.rules import RuleError
from referee.store import referees


@pytest.fixture
def org_id(db):
    return referees.by_name(db, "org")["id"]


def test_add_then_authenticate_any_case(db, org_id):
    row = accounts.add_referee(db, "  Vera ", "pw12", False, by=org_id)
    assert row["name"] == "Vera" and row["is_organizer"] == 0
    assert accounts.authenticate(db, "vera", "pw12")["id"] == row["id"]
    assert accounts.authenticate(db, "vera", "wrong") is None
    assert accounts.authenticate(db, "nobody", "pw12") is None
    assert "pw12" not in row["password_hash"]


@pytest.mark.parametrize(("name", "password", "message"), [
    ("", "pw12", "A referee name of 1 to 40 characters is required."),
    ("x" * 41, "pw12", "A referee name of 1 to 40 characters is required."),
    ("Vera", "pw", "The password needs at least 4 characters."),
    ("REF", "pw12", "A referee called %(name)s already exists."),
])
def test_add_refuses_with_a_sentence(db, name, password, message):
    with pytest.raises(RuleError) as refused:
        accounts.add_referee(db, name, password, False, by=None)
    assert refused.value.message == message


def test_reset_and_switch_off_are_recorded_without_the_password(db, org_id):
    ref = referees.by_name(db, "ref")
    accounts.reset_password(db, ref["id"], "new-pass", by=org_id)
    assert accounts.authenticate(db, "ref", "ref-pass") is None
    assert accounts.authenticate(db, "ref", "new-pass") is not None
    accounts.set_active(db, ref["id"], False, by=org_id)
    assert accounts.authenticate(db, "ref", "new-pass") is None
    accounts.set_active(db, ref["id"], True, by=org_id)
    assert accounts.authenticate(db, "ref", "new-pass") is not None
    logged = " ".join(r[0] for r in db.execute("SELECT changes FROM events WHERE kind='referee'"))
    assert "new-pass" not in logged and '"reset"' in logged


def test_nobody_changes_their_own_account_or_a_missing_one(db, org_id):
    with pytest.raises(RuleError, match="your own account"):
        accounts.set_active(db, org_id, False, by=org_id)
    with pytest.raises(RuleError, match="your own account"):
        accounts.reset_password(db, org_id, "pw", by=org_id)
    with pytest.raises(RuleError, match="at least 4"):
        accounts.reset_password(db, org_id + 100, "pw", by=org_id)
    assert accounts.set_active(db, org_id + 100, False, by=org_id) is None


def test_production_hashes_with_scrypt_and_both_kinds_verify(monkeypatch):
    fast = accounts.hash_password("pw12")
    assert fast.startswith("pbkdf2:")  # the suite's cheap hash (conftest)
    monkeypatch.delenv(accounts.FAST_HASH_FOR_TESTS)
    slow = accounts.hash_password("pw12")
    assert slow.startswith("scrypt:")
    for stored in (fast, slow):
        assert check_password_hash(stored, "pw12") and not check_password_hash(stored, "pw")
