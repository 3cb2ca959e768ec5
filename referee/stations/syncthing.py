"""Syncthing, as a station runs it: its own configuration, its own process, its REST API.

The app writes Syncthing's configuration itself (a GUI on loopback with an API key, no
global discovery, no relays, no upgrades, no usage reports), starts the process beside
the web server and drives it through the REST API: devices to pair, the one shared
folder of the event (``ignoreDelete``: a segment is never deleted anywhere), pauses,
scans and the state of each link. Nothing here knows about the event's facts.

Debian's 1.19.2 starts a monitor process that restarts the real one even with
``--no-restart``; ``STMONITORED`` tells it that it is already monitored, so the process
started here is the worker itself and a kill reaches it.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

BINARY = "syncthing"


class SyncthingError(Exception):
    """Syncthing is missing, did not start, or refused a call."""


def available() -> bool:
    return shutil.which(BINARY) is not None


@dataclass
class Setup:
    """Where one station's Syncthing keeps its keys and which ports it takes."""

    home: Path  # keys, config.xml and index database
    gui_port: int  # the REST API, on loopback only
    listen: str  # where other stations connect, e.g. tcp://0.0.0.0:22000
    name: str  # the device name others see
    lan_discovery: bool = True  # find stations on the local network (off in tests)


def _set(parent: ElementTree.Element, tag: str, value: str) -> None:
    node = parent.find(tag)
    if node is None:
        node = ElementTree.SubElement(parent, tag)
    node.text = value


def configure(setup: Setup) -> str:
    """Generate keys once, then (re)write the options the app relies on; the API key."""
    config = setup.home / "config.xml"
    if not config.exists():
        setup.home.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [BINARY, "generate", f"--home={setup.home}", "--no-default-folder",
             "--skip-port-probing"], capture_output=True, text=True, timeout=60, check=False)
        if done.returncode != 0:
            raise SyncthingError(done.stderr.strip() or done.stdout.strip())
    tree = ElementTree.parse(config)
    root = tree.getroot()
    gui, options = root.find("gui"), root.find("options")
    if gui is None or options is None:
        raise SyncthingError(f"{config} has no gui or options section")
    gui.set("enabled", "true")
    gui.set("tls", "false")
    _set(gui, "address", f"127.0.0.1:{setup.gui_port}")
    key = gui.findtext("apikey") or ""
    if len(key) < 32:
        key = secrets.token_urlsafe(32)
        _set(gui, "apikey", key)
    for tag, value in (
            ("listenAddress", setup.listen), ("globalAnnounceEnabled", "false"),
            ("localAnnounceEnabled", "true" if setup.lan_discovery else "false"),
            ("relaysEnabled", "false"), ("natEnabled", "false"), ("startBrowser", "false"),
            ("urAccepted", "-1"), ("autoUpgradeIntervalH", "0"),
            ("crashReportingEnabled", "false"), ("restartOnWakeup", "false"),
            ("reconnectionIntervalS", "2"), ("progressUpdateIntervalS", "1")):
        for node in options.findall(tag)[1:]:
            options.remove(node)
        _set(options, tag, value)
    for device in root.findall("device"):
        if device.get("name") in ("", None) or device.get("id") == _own_id(root):
            device.set("name", setup.name)
    tree.write(config, encoding="unicode")
    return key


def _own_id(root: ElementTree.Element) -> str | None:
    first = root.find("device")
    return first.get("id") if first is not None else None


def _prctl():
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6", use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()  # looked up here: the child between fork and exec only calls it


NICENESS = 10  # Syncthing runs behind the web server: a referee's tap comes first


def _die_with_parent() -> None:
    """In the child before exec: Linux kills it when the app that started it dies, even
    by kill -9 (PR_SET_PDEATHSIG); elsewhere the pid file catches it at the next start.
    It also steps back in the queue for the CPU (nice)."""
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)


class Syncthing:
    """One running Syncthing: start, stop, kill and its REST API."""

    def __init__(self, setup: Setup, log: Path | None = None) -> None:
        self.setup = setup
        self.key = configure(setup)
        self.log = log or setup.home / "syncthing.log"
        self.process: subprocess.Popen | None = None

    # --- the process -----------------------------------------------------------------

    def start(self, timeout: float = 30) -> None:
        self._stop_stale()
        # STHASHING: the Go standard SHA-256, runs on any CPU and skips the start-up
        # benchmark that picks one (a second of CPU; segments are a few KB anyway).
        env = {"STHASHING": "standard", **os.environ, "STMONITORED": "yes",
               "STNORESTART": "1", "STNOUPGRADE": "1", "STNODEFAULTFOLDER": "1",
               "STHOMEDIR": str(self.setup.home)}
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [BINARY, "serve", f"--home={self.setup.home}", "--no-browser",
                 "--no-restart", "--no-upgrade"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                # only a C call before exec, nothing that takes a lock another thread holds
                start_new_session=True, preexec_fn=_die_with_parent)  # noqa: PLW1509
        self.pidfile.write_text(str(self.process.pid))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SyncthingError(f"syncthing exited ({self.process.returncode}); "
                                     f"see {self.log}")
            try:
                self.get("/rest/system/ping")
                return
            except SyncthingError:
                time.sleep(0.1)
        raise SyncthingError(f"syncthing did not answer within {timeout:.0f} s")

    @property
    def pidfile(self) -> Path:
        return self.setup.home / "syncthing.pid"

    def _stop_stale(self) -> None:
        """A Syncthing left running on this home by an app that was killed goes first:
        two on one home would fight over its ports and its index."""
        try:
            pid = int(self.pidfile.read_text())
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except (OSError, ValueError):
            return
        if f"--home={self.setup.home}" not in cmdline:
            return
        os.kill(pid, signal.SIGTERM)
        for _ in range(100):
            if not Path(f"/proc/{pid}").exists():
                return
            time.sleep(0.05)
        os.kill(pid, signal.SIGKILL)

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        """Stop it cleanly (SIGTERM), or kill it if it does not go."""
        if not self.alive or self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        """kill -9: what a crash or a flat battery does."""
        if self.alive and self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)

    # --- REST --------------------------------------------------------------------------

    def call(self, method: str, path: str, body: object = None, timeout: float = 10):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.setup.gui_port}{path}", data=data, method=method,
            headers={"X-API-Key": self.key, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                raw = answer.read()
        except urllib.error.HTTPError as err:
            raise SyncthingError(f"{method} {path}: {err.code} "
                                 f"{err.read().decode(errors='replace')[:200]}") from err
        except (urllib.error.URLError, OSError) as err:
            raise SyncthingError(f"{method} {path}: {err}") from err
        return json.loads(raw) if raw.strip() else None

    def get(self, path: str):
        return self.call("GET", path)

    def device_id(self) -> str:
        return self.get("/rest/system/status")["myID"]

    def add_device(self, device_id: str, name: str, addresses: list[str] | None = None,
                   introducer: bool = False, paused: bool = False) -> None:
        """Trust a device (pairing); ``introducer``: learn the devices it knows;
        ``paused``: not yet, so that nothing it says races the folder's set-up."""
        self.call("PUT", f"/rest/config/devices/{device_id}", {
            "deviceID": device_id, "name": name, "addresses": addresses or ["dynamic"],
            "introducer": introducer, "autoAcceptFolders": False,
            "compression": "metadata", "paused": paused})

    def devices(self) -> list[dict]:
        return self.get("/rest/config/devices")

    def folder(self, folder_id: str, path: Path, devices: list[str]) -> None:
        """Create or update the shared folder of the event with these devices."""
        own = self.device_id()
        path.mkdir(parents=True, exist_ok=True)
        try:
            current = self.get(f"/rest/config/folders/{folder_id}")
            members = {d["deviceID"] for d in current.get("devices", [])}
        except SyncthingError:
            members = set()
        members |= {own, *devices}
        self.call("PUT", f"/rest/config/folders/{folder_id}", {
            "id": folder_id, "label": "Referee event", "path": str(path),
            "type": "sendreceive", "rescanIntervalS": 30, "fsWatcherEnabled": True,
            "fsWatcherDelayS": 1, "ignoreDelete": True, "ignorePerms": True,
            "maxConflicts": 0, "paused": False,
            "devices": [{"deviceID": d} for d in sorted(members)]})

    def members(self, folder_id: str) -> set[str]:
        """The devices the folder is shared with (this one included)."""
        current = self.get(f"/rest/config/folders/{folder_id}")
        return {d["deviceID"] for d in current.get("devices", [])}

    def share(self, folder_id: str, device_id: str) -> None:
        current = self.get(f"/rest/config/folders/{folder_id}")
        members = {d["deviceID"] for d in current.get("devices", [])} | {device_id}
        current["devices"] = [{"deviceID": d} for d in sorted(members)]
        self.call("PUT", f"/rest/config/folders/{folder_id}", current)

    def let_in(self, device_id: str) -> None:
        """Un-pause a device added paused, in the saved config (``resume`` is not saved:
        a restart would find the device paused again)."""
        self.call("PATCH", f"/rest/config/devices/{device_id}", {"paused": False})

    def pause(self, device_id: str | None = None) -> None:
        self.call("POST", "/rest/system/pause" + (f"?device={device_id}" if device_id else ""))

    def resume(self, device_id: str | None = None) -> None:
        self.call("POST", "/rest/system/resume" + (f"?device={device_id}" if device_id else ""))

    def scan(self, folder_id: str, sub: str | None = None) -> None:
        """Look at the folder (or only its subfolder ``sub``) now rather than at the
        watcher's next tick."""
        query = f"folder={folder_id}" + (f"&sub={sub}" if sub else "")
        self.call("POST", f"/rest/db/scan?{query}")

    def connections(self) -> dict[str, dict]:
        """Each known device's link: ``connected`` and its address."""
        return self.get("/rest/system/connections").get("connections", {})

    def completion(self, folder_id: str, device_id: str) -> dict:
        """How much of our folder a device has (``completion`` in %, ``needItems``)."""
        return self.get(f"/rest/db/completion?folder={folder_id}&device={device_id}")
