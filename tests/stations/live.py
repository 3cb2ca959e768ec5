"""Stations as real processes: `referee serve --station` with its own Syncthing, on
loopback, with discovery, relays and upgrades off."""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import multiprocessing.context
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from referee import store
from referee.store.db import fetch
from tests.conftest import free_port, wait_for_port

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
# A station's command line runs the test suite's cheap password hash (tests/conftest.py).
assert os.environ.get("REFEREE_FAST_HASH_FOR_TESTS") == "1"


@functools.cache
def _fork_server() -> multiprocessing.context.ForkServerContext:
    """The fork server stations start from: one per test process, with the package
    imported once (tests/stations/warm.py)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tests.stations.warm"])
    return context


def _run(argv: list[str], log: str) -> None:
    """In the forked station: its output to its log, then the command, as
    ``python -m referee.cli`` would run it; the command's exit code is the process's."""
    out = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(out)
    from referee import cli

    sys.exit(cli.main(argv))


class Forked:
    """``referee <argv>`` as a process of its own, forked from a process that has the
    package imported already (a fresh interpreter spends ~0.8 CPU-s importing it). It
    is the command's own process as far as a test can tell: its own pid and signals, its
    output in ``log``; it answers as subprocess.Popen does (poll, wait, send_signal,
    kill), its exit code negative when a signal ended it."""

    stdout = None  # its output goes to the log, as with Popen(stdout=file)

    def __init__(self, argv: list[str], log: Path) -> None:
        self._process = _fork_server().Process(target=_run, args=(argv, str(log)))
        self._process.start()
        self.pid = self._process.pid
        self.args = argv

    def poll(self) -> int | None:
        return self._process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        return self._process.exitcode

    def send_signal(self, sig: int) -> None:
        if self._process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Served:
    """One station: its database file, its server process and a signed-in browser."""

    def __init__(self, root: Path, name: str, db: Path | None = None) -> None:
        self.name = name
        self.db_path = db or root / f"{name}.db"
        self.port, self.sync_port, self.gui_port = free_port(), free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.browser = requests.Session()
        self.browser.headers["Accept-Language"] = "en"

    def start(self) -> Served:
        """Start the station; if another process took one of its ports meanwhile (its
        server then exits with "Address already in use"), again on new ports."""
        for _attempt in range(3):
            self._start()
            if self._is_ours():
                return self
            self.stop()
            self.port, self.sync_port, self.gui_port = free_port(), free_port(), free_port()
            self.url = f"http://127.0.0.1:{self.port}"
        raise RuntimeError(f"{self.name} never served its own port:\n"
                           f"{Path(str(self.db_path) + '.log').read_text()}")

    def _is_ours(self) -> bool:
        """Whether what answers on the port is this station's server, still running."""
        try:
            page = self.browser.get(self.url + "/login", timeout=10)
        except requests.RequestException:
            return False
        return self.process.poll() is None and "Referee" in page.text

    def _start(self) -> None:
        self.process = Forked(
            ["serve", "--db", str(self.db_path), "--host", "127.0.0.1", "--port",
             str(self.port), "--station", self.name, "--sync-port", str(self.sync_port),
             "--sync-gui-port", str(self.gui_port), "--no-lan-discovery", "--threads", "4"],
            Path(str(self.db_path) + ".log"))
        try:
            wait_for_port(self.port, self.process, seconds=60)
        except (RuntimeError, AttributeError) as err:  # it exited: show its log
            log = Path(str(self.db_path) + ".log").read_text()
            if "Address already in use" not in log:
                raise RuntimeError(f"{err}\n{log}") from None

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def syncthing_pids(self) -> list[int]:
        home = str(self.db_path) + ".station/syncthing"
        found = subprocess.run(["pgrep", "-f", "--", f"--home={home}"], capture_output=True,
                               text=True, check=False)
        return [int(p) for p in found.stdout.split()]

    def kill_syncthing(self) -> None:
        for pid in self.syncthing_pids():
            os.kill(pid, signal.SIGKILL)

    # --- as a browser ---------------------------------------------------------------

    def csrf(self, path: str = "/login") -> str:
        page = self.browser.get(self.url + path)
        return CSRF.search(page.text).group(1)

    def sign_in(self, name: str = "org", password: str = "org-password") -> Served:
        answer = self.browser.post(self.url + "/login", data={
            "name": name, "password": password, "csrf_token": self.csrf()},
            allow_redirects=False)
        assert answer.status_code == 303, answer.text
        return self

    def code(self) -> str:
        page = self.browser.post(self.url + "/stations/code",
                                 data={"csrf_token": self.csrf("/stations")})
        assert page.status_code == 200, page.text
        return re.search(r'class="code">([A-Z0-9]{4})-([A-Z0-9]{4})<', page.text).group(0)[13:-1]

    def join(self, organizer: Served) -> None:
        code = organizer.code()
        answer = self.browser.post(self.url + "/stations/join", data={
            "organizer": organizer.url, "code": code,
            "csrf_token": self.csrf("/stations/join")}, allow_redirects=False)
        assert answer.status_code == 303, answer.text

    def api_token(self) -> str:
        answer = requests.post(self.url + "/api/v1/token",
                               json={"name": "ref", "password": "ref-password"}, timeout=10)
        return answer.json()["token"]

    def rows(self, sql: str, params=()) -> list[dict]:
        db = store.connect(self.db_path)
        try:
            return fetch(db, sql, params)
        finally:
            db.close()

    def syncthing(self):
        from referee.stations.syncthing import Setup, Syncthing

        home = Path(str(self.db_path) + ".station/syncthing")
        st = Syncthing.__new__(Syncthing)
        st.setup = Setup(home=home, gui_port=self.gui_port, listen="", name=self.name)
        st.key = re.search(r"<apikey>([^<]+)</apikey>", (home / "config.xml").read_text()
                           ).group(1)
        st.process = None
        return st


def start_all(*stations: Served) -> list[Served]:
    """Start stations side by side (each start waits mostly on its own processes)."""
    with ThreadPoolExecutor(len(stations)) as pool:
        return list(pool.map(Served.start, stations))


def stop_all(*stations: Served, sig: int = signal.SIGTERM) -> None:
    """Stop the running ones side by side, each as Served.stop does."""
    running = [s for s in stations if s.process is not None]
    if running:
        with ThreadPoolExecutor(len(running)) as pool:
            list(pool.map(lambda s: s.stop(sig), running))


def text_of(path: Path) -> str | None:
    """A file's text, or None while it is missing: Syncthing replaces a file by renaming
    a temporary one over it, and a read can fall between the two."""
    try:
        return path.read_text()
    except FileNotFoundError:
        return None


def until(check, seconds: float = 60, every: float = 0.1):
    """Wait until check() is true (its value), or fail saying what it last was."""
    deadline = time.monotonic() + seconds
    value = None
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"not within {seconds} s (last: {value!r})")
