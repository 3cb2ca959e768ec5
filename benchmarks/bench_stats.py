"""Stat changes per second through the real stack, against bare Flask on the same server.

Both servers run as separate processes under waitress with the same thread count; both
are driven by the same concurrent keep-alive clients, in alternating rounds so that a
noisy machine affects both alike. Prints requests/s, p50 and p99 latency, the server
process's CPU time a request (from /proc: the work, waiting left out), and the ratios.

    .venv/bin/python benchmarks/bench_stats.py [--clients 16] [--requests 2000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import atexit
import collections
import http.client
import json
import os
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


_STARTED: list[subprocess.Popen] = []


@atexit.register
def _stop_the_servers() -> None:
    """However a benchmark ends (a second server that did not start, Ctrl-C), the
    servers it started do not outlive it."""
    for process in _STARTED:
        if process.poll() is None:
            process.terminate()


def start(command: list[str], port: int) -> subprocess.Popen:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _STARTED.append(process)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit(f"server on {port} did not start: {command}")


def demo_event(folder: str) -> str:
    """A fresh demo event (`referee demo`) in ``folder``; its database file."""
    db = f"{folder}/bench.db"
    subprocess.run([sys.executable, "-m", "referee.cli", "demo", "--db", db], check=True,
                   stdout=subprocess.DEVNULL)
    return db


def serve(db: str) -> tuple[subprocess.Popen, int]:
    """`referee serve` on ``db`` at a free local port, once it listens."""
    port = free_port()
    return start([sys.executable, "-m", "referee.cli", "serve", "--db", db, "--host",
                  "127.0.0.1", "--port", str(port)], port), port


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


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")  # no /proc here: the CPU column reads nan
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] * 1000


def _cpu_ratio(cpu: dict, top: tuple, bottom: tuple) -> float:
    """The median CPU a request of one run over another's."""
    return statistics.median(cpu[top]) / statistics.median(cpu[bottom])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="1,4,32",
                        help="comma-separated client counts, each measured on both")
    parser.add_argument("--requests", type=int, default=2000, help="per round and count")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=16,
                        help="waitress threads for both (referee serve's default)")
    args = parser.parse_args()
    counts = [int(n) for n in args.clients.split(",")]

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
    results: dict[tuple[str, int], list] = {}
    # the server process's CPU per request: the work a tap costs, waiting not counted
    cpu: dict[tuple[str, int], list] = collections.defaultdict(list)
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
        for _ in range(args.rounds):  # alternating: a noisy minute slows both alike
            for clients in counts:
                total = max(clients, args.requests // clients * clients)
                for name, server, port, headers in (
                        ("bare flask", servers[1], bare_port, {}),
                        ("referee", servers[0], app_port, auth)):
                    before = cpu_seconds(server.pid)
                    secs, lat = drive(port, path, headers, clients, total)
                    cpu[name, clients].append((cpu_seconds(server.pid) - before) / len(lat))
                    results.setdefault((name, clients), []).append((secs, lat))
    finally:
        for s in servers:
            s.terminate()
            s.wait()

    print(f"POST /api/v1/players/1/adjust, {args.requests} a round and client count, "
          f"{args.rounds} rounds, waitress threads={args.threads}; each referee tap = "
          f"token lookup + BEGIN IMMEDIATE + row + event + commit on disk + JSON")
    print(f"{'clients':>7} {'server':<12}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'cpu ms':>9}")
    rates = {}
    for (name, clients), runs in sorted(results.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        rates[name, clients] = statistics.median(len(lat) / secs for secs, lat in runs)
        lat = [x for _, times in runs for x in times]
        print(f"{clients:>7} {name:<12}{rates[name, clients]:>8.0f}{pct(lat, 50):>9.2f}"
              f"{pct(lat, 99):>9.2f}{1000 * statistics.median(cpu[name, clients]):>9.2f}")
    for clients in counts:
        print(f"{clients:>3} clients: referee / bare flask throughput "
              f"{rates['referee', clients] / rates['bare flask', clients]:.2f}, server CPU "
              f"a request {_cpu_ratio(cpu, ('referee', clients), ('bare flask', clients)):.2f}×")
    if len(counts) > 1:
        low, high = min(counts), max(counts)
        print(f"referee at {high} clients / at {low}: "
              f"{rates['referee', high] / rates['referee', low]:.2f} of the rate, "
              f"{_cpu_ratio(cpu, ('referee', high), ('referee', low)):.2f}"
              f"× the CPU a request")


if __name__ == "__main__":
    main()
