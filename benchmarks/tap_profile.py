"""Where one tap's CPU goes: a stat change through the whole app, profiled in process.

``POST /api/v1/players/1/adjust`` (+1 then -1 cartridges) is handed to the Flask app as
waitress hands it (a WSGI environ, the body in a stream), so nothing of a test client is
measured. The profiler's clock is the process's CPU time: the fsync a tap waits for counts
as the little CPU it takes, not as its wait. Each function's own time is given to the area
of the nearest marked function that called it (a SQLite call made by the token check is
the token's), shared among its callers as the profile shares its time:

- token: the bearer token checked (api.registry.bearer_referee)
- body: the JSON body read, checked and validated (api.registry._read, storable, _stats)
- service: the stat rules and the service around them (players.service)
- store: the transaction, the player's row read and written, the event appended
- ledger: the station log and the once-keys, per transaction (store.ledger, store.once)
- response: the answer's JSON (api.core.player_json, jsonify)
- middleware: everything else: Flask's dispatch and the app's before/after hooks

    PYTHONPATH=. .venv/bin/python benchmarks/tap_profile.py [--taps 2000] [--top 15]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import subprocess
import sys
import tempfile
import time

AREAS = ("token", "body", "service", "store", "ledger", "response", "middleware")
# (file fragment, function name or None for any): the area a function marks.
MARKERS = (
    ("referee/api/registry.py", "bearer_referee", "token"),
    ("referee/store/referees.py", None, "token"),
    ("referee/api/registry.py", "_read", "body"),
    ("referee/web/storable.py", "unstorable_input", "body"),
    ("referee/api/core.py", "_stats", "body"),
    ("referee/api/models.py", None, "body"),
    ("referee/store/ledger.py", None, "ledger"),
    ("referee/store/once.py", None, "ledger"),
    ("referee/store/db.py", "write", "store"),
    ("referee/store/db.py", "wait", "store"),
    ("referee/store/db.py", "_lock_for", "store"),
    ("referee/store/db.py", "durability_for", "store"),
    ("referee/store/fold.py", None, "store"),
    ("referee/store/events.py", None, "store"),
    ("referee/store/players.py", "get", "store"),
    ("referee/web/context.py", "found_or_404", "store"),
    ("referee/players/service.py", None, "service"),
    ("referee/rules/", None, "service"),
    ("referee/api/core.py", "player_json", "response"),
    ("referee/api/core.py", "adjust", "service"),
    ("flask/json/__init__.py", "jsonify", "response"),
)


def area_of(func: tuple) -> str | None:
    filename, _, name = func
    filename = filename.replace("\\", "/")
    for fragment, marked, area in MARKERS:
        if fragment in filename and (marked is None or marked == name):
            return area
    return None


def by_area(stats: pstats.Stats) -> dict[str, float]:
    """Each function's own time given to the area of its nearest marked caller."""
    table = stats.stats  # func -> (cc, nc, tt, ct, callers{caller: (cc, nc, tt, ct)})
    memo: dict[tuple, dict[str, float]] = {}

    def shares(func: tuple, seen: frozenset) -> dict[str, float]:
        if func in memo:
            return memo[func]
        area = area_of(func)
        if area is not None:
            result = {area: 1.0}
        else:
            callers = {c: v for c, v in table.get(func, (0, 0, 0, 0, {}))[4].items()
                       if c not in seen}
            weight = sum(v[3] for v in callers.values())
            result: dict[str, float] = {}
            if not callers or weight <= 0:
                result = {"middleware": 1.0}
            for caller, v in callers.items():
                if weight <= 0:
                    break
                for a, share in shares(caller, seen | {func}).items():
                    result[a] = result.get(a, 0.0) + share * v[3] / weight
        if not seen:
            memo[func] = result
        return result

    totals = dict.fromkeys(AREAS, 0.0)
    for func, (_, _, tt, _, _) in table.items():
        for area, share in shares(func, frozenset()).items():
            totals[area] += tt * share
    return totals


def environ(path: str, body: bytes, token: str) -> dict:
    return {
        "REQUEST_METHOD": "POST", "SCRIPT_NAME": "", "PATH_INFO": path, "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8080", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8080",
        "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
        "HTTP_AUTHORIZATION": f"Bearer {token}", "HTTP_ACCEPT": "*/*",
        "HTTP_USER_AGENT": "tap-profile", "wsgi.version": (1, 0), "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.multithread": True,
        "wsgi.multiprocess": False, "wsgi.run_once": False,
    }


def profile(db: str, taps: int) -> tuple[pstats.Stats, float, dict[str, float]]:
    """Profile ``taps`` taps on the demo event ``db``: the stats, the CPU ms a tap without
    the profiler, and the CPU ms a tap by area (with it, scaled to the unprofiled time)."""
    from referee.app import create_app

    app = create_app({"DATABASE": db})
    with app.test_client() as client:
        token = client.post("/api/v1/token", json={"name": "demo", "password": "demo"}
                            ).get_json()["token"]
    bodies = [json.dumps({"cartridges": 1}).encode(), json.dumps({"cartridges": -1}).encode()]
    path = "/api/v1/players/1/adjust"

    def tap(n: int) -> None:
        status = []
        out = app.wsgi_app(environ(path, bodies[n % 2], token),
                           lambda s, h, e=None: status.append(s))
        b"".join(out)
        if hasattr(out, "close"):
            out.close()
        if not status[0].startswith("200"):
            raise SystemExit(f"tap answered {status[0]}")

    for n in range(200):  # warm: imports, caches, the SQLite page cache
        tap(n)
    t0 = time.process_time()
    for n in range(taps):
        tap(n)
    plain = (time.process_time() - t0) / taps * 1000
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for n in range(taps):
        tap(n)
    profiler.disable()
    stats = pstats.Stats(profiler)
    areas = by_area(stats)
    whole = sum(areas.values()) or 1.0
    return stats, plain, {a: plain * t / whole for a, t in areas.items()}


def top(stats: pstats.Stats, taps: int, count: int) -> list[str]:
    """The functions with the most own CPU time, a line each (µs a tap)."""
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:count]
    lines = []
    for (filename, line, name), (_, nc, tt, ct, _) in rows:
        short = filename.split("site-packages/")[-1].split("/referee/", 1)[-1]
        if "referee" in filename and "site-packages" not in filename:
            short = "referee/" + short
        lines.append(f"{1e6 * tt / taps:>8.1f} {1e6 * ct / taps:>8.1f} {nc / taps:>6.1f}  "
                     f"{short}:{line}({name}) [{area_of((filename, line, name)) or '-'}]")
    return lines


def report(db: str, taps: int, count: int) -> list[str]:
    stats, plain, areas = profile(db, taps)
    out = [f"one tap in process: {plain:.3f} ms CPU ({taps} taps; profile scaled to it)"]
    out += [f"  {area:<11}{ms:>7.3f} ms  {100 * ms / plain:>4.0f} %" for area, ms in
            areas.items()]
    out.append(f"top {count} by own CPU: own µs, cumulative µs, calls a tap")
    out += ["  " + line for line in top(stats, taps, count)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=2000)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    db = f"{tempfile.mkdtemp(prefix='referee-profile-')}/profile.db"
    subprocess.run([sys.executable, "-m", "referee.cli", "demo", "--db", db], check=True,
                   stdout=subprocess.DEVNULL)
    print("\n".join(report(db, args.taps, args.top)))


if __name__ == "__main__":
    main()
