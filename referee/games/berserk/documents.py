"""A player's versioned document: the one store of registered decks and of squads.

A document is a row of a player's (``berserk_decks``, ``berserk_squads``) holding its
cards and the rules numbers in force as JSON, with who made it and who saved it last.
Every save appends an edit row with who, when and the whole document, and updates the
document row in the same transaction; a save made against an older version is refused
with the fresh document (:class:`~referee.errors.Conflict`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from sqlite_utils import Database

from referee.errors import Conflict
from referee.rules import N_, RuleError, whole
from referee.store import fold
from referee.store.db import fetch, where
from referee.store.events import now
from referee.store.ledger import new_id

NAME_LIMIT = 60  # a deck's or a squad's name
NOT_IN_DECK = N_("Card %(card)s is not in the deck %(deck)s; pick one of its cards.")


def bounded(raw: object, limit: int) -> int | None:
    """A whole number from 0 to ``limit`` (typed, or sent as a number), else None."""
    if isinstance(raw, str) and (number := whole(raw)) is not None:
        raw = number
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= limit:
        return None
    return raw


def name_of(name: object, message: str) -> str:
    """A document's name, stripped; RuleError ``message`` when it is not short text."""
    if not isinstance(name, str) or len(name.strip()) > NAME_LIMIT:
        raise RuleError(None, message, limit=NAME_LIMIT)
    return name.strip()


def fresh_of(err: Conflict) -> dict:
    """The stored document a stale save met, as it stands now."""
    fresh = err.fresh
    assert isinstance(fresh, dict)  # Store.current raises Conflict with the stored row
    return fresh


@dataclass(frozen=True)
class Store:
    """The rows of one kind of document and of its edits."""

    table: str  # the documents, e.g. berserk_decks
    edits_table: str  # their saves, e.g. berserk_deck_edits
    body: str  # what an edit row calls the document: its JSON column, "<body>_id" its key
    missing: str  # the N_ refusal for an id that is not there (%(id)s)
    total: Callable[[list], int] | None = None  # a figure kept with the cards, if any

    @property
    def _select(self) -> str:
        return f"""
SELECT t.*, p.character AS character, p.player AS player_name,
       c.name AS created_by_name, u.name AS updated_by_name
FROM {self.table} t JOIN players p ON p.id = t.player_id
LEFT JOIN referees c ON c.id = t.created_by LEFT JOIN referees u ON u.id = t.updated_by
"""

    def _decode(self, row: dict) -> dict:
        row["cards"] = json.loads(row["cards"])
        row["settings"] = json.loads(row["settings"])
        if self.total is not None:
            row["total"] = self.total(row["cards"])
        return row

    def _one(self, db: Database, column: str, value: object) -> dict | None:
        if type(value) is not int:
            return None
        rows = fetch(db, self._select + f" WHERE t.{column} = ?", [value])
        return self._decode(rows[0]) if rows else None

    def get(self, db: Database, doc_id: object) -> dict | None:
        """A document with its player's character and who made and last saved it."""
        return self._one(db, "id", doc_id)

    def of_player(self, db: Database, player_id: object) -> dict | None:
        """The (first) document of a player, or None."""
        return self._one(db, "player_id", player_id)

    def listing(self, db: Database, player_id: int | None = None, limit: int = -1,
                before: int | None = None) -> list[dict]:
        """Documents, newest first; only one player's when asked.
        At most ``limit`` (all by default), only older than id ``before`` if given."""
        condition, params = where(("t.player_id = ?", player_id), ("t.id < ?", before))
        return [self._decode(r) for r in fetch(
            db, self._select + condition + " ORDER BY t.id DESC LIMIT ?", [*params, limit])]

    def count(self, db: Database, player_id: int | None = None) -> int:
        """How many there are (a player's, when asked)."""
        condition, params = where(("t.player_id = ?", player_id))
        return db.execute(f"SELECT count(*) FROM {self.table} t" + condition,
                          params).fetchone()[0]

    def edits(self, db: Database, doc_id: int) -> list[dict]:
        """Every save of a document, newest first, with the referee's name."""
        rows = fetch(db, f"""
            SELECT e.*, r.name AS referee FROM {self.edits_table} e
            LEFT JOIN referees r ON r.id = e.referee_id WHERE e.{self.body}_id = ?
            ORDER BY e.seq DESC
            """, [doc_id])
        for row in rows:
            row[self.body] = json.loads(row[self.body])
            if self.total is not None:
                row["total"] = self.total(row[self.body]["cards"])
        return rows

    def current(self, db: Database, doc_id: int, version: int | None) -> dict:
        """The stored document a change is made to; RuleError when there is none,
        Conflict when ``version`` is given and it has moved on since."""
        old = self.get(db, doc_id)
        if old is None:
            raise RuleError(None, self.missing, id=str(doc_id))
        if version is not None and version != old["version"]:
            raise Conflict(old)
        return old

    def write(self, db: Database, referee_id: int | None, doc_id: int | None,
              stored: dict, version: int | None = None, old: dict | None = None) -> int:
        """Store a checked document (new when ``doc_id`` is None) with its edit row, inside
        the caller's transaction; ``old`` is the row :meth:`current` gave, if asked
        already. Returns the document's id."""
        at = now()
        values = {**stored, "cards": json.dumps(stored["cards"]),
                  "settings": json.dumps(stored["settings"])}
        if doc_id is None:
            doc_id, seq = new_id(db, self.table), 1
            fold.row(db, self.table, {
                **values, "id": doc_id, "version": 1, "created_by": referee_id,
                "created_at": at, "updated_by": referee_id, "updated_at": at})
        else:
            seq = (old or self.current(db, doc_id, version))["version"] + 1
            fold.change(db, self.table, {"id": doc_id}, {
                **values, "version": seq, "updated_by": referee_id, "updated_at": at})
        fold.row(db, self.edits_table, {
            "id": new_id(db, self.edits_table), f"{self.body}_id": doc_id, "seq": seq,
            "at": at, "referee_id": referee_id,
            self.body: json.dumps(stored, ensure_ascii=False)})
        return doc_id

