"""Stat changes per second through the real stack, against bare Flask on the same server.

Both servers run as separate processes under waitress with the same thread count; both
are driven by the same concurrent keep-alive clients, in alternating rounds so that a
noisy machine affects both alike. Prints requests/s, p50 and p99 latency, and the ratio.

    .venv/bin/python benchmarks/bench_stats.py [--clients 16] [--requests 2000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(command: list[str], port: int) -> subprocess.Popen:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit(f"server on {port} did not start: {command}")


def drive(port: int, path: str, headers: dict, clients: int, total: int) -> tuple[float, list]:
    """`total` POSTs spread over `clients` keep-alive connections; (seconds, latencies)."""
    latencies: list[float] = []
    lock = threading.Lock()
    per_client = total // clients
    # +1 then -1: the cartridges stay within their bound (0-999) however long it runs
    bodies = [json.dumps({"cartridges": 1}), json.dumps({"cartridges": -1})]

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine = []
        for n in range(per_client):
            t0 = time.perf_counter()
            conn.request("POST", path, body=bodies[n % 2],
                          headers={"Content-Type": "application/json", **headers})
            response = conn.getresponse()
            response.read()
            mine.append(time.perf_counter() - t0)
            if response.status != 200:
                raise SystemExit(f"HTTP {response.status} from port {port}")
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, latencies


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="referee-bench-")
    db = f"{folder}/bench.db"
    subprocess.run([sys.executable, "-m", "referee.cli", "demo", "--db", db], check=True,
                   stdout=subprocess.DEVNULL)
    app_port, bare_port = free_port(), free_port()
    servers = [
        start([sys.executable, "-m", "referee.cli", "serve", "--db", db, "--host",
               "127.0.0.1", "--port", str(app_port), "--threads", str(args.threads)],
              app_port),
        start([sys.executable, str(ROOT / "benchmarks" / "bare_flask.py"), "--port",
               str(bare_port), "--threads", str(args.threads)], bare_port),
    ]
    try:
        conn = http.client.HTTPConnection("127.0.0.1", app_port)
        conn.request("POST", "/api/v1/token", body=json.dumps({"name": "demo", "password": "demo"}),
                     headers={"Content-Type": "application/json"})
        token = json.loads(conn.getresponse().read())["token"]
        auth = {"Authorization": f"Bearer {token}"}
        path = "/api/v1/players/1/adjust"
        # Warm both up (imports, first connections, SQLite page cache).
        drive(app_port, path, auth, 4, 200)
        drive(bare_port, path, {}, 4, 200)

        results: dict[str, list] = {"referee": [], "bare flask": []}
        for _ in range(args.rounds):
            results["bare flask"].append(drive(bare_port, path, {}, args.clients, args.requests))
            results["referee"].append(drive(app_port, path, auth, args.clients, args.requests))
    finally:
        for s in servers:
            s.terminate()
            s.wait()

    print(f"{args.clients} clients x {args.requests} POST /adjust per round, {args.rounds} "
          f"rounds, waitress threads={args.threads}")
    print(f"{'server':<12}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}")
    rates = {}
    for name, runs in results.items():
        per_round = [len(lat) / secs for secs, lat in runs]
        rates[name] = statistics.median(per_round)
        lat = [x for _, l in runs for x in l]
        print(f"{name:<12}{rates[name]:>10.0f}{pct(lat, 50):>10.2f}{pct(lat, 99):>10.2f}")
    ratio = rates["referee"] / rates["bare flask"]
    print(f"referee / bare flask throughput: {ratio:.2f} "
          f"(each stat change = auth lookup + BEGIN IMMEDIATE + row + event + JSON)")


if __name__ == "__main__":
    main()
