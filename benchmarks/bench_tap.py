"""A tap's cost, in one run: throughput and p99 against bare Flask, CPU a tap, the
profile, and what one core sustains.

``POST /api/v1/players/1/adjust`` (+1 and -1 in turn: every answer is a durable, logged,
authenticated write) through ``referee serve``, side by side with a bare Flask endpoint
(benchmarks/bare_flask.py) on the same waitress, rounds alternated so a noisy minute
slows both alike. The load comes from wrk (C, one thread a core, a Lua script alternating
the bodies); wrk is pinned to the last CPU with taskset so it takes little from the
servers. Printed:

1. at 1 and 32 clients: req/s, p99, the server's CPU a request (from /proc), and the
   ratios: Referee/bare throughput at 32 clients, 32 clients/1 client,
   p99 against bare's, CPU a tap against a bare request's;
2. the profile of one tap by area and its top functions (benchmarks/tap_profile.py);
3. one core: the server pinned to CPU 0 (a phone's or small board's one core; wrk on
   another), the taps a second it sustains at 8 clients and their p99.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_tap.py [--seconds 5] [--rounds 3]
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_stats import ROOT, cpu_seconds, demo_event, free_port, start  # noqa: E402
from tap_profile import report  # noqa: E402

PATH = "/api/v1/players/1/adjust"
LUA = r"""
local bodies = {'{"cartridges": 1}', '{"cartridges": -1}'}
local n = 0
request = function()
  n = n + 1
  return wrk.format("POST", nil, nil, bodies[n % 2 + 1])
end
done = function(summary, latency, requests)
  local bad = summary.errors.status + summary.errors.connect + summary.errors.read
            + summary.errors.write + summary.errors.timeout
  io.write(string.format('{"requests": %d, "us": %d, "p99": %d, "p50": %d, "bad": %d}\n',
    summary.requests, summary.duration, latency:percentile(99), latency:percentile(50), bad))
end
"""


def wrk(port: int, clients: int, seconds: float, headers: dict, script: str,
        cpus: str) -> dict:
    """One wrk run: requests, req/s, p50 and p99 in ms; refuses a run with errors."""
    command = ["wrk", "-t", "1" if clients < 8 else "2", "-c", str(clients),
               "-d", f"{max(1, round(seconds))}s", "-s", script]
    for name, value in {"Content-Type": "application/json", **headers}.items():
        command += ["-H", f"{name}: {value}"]
    if cpus and shutil.which("taskset"):
        command = ["taskset", "-c", cpus, *command]
    out = subprocess.run([*command, f"http://127.0.0.1:{port}{PATH}"], check=True,
                         capture_output=True, text=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    if result["bad"]:
        raise SystemExit(f"{result['bad']} failed requests on port {port}:\n{out}")
    return {"n": result["requests"], "rate": result["requests"] / result["us"] * 1e6,
            "p50": result["p50"] / 1000, "p99": result["p99"] / 1000}


def token(port: int) -> str:
    """A bearer token; the tapped player's cartridges set mid-range, so that taps
    arriving out of their +1/-1 order never reach a bound (0 or 999)."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request("POST", "/api/v1/token", body=json.dumps({"name": "demo", "password": "demo"}),
                 headers={"Content-Type": "application/json"})
    bearer = json.loads(conn.getresponse().read())["token"]
    conn.request("POST", PATH.replace("adjust", "set"), body=json.dumps({"cartridges": 500}),
                 headers={"Content-Type": "application/json",
                          "Authorization": f"Bearer {bearer}"})
    answer = conn.getresponse()
    answer.read()
    if answer.status != 200:
        raise SystemExit(f"setting the cartridges answered {answer.status}")
    return bearer


def pinned(command: list[str], cpus: str | None) -> list[str]:
    return ["taskset", "-c", cpus, *command] if cpus else command


def in_tree(tree: str, command: list[str]) -> list[str]:
    """``command`` run with the checkout ``tree``'s referee package (``--before``)."""
    return ["sh", "-c", 'cd "$0" && exec "$@"', tree, *command]


def measure(db: str, counts: list[int], rounds: int, seconds: float, threads: int,
            server_cpus: str | None, load_cpus: str, script: str,
            bare: bool = True, before: str | None = None) -> tuple[dict, dict]:
    """Alternated rounds on Referee (and bare Flask, and the checkout ``before``): runs
    and CPU a request by server."""
    app_port, bare_port = free_port(), free_port()
    servers = {"referee": (start(pinned(
        [sys.executable, "-m", "referee.cli", "serve", "--db", db, "--host", "127.0.0.1",
         "--port", str(app_port), "--threads", str(threads)], server_cpus), app_port),
        app_port, None)}
    if before:
        old_db, old_port = f"{tempfile.mkdtemp(prefix='referee-before-')}/bench.db", free_port()
        subprocess.run(in_tree(before, [sys.executable, "-m", "referee.cli", "demo", "--db",
                                        old_db]), check=True, stdout=subprocess.DEVNULL)
        servers["before"] = (start(pinned(in_tree(before, [
            sys.executable, "-m", "referee.cli", "serve", "--db", old_db, "--host",
            "127.0.0.1", "--port", str(old_port), "--threads", str(threads)]), server_cpus),
            old_port), old_port, {"Authorization": f"Bearer {token(old_port)}"})
    if bare:
        servers["bare"] = (start(pinned(
            [sys.executable, str(ROOT / "benchmarks" / "bare_flask.py"), "--port",
             str(bare_port), "--threads", str(threads)], server_cpus), bare_port),
            bare_port, {})
    auth = {"Authorization": f"Bearer {token(app_port)}"}
    runs: dict = collections.defaultdict(list)
    cpu: dict = collections.defaultdict(list)
    try:
        for _, port, headers in servers.values():  # warm: imports, page cache
            wrk(port, 4, 1, headers if headers is not None else auth, script, load_cpus)
        for _ in range(rounds):
            for clients in counts:
                for name, (process, port, headers) in servers.items():
                    before = cpu_seconds(process.pid)
                    run = wrk(port, clients, seconds, headers if headers is not None else auth,
                              script, load_cpus)
                    cpu[name, clients].append((cpu_seconds(process.pid) - before) / run["n"])
                    runs[name, clients].append(run)
    finally:
        for process, _, _ in servers.values():
            process.terminate()
            process.wait()
    return runs, cpu


def med(values) -> float:
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--taps", type=int, default=2000, help="taps profiled")
    parser.add_argument("--skip-profile", action="store_true")
    parser.add_argument("--skip-one-core", action="store_true")
    parser.add_argument("--before", help="another checkout of Referee, measured alongside")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed (apt-get install wrk)")
    cpus = os.cpu_count() or 1
    load_cpus = str(cpus - 1)
    folder = tempfile.mkdtemp(prefix="referee-tap-")
    script = f"{folder}/taps.lua"
    Path(script).write_text(LUA)

    runs, cpu = measure(demo_event(folder), [1, 32], args.rounds, args.seconds,
                        args.threads, None, load_cpus, script, before=args.before)
    print(f"POST {PATH} with wrk (pinned to CPU {load_cpus}), {args.rounds} alternated "
          f"rounds of {args.seconds:g} s, waitress threads={args.threads}")
    print(f"{'clients':>7} {'server':<9}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}{'cpu ms':>9}")
    rate, p99, cpu_ms = {}, {}, {}
    for key in sorted(runs, key=lambda k: (k[1], k[0])):
        rate[key] = med(r["rate"] for r in runs[key])
        p99[key] = med(r["p99"] for r in runs[key])
        cpu_ms[key] = 1000 * med(cpu[key])
        print(f"{key[1]:>7} {key[0]:<9}{rate[key]:>8.0f}{med(r['p50'] for r in runs[key]):>9.2f}"
              f"{p99[key]:>9.2f}{cpu_ms[key]:>9.3f}")
    print("Throughput and p99 (goals in brackets):")
    ratios = (("32 clients, Referee / bare throughput", rate["referee", 32] / rate["bare", 32],
               ">= 0.5"),
              ("Referee, 32 clients / 1 client rate", rate["referee", 32] / rate["referee", 1],
               ">= 0.9"),
              ("32 clients, Referee / bare p99", p99["referee", 32] / p99["bare", 32], "<= 2"))
    for label, value, goal in ratios:
        print(f"  {label:<40}{value:.2f}  [{goal}]")
    print("Server CPU a tap / a bare request's")
    for clients, goal in ((1, 1.4), (32, 2.0)):
        label = f"{clients} client{'s' if clients > 1 else ''}"
        print(f"  {label:<40}{cpu_ms['referee', clients] / cpu_ms['bare', clients]:.2f}"
              f"  [<= {goal}]")
    if args.before:
        print(f"the checkout {args.before} in the same run, as ratios to bare Flask:")
        for clients in (1, 32):
            parts = [f"{name} CPU {cpu_ms[name, clients] / cpu_ms['bare', clients]:.2f}, "
                     f"req/s {rate[name, clients] / rate['bare', clients]:.2f}, "
                     f"p99 {p99[name, clients] / p99['bare', clients]:.2f}"
                     for name in ("before", "referee")]
            print(f"  {clients:>2} clients: " + "; ".join(parts))

    if not args.skip_profile:
        print("The profile of one tap (in process, CPU time)")
        print("\n".join("  " + line for line in report(demo_event(tempfile.mkdtemp(
            prefix="referee-profile-")), args.taps, 12)))

    if not args.skip_one_core and cpus > 1:
        one, _ = measure(demo_event(tempfile.mkdtemp(prefix="referee-core-")), [1, 8],
                         args.rounds, args.seconds, args.threads, "0", load_cpus, script,
                         bare=False)
        print("One core: the server pinned to CPU 0, wrk on another")
        for clients in (1, 8):
            r = one["referee", clients]
            print(f"  {clients} client{'s' if clients > 1 else ' '}: "
                  f"{med(x['rate'] for x in r):.0f} taps/s, p99 {med(x['p99'] for x in r):.1f} ms")


if __name__ == "__main__":
    main()
