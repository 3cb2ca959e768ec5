"""Stations through real Syncthing: how fast a partition heals, and what a tap costs.

1. Heal time. An organizer's station "master" (200 players) and a station "tavern"
   paired to it, each a real ``referee serve --station`` with its own Syncthing on
   loopback. Both Syncthings are paused; N adjusts are written on each side straight
   into each station's database file (the services, from this process; SQLite WAL lets
   the server run beside it); each station's own loop exports them as segments. Then
   both Syncthings resume, and the clock runs until both ``log`` tables hold every fact
   of both sides and ``GET /api/v1/players`` and ``GET /api/v1/events`` answer byte for
   byte the same on both. Goal: <= 10 s.
2. Tap cost. One tap (``POST /api/v1/players/<id>/adjust``, bearer token, keep-alive)
   on "master" while "tavern" is running and connected, against a plain
   ``referee serve`` (no ``--station``) on an equivalent database (same 200 players, as
   many events). The two sides alternate in blocks of 50 taps (who goes first swaps each
   block), so that a noisy, shared machine hits both alike. Goal: median ratio <= 1.10.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_stations.py [--events 10000] [--taps 1000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("REFEREE_FAST_HASH_FOR_TESTS", "1")  # before the app is imported

import requests

from referee import store
from referee.players import service as players
from referee.stations import segments
from tests.conftest import free_port, wait_for_port
from tests.stations.live import Served, until
from tests.stations.test_syncthing import api_of, joined, organizer_db

PLAYERS = 200
BLOCK = 50  # taps a side takes before the other side's turn
HEAL_GOAL, TAP_GOAL = 10.0, 1.10
COMPARED = ("/api/v1/players", "/api/v1/events")


def write(path: Path, n: int) -> float:
    """n one-cartridge adjusts on the database file, round the players; seconds."""
    db = store.connect(path)
    try:
        t0 = time.perf_counter()
        for i in range(n):
            players.adjust(db, None, 1 + i % PLAYERS, {"cartridges": 1})
        return time.perf_counter() - t0
    finally:
        db.close()


def own(served: Served) -> tuple[str, int]:
    """This station's id and the last sequence number it wrote."""
    row = served.rows("SELECT id, next_seq FROM station WHERE key = 'self'")[0]
    return row["id"], row["next_seq"] - 1


def exported(served: Served) -> bool:
    station, last = own(served)
    shared = Path(str(served.db_path) + ".station/shared")
    return segments.exported_through(None, shared, station) == last


def holds(served: Served, expected: dict[str, int]) -> bool:
    """Whether the log holds facts 1..last of each station, no more, no fewer."""
    found = {r["station"]: (r["n"], r["top"]) for r in served.rows(
        "SELECT station, count(*) AS n, max(seq) AS top FROM log GROUP BY station")}
    return found == {s: (last, last) for s, last in expected.items()}


def answers(served: Served) -> tuple[bytes, ...]:
    return tuple(served.api.get(served.url + u, timeout=30).content for u in COMPARED)


def connected(served: Served) -> bool:
    return any(c.get("connected") for c in served.syncthing().connections().values())


def heal(master: Served, tavern: Served, n: int) -> dict:
    """Partition, write n facts a side, wait for the export, resume, time the heal."""
    for st in (master.syncthing(), tavern.syncthing()):
        st.pause()
    until(lambda: not connected(master) and not connected(tavern), 30)
    out = {"write master": write(master.db_path, n), "write tavern": write(tavern.db_path, n)}
    t0 = time.perf_counter()
    until(lambda: exported(master) and exported(tavern), 300)
    out["export wait"] = time.perf_counter() - t0
    expected = dict([own(master), own(tavern)])
    out["facts"] = sum(expected.values())
    t0 = time.perf_counter()
    master.syncthing().resume()
    tavern.syncthing().resume()
    logs_at = None
    deadline = t0 + 600
    while time.perf_counter() < deadline:
        if logs_at is None and holds(master, expected) and holds(tavern, expected):
            logs_at = time.perf_counter() - t0
        if logs_at is not None and answers(master) == answers(tavern):
            out["logs complete"], out["heal"] = logs_at, time.perf_counter() - t0
            return out
        time.sleep(0.05)
    raise SystemExit(f"no heal within 600 s: logs complete at {logs_at}")


def plain_server(root: Path, n_events: int) -> tuple[subprocess.Popen, str]:
    """``referee serve`` without --station on an equivalent database; process, url."""
    path = root / "plain.db"
    organizer_db(path, n_players=PLAYERS)
    write(path, n_events)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "serve", "--db", str(path), "--host",
         "127.0.0.1", "--port", str(port), "--threads", "4"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port, process, seconds=60)
    return process, f"http://127.0.0.1:{port}"


def session(url: str) -> requests.Session:
    s = requests.Session()
    token = s.post(url + "/api/v1/token", json={"name": "ref", "password": "ref-pass"},
                   timeout=10).json()["token"]
    s.headers["Authorization"] = f"Bearer {token}"
    return s


def taps(s: requests.Session, url: str, start: int, count: int) -> list[float]:
    """count taps round the players; each one's latency in seconds."""
    latencies = []
    for i in range(start, start + count):
        t0 = time.perf_counter()
        answer = s.post(f"{url}/api/v1/players/{1 + i % PLAYERS}/adjust",
                        json={"cartridges": 1}, timeout=30)
        latencies.append(time.perf_counter() - t0)
        if answer.status_code != 200:
            raise SystemExit(f"HTTP {answer.status_code} from {url}: {answer.text[:200]}")
    return latencies


def tap_cost(sides: dict[str, tuple[requests.Session, str]], m: int) -> dict[str, list]:
    for s, url in sides.values():  # warm up: imports, connections, page cache
        taps(s, url, 0, 100)
    lat: dict[str, list] = {name: [] for name in sides}
    names = list(sides)
    for block in range(0, m, BLOCK):
        for name in names if block // BLOCK % 2 == 0 else names[::-1]:
            lat[name] += taps(*sides[name], block, min(BLOCK, m - block))
    return lat


def ms(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10000, help="facts a side writes apart")
    parser.add_argument("--taps", type=int, default=1000, help="timed taps a side")
    args = parser.parse_args()
    if shutil.which("syncthing") is None:
        raise SystemExit("needs syncthing (the Debian package)")

    root = Path(tempfile.mkdtemp(prefix="referee-bench-stations-"))
    started: list[Served] = []
    plain = None
    try:
        plain, plain_url = plain_server(root, 2 * args.events)
        master = Served(root, "master")
        organizer_db(master.db_path, n_players=PLAYERS)
        started.append(master)
        api_of(master.start().sign_in())
        tavern = Served(root, "tavern")
        started.append(tavern)
        t0 = time.perf_counter()
        joined(tavern.start(), master)
        until(lambda: answers(master) == answers(tavern), 120)
        pairing = time.perf_counter() - t0

        h = heal(master, tavern, args.events)

        until(lambda: connected(master), 60)
        sides = {"syncing": (master.api, master.url), "plain": (session(plain_url), plain_url)}
        station_id, before = own(master)
        shared = Path(str(master.db_path) + ".station/shared") / station_id
        files_before = len(list(shared.glob("*.jsonl")))
        lat = tap_cost(sides, args.taps)
        t0 = time.perf_counter()
        until(lambda: holds(tavern, dict([own(master), own(tavern)])), 120, every=0.05)
        catch_up = time.perf_counter() - t0
        wrote = own(master)[1] - before
        files = len(list(shared.glob("*.jsonl"))) - files_before
    finally:
        for served in started:
            if getattr(served, "log", None) is not None:
                served.stop(signal.SIGINT)  # SIGINT: the server's finally stops Syncthing
            left = served.syncthing_pids()
            if left:
                print(f"note: {served.name}'s Syncthing outlived its server: {left}")
                served.kill_syncthing()
        if plain is not None:
            plain.terminate()
            plain.wait()
    shutil.rmtree(root, ignore_errors=True)

    n = args.events
    print(f"\nStations bench: {PLAYERS} players, {n} facts a side apart, {args.taps} taps "
          f"a side, {os.cpu_count()} CPUs")
    print(f"pairing (tavern joins, receives the event, answers agree)  {pairing:8.2f} s")
    for side in ("master", "tavern"):
        secs = h[f"write {side}"]
        print(f"writes apart on {side:<7} {n:>6} adjusts  {secs:8.2f} s "
              f"({n / secs:,.0f}/s)")
    print(f"both loops exported everything, after the writes         {h['export wait']:8.2f} s")
    print(f"after resume: both logs hold all {h['facts']} facts           "
          f"{h['logs complete']:8.2f} s")
    print(f"after resume: players and events byte-identical         {h['heal']:8.2f} s")
    print(f"\n{'tap (POST adjust)':<20}{'median ms':>10}{'p95 ms':>10}")
    for name, values in lat.items():
        print(f"{name:<20}{statistics.median(values) * 1000:>10.2f}{ms(values, 95):>10.2f}")
    ratio = statistics.median(lat["syncing"]) / statistics.median(lat["plain"])
    p95_ratio = ms(lat["syncing"], 95) / ms(lat["plain"], 95)
    print(f"syncing/plain        {ratio:>10.2f}{p95_ratio:>10.2f}")
    print(f"master wrote {wrote} facts in {files} segment files while tapped; tavern held "
          f"them all {catch_up:.2f} s after the last tap")
    print(f"\n{'goal':<44}{'measured':>10}  met")
    print(f"{'heal after resume <= 10 s':<44}{h['heal']:>9.2f}s  "
          f"{'yes' if h['heal'] <= HEAL_GOAL else 'NO'}")
    print(f"{'tap median syncing/plain <= 1.10':<44}{ratio:>10.2f}  "
          f"{'yes' if ratio <= TAP_GOAL else 'NO'}")


if __name__ == "__main__":
    main()
