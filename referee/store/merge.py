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
import secrets
from dataclasses import dataclass, field

from sqlite_utils import Database

from referee.rules import N_, RuleError
from referee.store import fold, ledger
from referee.store.db import fetch, write
from referee.store.events import now

NOT_EMPTY = N_("Only a new, empty station can join an event; this one already holds "
               "players or referees.")
ALREADY = N_("This database is already the station %(name)s.")
NO_CONFLICT = N_("No such conflict: reload the list.")
SETTLED = N_("This conflict was already settled.")


@dataclass
class Report:
    """What one batch of received facts did."""

    applied: int = 0
    skipped: int = 0  # held already
    refused: list[tuple[str, str]] = field(default_factory=list)  # (gid, why)
    waiting: list[tuple[str, str]] = field(default_factory=list)  # (gid, why)
    rewound: int = 0  # facts taken back and folded again after an earlier one


# --- becoming a station ------------------------------------------------------------------

def found(db: Database, name: str) -> dict:
    """Make this database the event's first station (the organizer's, number 1).

    Everything it holds becomes the founding snapshot a joining station receives."""
    with write(db):
        here = ledger.station(db)
        if here is not None:
            raise RuleError(None, ALREADY, name=here["name"])
        station_id = ledger.new_station_id()
        row = ledger.identity(db, name=name, number=ledger.FOUNDER, event=station_id,
                              event_key=secrets.token_hex(32), station_id=station_id)
        ledger.genesis(db, row)
    with write(db):
        fold.row(db, "stations", {"id": row["id"], "name": name, "number": ledger.FOUNDER,
                                  "device": "", "address": "", "admitted_at": now(),
                                  "admitted_by": None})
    return ledger.station(db)


def prepare(db: Database, name: str) -> dict:
    """A new station that waits to be admitted: it has an id, no number yet."""
    with write(db):
        here = ledger.station(db)
        if here is not None:
            return here
        if db.execute("SELECT (SELECT count(*) FROM players) + "
                      "(SELECT count(*) FROM referees)").fetchone()[0]:
            raise RuleError(None, NOT_EMPTY)
        ledger.identity(db, name=name, number=None, event="", event_key="")
    return ledger.station(db)


def admit(db: Database, referee_id: int | None, *, station_id: str, name: str,
          device: str = "", address: str = "") -> dict:
    """The organizer's station admits a new one: its number, known to every station."""
    with write(db):
        here = ledger.station(db)
        if here is None or here["number"] != ledger.FOUNDER:
            raise RuleError(None, N_("Only the organizer's station admits new stations."))
        rows = fetch(db, "SELECT * FROM stations WHERE id = ?", [station_id])
        if rows:
            return rows[0]
        number = db.execute("SELECT max(number) + 1 FROM stations").fetchone()[0] or 2
        fold.row(db, "stations", {"id": station_id, "name": name, "number": number,
                                  "device": device, "address": address,
                                  "admitted_at": now(), "admitted_by": referee_id})
    return fetch(db, "SELECT * FROM stations WHERE id = ?", [station_id])[0]


def joined(db: Database, *, number: int, event: str, event_key: str) -> dict:
    """Record what the organizer's station answered: this station's number and the
    event's id and key. Its facts start once it has received the event."""
    with write(db):
        db.execute("UPDATE station SET number = ?, event = ?, event_key = ? "
                   "WHERE key = 'self' AND number IS NULL", [number, event, event_key])
    return ledger.station(db)


def describe(db: Database, device: str, address: str) -> bool:
    """This station's own Syncthing device and address, told to every station so each
    can reach it (the founder's are not known when it founds the event). Whether it
    changed anything."""
    with write(db):
        here = ledger.station(db)
        rows = fetch(db, "SELECT device, address FROM stations WHERE id = ?",
                     [here["id"]]) if here and here["event"] else []
        if not rows or (rows[0]["device"], rows[0]["address"]) == (device, address):
            return False
        fold.change(db, "stations", {"id": here["id"]}, {"device": device,
                                                          "address": address})
    return True


# --- receiving ---------------------------------------------------------------------------

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
                if held[gid] is not None:
                    same = (held[gid]["hlc"], held[gid]["at"], held[gid]["body"]) == (
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
        elif restores.get(key, {}) is not None:
            restores.setdefault(key, {}).update(json.loads(entry["before"]))
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
            _hold(db, fact, index, part, err)
        tx.parts.append(part)
    tx.ord = None


def _apply_part(db: Database, part: dict, origin: str) -> None:
    kind = part.get("t")
    if kind == "row":
        fold.apply_row(db, part, origin)
    elif kind == "event":
        fold.apply_event(db, part)
    elif kind == "resolve":
        apply_resolution(db, part)
    else:
        raise RuleError(None, N_("A change of an unknown kind (%(kind)s): this station "
                                 "needs a newer version of the app."), kind=str(kind))


def _hold(db: Database, fact: dict, index: int, part: dict, err: RuleError) -> None:
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


# --- settling conflicts ------------------------------------------------------------------

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


def conflicts(db: Database, status: str | None = None, player_id: int | None = None,
              limit: int = 500, conflict_id: str | None = None) -> list[dict]:
    """Conflicts in clock order, newest first, with the change each holds."""
    sql, params = ("SELECT c.*, s.name AS station_name FROM conflicts c "
                   "LEFT JOIN stations s ON s.id = c.station WHERE 1"), []
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
