"""A running station: its database, its Syncthing and the loop between them.

``referee serve --station NAME`` makes one of these beside the web server. A database
that already holds the event (any account or player) becomes the event's first station,
the organizer's; an empty one waits to be paired with it. The loop writes this station's
new facts as segments, asks Syncthing to look at once, reads the other stations'
segments, restarts Syncthing if it died, and keeps the link's state for the top bar.
Everything it knows is also in the database and the folder, so a kill -9 of the app or
of Syncthing loses nothing: the next start picks up where the files are. Pairing a new
station is :mod:`referee.stations.pairing`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from referee import store
from referee.stations import segments
from referee.stations.pairing import Pairing
from referee.stations.syncthing import Setup, Syncthing, SyncthingError
from referee.store import ledger, membership, merge
from referee.store.db import fetch

log = logging.getLogger("referee.stations")

TICK = 0.5  # seconds between looks at the folder
LINK_EVERY = 3.0  # seconds between asking Syncthing about the links
PRUNE_EVERY = 60.0  # seconds between forgetting rows no late fact can need
LOOP_NICENESS = 10  # the loop runs behind the web server's threads
SWITCH_INTERVAL = 0.0005  # seconds a thread may keep the interpreter while another waits
GATHER = 0.5  # seconds a write waits for the taps right after it: one segment for a burst
RESTORE_EVERY = 10.0  # seconds between checks that our own segments are intact
# (and at once when our own folder's time moved: Syncthing brought a copy of one of our
# segments that another station changed, by renaming it in)
FULL_SCAN_EVERY = 30.0  # seconds between reading every folder, changed or not
# While segments are still arriving, wait (a tick at a time, this long at most) and fold
# them in one go: a fact that sorts before ones already folded takes those back first, so
# folding a heal segment by segment would fold the same facts again and again.
SETTLE_AT_MOST = 3.0

@dataclass
class Link:
    """What the top bar says about this station's link to the others."""

    name: str = ""
    joined: bool = False
    in_reach: int = 0  # other stations connected right now
    known: int = 0  # other stations of the event
    alone_since: str | None = None
    unseen: int = 0  # this station's changes no other station has yet
    peers: list[dict] = field(default_factory=list)


class Runtime(Pairing):
    """One station: started with the server, stopped with it (pairing: :class:`Pairing`)."""

    def __init__(self, db_path: str, name: str, *, sync_port: int = 22000,
                 gui_port: int = 8384, sync_host: str = "0.0.0.0",
                 advertise: str | None = None, lan_discovery: bool = True) -> None:
        super().__init__()  # the pairing codes
        self.db_path = str(db_path)
        self.name = name
        self.base = Path(self.db_path + ".station")
        self.shared = self.base / "shared"
        self.outbox = self.base / "outbox"
        self.sync_port = sync_port
        self.advertise = advertise or f"tcp://{sync_host}:{sync_port}"
        self.setup = Setup(home=self.base / "syncthing", gui_port=gui_port,
                           listen=f"tcp://{sync_host}:{sync_port}", name=name,
                           lan_discovery=lan_discovery)
        self._syncthing: Syncthing | None = None
        self.device = ""  # this station's Syncthing device id, once it runs
        self.link = Link(name=name)
        self._poke = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._last_link = 0.0
        self._last_prune = self._last_restore = self._last_full = time.monotonic()
        self._arriving: dict[str, int] = {}  # the other stations' folder times, last look
        self._own_time: int | None = None  # our own folder's time after our last write
        self._settling_since: float | None = None

    # --- life ------------------------------------------------------------------------

    def start(self) -> None:
        db = store.init(self.db_path)
        try:
            here = ledger.station(db)
            if here is None:
                holds = db.execute("SELECT (SELECT count(*) FROM players) + "
                                   "(SELECT count(*) FROM referees)").fetchone()[0]
                become = membership.found if holds else membership.prepare
                here = become(db, self.name)
            self.name = self.link.name = here["name"]
            self.link.joined = bool(here["event"])
        finally:
            db.close()
        self.base.mkdir(parents=True, exist_ok=True)
        self._syncthing = Syncthing(self.setup)
        self.syncthing.start()
        self.device = self.syncthing.device_id()
        self._ensure_folder()
        # The loop shares the interpreter with the web server's threads: a request that
        # arrives while the loop runs Python waits for it at most this long, not 5 ms.
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._thread = threading.Thread(target=self._loop, name="station", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._poke.set()
        if self._thread is not None:
            self._thread.join(timeout=15)
        if self._syncthing is not None:
            self._syncthing.stop()

    def poke(self) -> None:
        """A local write happened: export it now rather than at the next tick."""
        self._poke.set()

    def here(self) -> dict | None:
        db = store.connect(self.db_path)
        try:
            return ledger.station(db)
        finally:
            db.close()

    def folder_id(self, here: dict) -> str:
        return f"referee-{here['event']}"

    def _ensure_folder(self) -> None:
        here = self.here()
        if here and here["event"]:
            peers = [d["deviceID"] for d in self.syncthing.devices()
                     if d["deviceID"] != self.syncthing.device_id()]
            self.syncthing.folder(self.folder_id(here), self.shared, peers)

    def _loop(self) -> None:
        # Linux: a thread's own niceness; the referees' requests come first
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOOP_NICENESS)
        db = store.connect(self.db_path)
        try:
            while not self._stop.is_set():
                if self._poke.wait(TICK):
                    self._stop.wait(GATHER)  # let a burst of taps make one segment
                self._poke.clear()
                try:
                    self.step(db)
                except Exception:  # the loop must outlive any one bad look
                    log.exception("station step failed")
        finally:
            db.close()

    def step(self, db) -> None:
        """One turn: keep Syncthing up, export, import, refresh the link."""
        if not self.syncthing.alive and not self._stop.is_set():
            log.warning("syncthing is gone; starting it again")
            self.syncthing.start()
            self._ensure_folder()
        here = ledger.station(db)
        if here is None or not here["event"]:
            return
        now = time.monotonic()
        # Looked at before export: only what moved it since our last write counts.
        moved = self._folder_time(here) != self._own_time
        wrote = segments.export(db, self.shared, self.outbox, restore_own=False)
        if moved or now - self._last_restore > RESTORE_EVERY:
            self._last_restore = now
            wrote += len(segments.restore(db, self.shared, self.outbox, here))
        self._own_time = self._folder_time(here)
        if wrote:
            # Only our own folder changed: Syncthing need not walk the others (if it
            # cannot be told, the watcher and the rescan interval will see it).
            with contextlib.suppress(SyncthingError):
                self.syncthing.scan(self.folder_id(here), sub=here["id"])
        if self._settled(here, now):
            full = now - self._last_full > FULL_SCAN_EVERY
            if full:
                self._last_full = now
            segments.scan(db, self.shared, only_changed=not full)
        if now - self._last_prune > PRUNE_EVERY:
            self._last_prune = now
            merge.prune(db)
        # On a timer only: asking Syncthing after every burst of taps would cost each tap.
        if time.monotonic() - self._last_link > LINK_EVERY:
            self._refresh_link(db, membership.own(db))

    def _folder_time(self, here: dict) -> int | None:
        """Our own folder's time: export, restore and Syncthing all rename files in."""
        try:
            return (self.shared / here["id"]).stat().st_mtime_ns
        except OSError:
            return None

    def _settled(self, here: dict, now: float) -> bool:
        """Whether to read the other stations' segments now: nothing moved since the
        last look, or it has kept moving for SETTLE_AT_MOST seconds."""
        times = segments.arriving(self.shared, here["id"])
        moved, self._arriving = times != self._arriving, times
        if not moved:
            self._settling_since = None
            return True
        if self._settling_since is None:
            self._settling_since = now
        if now - self._settling_since >= SETTLE_AT_MOST:
            self._settling_since = None
            return True
        return False

    # --- the link ----------------------------------------------------------------------

    def _refresh_link(self, db, here: dict) -> None:
        self._last_link = time.monotonic()
        try:
            connections = self.syncthing.connections()
            devices = {d["deviceID"]: d for d in self.syncthing.devices()}
        except SyncthingError:
            connections, devices = {}, {}
        stations = fetch(db, "SELECT s.*, h.last_seq, h.heard_at FROM stations s "
                             "LEFT JOIN heard h ON h.station = s.id ORDER BY s.number")
        own = next((s for s in stations if s["id"] == here["id"]), None)
        if own and self.device and (own["device"], own["address"]) != \
                (self.device, self.advertise):
            membership.describe(db, self.device, self.advertise)
        self._know_every_station(here, stations, devices)
        connected = [d for d, c in connections.items() if c.get("connected")]
        exported = segments.exported_through(db, self.shared, here["id"])
        seen_through = here["seen_through"]
        if connected:
            folder = self.folder_id(here)
            for device in connected:
                try:
                    done = self.syncthing.completion(folder, device)
                except SyncthingError:
                    continue
                if done.get("completion") == 100 and not done.get("needItems"):
                    seen_through = max(seen_through, exported)
        alone_since = here["alone_since"]
        if connected:
            alone_since = None
        elif alone_since is None:
            alone_since = datetime.now(UTC).isoformat(timespec="seconds")
        if (seen_through, alone_since) != (here["seen_through"], here["alone_since"]):
            with store.write(db):
                db.execute("UPDATE station SET seen_through = ?, alone_since = ? "
                           "WHERE key = 'self'", [seen_through, alone_since])
        peers = []
        for station in stations:
            if station["id"] == here["id"]:
                continue
            link = connections.get(station["device"], {})
            peers.append({"name": station["name"], "number": station["number"],
                          "connected": bool(link.get("connected")),
                          "heard_at": station["heard_at"], "last_seq": station["last_seq"],
                          "address": station["address"]})
        with self._lock:
            self.link = Link(
                name=here["name"], joined=True, in_reach=len(connected),
                known=len(stations) - 1, alone_since=alone_since,
                unseen=max(0, here["next_seq"] - 1 - seen_through), peers=peers)

    def _know_every_station(self, here: dict, stations: list[dict], devices: dict) -> None:
        """Each station the event admitted is a device to reach and shares the folder,
        whether or not the organizer's station has introduced it yet (its id and address
        are in the log). Checked on every refresh: a folder update of ours can race an
        introduction and drop the device it just added (seen with Syncthing 1.19)."""
        if not devices:
            return
        folder = self.folder_id(here)
        try:
            members = self.syncthing.members(folder)
        except SyncthingError:
            return
        for station in stations:
            if station["id"] == here["id"] or not station["device"]:
                continue
            try:
                if station["device"] not in devices:
                    address = [station["address"], "dynamic"] if station["address"] else None
                    self.syncthing.add_device(station["device"], station["name"], address)
                if station["device"] not in members:
                    log.info("sharing the event with station %s", station["name"])
                    self.syncthing.share(folder, station["device"])
            except SyncthingError:
                log.warning("could not add station %s to Syncthing", station["name"])

    def status(self) -> Link:
        with self._lock:
            return self.link
