"""Schema changes, in order. Never edit an applied migration: add a new one."""

from __future__ import annotations

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from referee.store import early_migrations

migrations = Migrations("referee")
for _step in early_migrations.STEPS:  # m001–m006, under their own names
    migrations()(_step)


@migrations()
def m007_stations(db: Database) -> None:
    """The station log: what lets several devices each hold the whole event and merge.

    A database that is not a station (the default) only gains the columns: ``events.ord``
    (the order the feed and histories follow; existing rows keep their order by id) and
    ``games.station`` (the station a game belongs to; empty for this one). A station
    (``station`` row) appends every transaction to ``log`` as one fact with a global id
    (station, sequence) and a hybrid logical clock; ``undo_log`` keeps the rows a fact
    changed, so facts that arrive late can be folded in their clock order; ``conflicts``
    holds the changes the merged order refuses, for a person to settle. ``heard`` and
    ``segments`` are what this station has seen of the others (never replicated).
    """
    db.execute("ALTER TABLE events ADD COLUMN ord TEXT")
    # Filling the new column is the one update the existing rows ever get.
    db.execute("DROP TRIGGER events_no_update")
    db.execute("UPDATE events SET ord = '0|' || printf('%012d', id)")
    db.execute("CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
               "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")
    db.execute("CREATE INDEX events_ord ON events(ord)")
    db.execute("CREATE INDEX events_player_ord ON events(player_id, ord)")
    db.execute("ALTER TABLE games ADD COLUMN station TEXT NOT NULL DEFAULT ''")
    db.table("station").create(
        {"key": str, "id": str, "name": str, "number": int, "event": str, "event_key": str,
         "next_seq": int, "hlc_ms": int, "hlc_c": int, "created_at": str,
         "seen_through": int, "alone_since": str},
        pk="key", not_null={"id", "name", "next_seq", "hlc_ms", "hlc_c", "seen_through"},
        defaults={"seen_through": 0})
    db.table("log").create(
        {"gid": str, "station": str, "seq": int, "hlc": str, "ord": str, "at": str,
         "body": str, "mac": str},
        pk="gid", not_null={"station", "seq", "hlc", "ord", "at", "body"})
    db.execute("CREATE UNIQUE INDEX log_station_seq ON log(station, seq)")
    db.execute("CREATE UNIQUE INDEX log_ord ON log(ord)")
    for verb in ("UPDATE", "DELETE"):
        db.execute(f"CREATE TRIGGER log_no_{verb.lower()} BEFORE {verb} ON log "
                   "BEGIN SELECT RAISE(ABORT, 'the station log is append-only'); END")
    db.table("counters").create({"name": str, "next": int}, pk="name")
    db.table("undo_log").create({"id": int, "ord": str, "tbl": str, "pk": str, "before": str},
                          pk="id", not_null={"ord", "tbl", "pk"})
    db.execute("CREATE INDEX undo_log_ord ON undo_log(ord)")
    db.table("conflicts").create(
        {"id": str, "ord": str, "gid": str, "part": int, "station": str, "player_id": int,
         "kind": str, "rule": str, "msg": str, "params": str, "status": str,
         "resolved_by": str, "resolved_at": str, "resolver_id": int, "at": str},
        pk="id", not_null={"ord", "gid", "part", "station", "msg", "status"})
    db.execute("CREATE INDEX conflicts_status ON conflicts(status, ord)")
    db.execute("CREATE INDEX conflicts_player ON conflicts(player_id, status)")
    db.table("stations").create(
        {"id": str, "name": str, "number": int, "device": str, "address": str,
         "admitted_at": str, "admitted_by": int},
        pk="id", not_null={"name", "number"})
    db.execute("CREATE UNIQUE INDEX stations_number ON stations(number)")
    db.table("heard").create({"station": str, "last_seq": int, "last_hlc": str, "heard_at": str},
                       pk="station")
    db.table("segments").create(
        {"path": str, "station": str, "first": int, "last": int, "sha256": str,
         "status": str, "problem": str, "seen_at": str}, pk="path")
    db.table("fold_state").create({"key": str, "value": str}, pk="key")
    # While a late fact is folded in, the rows of facts after it are taken back and made
    # again; only then may the append-only projections lose a row. The log never does.
    for table in ("events", "game_actions", "berserk_squad_edits"):
        db.execute(f"DROP TRIGGER {table}_no_delete")
        db.execute(f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
                   "WHEN NOT EXISTS (SELECT 1 FROM fold_state WHERE key = 'rewinding') "
                   f"BEGIN SELECT RAISE(ABORT, '{table} are append-only'); END")


@migrations()
def m008_station_event_counter(db: Database) -> None:
    """A station's next event id lives in its own row, written with its next sequence
    number and clock in the one update a tap makes (was a ``counters`` row: two more
    statements a tap)."""
    db.execute("ALTER TABLE station ADD COLUMN next_event INTEGER")
    db.execute("UPDATE station SET next_event = "
               "(SELECT next FROM counters WHERE name = 'events')")
    db.execute("DELETE FROM counters WHERE name = 'events'")


@migrations()
def m009_sessions_end(db: Database) -> None:
    """Sessions and API tokens that end.

    ``sessions``: a browser's sign-in, kept here so that signing out ends it for every
    copy of the cookie. ``referees.epoch`` moves on a password reset and on switching an
    account off; a session or token made in an older epoch no longer counts, so switching
    the account back on does not revive it (and the epoch travels to other stations
    with the account). API tokens also expire."""
    db.execute("ALTER TABLE referees ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE api_tokens ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE api_tokens ADD COLUMN expires_at TEXT")
    db.execute("UPDATE api_tokens SET expires_at = strftime('%Y-%m-%dT%H:%M:%S+00:00', "
               "'now', '+30 days')")
    db.table("sessions").create(
        {"sid_hash": str, "referee_id": int, "epoch": int, "created_at": str,
         "ended_at": str},
        pk="sid_hash", not_null={"referee_id", "epoch", "created_at"},
        foreign_keys=[("referee_id", "referees", "id")])
    db.execute("CREATE INDEX sessions_referee ON sessions(referee_id)")


@migrations()
def m010_players_at_scale(db: Database) -> None:
    """An event of 10,000 players: search through an index, the list in
    pages, every heavily wounded player found at once, the events counted.

    ``players.search_key`` holds both names folded by Python's casefold (Russian
    included), and ``players_search`` indexes its trigrams, so a search is a substring
    match of the folded names, through the index from three characters on. Triggers keep
    both in step with every write, a merge from another station included; the key's
    trigger calls ``casefold``, which every connection of the app registers
    (store.db.connect)."""
    db.execute("ALTER TABLE players ADD COLUMN search_key TEXT NOT NULL DEFAULT ''")
    db.execute("UPDATE players SET search_key = "
               "casefold(character || char(10) || coalesce(player, ''))")
    db.execute("CREATE VIRTUAL TABLE players_search USING fts5(search_key, "
               "content='players', content_rowid='id', tokenize='trigram')")
    db.execute("INSERT INTO players_search(players_search) VALUES ('rebuild')")
    folded = "casefold(new.character || char(10) || coalesce(new.player, ''))"
    # The key and its index entry are written here only, from the names: a row that
    # arrives with a key (a founding snapshot) gets it made again, and indexed once.
    add = (f"UPDATE players SET search_key = {folded} WHERE id = new.id; "
           f"INSERT INTO players_search(rowid, search_key) VALUES (new.id, {folded});")
    drop = ("INSERT INTO players_search(players_search, rowid, search_key) "
            "SELECT 'delete', old.id, old.search_key WHERE old.search_key <> '';")
    db.execute(f"CREATE TRIGGER players_search_insert AFTER INSERT ON players BEGIN {add} END")
    # Only a change of a name makes a new key: a tap changes neither.
    db.execute("CREATE TRIGGER players_search_update AFTER UPDATE OF character, player "
               f"ON players BEGIN {drop} {add} END")
    db.execute(f"CREATE TRIGGER players_search_delete AFTER DELETE ON players BEGIN {drop} END")
    db.execute("CREATE INDEX players_by_name ON players(character COLLATE NOCASE, id)")
    db.execute("CREATE INDEX players_search_keys ON players(search_key)")  # short counts
    db.execute("CREATE INDEX players_status ON players(status, character COLLATE NOCASE, id)")
    # How many events there are, for the API's totals: counting a million rows takes
    # tens of milliseconds, keeping the count one step per event.
    db.execute("CREATE TABLE tallies (name TEXT PRIMARY KEY, n INTEGER NOT NULL)")
    db.execute("INSERT INTO tallies (name, n) SELECT 'events', count(*) FROM events")
    db.execute("CREATE TRIGGER events_tally_insert AFTER INSERT ON events BEGIN "
               "UPDATE tallies SET n = n + 1 WHERE name = 'events'; END")
    db.execute("CREATE TRIGGER events_tally_delete AFTER DELETE ON events BEGIN "
               "UPDATE tallies SET n = n - 1 WHERE name = 'events'; END")


@migrations()
def m011_berserk_decks(db: Database) -> None:
    """A player's registered Berserk-style deck (B14), with every registration kept.

    ``berserk_decks`` holds the deck each player has registered now (one a player): the
    deck file its cards come from, their counts by code, and the rules numbers it was
    checked against; squads are hired from it. Each registration or change appends a
    ``berserk_deck_edits`` row with who, when and the whole deck; ``version`` (the number
    of saves) refuses a stale form. The edits are append-only like the squads' (and may
    lose a row only while a late fact is folded in, as m007 allows those).
    """
    db.table("berserk_decks").create(
        {"id": int, "player_id": int, "name": str, "deck": str, "cards": str,
         "settings": str, "version": int, "created_by": int, "created_at": str,
         "updated_by": int, "updated_at": str},
        pk="id",
        not_null={"player_id", "name", "deck", "cards", "settings", "version",
                  "created_at", "updated_at"},
        defaults={"name": "", "version": 1},
        foreign_keys=[("player_id", "players", "id"), ("created_by", "referees", "id"),
                      ("updated_by", "referees", "id")],
    )
    db.table("berserk_decks").create_index(["player_id"], unique=True)
    db.table("berserk_deck_edits").create(
        {"id": int, "deck_id": int, "seq": int, "at": str, "referee_id": int, "deck": str},
        pk="id",
        not_null={"deck_id", "seq", "at", "deck"},
        foreign_keys=[("deck_id", "berserk_decks", "id"), ("referee_id", "referees", "id")],
    )
    db.table("berserk_deck_edits").create_index(["deck_id", "seq"], unique=True)
    db.execute("CREATE TRIGGER berserk_deck_edits_no_update BEFORE UPDATE ON "
               "berserk_deck_edits BEGIN SELECT RAISE(ABORT, 'deck edits are append-only'); "
               "END")
    db.execute("CREATE TRIGGER berserk_deck_edits_no_delete BEFORE DELETE ON "
               "berserk_deck_edits WHEN NOT EXISTS (SELECT 1 FROM fold_state WHERE key = "
               "'rewinding') BEGIN SELECT RAISE(ABORT, 'deck edits are append-only'); END")


@migrations()
def m012_once_keys(db: Database) -> None:
    """One-time keys of the forms that create: a key already used, with the
    row its first submission made, so that Back and submit again makes nothing twice.

    ``key`` is the form's scope and key; ``tbl`` and ``ref`` the table and id of what
    was created. The table is this database's own (store.once): it never travels to
    other stations and nothing folds it."""
    db.table("once_keys").create({"key": str, "tbl": str, "ref": int, "at": str}, pk="key",
                           not_null={"at"})


@migrations()
def m013_once_keys_by_age(db: Database) -> None:
    """One-time keys by age: each new key drops those older than store.once.KEPT, a probe
    of this index instead of a scan."""
    db.table("once_keys").create_index(["at"])


@migrations()
def m014_game_readings(db: Database) -> None:
    """Each game keeps the reading of its kind's rules it is played under (games.interface:
    ``GameKind.reading``), so a step is never re-judged by rules read otherwise later.
    Games stored before keep NULL: the service reads them under the reading their steps
    need, and marks it on their first step after the upgrade."""
    db.execute("ALTER TABLE games ADD COLUMN reading INTEGER")


@migrations()
def m015_retired_passports(db: Database) -> None:
    """Passports that were reissued: a scanned old passport is told apart from a
    code that was never one of this event's, so the referee can ask for the new one.

    Only a hash of the old token is kept (``players.token_hash``): the token was a key
    and a list of them would be one too. Written through fold like any projection row,
    so it travels to the other stations with the reissue. Reissues made before this
    migration kept nothing of the old token: their passports read as unknown codes."""
    db.table("retired_passports").create(
        {"id": int, "player_id": int, "token_hash": str, "at": str}, pk="id",
        not_null={"player_id", "token_hash", "at"})
    db.table("retired_passports").create_index(["token_hash"])


@migrations()
def m016_phone_taps(db: Database) -> None:
    """Taps a phone kept while out of reach: each carries the id the phone gave
    it, stored with its event (``events.tap``, unique), so a tap sent twice, to this
    station or another, is applied once; a tap whose bound breaks only on arrival is held
    as a conflict whose change is kept in the row itself (``conflicts.held``: it came from
    a phone, not from another station's log)."""
    db.execute("ALTER TABLE events ADD COLUMN tap TEXT")
    db.execute("CREATE UNIQUE INDEX events_tap ON events(tap) WHERE tap IS NOT NULL")
    db.execute("ALTER TABLE conflicts ADD COLUMN held TEXT")


@migrations()
def m017_joinrpg_ids(db: Database) -> None:
    """The JoinRPG character each player was imported from, taken from the
    character's URL or ``CharacterId``: a second import of an updated export finds the
    players it made before. NULL for players made any other way. Written with the new
    player's row (a ``row`` part), so it travels to the other stations with it."""
    db.execute("ALTER TABLE players ADD COLUMN joinrpg_id TEXT")
    db.execute("CREATE INDEX players_joinrpg_id ON players(joinrpg_id) "
               "WHERE joinrpg_id IS NOT NULL")


CONFIG_TABLES = ("referees", "api_tokens", "settings")


@migrations()
def m018_config_tally(db: Database) -> None:
    """A count that moves whenever an account, an API token or a setting changes,
    kept by triggers, so by any writer (another process, a station's merge, a rewind):
    what a tap reads of them (its token's account, the public URL) is kept in memory and
    read again only once the count moved. One primary-key read instead of a join and a
    settings read."""
    db.execute("INSERT INTO tallies (name, n) VALUES ('config', 0)")
    for table in CONFIG_TABLES:
        for change in ("INSERT", "UPDATE", "DELETE"):
            db.execute(f"CREATE TRIGGER {table}_config_{change.lower()} AFTER {change} ON "
                       f"{table} BEGIN UPDATE tallies SET n = n + 1 WHERE name = 'config'; END")
