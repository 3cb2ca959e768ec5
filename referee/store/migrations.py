"""Schema changes, in order. Never edit an applied migration: add a new one."""

from __future__ import annotations

import secrets

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

migrations = Migrations("referee")


@migrations()
def m001_initial(db: Database) -> None:
    """Referees, players, the append-only event log, settings and API tokens."""
    db["referees"].create(
        {
            "id": int,
            "name": str,
            "password_hash": str,
            "is_organizer": int,
            "active": int,
            "created_at": str,
        },
        pk="id",
        not_null={"name", "password_hash", "is_organizer", "active", "created_at"},
        defaults={"is_organizer": 0, "active": 1},
    )
    db.execute("CREATE UNIQUE INDEX referees_name ON referees(name COLLATE NOCASE)")

    db["players"].create(
        {
            "id": int,
            "character": str,
            "player": str,
            "hp": int,
            "hp_max": int,
            "chance": int,
            "chance_max": int,
            "cartridges": int,
            "level": int,
            "status": str,
            "suit": str,
            "duel_deck": str,
            "notes": str,
            "passport_token": str,
            "wounded_at": str,
            "version": int,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        not_null={"character", "hp", "hp_max", "chance", "chance_max", "cartridges",
                  "level", "status", "suit", "duel_deck", "passport_token", "version"},
        defaults={"player": "", "notes": "", "version": 0, "status": "active"},
    )
    db["players"].create_index(["passport_token"], unique=True)
    db["players"].create_index(["character"])

    db["events"].create(
        {
            "id": int,
            "at": str,
            "referee_id": int,
            "player_id": int,
            "kind": str,
            "changes": str,
            "reason": str,
            "undoes": int,
        },
        pk="id",
        not_null={"at", "kind", "changes"},
        foreign_keys=[("referee_id", "referees", "id"), ("player_id", "players", "id"),
                      ("undoes", "events", "id")],
    )
    db["events"].create_index(["player_id", "id"])
    # An event is undone at most once: the database itself refuses a second undo.
    db.execute("CREATE UNIQUE INDEX events_undoes ON events(undoes) WHERE undoes IS NOT NULL")
    # The log is append-only: history is never rewritten, undo appends.
    db.execute(
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
    )

    db["settings"].create({"key": str, "value": str}, pk="key")
    db["settings"].insert_all(
        [
            {"key": "secret_key", "value": secrets.token_hex(32)},
            {"key": "event_name", "value": ""},
            {"key": "death_minutes", "value": "0"},
            {"key": "public_url", "value": ""},
        ]
    )

    db["api_tokens"].create(
        {"token_hash": str, "referee_id": int, "created_at": str},
        pk="token_hash",
        foreign_keys=[("referee_id", "referees", "id")],
    )
