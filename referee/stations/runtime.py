"""A running station: its database, its Syncthing and the loop between them.

``referee serve --station NAME`` makes one of these beside the web server. A database
that already holds the event (any account or player) becomes the event's first station,
the organizer's; an empty one waits to be paired with it. The loop writes this station's
new facts as segments, asks Syncthing to look at once, reads the other stations'
segments, restarts Syncthing if it died, and keeps the link's state for the top bar.
Everything it knows is also in the database and the folder, so a kill -9 of the app or
of Syncthing loses nothing: the next start picks up where the files are.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from referee import store
from referee.rules import N_, RuleError
from referee.stations import pinning, segments
from referee.stations.syncthing import Setup, Syncthing, SyncthingError
from referee.store import ledger, merge
from referee.store.db import fetch

log = logging.getLogger("referee.stations")

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a screen
CODE_LENGTH = 8
CODE_MINUTES = 15
CODE_TRIES = 5
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

WRONG_CODE = N_("This pairing code is wrong or has expired: ask the organizer's station "
                "for a new one.")
NOT_FOUNDER = N_("Only the organizer's station pairs new stations.")
UNREACHABLE = N_("The organizer's station did not answer at %(url)s: check the address "
                 "and that both devices are on the same network.")


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


class Runtime:
    """One station: started with the server, stopped with it."""

    def __init__(self, db_path: str, name: str, *, sync_port: int = 22000,
                 gui_port: int = 8384, sync_host: str = "0.0.0.0",
                 advertise: str | None = None, lan_discovery: bool = True) -> None:
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
        self.syncthing: Syncthing | None = None
        self.device = ""  # this station's Syncthing device id, once it runs
        self.link = Link(name=name)
        self._codes: dict[str, list] = {}  # code -> [expires at, tries left]
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
                here = merge.found(db, self.name) if holds else merge.prepare(db, self.name)
            self.name = self.link.name = here["name"]
            self.link.joined = bool(here["event"])
        finally:
            db.close()
        self.base.mkdir(parents=True, exist_ok=True)
        self.syncthing = Syncthing(self.setup)
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
        if self.syncthing is not None:
            self.syncthing.stop()

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
        try:  # Linux: a thread's own niceness; the referees' requests come first
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOOP_NICENESS)
        except (AttributeError, OSError):
            pass
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
            try:  # only our own folder changed: Syncthing need not walk the others
                self.syncthing.scan(self.folder_id(here), sub=here["id"])
            except SyncthingError:
                pass  # the watcher and the rescan interval will see it
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
            self._refresh_link(db, ledger.station(db))

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
            merge.describe(db, self.device, self.advertise)
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

    # --- pairing -----------------------------------------------------------------------

    def new_code(self) -> str:
        """A one-time code the organizer's station shows to pair a new one."""
        here = self.here()
        if here is None or here["number"] != ledger.FOUNDER:
            raise RuleError(None, NOT_FOUNDER)
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        now = time.monotonic()
        with self._lock:
            self._codes = {c: v for c, v in self._codes.items() if v[0] > now}
            self._codes[code] = [now + CODE_MINUTES * 60, CODE_TRIES]
        return code

    def _use_code(self, code: str) -> bool:
        code = (code or "").strip().upper().replace("-", "").replace(" ", "")
        with self._lock:
            entry = self._codes.get(code)
            if entry is None or entry[0] < time.monotonic():
                for value in self._codes.values():  # a wrong guess costs every code a try
                    value[1] -= 1
                self._codes = {c: v for c, v in self._codes.items() if v[1] > 0}
                return False
            del self._codes[code]
            return True

    def accept(self, request: dict, referee_id: int | None = None) -> dict:
        """On the organizer's station: admit the station that sent a valid code."""
        if not self._use_code(str(request.get("code", ""))):
            raise RuleError(None, WRONG_CODE)
        station_id, device = str(request["station"]), str(request["device"])
        name, address = str(request["name"])[:40], str(request.get("address", ""))[:200]
        db = store.connect(self.db_path)
        try:
            admitted = merge.admit(db, referee_id, station_id=station_id, name=name,
                                   device=device, address=address)
            here = ledger.station(db)
        finally:
            db.close()
        self.syncthing.add_device(device, name, [address, "dynamic"] if address else None)
        self.syncthing.folder(self.folder_id(here), self.shared, [device])
        self.poke()
        return {"number": admitted["number"], "event": here["event"],
                "event_key": here["event_key"], "device": self.syncthing.device_id(),
                "address": self.advertise, "name": here["name"],
                "folder": self.folder_id(here)}

    def join(self, organizer_url: str, code: str, pin: str = "") -> dict:
        """On a new station: pair with the organizer's station over the network (over
        HTTPS, trusting only the authority whose fingerprint ``pin`` came with the code)."""
        context = pinning.context_for(organizer_url, pin)
        here = self.here()
        body = json.dumps({"code": code, "station": here["id"], "name": here["name"],
                           "device": self.syncthing.device_id(),
                           "address": self.advertise}).encode()
        url = organizer_url.rstrip("/") + "/api/v1/stations/pair"
        request = urllib.request.Request(url, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=20, context=context) as answer:
                reply = json.loads(answer.read())
        except urllib.error.HTTPError as err:
            try:
                message = json.loads(err.read()).get("error")
            except ValueError:
                message = None
            raise RuleError(None, WRONG_CODE if err.code in (403, 422) and not message
                            else message or WRONG_CODE) from err
        except (urllib.error.URLError, OSError, ValueError) as err:
            raise RuleError(None, UNREACHABLE, url=organizer_url) from err
        db = store.connect(self.db_path)
        try:
            merge.joined(db, number=reply["number"], event=reply["event"],
                         event_key=reply["event_key"])
        finally:
            db.close()
        # The folder first, so the organizer's first word (its cluster config) finds it
        # and its introductions of the other stations take; then the organizer, paused
        # until it shares the folder: an introduction arriving between our read and write
        # of the folder would be lost.
        self.syncthing.folder(reply["folder"], self.shared, [])
        self.syncthing.add_device(reply["device"], reply["name"],
                                  [reply["address"], "dynamic"], introducer=True, paused=True)
        self.syncthing.share(reply["folder"], reply["device"])
        self.syncthing.let_in(reply["device"])
        self.poke()
        return reply
