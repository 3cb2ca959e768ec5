"""A referee's tap while someone hammers the sign-in, with the login limit and without.

The goal: the p50 tap rises by less than 20 % while 8 threads hammer the login.
Three phases run in alternating rounds against two servers on the same demo database
(each `referee serve`'s stack under waitress with its default 16 threads): quiet, hammered
with the limit (as shipped), and hammered with the limit switched off. The hammer is a
separate process with 8 threads, each sending wrong passwords back to back over
keep-alive connections, half to the form, half to the token call. The taps come
from this process, one at a time, as one referee's phone would send them.

    .venv/bin/python benchmarks/bench_login.py [--taps 300] [--rounds 3]
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_stats import free_port, pct, start


def serve_unlimited(db: str, port: int, threads: int) -> None:
    """`referee serve` with the sign-in limit off, the same app otherwise."""
    import waitress

    sys.path.insert(0, str(ROOT))
    from referee.app import create_app

    app = create_app({"DATABASE": db, "RATELIMIT_ENABLED": False})
    waitress.serve(app, host="127.0.0.1", port=port, threads=threads, ident="unlimited")


def hammer(port: int, threads: int, seconds: float) -> None:
    """Wrong passwords as fast as the server answers; prints what came back as JSON."""
    counts: Counter = Counter()
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def form() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/login")
        page = conn.getresponse()
        cookie = page.getheader("Set-Cookie", "").split(";")[0]
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.read().decode()).group(1)
        body = f"name=demo&password=guess&csrf_token={csrf}"
        mine: Counter = Counter()
        while time.monotonic() < stop:
            conn.request("POST", "/login", body=body, headers={
                "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
            response = conn.getresponse()
            response.read()
            mine[response.status] += 1
        with lock:
            counts.update(mine)

    def token() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        body = json.dumps({"name": "anna", "password": "guess"})
        mine: Counter = Counter()
        while time.monotonic() < stop:
            conn.request("POST", "/api/v1/token", body=body,
                         headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            mine[response.status] += 1
        with lock:
            counts.update(mine)

    workers = [threading.Thread(target=form if n % 2 else token) for n in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    print(json.dumps({str(k): v for k, v in counts.items()}))


def taps(port: int, token: str, count: int) -> list[float]:
    """`count` stat changes one after another, as one referee taps; their latencies."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    latencies = []
    for n in range(count):
        body = json.dumps({"cartridges": 1 if n % 2 else -1})
        t0 = time.perf_counter()
        conn.request("POST", "/api/v1/players/1/adjust", body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        latencies.append(time.perf_counter() - t0)
        if response.status != 200:
            raise SystemExit(f"tap answered {response.status}")
        time.sleep(0.005)  # a thumb, not a loop: let the hammer in between taps
    conn.close()
    return latencies


def get_token(port: int) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request("POST", "/api/v1/token", body=json.dumps({"name": "demo", "password": "demo"}),
                 headers={"Content-Type": "application/json"})
    return json.loads(conn.getresponse().read())["token"]


def hammered(port: int, token: str, count: int, threads: int) -> tuple[list[float], dict]:
    """Taps while the hammer process runs; the hammer starts first and outlasts them."""
    process = subprocess.Popen(
        [sys.executable, __file__, "--hammer", str(port), "--threads", str(threads),
         "--seconds", str(2 + count * 0.02)], stdout=subprocess.PIPE, text=True)
    time.sleep(1.0)  # the hammer is up to speed (and the limit reached) before we tap
    latencies = taps(port, token, count)
    out, _ = process.communicate(timeout=120)
    return latencies, json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=8, help="hammering threads")
    parser.add_argument("--hammer", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--unlimited", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=10, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hammer:
        return hammer(args.hammer, args.threads, args.seconds)
    if args.unlimited:
        return serve_unlimited(args.unlimited[0], int(args.unlimited[1]), 16)

    folder = tempfile.mkdtemp(prefix="referee-bench-")
    db = f"{folder}/bench.db"
    subprocess.run([sys.executable, "-m", "referee.cli", "demo", "--db", db], check=True,
                   stdout=subprocess.DEVNULL)
    limited, unlimited = free_port(), free_port()
    servers = [
        start([sys.executable, "-m", "referee.cli", "serve", "--db", db, "--host",
               "127.0.0.1", "--port", str(limited)], limited),
        start([sys.executable, __file__, "--unlimited", db, str(unlimited)], unlimited),
    ]
    results: dict[str, list[float]] = {"quiet": [], "hammered, limit on": [],
                                       "hammered, limit off": []}
    answers: dict[str, Counter] = {"hammered, limit on": Counter(),
                                   "hammered, limit off": Counter()}
    try:
        tokens = {limited: get_token(limited), unlimited: get_token(unlimited)}
        taps(limited, tokens[limited], 50)  # warm up both
        taps(unlimited, tokens[unlimited], 50)
        for _ in range(args.rounds):
            results["quiet"] += taps(limited, tokens[limited], args.taps)
            for name, port in (("hammered, limit on", limited),
                               ("hammered, limit off", unlimited)):
                latencies, counts = hammered(port, tokens[port], args.taps, args.threads)
                results[name] += latencies
                answers[name].update(counts)
    finally:
        for s in servers:
            s.terminate()
            s.wait()

    print(f"{args.rounds} rounds x {args.taps} taps (POST /api/v1/players/1/adjust, one at a "
          f"time), {args.threads} threads hammering /login and /api/v1/token")
    print(f"{'phase':<22}{'p50 ms':>9}{'p99 ms':>9}{'p50 / quiet':>13}  hammer answers")
    quiet = pct(results["quiet"], 50)
    for name, latencies in results.items():
        p50 = pct(latencies, 50)
        seen = ", ".join(f"{k}: {v}" for k, v in sorted(answers.get(name, {}).items()))
        print(f"{name:<22}{p50:>9.2f}{pct(latencies, 99):>9.2f}{p50 / quiet:>13.2f}  {seen}")
    print(f"goal: hammered with the limit, p50 / quiet < 1.20; median of "
          f"{len(results['quiet'])} taps a phase")


if __name__ == "__main__":
    main()
