"""Becoming a station of an event: founding it, waiting to be admitted, admitting.

The organizer's database founds the event (station 1); a new, empty one prepares an id
and waits; the founder admits it with the next number, which every station learns as a
row of the founder's log; the new station records what the founder answered.
"""

from __future__ import annotations

import secrets

from sqlite_utils import Database

from referee.rules import N_, RuleError
from referee.store import fold, ledger
from referee.store.clock import now
from referee.store.db import write
from referee.store.sql import fetch

NOT_EMPTY = N_("Only a new, empty station can join an event; this one already holds "
               "players or referees.")
ALREADY = N_("This database is already the station %(name)s.")


def own(db: Database) -> dict:
    """This station's own row; only a station asks for it."""
    here = ledger.station(db)
    if here is None:
        raise RuntimeError("this database is not a station")
    return here


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
    return own(db)


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
    return own(db)


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
    return own(db)


def describe(db: Database, device: str, address: str) -> bool:
    """This station's own Syncthing device and address, told to every station so each
    can reach it (the founder's are not known when it founds the event). Whether it
    changed anything."""
    with write(db):
        here = ledger.station(db)
        rows = fetch(db, "SELECT device, address FROM stations WHERE id = ?",
                     [here["id"]]) if here and here["event"] else []
        if here is None or not rows or \
                (rows[0]["device"], rows[0]["address"]) == (device, address):
            return False
        fold.change(db, "stations", {"id": here["id"]}, {"device": device,
                                                          "address": address})
    return True
