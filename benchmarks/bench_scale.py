"""Every page and API call at 100 players against 10,000 players with 1,000,000 events.

The goal: each stays within 2x of its time for the small event. Two databases
are made (the demo's referees; players and a history of stat changes written straight
into the tables, as years of taps would leave them), each is served by its own
`referee serve`, and every path is asked in turn of both, in alternating rounds, so a
noisy machine slows both alike. Prints the median time of each path on each, the ratio,
and the players page's size.

    .venv/bin/python benchmarks/bench_scale.py [--players 10000] [--events 1000000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from bench_stats import free_port, start

FIRST = ["Вера", "Орлов", "Лемке", "Дуся", "Hale", "Ксения", "Ржевский", "Renard", "Жук",
         "Платонов", "Штерн", "Рада", "Соколова", "Иван", "Мария", "Ольга"]


def make_event(path: str, players: int, events: int) -> None:
    """A demo database grown to ``players`` players and ``events`` stat changes."""
    subprocess.run([sys.executable, "-m", "referee.cli", "demo", "--db", path], check=True,
                   stdout=subprocess.DEVNULL)
    from referee.store import connect  # its connections fold the names for search

    db = connect(path).conn
    rng = random.Random(7)
    start_id = db.execute("SELECT max(id) FROM players").fetchone()[0] + 1
    now = "2026-12-01T12:00:00+00:00"
    rows = [(start_id + n, f"{rng.choice(FIRST)} {rng.choice(FIRST)} {n:05d}",
             f"Игрок {n}", 3, 3, 1, 1, 2, 1, "active", "H", "6H,7H,8H,9H,10H,JH,QH,KH,AH",
             "", f"bench-{n:06d}-{rng.getrandbits(64):016x}", None, 1, now, now)
            for n in range(max(0, players - (start_id - 1)))]
    db.executemany("INSERT INTO players (id, character, player, hp, hp_max, chance, "
                   "chance_max, cartridges, level, status, suit, duel_deck, notes, "
                   "passport_token, wounded_at, version, created_at, updated_at) VALUES "
                   "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    # a few heavily wounded ones, far down the list too
    db.execute("UPDATE players SET status = 'heavy_wound', hp = 0, wounded_at = ? "
               "WHERE id % 997 = 0", [now])
    count = db.execute("SELECT count(*) FROM players").fetchone()[0]
    first_event = db.execute("SELECT max(id) FROM events").fetchone()[0] + 1
    change = json.dumps({"cartridges": {"before": 2, "after": 1}})

    def history():
        for n in range(max(0, events - first_event + 1)):
            eid = first_event + n
            yield (eid, now, 1, 1 + rng.randrange(count), "adjust", change, "", None,
                   None, f"0|{eid:012d}")

    db.executemany("INSERT INTO events (id, at, referee_id, player_id, kind, changes, "
                   "reason, undoes, note, ord) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   history())
    db.execute("UPDATE tallies SET n = (SELECT count(*) FROM events) WHERE name = 'events'")
    db.execute("UPDATE station SET next_event = (SELECT max(id) + 1 FROM events) "
               "WHERE key = 'self'")
    db.commit()
    db.execute("ANALYZE")
    db.close()


class Browser:
    """A referee's phone: signed in through the form, with its cookie and CSRF token."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        page = self.get("/login")
        self.csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        answer = self.request("POST", "/login", f"name=demo&password=demo&csrf_token="
                              f"{self.csrf}", {"Content-Type":
                                               "application/x-www-form-urlencoded"})
        assert answer[0] == 303, answer
        self.conn.request("POST", "/api/v1/token", body=json.dumps(
            {"name": "demo", "password": "demo"}), headers={"Content-Type": "application/json"})
        self.token = json.loads(self.conn.getresponse().read())["token"]

    cookie_of = ""

    def request(self, method: str, path: str, body=None, headers=None):
        headers = dict(headers or {})
        if self.cookie_of:
            headers["Cookie"] = self.cookie_of
        self.conn.request(method, path, body=body, headers=headers)
        answer = self.conn.getresponse()
        data = answer.read()
        for name, value in answer.getheaders():
            if name.lower() == "set-cookie" and value.startswith("session="):
                self.cookie_of = value.split(";")[0]
        return answer.status, data

    def get(self, path: str) -> str:
        return self.request("GET", path)[1].decode()


def paths(big_player: int) -> list[tuple[str, str, str, dict | None]]:
    """(label, method, path, json body): what referees open and tap, and the API. Each
    asks for as much on both events (a search that finds one player, a page of 100), so
    that the ratio shows what the event's size costs, not a longer answer."""
    api = "/api/v1"
    return [
        ("players page", "GET", "/", None),
        ("search (page)", "GET", "/?q=00042", None),
        ("sheet", "GET", f"/players/{big_player}", None),
        ("feed", "GET", "/events", None),
        ("games", "GET", "/games", None),
        ("duels", "GET", "/duels", None),
        ("API players", "GET", f"{api}/players?limit=100", None),
        ("API search", "GET", f"{api}/players?q=00042", None),
        ("API player", "GET", f"{api}/players/{big_player}", None),
        ("API player events", "GET", f"{api}/players/{big_player}/events?limit=100", None),
        ("API events", "GET", f"{api}/events", None),
        ("API tap", "POST", f"{api}/players/{big_player}/adjust", {"cartridges": 1}),
        # not in the goal: a search a tenth of the players match, a page of 50 of them
        ("(broad search)", "GET", "/?q=%D0%B2%D0%B5%D1%80%D0%B0", None),
    ]


def time_one(browser: Browser, method: str, path: str, body: dict | None,
             flip: list[int]) -> float:
    headers = {"Accept-Language": "ru"}
    data = None
    if path.startswith("/api/"):
        headers["Authorization"] = f"Bearer {browser.token}"
    if body is not None:
        flip[0] = -flip[0]
        data = json.dumps({"cartridges": flip[0]})
        headers["Content-Type"] = "application/json"
    t0 = time.perf_counter()
    status, _ = browser.request(method, path, data, headers)
    elapsed = time.perf_counter() - t0
    if status != 200:
        raise SystemExit(f"{method} {path}: HTTP {status}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=6, help="requests a path a round")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="referee-bench-")
    small, big = f"{folder}/small.db", f"{folder}/big.db"
    t0 = time.perf_counter()
    make_event(small, 100, 10_000)
    make_event(big, args.players, args.events)
    print(f"made both events in {time.perf_counter() - t0:.0f} s")
    ports = {small: free_port(), big: free_port()}
    servers = [start([sys.executable, "-m", "referee.cli", "serve", "--db", db, "--host",
                      "127.0.0.1", "--port", str(port)], port) for db, port in ports.items()]
    times: dict[str, dict[str, list[float]]] = {"small": {}, "big": {}}
    sizes = {}
    try:
        browsers = {"small": Browser(ports[small]), "big": Browser(ports[big])}
        players = {"small": 50, "big": args.players // 2}
        flips = {"small": [1], "big": [1]}
        for name, browser in browsers.items():  # warm up: caches, first compilations
            for _label, method, path, body in paths(players[name]):
                time_one(browser, method, path, body, flips[name])
            sizes[name] = len(browser.request("GET", "/")[1])
        for _ in range(args.rounds):
            for name in ("small", "big"):
                for label, method, path, body in paths(players[name]):
                    for _ in range(args.repeat):
                        times[name].setdefault(label, []).append(
                            time_one(browsers[name], method, path, body, flips[name]))
    finally:
        for s in servers:
            s.terminate()
            s.wait()

    print(f"100 players / 10,000 events against {args.players:,} players / "
          f"{args.events:,} events; median of {args.rounds * args.repeat} requests")
    print(f"{'path':<20}{'100 ms':>9}{'10k ms':>9}{'ratio':>8}")
    worst = 0.0
    for label in times["small"]:
        a = statistics.median(times["small"][label]) * 1000
        b = statistics.median(times["big"][label]) * 1000
        if not label.startswith("("):
            worst = max(worst, b / a)
        print(f"{label:<20}{a:>9.2f}{b:>9.2f}{b / a:>8.2f}")
    print(f"players page: {sizes['small'] / 1024:.1f} KB at 100 players, "
          f"{sizes['big'] / 1024:.1f} KB at {args.players:,} (goal <= 30 KB)")
    print(f"worst ratio {worst:.2f} (goal: every path within 2x)")


if __name__ == "__main__":
    main()
