"""The database: migrations, WAL, foreign keys, an append-only log written with the row."""

from __future__ import annotations

import sqlite3

import pytest

from referee import store
from referee.players import service as players
from referee.rules import RuleError
from referee.store.migrations import migrations


def test_init_is_repeatable_and_uses_wal(tmp_path):
    path = tmp_path / "x.db"
    store.init(path).close()
    db = store.init(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert [m.name for m in migrations.applied(db)] == [m.name for m in migrations.pending(
        store.connect(path.parent / "fresh.db"))]
    assert {"players", "events", "referees", "settings", "api_tokens"} <= set(db.table_names())


def test_default_path_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("REFEREE_DB", "/tmp/somewhere.db")
    assert store.default_path() == "/tmp/somewhere.db"
    monkeypatch.delenv("REFEREE_DB")
    assert store.default_path() == "referee.db"


def test_events_cannot_be_updated_or_deleted(db, player):
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE events SET reason = 'x'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM events")


def test_an_event_for_a_missing_player_is_refused_by_the_foreign_key(db):
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO events (at, kind, changes, player_id) VALUES ('t', 'x', '{}', 999)")


def test_a_refused_change_writes_neither_row_nor_event(db, player):
    before = db.execute("SELECT count(*) FROM events").fetchone()[0]
    with pytest.raises(RuleError):
        players.adjust(db, None, player["id"], {"cartridges": 1, "hp": -9})
    assert db.execute("SELECT count(*) FROM events").fetchone()[0] == before
    assert db["players"].get(player["id"])["cartridges"] == 3


def test_row_and_event_are_one_transaction(db, player, monkeypatch):
    # If writing the event fails, the stat change is rolled back with it.
    from referee.store import events

    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("disk full")

    monkeypatch.setattr(events, "record", broken)
    with pytest.raises(sqlite3.OperationalError):
        players.adjust(db, None, player["id"], {"hp": -1})
    assert db["players"].get(player["id"])["hp"] == 3


def test_m005_adds_notes_to_a_log_that_already_has_events(tmp_path):
    # a database from before m005, with history, upgraded by `referee init`
    db = store.connect(tmp_path / "old.db")
    migrations.apply(db, stop_before="m005_event_notes")
    db.execute("INSERT INTO events (at, kind, changes, reason) VALUES ('t', 'adjust', '{}', "
               "'засада')")
    db.conn.commit()
    db = store.init(tmp_path / "old.db")
    assert [tuple(r) for r in db.execute("SELECT kind, reason, note FROM events")] == \
        [("adjust", "засада", None)]
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE events SET note = '{}'")


def test_running_games_are_the_latest_touched_in_progress(db):
    from referee.store import games

    for title, status, at in [("old", "in_progress", "2026-01-01"),
                              ("done", "finished", "2026-01-03"),
                              ("new", "in_progress", "2026-01-02")]:
        db.execute("INSERT INTO games (kind, title, setup, status, version, created_at, "
                   "updated_at) VALUES ('coup', ?, '{}', ?, 0, 't', ?)", [title, status, at])
    assert [g["title"] for g in games.running(db)] == ["new", "old"]
    assert [g["title"] for g in games.running(db, limit=1)] == ["new"]
