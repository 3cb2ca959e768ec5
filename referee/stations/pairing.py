"""Pairing a new station with the organizer's: one-time codes, and the HTTP between them.

The organizer's station shows a short code; the new station sends it with its id, name
and Syncthing device to ``/api/v1/stations/pair`` (over HTTPS when the code came with the
authority's fingerprint); the organizer admits it and answers with the event's id, key
and folder, and both Syncthings learn of each other.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from referee import store
from referee.rules import N_, RuleError
from referee.stations import pinning
from referee.stations.syncthing import Syncthing
from referee.store import ledger, membership

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a screen
CODE_LENGTH = 8
CODE_MINUTES = 15
CODE_TRIES = 5

WRONG_CODE = N_("This pairing code is wrong or has expired: ask the organizer's station "
                "for a new one.")
NOT_FOUNDER = N_("Only the organizer's station pairs new stations.")
UNREACHABLE = N_("The organizer's station did not answer at %(url)s: check the address "
                 "and that both devices are on the same network.")


class Pairing:
    """The pairing half of a station (:class:`referee.stations.runtime.Runtime`), which
    gives it its database, its Syncthing and shared folder, and its address."""

    db_path: str
    shared: Path
    advertise: str
    _syncthing: Syncthing | None
    _lock: threading.Lock

    def __init__(self) -> None:
        self._codes: dict[str, list] = {}  # code -> [expires at, tries left]

    def here(self) -> dict | None:  # the station's own row (Runtime)
        raise NotImplementedError

    @property
    def syncthing(self) -> Syncthing:
        """The station's Syncthing, once the station has started."""
        if self._syncthing is None:
            raise RuntimeError("the station has not started")
        return self._syncthing

    def folder_id(self, here: dict) -> str:
        raise NotImplementedError

    def poke(self) -> None:
        raise NotImplementedError

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
            admitted = membership.admit(db, referee_id, station_id=station_id, name=name,
                                        device=device, address=address)
            here = membership.own(db)
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
        if here is None:
            raise RuntimeError("only a station joins an event")
        body = json.dumps({"code": code, "station": here["id"], "name": here["name"],
                           "device": self.syncthing.device_id(),
                           "address": self.advertise}).encode()
        reply = ask_to_pair(organizer_url, body, context)
        db = store.connect(self.db_path)
        try:
            membership.joined(db, number=reply["number"], event=reply["event"],
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


def ask_to_pair(organizer_url: str, body: bytes, context) -> dict:
    """POST the pairing request to the organizer's station; its answer, or a RuleError
    that says why not (a wrong code, or no answer at that address)."""
    url = organizer_url.rstrip("/") + "/api/v1/stations/pair"
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=20, context=context) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as err:
        try:
            message = json.loads(err.read()).get("error")
        except ValueError:
            message = None
        raise RuleError(None, WRONG_CODE if err.code in (403, 422) and not message
                        else message or WRONG_CODE) from err
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise RuleError(None, UNREACHABLE, url=organizer_url) from err
