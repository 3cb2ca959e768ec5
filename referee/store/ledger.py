"""The station log: every transaction of a station as one fact with a global identity.

A database that is not a station (the default) writes its rows as it always has. Once
it is a station (:func:`found` or :func:`join`), each write transaction also appends one
**fact** to ``log``: its global id ``<station>:<seq>``, a hybrid logical clock time, and
the parts it wrote (rows, player events), which is what other stations fold into their
own copy. The projection tables are only ever written through :mod:`referee.store.fold`,
the same code for a station's own writes and for the facts it receives, so a fact means
the same everywhere.

Ids are global too: each station numbers its rows in its own block (station 1, the
organizer's, keeps the plain 1, 2, 3 of a single database), so two stations never hand
out the same player, event or game number.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass, field

from sqlite_utils import Database

from referee.rules import N_, RuleError
from referee.store import tables
from referee.store.clock import now
from referee.store.sql import fetch

BLOCK = 1_000_000  # ids per station; station 1's block is [1, 2 * BLOCK)
GENESIS_HLC = "0000000000000.00000"  # the founding snapshot sorts before every fact
GENESIS_ROWS = 200  # rows a genesis fact carries: small facts import in small steps
FOUNDER = 1


def clock() -> float:
    """Wall time in seconds (tests replace this; the rules never read it)."""
    return time.time()


def canonical(value: object) -> str:
    """The one JSON spelling of a value: what is hashed, signed and compared."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def hlc_text(ms: int, counter: int) -> str:
    return f"{ms:013d}.{counter:05d}"


def fact_ord(hlc: str, station: str, seq: int) -> str:
    """Where a fact sorts in every station's fold: clock, then station, then sequence."""
    return f"{hlc}|{station}|{seq:010d}"


def block(number: int) -> tuple[int, int]:
    """The ids station ``number`` hands out: [low, high)."""
    if number == FOUNDER:
        return 1, 2 * BLOCK
    return number * BLOCK, (number + 1) * BLOCK


@dataclass
class Tx:
    """What one write transaction has done so far: the fact it will append, if any."""

    station: dict | None  # this station's row, or None for a database that is no station
    capturing: bool = True  # False while facts from elsewhere are folded in
    ord: str | None = None  # the fact's place (stamped at its first part)
    gid: str | None = None
    seq: int = 0
    hlc: str = ""
    at: str = ""
    parts: list[dict] = field(default_factory=list)
    kept: list[tuple] = field(default_factory=list)  # rows as they were (undo_log)
    # Player rows as this transaction last read or wrote them, by id: a tap reads its
    # player once and answers with the row it wrote (fold.apply_event keeps them).
    players: dict[int, dict] = field(default_factory=dict)
    # A form's one-time key this transaction claims, and the first row it created
    # (store.once): stored together before COMMIT.
    once: str | None = None
    made: tuple[str, int] | None = None

    @property
    def recording(self) -> bool:
        """Whether changed rows are kept for a later re-fold (stations only)."""
        return self.station is not None


def station(db: Database) -> dict | None:
    """This database's station row, or None if it is not a station."""
    rows = fetch(db, "SELECT * FROM station WHERE key = 'self'")
    return rows[0] if rows else None


def begin(db: Database) -> Tx:
    """The capture of a transaction just begun (store.write calls this)."""
    return Tx(station(db))


def current(db: Database) -> Tx:
    tx = getattr(db, "referee_tx", None)
    if tx is None:
        raise RuntimeError("write outside store.write()")
    return tx


def _tick(row: dict) -> tuple[int, int]:
    """The next clock reading: after the wall clock and after anything seen before."""
    now_ms = int(clock() * 1000)
    if now_ms > row["hlc_ms"]:
        ms, counter = now_ms, 0
    else:
        ms, counter = row["hlc_ms"], row["hlc_c"] + 1
    row["hlc_ms"], row["hlc_c"] = ms, counter
    return ms, counter


def seen(db: Database, hlc: str) -> None:
    """Move this station's clock past a time it has received (inside store.write())."""
    ms, counter = (int(x) for x in hlc.split("."))
    db.execute("UPDATE station SET hlc_ms = ?, hlc_c = ? WHERE key = 'self' AND "
               "(hlc_ms < ? OR (hlc_ms = ? AND hlc_c < ?))", [ms, counter, ms, ms, counter])


def stamp(db: Database, tx: Tx) -> str:
    """Give the transaction's fact its sequence number and clock time (once)."""
    if tx.ord is None:
        row = tx.station
        if row is None:
            raise RuntimeError("only a station's transaction is stamped")
        if row["number"] is None:
            raise RuleError(None, N_("This station has not joined an event yet: pair it "
                                     "with the organizer's station first."))
        # ``row`` was read inside this transaction (BEGIN IMMEDIATE): it is the newest.
        ms, counter = _tick(row)
        tx.seq, tx.hlc = row["next_seq"], hlc_text(ms, counter)
        tx.gid = f"{row['id']}:{tx.seq}"
        tx.ord = fact_ord(tx.hlc, row["id"], tx.seq)
        tx.at = now()
        row["next_seq"] = tx.seq + 1  # written by seal(), with the next event id
    return tx.ord


def part_ord(db: Database, tx: Tx) -> str:
    """The place of the next part of this transaction (events sort by it)."""
    return f"{stamp(db, tx)}#{len(tx.parts):04d}"


def capture(tx: Tx, part: dict) -> None:
    if tx.capturing and tx.station is not None:
        tx.parts.append(part)


def fact_text(gid: str, station: str, seq: int, hlc: str, at: str, parts: str,
              mac: str | None = None) -> str:
    """canonical() of a fact (without its seal unless ``mac``) made from the canonical
    text of its parts, as the log stores them: the parts are not spelled out again."""
    q = canonical
    sealed = f'"mac":{q(mac)},' if mac is not None else ""
    return (f'{{"at":{q(at)},"gid":{q(gid)},"hlc":{q(hlc)},{sealed}"parts":{parts},'
            f'"seq":{int(seq)},"station":{q(station)}}}')


def seal_text(key: str, text: str) -> str:
    return hmac.new(key.encode(), text.encode(), hashlib.sha256).hexdigest()


def mac(key: str, fact: dict) -> str:
    """The fact's seal with the event's key: what shows a segment was edited."""
    return seal_text(key, canonical({k: v for k, v in fact.items() if k != "mac"}))


def flush(db: Database, tx: Tx) -> None:
    """Write the rows kept for a re-fold (store.write calls this before COMMIT)."""
    if tx.kept:
        db.conn.executemany("INSERT INTO undo_log (ord, tbl, pk, before) VALUES (?, ?, ?, ?)",
                            tx.kept)
        tx.kept.clear()


def seal(db: Database, tx: Tx) -> None:
    """Append the transaction's fact to the log (store.write calls this before COMMIT)."""
    row = tx.station
    if not tx.parts or not tx.capturing or row is None:  # parts are a station's only
        return
    db.execute("UPDATE station SET next_seq = ?, hlc_ms = ?, hlc_c = ?, next_event = ? "
               "WHERE key = 'self'",
               [row["next_seq"], row["hlc_ms"], row["hlc_c"], row["next_event"]])
    body = canonical(tx.parts)
    assert tx.gid is not None  # stamped with its first part
    seal = seal_text(row["event_key"],
                     fact_text(tx.gid, row["id"], tx.seq, tx.hlc, tx.at, body))
    db.execute("INSERT INTO log (gid, station, seq, hlc, ord, at, body, mac) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               [tx.gid, row["id"], tx.seq, tx.hlc, tx.ord, tx.at, body, seal])


def new_id(db: Database, table: str, counter: str | None = None,
           where: tuple[str, list] = ("", [])) -> int:
    """A fresh id (or game number) for ``table``, from this station's block.

    A database that is no station numbers as SQLite always did (the largest + 1)."""
    tx = current(db)
    column = "number" if counter else "id"
    condition, params = where
    if tx.station is None:
        sql = f"SELECT coalesce(max({column}), 0) + 1 FROM {table}"
        return db.execute(sql + (f" WHERE {condition}" if condition else ""),
                          params).fetchone()[0]
    name = counter or table
    low, high = block(tx.station["number"])
    hot = name == "events"  # a tap's: kept in the station row, which seal() writes
    rows = [] if hot else fetch(db, "SELECT next FROM counters WHERE name = ?", [name])
    if hot and tx.station["next_event"] is not None:
        value = tx.station["next_event"]
    elif rows:
        value = rows[0]["next"]
    else:
        sql = f"SELECT coalesce(max({column}), 0) FROM {table} WHERE {column} >= ? AND {column} < ?"
        value = max(low, db.execute(sql + (f" AND {condition}" if condition else ""),
                                    [low, high, *params]).fetchone()[0] + 1)
    if value >= high:
        raise RuleError(None, N_("This station has used all the numbers it may give; "
                                 "add another station."))
    if hot:
        tx.station["next_event"] = value + 1
    else:
        db.execute("INSERT INTO counters (name, next) VALUES (?, ?) "
                   "ON CONFLICT(name) DO UPDATE SET next = excluded.next", [name, value + 1])
    return value


def new_station_id() -> str:
    """A station's id: random, short, never reused (also its folder's name)."""
    return secrets.token_hex(5)


def identity(db: Database, *, name: str, number: int | None, event: str, event_key: str,
             station_id: str | None = None) -> dict:
    """Make this database a station (inside store.write())."""
    row = {"key": "self", "id": station_id or new_station_id(), "name": name,
           "number": number, "event": event, "event_key": event_key, "next_seq": 1,
           "hlc_ms": int(clock() * 1000), "hlc_c": 0, "created_at": now()}
    db.table("station").insert(row)
    return row


LOCAL_SETTINGS = {"secret_key"}  # each station signs its own sessions


def genesis(db: Database, row: dict) -> int:
    """The founding snapshot: every row the event holds now, as facts that sort first.

    What a single database wrote before it became a station has no facts; a station
    joining later receives it as this snapshot. Returns how many facts it took."""
    seq = row["next_seq"]
    chunk: list[dict] = []

    def flush() -> None:
        nonlocal seq, chunk
        if not chunk:
            return
        fact = {"gid": f"{row['id']}:{seq}", "station": row["id"], "seq": seq,
                "hlc": GENESIS_HLC, "at": row["created_at"], "parts": chunk}
        db.execute("INSERT INTO log (gid, station, seq, hlc, ord, at, body, mac) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   [fact["gid"], row["id"], seq, GENESIS_HLC,
                    fact_ord(GENESIS_HLC, row["id"], seq), fact["at"], canonical(chunk),
                    mac(row["event_key"], fact)])
        seq, chunk = seq + 1, []

    for table, order in tables.snapshot():
        for values in fetch(db, f"SELECT * FROM {table} ORDER BY {order}"):
            if table == "settings" and values["key"] in LOCAL_SETTINGS:
                continue
            if table == "games" and not values["station"]:
                values["station"] = row["id"]
            chunk.append({"t": "row", "tbl": table, "v": values})
            if len(chunk) >= GENESIS_ROWS:
                flush()
    flush()
    db.execute("UPDATE games SET station = ? WHERE station = ''", [row["id"]])
    db.execute("UPDATE station SET next_seq = ? WHERE key = 'self'", [seq])
    row["next_seq"] = seq
    return seq - 1


def lines(db: Database, station_id: str, after: int = 0, limit: int = -1) -> list[tuple]:
    """A station's facts after a sequence number as segment lines: (seq, text)."""
    rows = db.conn.execute("SELECT gid, station, seq, hlc, at, body, mac FROM log "
                           "WHERE station = ? AND seq > ? ORDER BY seq LIMIT ?",
                           [station_id, after, limit]).fetchall()
    return [(r[2], fact_text(r[0], r[1], r[2], r[3], r[4], r[5], r[6])) for r in rows]


def facts(db: Database, station_id: str | None = None, after: int = 0,
          limit: int = -1) -> list[dict]:
    """Facts of the log as they travel (a segment's lines): one station's after a
    sequence number, or every fact, in log order."""
    if station_id is None:
        rows = fetch(db, "SELECT * FROM log ORDER BY station, seq")
    else:
        rows = fetch(db, "SELECT * FROM log WHERE station = ? AND seq > ? ORDER BY seq "
                         "LIMIT ?", [station_id, after, limit])
    return [{"gid": r["gid"], "station": r["station"], "seq": r["seq"], "hlc": r["hlc"],
             "at": r["at"], "parts": json.loads(r["body"]), "mac": r["mac"]} for r in rows]
