"""The first schema changes, m001–m006: one station's event (referees, players, the log,
settings, tokens), the games and Berserk's squads. Registered in order by
:mod:`referee.store.migrations`; never edit one: add a new migration there."""

from __future__ import annotations

import json
import secrets

from sqlite_utils import Database


def m001_initial(db: Database) -> None:
    """Referees, players, the append-only event log, settings and API tokens.

    Long because a schema is one piece: it is applied once and never edited."""
    db.table("referees").create(
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

    db.table("players").create(
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
    db.table("players").create_index(["passport_token"], unique=True)
    db.table("players").create_index(["character"])

    db.table("events").create(
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
    db.table("events").create_index(["player_id", "id"])
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

    db.table("settings").create({"key": str, "value": str}, pk="key")
    db.table("settings").insert_all(
        [
            {"key": "secret_key", "value": secrets.token_hex(32)},
            {"key": "event_name", "value": ""},
            {"key": "death_minutes", "value": "0"},
            {"key": "public_url", "value": ""},
        ]
    )

    db.table("api_tokens").create(
        {"token_hash": str, "referee_id": int, "created_at": str},
        pk="token_hash",
        foreign_keys=[("referee_id", "referees", "id")],
    )


def m002_duels(db: Database) -> None:
    """Card duels (D1–D14), stored as their append-only log of actions (a schema is one
    piece, applied once and never edited: hence its length).

    A duel's state is never stored: it is rebuilt by replaying the start snapshots and
    the actions not undone. ``status``, ``winner`` and ``reason`` are a projection for
    lists; ``version`` counts the log rows, so a stale form is recognised (409).
    """
    db.table("duels").create(
        {
            "id": int,
            "a": int,
            "b": int,
            "a_start": str,
            "b_start": str,
            "status": str,
            "winner": str,
            "reason": str,
            "version": int,
            "created_at": str,
            "updated_at": str,
            "created_by": int,
        },
        pk="id",
        not_null={"a", "b", "a_start", "b_start", "status", "version", "created_at",
                  "updated_at"},
        foreign_keys=[("a", "players", "id"), ("b", "players", "id"),
                      ("created_by", "referees", "id")],
    )
    db.table("duels").create_index(["a", "id"])
    db.table("duels").create_index(["b", "id"])

    # kind: start, round, extension or undo; an undo row names the row it undoes, and
    # `events` lists the player events written with the row (JSON ids).
    db.table("duel_actions").create(
        {
            "id": int,
            "duel_id": int,
            "seq": int,
            "kind": str,
            "action": str,
            "events": str,
            "at": str,
            "referee_id": int,
            "undoes": int,
        },
        pk="id",
        not_null={"duel_id", "seq", "kind", "action", "events", "at"},
        foreign_keys=[("duel_id", "duels", "id"), ("referee_id", "referees", "id"),
                      ("undoes", "duel_actions", "id")],
    )
    # Two referees recording the same step of a duel collide here even if a version
    # check were skipped: one seq per duel, one undo per action.
    db.execute("CREATE UNIQUE INDEX duel_actions_seq ON duel_actions(duel_id, seq)")
    db.execute("CREATE UNIQUE INDEX duel_actions_undoes ON duel_actions(undoes) "
               "WHERE undoes IS NOT NULL")
    db.execute(
        "CREATE TRIGGER duel_actions_no_update BEFORE UPDATE ON duel_actions "
        "BEGIN SELECT RAISE(ABORT, 'duel actions are append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER duel_actions_no_delete BEFORE DELETE ON duel_actions "
        "BEGIN SELECT RAISE(ABORT, 'duel actions are append-only'); END"
    )


def m003_games(db: Database) -> None:
    """Game tables (Coup, Berserk, Underworld): a setup and its append-only actions."""
    db.table("games").create(
        {"id": int, "kind": str, "title": str, "setup": str, "status": str, "version": int,
         "created_by": int, "created_at": str, "updated_at": str},
        pk="id",
        not_null={"kind", "setup", "status", "version", "created_at", "updated_at"},
        defaults={"title": "", "version": 0, "status": "in_progress"},
        foreign_keys=[("created_by", "referees", "id")],
    )
    db.table("games").create_index(["kind", "id"])
    db.table("game_players").create(
        {"game_id": int, "player_id": int, "seat": int},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    db.table("game_players").create_index(["player_id"])
    db.table("game_actions").create(
        {"id": int, "game_id": int, "seq": int, "action": str, "at": str, "referee_id": int,
         "undoes": int},
        pk="id",
        not_null={"game_id", "seq", "at"},
        foreign_keys=[("game_id", "games", "id"), ("referee_id", "referees", "id"),
                      ("undoes", "game_actions", "id")],
    )
    db.table("game_actions").create_index(["game_id", "seq"], unique=True)
    db.execute("CREATE UNIQUE INDEX game_actions_undoes ON game_actions(undoes) "
               "WHERE undoes IS NOT NULL")
    for verb in ("UPDATE", "DELETE"):
        db.execute(f"CREATE TRIGGER game_actions_no_{verb.lower()} BEFORE {verb} ON "
                   "game_actions BEGIN SELECT RAISE(ABORT, 'game actions are append-only'); "
                   "END")


def m004_berserk_squads(db: Database) -> None:
    """Berserk-style squads (B12–B14) saved for a player, with every save kept.

    ``berserk_squads`` holds the current squad (a projection for lists); each save
    appends a ``berserk_squad_edits`` row with who, when and the whole squad, so an
    edit is never lost and ``version`` (the number of saves) refuses a stale form.
    """
    db.table("berserk_squads").create(
        {"id": int, "player_id": int, "name": str, "deck": str, "seat": str, "cards": str,
         "settings": str, "version": int, "created_by": int, "created_at": str,
         "updated_by": int, "updated_at": str},
        pk="id",
        not_null={"player_id", "name", "deck", "seat", "cards", "settings", "version",
                  "created_at", "updated_at"},
        defaults={"name": "", "version": 1},
        foreign_keys=[("player_id", "players", "id"), ("created_by", "referees", "id"),
                      ("updated_by", "referees", "id")],
    )
    db.table("berserk_squads").create_index(["player_id", "id"])
    db.table("berserk_squad_edits").create(
        {"id": int, "squad_id": int, "seq": int, "at": str, "referee_id": int, "squad": str},
        pk="id",
        not_null={"squad_id", "seq", "at", "squad"},
        foreign_keys=[("squad_id", "berserk_squads", "id"), ("referee_id", "referees", "id")],
    )
    db.table("berserk_squad_edits").create_index(["squad_id", "seq"], unique=True)
    for verb in ("UPDATE", "DELETE"):
        db.execute(f"CREATE TRIGGER berserk_squad_edits_no_{verb.lower()} BEFORE {verb} ON "
                   "berserk_squad_edits BEGIN SELECT RAISE(ABORT, 'squad edits are "
                   "append-only'); END")


def m005_event_notes(db: Database) -> None:
    """``events.note``: a reason the app wrote itself, kept as its message and values.

    ``reason`` stays the text as written (English for app-made reasons); ``note`` holds
    ``{"msg": msgid, "params": {...}}`` so every reader sees it in their own language.
    Older app-made events keep the text they were written with. Adding a column does not
    touch existing rows, so the append-only triggers stand.
    """
    db.execute("ALTER TABLE events ADD COLUMN note TEXT")


def m006_one_game_store(db: Database) -> None:
    """Duels join the other games: one store of setups and append-only steps.

    Every game gets a number within its kind (what URLs, screens and the API call its
    id); existing games keep their id as their number, and each duel keeps its own id
    as its number, so old links, records and "duel #3" on the players' events still
    fit. Each step now names the player events it wrote (``events``), which is what its
    undo compensates; steps stored before keep NULL there. A duel's setup is its two
    start snapshots; its start, rounds, decisions and undos become its steps, with their
    referees, times and events. Nothing is lost: every row is copied before the duel
    tables go.
    """
    db.execute("ALTER TABLE games ADD COLUMN number INTEGER")
    db.execute("UPDATE games SET number = id")
    db.execute("CREATE UNIQUE INDEX games_kind_number ON games(kind, number)")
    db.execute("ALTER TABLE game_actions ADD COLUMN events TEXT")
    duels = db.execute("SELECT id, a, b, a_start, b_start, status, version, created_by, "
                       "created_at, updated_at FROM duels ORDER BY id").fetchall()
    for (duel_id, a, b, a_start, b_start, status, version, created_by, created_at,
         updated_at) in duels:
        setup = json.dumps({"a": json.loads(a_start), "b": json.loads(b_start)},
                           ensure_ascii=False)
        key = db.execute(
            "INSERT INTO games (kind, number, title, setup, status, version, created_by, "
            "created_at, updated_at) VALUES ('duel', ?, '', ?, ?, ?, ?, ?, ?)",
            [duel_id, setup, status, version, created_by, created_at, updated_at]).lastrowid
        db.execute("INSERT INTO game_players (game_id, player_id, seat) VALUES (?, ?, 0), "
                   "(?, ?, 1)", [key, a, key, b])
        moved: dict[int, int | None] = {}
        for row_id, seq, kind, action, events, at, referee_id, undoes in db.execute(
                "SELECT id, seq, kind, action, events, at, referee_id, undoes "
                "FROM duel_actions WHERE duel_id = ? ORDER BY seq", [duel_id]).fetchall():
            moved[row_id] = db.execute(
                "INSERT INTO game_actions (game_id, seq, action, at, referee_id, undoes, "
                "events) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [key, seq, None if kind == "undo" else action, at, referee_id,
                 moved.get(undoes), events]).lastrowid
    db.execute("DROP TABLE duel_actions")
    db.execute("DROP TABLE duels")


STEPS = (m001_initial, m002_duels, m003_games, m004_berserk_squads, m005_event_notes,
         m006_one_game_store)
