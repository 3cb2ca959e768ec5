"""The HTTPS page for organizers, the trust steps for a phone, and the authority itself.

The authority's certificate is public (its key never leaves the laptop), so a phone may
fetch it and read the steps without signing in, over plain HTTP too: it cannot trust
HTTPS before it has them. The fingerprint to compare is shown only on the organizers'
page, which is served over HTTPS: a page in clear could be changed on its way.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

from referee.https import certs
from referee.qr import qr_svg
from referee.store import settings
from referee.web.context import get_db, is_loopback
from referee.web.security import organizer_required

bp = Blueprint("https", __name__, url_prefix="/https")
FILENAME = "referee-ca.crt"


def _folder() -> Path | None:
    """The certificates' folder when this server speaks HTTPS, else None."""
    folder = current_app.config.get("TLS_DIR")
    return Path(folder) if folder else None


def _phone_host() -> str:
    """The host phones reach this server by: the one this page was opened with, or the
    network address `serve` found when the organizer browses on the laptop itself."""
    lan = current_app.config.get("LAN_URL")
    url = lan if is_loopback(request.host_url) and lan else request.host_url
    host = urlsplit(url).hostname or "localhost"
    return f"[{host}]" if ":" in host else host


def _fingerprint_lines(fingerprint: str) -> list[str]:
    """The 32 pairs in 4 lines of 8: easy to compare pair by pair on a phone."""
    pairs = fingerprint.split(":")
    return [":".join(pairs[i:i + 8]) for i in range(0, len(pairs), 8)]


def view() -> dict:
    """Everything both pages show: whether HTTPS is on and, if so, where phones fetch
    the authority, what they then open, and what the certificate covers."""
    folder = _folder()
    ca = certs.authority(folder) if folder else None
    if ca is None:
        return {"on": False}
    host = _phone_host()
    plain = f"http://{host}:{current_app.config['HTTP_PORT']}"
    https_port = current_app.config["HTTPS_PORT"]
    server = certs.server_certificate(folder) if folder else None
    covered = certs.names(server) if server else []
    public = settings.get(get_db(), "public_url") or current_app.config.get("PUBLIC_URL", "")
    return {
        "on": True,
        "ca_name": certs.common_name(ca),
        "fingerprint": _fingerprint_lines(certs.fingerprint(ca)),
        "ca_url": plain + url_for("https.authority"),
        "trust_url": plain + url_for("https.trust"),
        "open_url": f"https://{host}" + ("" if https_port == 443 else f":{https_port}") + "/",
        "host": host.strip("[]"),
        "covered": covered,
        "host_covered": server is not None and certs.covers(server, [host.strip("[]")]),
        "until": server.not_valid_after_utc.date().isoformat() if server else "",
        "folder": str(folder),
        "public_http": public if public.startswith("http://") else "",
    }


@bp.get("")
@organizer_required
def index():
    """Whether HTTPS is on; if so, the QR code phones fetch the authority by, its
    fingerprint and the steps to trust it on Android and iOS."""
    page = view()
    qr = qr_svg(page["ca_url"]).decode() if page["on"] else ""
    return render_template("https/index.html", page=page, qr=qr)


@bp.get("/trust")
def trust():
    """On a phone, without signing in: download the authority, trust it, open HTTPS."""
    page = view()
    if not page["on"]:
        abort(404)
    return render_template("https/trust.html", page=page)


@bp.get("/" + FILENAME)
def authority():
    """The authority's certificate (public, never its key), as phones install it."""
    folder = _folder()
    if folder is None or certs.authority(folder) is None:
        abort(404)
    return Response((folder / certs.CA_CERT).read_bytes(),
                    mimetype="application/x-x509-ca-cert",
                    # attachment: Chrome on Android then keeps it in Downloads, where
                    # Settings → Install a certificate finds it (Android 11+ installs a
                    # CA from there only)
                    headers={"Content-Disposition": f'attachment; filename="{FILENAME}"',
                             "Cache-Control": "no-cache"})
