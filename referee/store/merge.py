"""Folding in the facts of other stations: once each, in clock order, conflicts held.

Every station's projection is the fold of the same log in the same order (clock time,
then station, then sequence), so stations that hold the same facts show the same rows.
A fact is taken only from a station the event admitted, only in its station's sequence
(a gap waits for the missing facts), and only once: a fact already held is skipped, and
one that differs from the fact held under its id is refused as tampered. A fact that
sorts before facts already folded in takes them back (``undo_log``) and folds them
again after it. A part the merged order refuses (a bound, an undo made twice, a game
step from a station the game does not belong to) is held in ``conflicts`` for a
referee to apply anyway or discard; the rest of the fact still lands.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlite_utils import Database

from referee.rules import N_, RuleError
from referee.store import conflicts, fold, ledger
from referee.store.clock import now
from referee.store.db import write
from referee.store.sql import fetch


@dataclass
class Report:
    """What one batch of received facts did."""

    applied: int = 0
    skipped: int = 0  # held already
    refused: list[tuple[str, str]] = field(default_factory=list)  # (gid, why)
    waiting: list[tuple[str, str]] = field(default_factory=list)  # (gid, why)
    rewound: int = 0  # facts taken back and folded again after an earlier one


def _known(db: Database, here: dict) -> set[str]:
    return {r["id"] for r in fetch(db, "SELECT id FROM stations")} | {here["event"],
                                                                       here["id"]}


def _admitted_by(fact: dict) -> set[str]:
    return {p["v"]["id"] for p in fact["parts"]
            if p.get("t") == "row" and p.get("tbl") == "stations" and "v" in p}


def check(fact: dict, key: str) -> str | None:
    """Why a fact cannot be taken as it is, or None."""
    names = {"gid", "station", "seq", "hlc", "at", "parts", "mac"}
    if not isinstance(fact, dict) or set(fact) != names:
        return "not a fact"
    if not isinstance(fact["seq"], int) or fact["gid"] != f"{fact['station']}:{fact['seq']}":
        return "its id does not fit its station and sequence"
    if not isinstance(fact["parts"], list) or not isinstance(fact["hlc"], str):
        return "not a fact"
    if not ledger.hmac.compare_digest(str(fact["mac"]), ledger.mac(key, fact)):
        return "its seal does not match: it was changed after it was written"
    return None


def receive(db: Database, facts: list[dict]) -> Report:
    """Fold facts from other stations into this one, in one transaction."""
    report = Report()
    with write(db):
        tx = ledger.current(db)
        tx.capturing = False
        here = tx.station
        if here is None or here["number"] is None and not here["event"]:
            raise RuleError(None, N_("This database is not a station of an event."))
        known = _known(db, here)
        last = {r["station"]: r["seq"] for r in fetch(
            db, "SELECT station, max(seq) AS seq FROM log GROUP BY station")}
        held = {}
        pending = sorted((f for f in facts if isinstance(f, dict)),
                         key=lambda f: (str(f.get("station")), f.get("seq") or 0))
        accepted: list[dict] = []
        progress = True
        while pending and progress:
            progress, later = False, []
            for fact in pending:
                why = check(fact, here["event_key"])
                if why:
                    report.refused.append((str(fact.get("gid")), why))
                    continue
                gid = fact["gid"]
                if gid not in held:
                    rows = fetch(db, "SELECT hlc, at, body FROM log WHERE gid = ?", [gid])
                    held[gid] = rows[0] if rows else None
                kept = held[gid]
                if kept is not None:
                    same = (kept["hlc"], kept["at"], kept["body"]) == (
                        fact["hlc"], fact["at"], ledger.canonical(fact["parts"]))
                    if same:
                        report.skipped += 1
                    else:
                        report.refused.append((gid, ("it differs from the fact held under "
                                                    "its id")))
                    continue
                if fact["station"] == here["id"]:
                    report.refused.append((gid, "this station never wrote it"))
                    continue
                if fact["station"] not in known:
                    later.append(fact)
                    continue
                if fact["seq"] != last.get(fact["station"], 0) + 1:
                    later.append(fact)
                    continue
                accepted.append(fact)
                held[gid] = {"hlc": fact["hlc"], "at": fact["at"],
                             "body": ledger.canonical(fact["parts"])}
                last[fact["station"]] = fact["seq"]
                known |= _admitted_by(fact)
                progress = True
            pending = later
        for fact in pending:
            why = ("its station was never admitted to this event"
                   if fact["station"] not in known else
                   f"facts {last.get(fact['station'], 0) + 1}–{fact['seq'] - 1} of its "
                   "station have not arrived yet")
            report.waiting.append((fact["gid"], why))
        if accepted:
            _fold_in(db, tx, accepted, report)
    return report


def _fold_in(db: Database, tx: ledger.Tx, accepted: list[dict], report: Report) -> None:
    tip = db.execute("SELECT max(ord) FROM log").fetchone()[0] or ""
    for fact in accepted:
        fact["ord"] = ledger.fact_ord(fact["hlc"], fact["station"], fact["seq"])
        db.execute("INSERT INTO log (gid, station, seq, hlc, ord, at, body, mac) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   [fact["gid"], fact["station"], fact["seq"], fact["hlc"], fact["ord"],
                    fact["at"], ledger.canonical(fact["parts"]), fact["mac"]])
        ledger.seen(db, fact["hlc"])
        db.execute("INSERT INTO heard (station, last_seq, last_hlc, heard_at) "
                   "VALUES (?, ?, ?, ?) ON CONFLICT(station) DO UPDATE SET "
                   "last_seq = max(last_seq, excluded.last_seq), "
                   "last_hlc = max(last_hlc, excluded.last_hlc), heard_at = excluded.heard_at",
                   [fact["station"], fact["seq"], fact["hlc"], now()])
    first = min(f["ord"] for f in accepted)
    if first > tip:
        todo = sorted(accepted, key=lambda f: f["ord"])
    else:
        report.rewound = rewind(db, first)
        todo = [_stored(r) for r in fetch(db, "SELECT * FROM log WHERE ord >= ? ORDER BY ord",
                                          [first])]
    for fact in todo:
        apply_fact(db, tx, fact)
    report.applied += len(accepted)


def _stored(row: dict) -> dict:
    return {"gid": row["gid"], "station": row["station"], "seq": row["seq"],
            "hlc": row["hlc"], "at": row["at"], "ord": row["ord"],
            "parts": json.loads(row["body"])}


def rewind(db: Database, ord_: str) -> int:
    """Take back every row written by facts at or after ``ord_``; how many facts."""
    ledger.flush(db, ledger.current(db))
    entries = fetch(db, "SELECT * FROM undo_log WHERE ord >= ? ORDER BY id DESC", [ord_])
    # Newest first, each row's oldest image wins: a row changed fifty times since is
    # written back once, and a row made since is deleted (newest first, for the keys).
    restores: dict[tuple[str, str], dict | None] = {}
    for entry in entries:
        key = (entry["tbl"], entry["pk"])
        if entry["before"] is None:  # made since: deleted in the order it was made, newest
            restores.pop(key, None)   # first (an event goes before the player it names)
            restores[key] = None
        elif (restore := restores.setdefault(key, {})) is not None:
            restore.update(json.loads(entry["before"]))
    db.execute("INSERT INTO fold_state (key, value) VALUES ('rewinding', '1')")
    for (table, pk), before in restores.items():
        condition, params = fold._where(table, json.loads(pk))
        if before is None:
            db.execute(f"DELETE FROM {table} WHERE {condition}", params)
        elif before:
            db.execute(f"UPDATE {table} SET {', '.join(f'{n} = ?' for n in before)} "
                       f"WHERE {condition}", [*before.values(), *params])
    db.execute("DELETE FROM undo_log WHERE ord >= ?", [ord_])
    db.execute("DELETE FROM fold_state WHERE key = 'rewinding'")
    return len({e["ord"] for e in entries})


def apply_fact(db: Database, tx: ledger.Tx, fact: dict) -> None:
    """Fold one fact in at the end: each part lands, or is held as a conflict."""
    tx.ord, tx.gid, tx.seq, tx.hlc, tx.at = (fact["ord"], fact["gid"], fact["seq"],
                                             fact["hlc"], fact["at"])
    tx.parts = []
    for index, part in enumerate(fact["parts"]):
        # A part is refused before it writes anything (fold's appliers check first and
        # write last), so a held part needs no savepoint to take back.
        try:
            _apply_part(db, part, fact["station"])
        except RuleError as err:
            conflicts.hold(db, fact, index, part, err)
        tx.parts.append(part)
    tx.ord = None


def _apply_part(db: Database, part: dict, origin: str) -> None:
    kind = part.get("t")
    if kind == "row":
        fold.apply_row(db, part, origin)
    elif kind == "event":
        fold.apply_event(db, part)
    elif kind == "resolve":
        conflicts.apply_resolution(db, part)
    else:
        raise RuleError(None, N_("A change of an unknown kind (%(kind)s): this station "
                                 "needs a newer version of the app."), kind=str(kind))


def frontier(db: Database) -> str:
    """The clock time no fact still to come can sort before: each station's clock only
    moves on, so nothing new arrives earlier than the latest fact of the station heard
    from longest ago (a station not heard from yet counts from its admission)."""
    here = ledger.station(db)
    times = []
    for station in fetch(db, "SELECT s.id, (SELECT max(l.ord) FROM log l WHERE "
                             "l.station = s.id) AS last, (SELECT l.ord FROM log l WHERE "
                             "l.body LIKE '%' || s.id || '%' AND l.station != s.id ORDER BY "
                             "l.ord LIMIT 1) AS admitted FROM stations s"):
        if station["id"] == (here or {}).get("id"):
            continue
        times.append(station["last"] or station["admitted"] or "")
    return min(times) if times else ""


def prune(db: Database) -> int:
    """Forget the kept rows of facts that no late fact can precede any more."""
    with write(db):
        ledger.flush(db, ledger.current(db))
        edge = frontier(db)
        if not edge:
            return 0
        return db.execute("DELETE FROM undo_log WHERE ord < ?", [edge]).rowcount
