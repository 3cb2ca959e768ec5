"""Serving over TLS with cheroot, and the small plain-HTTP door beside it.

waitress, the plain-HTTP server, cannot speak TLS; cheroot (CherryPy's server, pure
Python, threads like waitress) can, with the ssl module of the standard library. The
plain door is needed because a phone can only fetch the authority before it trusts it:
it hands out the authority and its steps, and sends everything else to HTTPS.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable, Iterable
from urllib.parse import quote, urlsplit

from cheroot import wsgi
from cheroot.ssl.builtin import BuiltinSSLAdapter
from cheroot.workers import threadpool

from referee.https.certs import Certificates

# What the plain door answers itself; every other path is sent to HTTPS.
PLAIN_PATHS = ("/https/referee-ca.crt", "/https/trust")
PLAIN_PREFIXES = ("/static/", "/lang/")
SERVER_NAME = "referee"


class Server(wsgi.Server):
    """cheroot's server, with its notes kept for what matters: at the start of an event
    every phone that does not trust the authority yet drops a handshake, and one line on
    the organizer's terminal each time would bury the real errors."""

    def error_log(self, msg: str = "", level: int = logging.INFO,
                  traceback: bool = False) -> None:
        if level >= logging.WARNING or traceback:
            super().error_log(msg, level, traceback)


def https_location(environ: dict, https_port: int) -> str:
    """The same address over HTTPS: same host as the phone used, the HTTPS port."""
    host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "localhost")
    name = urlsplit("//" + host).hostname or "localhost"
    if ":" in name:  # an IPv6 address goes back in brackets
        name = f"[{name}]"
    port = "" if https_port == 443 else f":{https_port}"
    # PATH_INFO holds the path's bytes as Latin-1 (PEP 3333): quote those bytes again
    raw = (environ.get("PATH_INFO") or "/").encode("latin-1")
    path = quote(raw, safe="/:@!$&'()*+,;=~-._")
    query = environ.get("QUERY_STRING", "")
    return f"https://{name}{port}{path}" + (f"?{query}" if query else "")


def plain_door(app: Callable, https_port: int) -> Callable:
    """A WSGI app for the plain port: the authority, its steps and their static files
    from ``app``; a redirect to HTTPS for anything else (a passport's old http:// link
    included), so no password or cookie is ever asked for in clear."""

    def door(environ: dict, start_response: Callable) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path in PLAIN_PATHS or path.startswith(PLAIN_PREFIXES):
            return app(environ, start_response)
        # 307, not 301: a browser remembers a 301 for ever, and plain HTTP must work
        # again the day the server is started without --https.
        start_response("307 Temporary Redirect", [
            ("Location", https_location(environ, https_port)),
            ("Content-Length", "0"), ("Cache-Control", "no-store")])
        return [b""]

    return door


def serve(app: Callable, host: str, port: int, plain_port: int, certs: Certificates,
          threads: int = 8) -> None:
    """Serve ``app`` over HTTPS on ``port`` and the plain door on ``plain_port`` until
    Ctrl-C or SIGTERM; both stop before it returns, as waitress.serve returns."""
    secure = Server((host, port), app, numthreads=threads, server_name=SERVER_NAME)
    secure.ssl_adapter = BuiltinSSLAdapter(str(certs.cert_path), str(certs.key_path))
    plain = Server((host, plain_port), plain_door(app, port), numthreads=2,
                   server_name=SERVER_NAME)
    # On the way out, a request still running gets 2 s (cheroot waits 5 by default, for
    # each server in turn: a service manager's stop could then take 15 s).
    secure.shutdown_timeout = plain.shutdown_timeout = 2
    # The servers run in threads; this one waits for a signal, which only raises a flag.
    # A handler that raised SystemExit (as waitress's caller does) could land while a
    # lock of cheroot's was held, and leave it held: then the stopping waited for ever
    # (seen one run in five), as it did when a signal came while cheroot was starting.
    asked = []

    def stop(signum, frame):
        asked.append(signum)

    previous = _take_signals(stop)
    runners: list[threading.Thread] = []
    already = set(threading.enumerate())
    try:
        # Both ports are bound before either serves: a port in use fails the start at once.
        secure.prepare()
        plain.prepare()
        for name, server in (("https", secure), ("plain-door", plain)):
            runner = threading.Thread(target=server.serve, name=name, daemon=True)
            runner.start()
            runners.append(runner)
        while not asked and all(runner.is_alive() for runner in runners):
            time.sleep(0.1)
    finally:
        for server in (plain, secure):
            _stop(server)
        for runner in runners:
            runner.join(timeout=5)
        # cheroot's own threads (the one answering 503 when the pool is full) are told to
        # stop but not waited for: wait, so nothing of the server outlives serve()
        deadline = time.monotonic() + 5
        for thread in set(threading.enumerate()) - already:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        for signum, handler in previous.items():
            if handler is not None:  # None: set outside Python, nothing to put back
                signal.signal(signum, handler)


def _stop(server: Server) -> None:
    """Stop a cheroot server and its worker threads.

    cheroot's stop() sends each worker it knows one request to stop, then waits for it
    without end. When a signal's SystemExit still landed inside cheroot, a worker once
    missed its request and the process waited for ever; spare requests are sent first,
    so that whatever happened, every worker finds one (the spares stay unread)."""
    pool = server.requests
    queue = getattr(pool, "_queue", None)
    if queue is not None:
        # as many as it has threads, and as many again: a worker it did not list took
        # another's request (what the waits looked like)
        for _spare in range(2 * max(len(getattr(pool, "_threads", [])), pool.min)):
            queue.put(threadpool._SHUTDOWNREQUEST)  # type: ignore[attr-defined]  # private
    server.stop()


def _take_signals(handler) -> dict:
    """Ctrl-C and SIGTERM to ``handler``; the handlers they had, to put back."""
    if threading.current_thread() is not threading.main_thread():
        return {}  # only the main thread may set handlers (and only it runs them)
    return {signum: signal.signal(signum, handler) for signum in (signal.SIGINT, signal.SIGTERM)}
