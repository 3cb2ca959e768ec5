"""The pocket referee's costs: what open screens cost the server while idle,
and how light the phone's offline copy is.

Starts `referee serve` on a demo event, signs in once, then keeps N screens open: each
asks its /live address every 2.5 s with If-None-Match, as static/live.js does (sheets,
the players list, the feed and passport pages, mixed). Nothing changes meanwhile, so
every answer is a 304. Prints the server process's CPU share of one core (from /proc)
while idle alone and with the screens open, side by side in one run, the CPU a 304
costs, and its latency.

Then, on an event of 1,000 players with 10,000 changes (bench_scale.make_event): the
bytes (gzipped, as sent) that the service worker and the offline copy add to a phone's
first visit; the time to send 500 kept taps in one go; and, in Chromium out of reach,
the time from asking for a sheet to seeing it drawn from the copy (median of 7).

    .venv/bin/python benchmarks/bench_pocket.py [--screens 100] [--seconds 30]
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import re
import sqlite3
import statistics
import tempfile
import threading
import time
import urllib.parse

from bench_scale import make_event
from bench_stats import cpu_seconds, demo_event, pct, serve

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


def fetch_gz(port: int, cookie: str, path: str) -> tuple[int, bytes]:
    """(bytes on the wire, the body) of a GET that accepts gzip."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request("GET", path, headers={"Cookie": cookie, "Accept-Encoding": "gzip"})
    response = conn.getresponse()
    raw = response.read()
    if response.status != 200:
        raise SystemExit(f"{path}: {response.status}")
    body = gzip.decompress(raw) if response.getheader("Content-Encoding") == "gzip" else raw
    return len(raw), body


def light(folder: str) -> None:
    """How light the offline copy is, on 1,000 players: its bytes, 500 kept taps sent in
    one go, a sheet drawn from the copy."""
    db = f"{folder}/light.db"
    make_event(db, 1000, 10_000)
    server, port = serve(db)
    try:
        cookie = sign_in(port)
        _, page = fetch_gz(port, cookie, "/")
        page_text = page.decode()
        offline_js = re.search(r'src="(/static/offline\.js\?v=[^"]+)"', page_text).group(1)
        csrf = re.search(r'"X-CSRF-Token": "([^"]+)"', page_text).group(1)
        sizes = {path: fetch_gz(port, cookie, path)[0] for path in (
            "/sw.js", offline_js, "/offline", "/offline/data.json")}
        copy = json.loads(fetch_gz(port, cookie, "/offline/data.json")[1])
        print(f"first visit adds {sum(sizes.values()) / 1024:.1f} KB gzipped for "
              f"{len(copy['players'])} players (goal 150 KB): " + ", ".join(
                  f"{p.split('?')[0]} {n / 1024:.1f} KB" for p, n in sizes.items()))

        now_ms = int(time.time() * 1000)
        taps = [{"id": f"bench-{n:06d}-tap", "player": 1 + n % 500, "kind": "adjust",
                 "values": {"cartridges": 1 if n % 2 else -1}, "reason": "",
                 "made": now_ms - 60_000 + n, "referee": 1} for n in range(500)]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        t0 = time.perf_counter()
        conn.request("POST", "/offline/taps", body=json.dumps({"taps": taps, "sent": now_ms}),
                     headers={"Cookie": cookie, "Content-Type": "application/json",
                              "X-CSRF-Token": csrf})
        response = conn.getresponse()
        answer = json.loads(response.read())
        took = time.perf_counter() - t0
        applied = sum(r["status"] == "applied" for r in answer["results"])
        print(f"500 kept taps sent in one go: {took:.2f} s (goal 5 s), {applied} applied")
        print(f"a sheet drawn offline from the copy: {offline_sheet_ms(port, folder):.0f} ms "
              "median of 7 (goal 300 ms)")
    finally:
        server.terminate()
        server.wait()


def offline_sheet_ms(port: int, folder: str) -> float:
    """In Chromium out of reach: asking for a sheet until it is drawn from the copy."""
    from playwright.sync_api import sync_playwright

    base = f"http://127.0.0.1:{port}"
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            os.path.join(folder, "phone"), executable_path=os.environ.get(
                "CHROMIUM", "/usr/bin/chromium"), args=args,
            viewport={"width": 360, "height": 740})
        page = context.new_page()
        page.goto(base + "/login")
        page.fill("input[name=name]", "demo")
        page.fill("input[name=password]", "demo")
        page.click("button[type=submit]")
        page.wait_for_url(base + "/")
        page.wait_for_function("() => document.body.dataset.worker === 'ready'")
        page.reload()
        page.wait_for_function("() => !!navigator.serviceWorker.controller")
        page.wait_for_function("() => document.body.dataset.copy === 'ready'",
                               timeout=60_000)
        context.set_offline(True)
        times = []
        for n in range(7):
            player = 100 + 97 * n
            t0 = time.perf_counter()
            page.goto(f"{base}/players/{player}")
            try:
                page.wait_for_selector(f"#player-{player}", timeout=10_000)
            except Exception:  # noqa: BLE001 - whatever went wrong, say what the page shows
                body = page.inner_text("body")[:900].replace("\n", " | ")
                raise SystemExit("not drawn: " + body) from None
            times.append((time.perf_counter() - t0) * 1000)
        context.close()
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screens", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--only", choices=("idle", "light"), default=None)
    args = parser.parse_args()
    if args.only != "idle":
        light(tempfile.mkdtemp(prefix="referee-bench-"))
        if args.only == "light":
            return

    db = demo_event(tempfile.mkdtemp(prefix="referee-bench-"))
    server, port = serve(db)
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
