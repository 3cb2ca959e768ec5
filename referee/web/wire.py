"""Light on the wire: answers gzip-compressed, static files fingerprinted and kept a year.

A referee's phone is on the site's Wi-Fi, often at its edge: every byte of a tap's answer
and every request of a page load is time the referee waits. Text answers are compressed
when the phone asks for it; a static file's URL carries a hash of its content, so the
phone keeps it for a year and a new version has a new URL.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
from dataclasses import dataclass
from datetime import UTC, datetime

from flask import Flask, current_app, g, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.security import safe_join

from referee.web.screens import is_htmx

EXTENSION = "referee.wire"
LEVEL = 6  # zlib's default: a 4 KB card in ~0.1 ms; 9 saves a few bytes for twice the time
MIN_SIZE = 512  # below this the gzip header and a round of CPU outweigh what is saved
STATIC_LEVEL = 9  # static files are compressed once per version, not per request
# A static file larger than this is served from disk, unhashed. The passport scanner's
# decoder (static/vendor/zxing-wasm-*, about 1.1 MB, 0.45 MB gzipped) fits under it.
CACHED_MAX = 2 * 1024 * 1024
YEAR = "public, max-age=31536000, immutable"
# The short fixed set of text types this app sends, and WebAssembly, which shrinks as
# well (the scanner's decoder to 42 %); PDF, PNG and ZIP are compressed already, and gzip
# on them only costs time.
TEXT_TYPES = {"application/json", "application/javascript", "application/xml",
              "image/svg+xml", "application/wasm"}


def compressible(mimetype: str | None) -> bool:
    """Whether answers of this type shrink under gzip (text, JSON, SVG…)."""
    if not mimetype:
        return False
    return (mimetype.startswith("text/") or mimetype in TEXT_TYPES
            or mimetype.endswith(("+json", "+xml")))


def accepts_gzip() -> bool:
    """Whether the client said it reads gzip (``gzip;q=0`` says it does not)."""
    return request.accept_encodings["gzip"] > 0


def compress(response):
    """Gzip a text answer for a client that asks, above a small size; else leave it."""
    body = response.response
    if (type(body) is list and len(body) == 1 and type(body[0]) is bytes
            and len(body[0]) < MIN_SIZE and not response.direct_passthrough):
        return response  # a tap's answer: small, whatever else it is
    if (response.direct_passthrough or response.is_streamed
            or response.status_code == 206 or "Content-Range" in response.headers
            or "Content-Encoding" in response.headers
            or response.cache_control.no_transform
            or not compressible(response.mimetype)):
        return response
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return response
    # The answer depends on the header from this size on, for every client and cache.
    response.vary.add("Accept-Encoding")
    if not accepts_gzip():
        return response
    response.set_data(gzip.compress(data, LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:
        # The same content in other bytes: equal under If-None-Match, never for a range.
        response.set_etag(etag, weak=True)
    return response


@dataclass(frozen=True)
class Asset:
    """One static file as it is now: its bytes, their hash and, for text, their gzip."""

    stamp: tuple[int, int]  # (mtime_ns, size): a file edited on disk is read again
    data: bytes
    digest: str
    mimetype: str
    modified: datetime
    gzipped: bytes | None


# Every app of the process shares what it read (tests and tools make several apps): a
# file is hashed and compressed once, not once per app.
_READ: dict[str, Asset] = {}


class Assets:
    """The static folder, read by content: a file's fingerprint and its bytes, kept in
    memory until the file changes on disk (one stat per look-up)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self._files = _READ

    def get(self, filename: str) -> Asset | None:
        """The file as it is now, or None: not there, not a file, or too large to keep."""
        path = safe_join(self.folder, filename)
        if path is None:
            return None
        try:
            stat = os.stat(path)
        except OSError:
            return None
        stamp = (stat.st_mtime_ns, stat.st_size)
        asset = self._files.get(path)
        if asset is not None and asset.stamp == stamp:
            return asset
        if not os.path.isfile(path) or stat.st_size > CACHED_MAX:
            return None
        with open(path, "rb") as f:
            data = f.read()
        mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        gzipped = gzip.compress(data, STATIC_LEVEL, mtime=0) \
            if compressible(mimetype) and len(data) >= MIN_SIZE else None
        asset = Asset(stamp, data, hashlib.sha256(data).hexdigest()[:12], mimetype,
                      datetime.fromtimestamp(stat.st_mtime, UTC), gzipped)
        # Two threads reading one changed file both store the same thing: no lock needed.
        self._files[path] = asset
        return asset

    def fingerprint(self, filename: str) -> str | None:
        """The hash that goes into the file's URL (``?v=``), or None for no such file."""
        asset = self.get(filename)
        return asset.digest if asset is not None else None


def assets() -> Assets:
    """This app's static files."""
    return current_app.extensions[EXTENSION]


def add_fingerprint(endpoint: str, values: dict) -> None:
    """``url_for('static', filename=…)`` everywhere gets ``?v=<hash of the content>``."""
    if endpoint == "static" and "filename" in values and "v" not in values:
        digest = assets().fingerprint(values["filename"])
        if digest is not None:
            values["v"] = digest


def static_view(fallback):
    """Flask's static view, answering from memory with one strong ETag per encoding."""

    def static(filename: str):
        """A static file: a year in the cache under its fingerprint, else revalidated."""
        asset = assets().get(filename)
        if asset is None:
            return fallback(filename=filename)  # a 404, or a file too large to keep
        zipped = asset.gzipped is not None and accepts_gzip()
        body = asset.gzipped if zipped else asset.data
        response = current_app.response_class(body, mimetype=asset.mimetype)
        if asset.gzipped is not None:
            response.vary.add("Accept-Encoding")
        if zipped:
            response.headers["Content-Encoding"] = "gzip"
        # Ranges and 304s then refer to exactly the bytes sent: each encoding its own tag.
        response.set_etag(asset.digest + ("-gzip" if zipped else ""))
        response.last_modified = asset.modified
        # A stale ?v= (a page from before the file changed) still gets today's file, but
        # must not be kept under a name that says otherwise.
        g.static_cache = YEAR if request.args.get("v") == asset.digest else "no-cache"
        return response.make_conditional(request, accept_ranges=True,
                                         complete_length=len(body or b""))

    return static


def finish(response):
    """The last word on every answer: static cache headers, then compression."""
    cache = g.pop("static_cache", None)
    if cache is not None:
        # After security.set_headers, whose no-store is for pages, not for public files.
        response.headers["Cache-Control"] = cache
    return compress(response)


class Sessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, re-signed only where it is worth the bytes.

    A permanent session's cookie is signed anew on every answer (to slide its expiry),
    and with it comes ``Vary: Cookie``. On a static file that would make the browser's
    copy stop matching as soon as the cookie changed, a second later; on a tap's
    fragment it is a third of the answer. Any page load still slides the expiry, and a
    session that changed is always sent."""

    def open_session(self, app: Flask, request):
        # The JSON API signs in with bearer tokens, never with the cookie: not reading
        # it is a twentieth of a tap's time.
        if request.path.startswith("/api/"):
            return self.session_class()
        return super().open_session(app, request)

    def should_set_cookie(self, app: Flask, session) -> bool:
        if session.modified:
            return True
        if request.endpoint == "static" or is_htmx():
            return False
        return super().should_set_cookie(app, session)


def init_app(app: Flask) -> None:
    """Fingerprint static URLs, serve static files by content and compress answers.

    Register it before the other after_request functions: Flask runs them in reverse
    order, so ``finish`` runs last and compresses the body everyone else has settled."""
    app.extensions[EXTENSION] = Assets(app.static_folder or "static")
    if type(app.session_interface) is SecureCookieSessionInterface:  # not one made elsewhere
        app.session_interface = Sessions()
    app.url_defaults(add_fingerprint)
    app.view_functions["static"] = static_view(app.view_functions["static"])
    app.after_request(finish)
