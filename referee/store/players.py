"""The players projection: current values, kept in step with the event log."""

from __future__ import annotations

import hashlib

from sqlite_utils import Database

from referee.rules import N_, RuleError
from referee.rules.stats import Sheet
from referee.store import tables
from referee.store.db import fetch
from referee.store.sql import fetch_one

SHEET_FIELDS = ("hp", "hp_max", "chance", "chance_max", "cartridges", "level", "status")
NO_PLAYER = N_("No player %(id)s: they may have been removed; reload the list.")


def get(db: Database, player_id: int) -> dict | None:
    """One player row, or None."""
    return fetch_one(db, "SELECT * FROM players WHERE id = ?", [player_id])


def existing(db: Database, player_id: object) -> dict:
    """The player a request names, whatever it sent as the id; RuleError naming it (cut
    short) when there is no such player."""
    row = get(db, player_id) if type(player_id) is int else None
    if row is None:
        raise RuleError(None, NO_PLAYER, id=str(player_id)[:20])
    return row


def by_token(db: Database, token: str) -> dict | None:
    """The player whose current passport token this is, or None."""
    return fetch_one(db, "SELECT * FROM players WHERE passport_token = ?", [token])


def token_hash(token: str) -> str:
    """What is kept of a reissued passport's token: enough to recognise it, not to use it."""
    return hashlib.sha256(token.encode()).hexdigest()


def by_retired_token(db: Database, token: str) -> dict | None:
    """The player whose passport once carried this token and was reissued since, or None."""
    return fetch_one(db, "SELECT p.* FROM retired_passports r JOIN players p ON p.id = r.player_id"
                         " WHERE r.token_hash = ? LIMIT 1", [token_hash(token)])


PAGE = 40  # players a page of the list shows; more load on demand
_ORDER = " ORDER BY p.character COLLATE NOCASE, p.id"
# The row after which a page starts: later by name, or the same name and a later id
# (the first condition lets SQLite seek in players_by_name instead of scanning it).
_AFTER = (" p.character COLLATE NOCASE >= ? AND (p.character COLLATE NOCASE, p.id) > (?, ?)")


_INDEXED = " WHERE p.id IN (SELECT rowid FROM players_search WHERE players_search MATCH ?)"
# Past this many matches, walking the list in name order (and reading each folded key)
# finds a page sooner than gathering and sorting every match the index gives.
_MANY = 400


def _needle(q: str) -> str:
    """What a search looks for: q folded as Python's casefold does (both names are kept
    folded in search_key, a newline apart, which no search holds)."""
    return q.strip().casefold().replace("\n", " ")


def _phrase(needle: str) -> str:
    return '"' + needle.replace('"', '""') + '"'


def _trigrams(needle: str) -> bool:
    """Whether the trigram index can look for needle: three characters or more, and no
    NUL, which FTS5 reads as the end of its query (a stored name never holds one)."""
    return len(needle) >= 3 and "\x00" not in needle


def count(db: Database, q: str = "") -> int:
    """How many players match q (all of them for an empty q)."""
    needle = _needle(q)
    if not needle:
        return db.execute("SELECT count(*) FROM players").fetchone()[0]
    if _trigrams(needle):
        return db.execute("SELECT count(*) FROM players_search WHERE players_search "
                          "MATCH ?", [_phrase(needle)]).fetchone()[0]
    return db.execute("SELECT count(*) FROM players WHERE instr(search_key, ?)",
                      [needle]).fetchone()[0]


def search(db: Database, q: str = "", limit: int = 500, after: int | None = None,
           matches: int | None = None) -> list[dict]:
    """Players whose character or player name contains q (any case, any alphabet), by
    character, at most ``limit``, starting after the player ``after`` (a page's last row).

    Three characters or more go through the trigram index of the folded names
    (players_search), shorter ones through the index of the folded names themselves;
    the matches are then put in name order. When very many match, the list is read in
    name order instead, and a page fills at once. ``matches``: count(db, q), if known."""
    needle = _needle(q)
    source, params = " FROM players p WHERE 1", list[object]()
    if matches is None and needle:
        matches = count(db, q)
    if needle and matches is not None and matches > _MANY:  # a page is found at once in list order
        source = " FROM players p INDEXED BY players_by_name WHERE instr(p.search_key, ?)"
        params = [needle]
    elif _trigrams(needle):
        source, params = " FROM players p" + _INDEXED, [_phrase(needle)]
    elif needle:  # too short for trigrams: the folded names, read from their own index
        source = (" FROM players p WHERE p.id IN (SELECT id FROM players "
                  "INDEXED BY players_search_keys WHERE instr(search_key, ?))")
        params = [needle]
    if after is not None:
        mark = db.execute("SELECT character FROM players WHERE id = ?", [after]).fetchone()
        if mark is None:
            return []  # no such player to start after: nothing follows it
        source += " AND" + _AFTER
        params = [*params, mark[0], mark[0], after]
    return fetch(db, "SELECT p.*" + source + _ORDER + " LIMIT ?", [*params, limit])


def page(db: Database, q: str, limit: int, after: int | None) -> tuple[list[dict], int]:
    """One page of a search (``limit`` + 1 rows: the last one says more follow) and how
    many match in all."""
    matches = count(db, q)
    return search(db, q, limit + 1, after, matches), matches


def filterable(db: Database, whose: str) -> list[dict]:
    """The players a list can be filtered by, by name: those seated in a game of the kind
    ``whose``, or, when ``whose`` is a game's replicated table with a ``player_id`` (a
    saved Berserk squad, a registered deck), those owning a row of it."""
    if whose in tables.games_own():  # a name of our code (a manifest's), never input
        source = f" FROM players p WHERE p.id IN (SELECT player_id FROM {whose})"
        return fetch(db, "SELECT p.*" + source + _ORDER)
    source = (" FROM players p WHERE p.id IN (SELECT gp.player_id FROM game_players gp "
              "JOIN games g ON g.id = gp.game_id WHERE g.kind = ?)")
    return fetch(db, "SELECT p.*" + source + _ORDER, [whose])


def heavily_wounded(db: Database) -> list[dict]:
    """Every heavily wounded player, however many there are: the urgent panel."""
    return fetch(db, "SELECT p.* FROM players p WHERE p.status = 'heavy_wound'" + _ORDER)


COLUMNS = frozenset({
    "character", "player", "hp", "hp_max", "chance", "chance_max", "cartridges", "level",
    "status", "suit", "duel_deck", "notes", "passport_token", "wounded_at", "version",
    "updated_at"})


def update(db: Database, player_id: int, values: dict) -> None:
    """Write these columns of one player (names from our code only, never from input)."""
    unknown = set(values) - COLUMNS
    if unknown:
        raise ValueError(f"not player columns: {sorted(unknown)}")
    assignments = ", ".join(f"{name} = ?" for name in values)
    db.execute(f"UPDATE players SET {assignments} WHERE id = ?", [*values.values(), player_id])


def sheet(row: dict) -> Sheet:
    """The part of a row the stat rules work on."""
    return Sheet(**{k: row[k] for k in SHEET_FIELDS})


def deck_cards(row: dict) -> list[str]:
    """The duel-deck cards the player still holds (D1), canonical codes."""
    return [c for c in (row["duel_deck"] or "").split(",") if c]
