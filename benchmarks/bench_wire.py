"""A tap's bytes on the wire, its time with compression on and off, a page load's requests.

The goal: a tap's answer at most 2 KB on the wire and a repeat page load
making one request. Through a real `referee serve` (waitress) on the demo database, a
referee signs in with the form, opens a sheet and taps with htmx's headers, as the phone
does; the player has a full history (50 rows shown) first. Bytes are counted as received
on the socket: status line, headers and body. The four kinds of tap answer are sent in
turn, round after round, so a noisy machine affects all alike:

- before: the whole history again, nothing compressed (the screen sends no ``seen`` and
  no Accept-Encoding), what the two measures below are weighed against;
- the new row only, without and with ``Accept-Encoding: gzip``;
- the whole history, gzipped: what compression alone would have given.

Then gzip's own CPU time on one tap's answer, and, with the system Chromium, the
requests a first and a repeat load of the players list and of a sheet make.

    .venv/bin/python benchmarks/bench_wire.py [--taps 200] [--history 50] [--no-browser]
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_stats import demo_event, pct, serve

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
KINDS = {  # name: (send seen, accept gzip)
    "before: whole history, plain": (False, False),
    "new row, plain": (True, False),
    "new row, gzip": (True, True),
    "whole history, gzip": (False, True),
}


class Wire:
    """One keep-alive HTTP/1.1 connection that counts every byte it receives."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.buffer = b""
        self.cookie = ""

    def _fill(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise SystemExit("the server closed the connection")
        self.buffer += chunk

    def request(self, method: str, path: str, headers: dict | None = None,
                body: bytes = b"") -> tuple[int, dict, bytes, int]:
        """(status, headers, body, bytes on the wire) of one request."""
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1",
                 f"Content-Length: {len(body)}"]
        if self.cookie:
            lines.append(f"Cookie: {self.cookie}")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        answer: dict[str, str] = {}
        for line in header_lines:
            name, value = line.split(":", 1)
            answer[name.strip().lower()] = value.strip()
            if name.lower() == "set-cookie":
                self.cookie = value.strip().split(";")[0]
        if "chunked" in answer.get("transfer-encoding", ""):
            raise SystemExit("a chunked answer: this client counts Content-Length only")
        length = int(answer.get("content-length", 0))
        while len(self.buffer) < length:
            self._fill()
        data, self.buffer = self.buffer[:length], self.buffer[length:]
        return int(status_line.split()[1]), answer, data, len(head) + 4 + length


def form_post(wire: Wire, path: str, fields: dict, headers: dict | None = None):
    return wire.request("POST", path, {"Content-Type": "application/x-www-form-urlencoded",
                                       **(headers or {})}, urlencode(fields).encode())


def csrf_in(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def seen_in(html: str) -> str:
    return re.search(r'name="seen" value="(\d*)"', html).group(1)


def sign_in(port: int) -> tuple[Wire, str]:
    """A referee's connection, signed in with the form; and the session's CSRF token."""
    wire = Wire(port)
    _, _, page, _ = wire.request("GET", "/login")
    status, _, _, _ = form_post(wire, "/login", {"name": "demo", "password": "demo",
                                                "csrf_token": csrf_in(page.decode())})
    if status != 303:
        raise SystemExit(f"sign-in answered {status}")
    _, _, page, _ = wire.request("GET", "/players/1")
    return wire, csrf_in(page.decode())


def tap(wire: Wire, csrf: str, n: int, seen: str | None, zipped: bool):
    """The n-th tap, +1 or −1 cartridge in turn, as htmx sends it; (latency, bytes on the
    wire, body as html)."""
    fields = {"cartridges": "-1" if n % 2 else "1", "reason": ""}
    if seen is not None:
        fields["seen"] = seen
    headers = {"HX-Request": "true", "HX-Target": "player-1", "X-CSRF-Token": csrf,
               "Accept-Encoding": "gzip, deflate" if zipped else "identity"}
    t0 = time.perf_counter()
    status, answer, body, size = form_post(wire, "/players/1/adjust", fields, headers)
    latency = time.perf_counter() - t0
    if status != 200:
        raise SystemExit(f"tap answered {status}")
    if answer.get("content-encoding") == "gzip":
        body = gzip.decompress(body)
    elif zipped:
        raise SystemExit("asked for gzip, got it plain")
    return latency, size, body.decode()


def taps(port: int, rounds: int, history: int) -> tuple[dict, dict, str]:
    """Each kind of tap answer in turn; (bytes per kind, latencies per kind, a plain body)."""
    wire, csrf = sign_in(port)
    seen = ""
    for n in range(history):  # a full history, and everything warm
        _, _, html = tap(wire, csrf, n, seen or None, False)
        seen = seen_in(html)
    sizes: dict[str, list[int]] = {k: [] for k in KINDS}
    latencies: dict[str, list[float]] = {k: [] for k in KINDS}
    plain = ""
    for _ in range(rounds):
        for k, (kind, (send_seen, zipped)) in enumerate(KINDS.items()):
            latency, size, html = tap(wire, csrf, k, seen if send_seen else None, zipped)
            seen = seen_in(html)
            sizes[kind].append(size)
            latencies[kind].append(latency)
            if kind == "new row, plain":
                plain = html
    return sizes, latencies, plain


def gzip_cost(body: bytes) -> list[tuple[int, int, float]]:
    """(level, gzipped bytes, µs) for one tap's answer, as the server compresses it."""
    out = []
    for level in (1, 6, 9):
        runs = []
        for _ in range(500):
            t0 = time.perf_counter()
            size = len(gzip.compress(body, level, mtime=0))
            runs.append(time.perf_counter() - t0)
        out.append((level, size, statistics.median(runs) * 1e6))
    return out


def page_loads(base: str) -> list[tuple[str, int, int, int]]:
    """(page, static URLs in it, requests of a first load, of a repeat load) in Chromium.

    A request counts when it reached the server: Chromium's own cache answering, from
    memory or disk, is not a request on the Wi-Fi."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return []
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(base + "/login")
        page.fill("input[name=name]", "demo")
        page.fill("input[name=password]", "demo")
        page.click("button[type=submit]")
        page.wait_for_url(base + "/")
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        reached: list[str] = []
        cached: set[str] = set()  # answered from memory: said before its response event

        def received(event: dict) -> None:
            answer = event["response"]
            if event["requestId"] not in cached and not (
                    answer.get("fromDiskCache") or answer.get("fromPrefetchCache")):
                reached.append(answer["url"])

        cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
        cdp.on("Network.responseReceived", received)
        for path in ("/", "/players/1"):
            cdp.send("Network.clearBrowserCache")
            counts = []
            for _ in range(2):
                page.goto("about:blank")
                reached.clear()
                page.goto(base + path, wait_until="networkidle")
                counts.append(len(reached))
            if "--verbose" in sys.argv:
                print(path, reached)
            statics = len(set(re.findall(r'(?:href|src)="(/static/[^"]+)"', page.content())))
            out.append((path, statics, *counts))
        browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=200, help="rounds of the four kinds")
    parser.add_argument("--history", type=int, default=50, help="taps made first")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="list a repeat load's requests")
    args = parser.parse_args()

    db = demo_event(tempfile.mkdtemp(prefix="referee-bench-"))
    server, port = serve(db)
    try:
        sizes, latencies, plain = taps(port, args.taps, args.history)
        loads = [] if args.no_browser else page_loads(f"http://127.0.0.1:{port}")
    finally:
        server.terminate()
        server.wait()

    before = statistics.median(sizes["before: whole history, plain"])
    before_p50 = pct(latencies["before: whole history, plain"], 50)
    print(f"{args.taps} rounds of 4 taps (POST /players/1/adjust with htmx headers) after "
          f"{args.history}, through referee serve (waitress)")
    print(f"{'tap answer':<30}{'bytes on wire':>14}{'/ before':>10}{'p50 ms':>9}"
          f"{'p99 ms':>9}{'p50 / before':>14}")
    for kind in KINDS:
        size = statistics.median(sizes[kind])
        p50 = pct(latencies[kind], 50)
        print(f"{kind:<30}{size:>14.0f}{size / before:>10.3f}{p50:>9.2f}"
              f"{pct(latencies[kind], 99):>9.2f}{p50 / before_p50:>14.2f}")
    on, off = pct(latencies["new row, gzip"], 50), pct(latencies["new row, plain"], 50)
    print(f"compression on / off, tap p50 (loopback, so no transfer time is saved): "
          f"{on / off:.2f}")
    print(f"goal: a tap's answer <= 2048 bytes on the wire: "
          f"{statistics.median(sizes['new row, gzip']):.0f}")
    body = plain.encode()
    print(f"\ngzip of one tap's answer ({len(body)} bytes) in this process:")
    print(f"{'level':<8}{'bytes':>8}{'µs':>8}")
    for level, size, micros in gzip_cost(body):
        print(f"{level:<8}{size:>8}{micros:>8.0f}")
    if loads:
        print("\nChromium, requests that reach the server (its cache answers the rest):")
        print(f"{'page':<14}{'static URLs':>12}{'first load':>12}{'repeat load':>13}")
        for path, statics, first, repeat in loads:
            print(f"{path:<14}{statics:>12}{first:>12}{repeat:>13}")
        print("without fingerprints, a repeat load revalidates every static file: "
              "1 + its static URLs")
    elif not args.no_browser:
        print("\nno Chromium found: page loads not measured")


if __name__ == "__main__":
    main()
