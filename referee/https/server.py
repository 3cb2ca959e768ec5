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
from collections.abc import Callable, Iterable
from urllib.parse import quote, urlsplit

from cheroot import wsgi
from cheroot.ssl.builtin import BuiltinSSLAdapter

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
    interrupted (Ctrl-C, or SIGTERM turned into SystemExit); both stop before it returns,
    as waitress.serve returns."""
    secure = Server((host, port), app, numthreads=threads, server_name=SERVER_NAME)
    secure.ssl_adapter = BuiltinSSLAdapter(str(certs.cert_path), str(certs.key_path))
    plain = Server((host, plain_port), plain_door(app, port), numthreads=2,
                   server_name=SERVER_NAME)
    # On the way out, a request still running gets 2 s (cheroot waits 5 by default, for
    # each server in turn: a service manager's stop could then take 15 s).
    secure.shutdown_timeout = plain.shutdown_timeout = 2
    # cheroot listens, starts its threads, and only then is "ready"; its stop() ignores
    # a server not ready, so a Ctrl-C in between would leave the threads running and the
    # process hanging. Until both serve, a signal is only noted; then it ends serve().
    state = {"serving": False, "asked": False}

    def stop(signum, frame):
        if state["serving"]:
            raise SystemExit(0)
        state["asked"] = True

    previous = _take_signals(stop)
    try:
        # Both ports are bound before either serves: a port in use fails the start at once.
        secure.prepare()
        try:
            plain.prepare()
        except BaseException:
            secure.stop()
            raise
        door = threading.Thread(target=plain.serve, name="plain-door", daemon=True)
        door.start()
        try:
            state["serving"] = True
            if not state["asked"]:
                secure.serve()
        except (KeyboardInterrupt, SystemExit):
            pass  # as waitress does: the caller's clean-up runs and it returns normally
        finally:
            state["serving"] = False  # a second Ctrl-C must not cut the stopping short
            plain.stop()
            secure.stop()
            door.join(timeout=5)
    finally:
        for signum, handler in previous.items():
            if handler is not None:  # None: set outside Python, nothing to put back
                signal.signal(signum, handler)


def _take_signals(handler) -> dict:
    """Ctrl-C and SIGTERM to ``handler``; the handlers they had, to put back."""
    if threading.current_thread() is not threading.main_thread():
        return {}  # only the main thread may set handlers (and only it runs them)
    return {signum: signal.signal(signum, handler) for signum in (signal.SIGINT, signal.SIGTERM)}
