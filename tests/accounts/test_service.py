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
    row = accounts.add_referee(db, "  Vera ", "pw12pw12pw", False, by=org_id)
    assert row["name"] == "Vera" and row["is_organizer"] == 0
    assert accounts.authenticate(db, "vera", "pw12pw12pw")["id"] == row["id"]
    assert accounts.authenticate(db, "vera", "wrong") is None
    assert accounts.authenticate(db, "nobody", "pw12pw12pw") is None
    assert "pw12pw12pw" not in row["password_hash"]


PASSWORD_RULE = ("The password needs at least 10 characters: a short sentence is easy to "
                 "remember and hard to guess.")


@pytest.mark.parametrize(("name", "password", "message"), [
    ("", "pw12pw12pw", "A referee name of 1 to 40 characters is required."),
    ("x" * 41, "pw12pw12pw", "A referee name of 1 to 40 characters is required."),
    ("Vera", "pw", PASSWORD_RULE),
    ("Vera", "nine-char", PASSWORD_RULE),                # 10 at least
    ("REF", "pw12pw12pw", "A referee called %(name)s already exists."),
])
def test_add_refuses_with_a_sentence(db, name, password, message):
    with pytest.raises(RuleError) as refused:
        accounts.add_referee(db, name, password, False, by=None)
    assert refused.value.message == message


def test_reset_and_switch_off_are_recorded_without_the_password(db, org_id):
    ref = referees.by_name(db, "ref")
    accounts.reset_password(db, ref["id"], "new-password", by=org_id)
    assert accounts.authenticate(db, "ref", "ref-password") is None
    assert accounts.authenticate(db, "ref", "new-password") is not None
    accounts.set_active(db, ref["id"], False, by=org_id)
    assert accounts.authenticate(db, "ref", "new-password") is None
    accounts.set_active(db, ref["id"], True, by=org_id)
    assert accounts.authenticate(db, "ref", "new-password") is not None
    logged = " ".join(r[0] for r in db.execute("SELECT changes FROM events WHERE kind='referee'"))
    assert "new-password" not in logged and '"reset"' in logged


def test_nobody_changes_their_own_account_or_a_missing_one(db, org_id):
    with pytest.raises(RuleError, match="your own account"):
        accounts.set_active(db, org_id, False, by=org_id)
    with pytest.raises(RuleError, match="your own account"):
        accounts.reset_password(db, org_id, "pw", by=org_id)
    with pytest.raises(RuleError, match="at least 10"):
        accounts.reset_password(db, org_id + 100, "pw", by=org_id)
    assert accounts.set_active(db, org_id + 100, False, by=org_id) is None


def test_production_hashes_with_scrypt_and_both_kinds_verify(monkeypatch):
    fast = accounts.hash_password("pw12pw12pw")
    assert fast.startswith("pbkdf2:")  # the suite's cheap hash (conftest)
    monkeypatch.delenv(accounts.FAST_HASH_FOR_TESTS)
    slow = accounts.hash_password("pw12pw12pw")
    assert slow.startswith("scrypt:")
    for stored in (fast, slow):
        assert check_password_hash(stored, "pw12pw12pw") and not check_password_hash(stored, "pw")


def test_ten_characters_are_enough_and_only_the_demo_has_short_passwords(db, org_id):
    assert accounts.add_referee(db, "Ten", "0123456789", False, by=org_id)["name"] == "Ten"
    with pytest.raises(RuleError, match="at least 10"):
        accounts.reset_password(db, referees.by_name(db, "ref")["id"], "short", by=org_id)
    assert accounts.add_referee(db, "demo", "demo", True, by=None, demo=True)
    assert accounts.authenticate(db, "demo", "demo") is not None
