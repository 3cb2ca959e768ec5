"""Passport pages: what a player sees after scanning the QR code on their paper passport."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, url_for
from markupsafe import Markup

from referee.players.web import sheet_page, wound_clock
from referee.qr import qr_svg
from referee.store import players, settings
from referee.web.context import current_referee, get_db, public_base

bp = Blueprint("passport", __name__)


def passport_row(token: str) -> dict:
    """The player holding this token; unknown or reissued tokens are simply not found."""
    # Tokens are URL-safe base64; anything else cannot be one, so skip the lookup.
    if not 16 <= len(token) <= 64:
        abort(404)
    row = players.by_token(get_db(), token)
    if row is None:
        abort(404)
    return row


@bp.app_template_global()
def passport_qr(url: str) -> Markup:
    """The QR code of a passport's URL, inline in the sheet: not a second request on each
    load (an image at /p/… could not be cached anyway: its URL is the passport's key)."""
    return Markup(qr_svg(url).decode().split("?>", 1)[-1].strip())


@bp.errorhandler(404)
def passport_missing(err):
    """An unknown or reissued passport, told to the player who scanned it (not the referees'
    sign-in: a player has no account)."""
    return render_template("players/passport_missing.html"), 404


@bp.get("/p/<token>")
def sheet(token: str):
    """The player's own sheet, read-only; a signed-in referee gets the editable view."""
    row = passport_row(token)
    if current_referee() is not None:
        return sheet_page(row)
    db = get_db()
    # D10: a heavily wounded player sees how long they have to find a healer
    minutes = int(settings.get(db, "death_minutes") or 0)
    return render_template("players/passport.html", p=row, deck=players.deck_cards(row),
                           clock=wound_clock(row, minutes),
                           event_name=settings.get(db, "event_name"))


@bp.get("/p/<token>/qr.svg")
def qr(token: str):
    """The QR code of this passport's URL, from the public-URL setting."""
    row = passport_row(token)
    url = public_base() + url_for("passport.sheet", token=row["passport_token"])
    return Response(qr_svg(url), mimetype="image/svg+xml")
