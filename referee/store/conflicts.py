"""Conflicts: the parts of other stations' facts that the merged order refused.

A part held here (a bound broken only once the logs met, an undo made twice, a step of a
game from a station it does not belong to) waits for a referee, who applies it anyway
(clamped to its bounds) or discards it; that decision is itself a fact every station
folds in, and the first one in clock order counts.
"""

from __future__ import annotations

import json

from sqlite_utils import Database

from referee.rules import N_, RuleError
from referee.store import fold, ledger
from referee.store.clock import now
from referee.store.db import write
from referee.store.sql import fetch

NO_CONFLICT = N_("No such conflict: reload the list.")
SETTLED = N_("This conflict was already settled.")


def hold(db: Database, fact: dict, index: int, part: dict, err: RuleError) -> None:
    """Keep a refused part of a fact for a referee to settle."""
    fold.insert(db, "conflicts", {
        "id": f"{fact['station']}-{fact['seq']}-{index}", "ord": fact["ord"], "gid": fact["gid"],
        "part": index, "station": fact["station"],
        "player_id": part.get("player") if part.get("t") == "event" else None,
        "kind": part.get("kind") or part.get("tbl") or part.get("t"),
        "rule": err.rule, "msg": err.message,
        "params": json.dumps({k: str(v) for k, v in err.params.items()},
                             ensure_ascii=False, sort_keys=True),
        "status": "held", "resolved_by": None, "resolved_at": None, "resolver_id": None,
        "at": fact["at"]})


def held_part(db: Database, conflict: dict) -> dict:
    """The change a conflict holds, as its station wrote it (or, for a phone's tap held
    on arrival, as kept in the conflict itself)."""
    if conflict.get("held"):
        return json.loads(conflict["held"])
    body = fetch(db, "SELECT body FROM log WHERE gid = ?", [conflict["gid"]])[0]["body"]
    return json.loads(body)[conflict["part"]]


def apply_resolution(db: Database, part: dict) -> None:
    """Apply a held change anyway (clamped to its bounds) or discard it.

    The first settlement in clock order counts; a later one of the same conflict,
    made on another station meanwhile, changes nothing."""
    rows = fetch(db, "SELECT * FROM conflicts WHERE id = ?", [part["conflict"]])
    if not rows or rows[0]["status"] != "held":
        return
    conflict = rows[0]
    if part["decision"] == "apply":
        held = held_part(db, conflict)
        if held.get("t") == "event":
            fold.apply_event(db, held, force=True)
        elif held.get("t") == "row":
            fold.apply_row(db, {**held, "handover": True})
    tx = ledger.current(db)
    fold.update(db, "conflicts", {"id": conflict["id"]}, {
        "status": "applied" if part["decision"] == "apply" else "discarded",
        "resolved_by": tx.gid, "resolved_at": part["at"], "resolver_id": part["referee"]})


def settle(db: Database, referee_id: int | None, conflict_id: str, decision: str) -> dict:
    """A referee's decision on a held conflict, as a fact every station applies."""
    if decision not in ("apply", "discard"):
        raise RuleError(None, N_("Choose to apply the change anyway or to discard it."))
    with write(db):
        rows = fetch(db, "SELECT * FROM conflicts WHERE id = ?", [conflict_id])
        if not rows:
            raise RuleError(None, NO_CONFLICT)
        if rows[0]["status"] != "held":
            raise RuleError(None, SETTLED)
        part = {"t": "resolve", "conflict": conflict_id, "decision": decision,
                "referee": referee_id, "at": now()}
        apply_resolution(db, part)
        ledger.capture(ledger.current(db), part)
    return fetch(db, "SELECT * FROM conflicts WHERE id = ?", [conflict_id])[0]


def find(db: Database, status: str | None = None, player_id: int | None = None,
              limit: int = 500, conflict_id: str | None = None) -> list[dict]:
    """Conflicts in clock order, newest first, with the change each holds."""
    sql, params = ("SELECT c.*, s.name AS station_name FROM conflicts c "
                   "LEFT JOIN stations s ON s.id = c.station WHERE 1"), list[object]()
    if conflict_id is not None:
        sql, params = sql + " AND c.id = ?", [*params, conflict_id]
    if status:
        sql, params = sql + " AND c.status = ?", [*params, status]
    if player_id is not None:
        sql, params = sql + " AND c.player_id = ?", [*params, player_id]
    found = fetch(db, sql + " ORDER BY c.ord DESC, c.part DESC LIMIT ?", [*params, limit])
    for row in found:
        row["params"] = json.loads(row["params"] or "{}")
        row["change"] = held_part(db, row)
    return found


def pending_for(db: Database, player_id: int) -> int:
    """How many conflicts about this player wait for a referee."""
    return db.execute("SELECT count(*) FROM conflicts WHERE player_id = ? AND "
                      "status = 'held'", [player_id]).fetchone()[0]
