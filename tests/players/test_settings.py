"""The event's settings without the web: checked, written once, with one event."""

from __future__ import annotations

import json

import pytest

from referee.players import settings as event_settings
from referee.rules import RuleError
from referee.store import settings as settings_store


def test_submitted_trims_and_fills_what_is_missing():
    assert event_settings.submitted({"event_name": " Бал ", "other": "x"}) == {
        "event_name": "Бал", "death_minutes": "", "public_url": "", "token_days": ""}


def test_save_writes_only_changes_with_one_event(db):
    new = {"event_name": "Бал", "death_minutes": "10", "public_url": ""}
    values = event_settings.save(db, None, new)
    stored = settings_store.get_all(db)
    assert {key: values[key] for key in new} == new == {key: stored[key] for key in new}
    changes = json.loads(db.execute(
        "SELECT changes FROM events WHERE kind = 'settings'").fetchone()[0])
    assert set(changes) == {"event_name", "death_minutes"}
    event_settings.save(db, None, new)  # nothing changed: no second event
    assert db.execute("SELECT count(*) FROM events WHERE kind = 'settings'").fetchone()[0] == 1


TOKEN_DAYS_RULE = "An API token's life must be a whole number of days from 1 to 365."


@pytest.mark.parametrize(("field", "value", "message"), [
    ("death_minutes", "-3", "Minutes until death must be a whole number from 0 to 1440."),
    ("death_minutes", "1441", "Minutes until death must be a whole number from 0 to 1440."),
    ("public_url", 'ftp://x', event_settings.BAD_PUBLIC_URL),
    ("public_url", 'http://10.0.0.1:8080/"><b>x</b>', event_settings.BAD_PUBLIC_URL),
    ("public_url", 'http://a b', event_settings.BAD_PUBLIC_URL),
    ("public_url", 'http://', event_settings.BAD_PUBLIC_URL),
    ("public_url", 'http://10.0.0.1:port', event_settings.BAD_PUBLIC_URL),
    ("public_url", 'https://user:pw@10.0.0.1', event_settings.BAD_PUBLIC_URL),
    ("public_url", 'http://x/\u2028', event_settings.BAD_PUBLIC_URL),
    ("public_url", 'javascript:alert(1)', event_settings.BAD_PUBLIC_URL),
    ("public_url", 'http://' + 'a' * 200, event_settings.BAD_PUBLIC_URL),
    ("event_name", "x" * 121, "The event name is longer than 120 characters."),
    ("token_days", "0", TOKEN_DAYS_RULE),
    ("token_days", "366", TOKEN_DAYS_RULE),
    ("token_days", "²", TOKEN_DAYS_RULE),
    ("token_days", "9" * 5000, TOKEN_DAYS_RULE),
])
def test_save_refuses_values_the_app_cannot_use(db, field, value, message):
    """A value the app cannot use (a public URL with quotes, markup or no host, a name or
    a token life out of range) is refused, and nothing is saved."""
    new = {"event_name": "", "death_minutes": "0", "public_url": "", field: value}
    with pytest.raises(RuleError) as refused:
        event_settings.save(db, None, new)
    assert refused.value.message == message
    assert db.execute("SELECT count(*) FROM events WHERE kind = 'settings'").fetchone()[0] == 0


@pytest.mark.parametrize("url", ["http://192.168.1.10:8080", "https://camp.example/ref/",
                                 "http://[fe80::1]:8080", "http://laptop.local"])
def test_a_public_url_the_phones_can_open_is_kept(db, url):
    new = {"event_name": "", "death_minutes": "0", "public_url": url}
    assert event_settings.save(db, None, new)["public_url"] == url


def test_the_token_life_is_a_setting_and_new_tokens_follow_it(db):
    """30 days by default, a setting; a form without the field (an
    old screen) keeps the value."""
    from datetime import UTC, datetime

    from referee.store import referees
    ref = referees.by_name(db, "ref")["id"]

    def days_of_new_token() -> float:
        referees.issue_token(db, ref)
        expires = db.execute("SELECT expires_at FROM api_tokens ORDER BY rowid DESC "
                             "LIMIT 1").fetchone()[0]
        return (datetime.fromisoformat(expires) - datetime.now(UTC)).total_seconds() / 86400

    assert 29.9 < days_of_new_token() <= 30
    new = {"event_name": "", "death_minutes": "0", "public_url": "", "token_days": "7"}
    assert event_settings.save(db, None, new)["token_days"] == "7"
    assert 6.9 < days_of_new_token() <= 7
    del new["token_days"]
    assert event_settings.save(db, None, new)["token_days"] == "7"
