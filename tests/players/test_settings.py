"""The event's settings without the web: checked, written once, with one event."""

from __future__ import annotations

import json

import pytest

from referee.players import settings as event_settings
from referee.rules import RuleError
from referee.store import settings as settings_store


def test_submitted_trims_and_fills_what_is_missing():
    assert event_settings.submitted({"event_name": " Бал ", "other": "x"}) == {
        "event_name": "Бал", "death_minutes": "", "public_url": ""}


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
    ("public_url", 'http://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', event_settings.BAD_PUBLIC_URL),
    ("event_name", "x" * 121, "The event name is longer than 120 characters."),
])
def test_save_refuses_values_the_app_cannot_use(db, field, value, message):
    """Issue 12: the public URL took anything, quotes and markup included."""
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
