"""The pocket referee's costs (issue 23): what open screens cost the server while idle.

Starts `referee serve` on a demo event, signs in once, then keeps N screens open: each
asks its /live address every 2.5 s with If-None-Match, as static/live.js does (sheets,
the players list, the feed and passport pages, mixed). Nothing changes meanwhile, so
every answer is a 304. Prints the server process's CPU share of one core (from /proc)
while idle alone and with the screens open, side by side in one run, the CPU a 304
costs, and its latency.

    .venv/bin/python benchmarks/bench_pocket.py [--screens 100] [--seconds 30]
"""

from __future__ import annotations

import argparse
import http.client
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from bench_stats import cpu_seconds, free_port, pct, start

INTERVAL = 2.5  # seconds between two questions of one screen (live.INTERVAL_MS)


def sign_in(port: int) -> str:
    """The session cookie of the demo referee, signed in through the form."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request("GET", "/login")
    response = conn.getresponse()
    page = response.read().decode()
    cookie = "; ".join(c.split(";", 1)[0] for c in response.msg.get_all("Set-Cookie"))
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"name": "demo", "password": "demo", "csrf_token": csrf})
    conn.request("POST", "/login", body=body, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    response = conn.getresponse()
    response.read()
    if response.status != 303:
        raise SystemExit(f"sign-in: {response.status}")
    return "; ".join(c.split(";", 1)[0] for c in response.msg.get_all("Set-Cookie"))


def marks(port: int, cookie: str, paths: list[str]) -> list[tuple[str, str]]:
    """(live address, mark) of each screen, read off the page as a phone would."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    found = []
    for path in paths:
        conn.request("GET", path, headers={"Cookie": cookie})
        page = conn.getresponse().read().decode()
        live = re.search(r'data-live="([^"]+)" data-live-etag="&#34;([^&]*)&#34;"', page)
        if live is None:
            raise SystemExit(f"{path}: no live mark (signed in?) {page[:300]}")
        found.append((live.group(1), f'"{live.group(2)}"'))
    return found


def screen(port: int, cookie: str, url: str, etag: str, until: float, latencies: list,
           lock: threading.Lock, offset: float) -> None:
    time.sleep(offset)  # screens opened at different moments, as phones are
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    mine = []
    while time.monotonic() < until:
        t0 = time.perf_counter()
        conn.request("GET", url, headers={"Cookie": cookie, "If-None-Match": etag})
        response = conn.getresponse()
        response.read()
        mine.append(time.perf_counter() - t0)
        if response.status != 304:
            raise SystemExit(f"{url}: {response.status}, expected 304 (nothing changed)")
        time.sleep(INTERVAL)
    conn.close()
    with lock:
        latencies.extend(mine)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screens", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="referee-bench-")
    db = f"{folder}/bench.db"
    subprocess.run([sys.executable, "-m", "referee.cli", "demo", "--db", db], check=True,
                   stdout=subprocess.DEVNULL)
    port = free_port()
    server = start([sys.executable, "-m", "referee.cli", "serve", "--db", db, "--host",
                    "127.0.0.1", "--port", str(port)], port)
    try:
        cookie = sign_in(port)
        with sqlite3.connect(db) as conn:
            tokens = [r[0] for r in conn.execute("SELECT passport_token FROM players")]
        players = len(tokens)
        kinds = [f"/players/{1 + n % players}" for n in range(10)] + ["/", "/events"] + \
            [f"/p/{t}" for t in tokens[:5]]
        open_screens = marks(port, cookie, kinds)

        time.sleep(2)  # the start's own work done
        before, t0 = cpu_seconds(server.pid), time.monotonic()
        time.sleep(args.seconds)
        idle_share = (cpu_seconds(server.pid) - before) / (time.monotonic() - t0)

        latencies: list[float] = []
        lock = threading.Lock()
        until = time.monotonic() + args.seconds + INTERVAL
        threads = [threading.Thread(target=screen, args=(
            port, cookie, *open_screens[n % len(open_screens)], until, latencies, lock,
            INTERVAL * n / args.screens)) for n in range(args.screens)]
        for t in threads:
            t.start()
        time.sleep(INTERVAL)  # every screen has started asking
        before, t0 = cpu_seconds(server.pid), time.monotonic()
        time.sleep(args.seconds)
        share = (cpu_seconds(server.pid) - before) / (time.monotonic() - t0)
        for t in threads:
            t.join()
    finally:
        server.terminate()
        server.wait()

    rate = args.screens / INTERVAL
    print(f"{args.screens} open screens, each asking every {INTERVAL} s "
          f"({rate:.0f} questions/s), {args.seconds:.0f} s, all answered 304")
    print(f"server CPU share of one core: idle {100 * idle_share:.2f} %, with the screens "
          f"{100 * share:.2f} %")
    print(f"CPU a question: {1000 * (share - idle_share) / rate:.3f} ms; latency p50 "
          f"{pct(latencies, 50):.2f} ms, p99 {pct(latencies, 99):.2f} ms "
          f"({len(latencies)} questions; median {statistics.median(latencies) * 1000:.2f} ms)")


if __name__ == "__main__":
    main()
