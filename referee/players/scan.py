"""Scan in the app: the player a passport's QR code names, for the phone that
read it (static/scan.js). It only reads: a scan writes nothing."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import Blueprint, jsonify, request, url_for
from flask_babel import gettext

from referee.games.duel.service import check_duelist
from referee.rules import N_, RuleError, whole_arg
from referee.store import players
from referee.web.context import current_referee, get_db
from referee.web.errors import http_message
from referee.web.i18n import rule_message

bp = Blueprint("scan", __name__)

# A passport token (players.service.new_token): URL-safe base64, 16–64 characters.
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
CODE_MAX = 2000  # far above any passport URL; a longer text is not one
NOT_PASSPORT = N_("This code is not a passport of this event.")
REISSUED = N_("This passport was reissued: ask the player for the new one.")


def token_of(code: str) -> str | None:
    """The token a scanned code carries: a passport URL (…/p/<token>) whatever its scheme
    and host (the public URL printed on the passport need not be the address this phone
    uses), or a bare token; None for anything else."""
    code = code.strip()
    if TOKEN.fullmatch(code):
        return code
    try:
        parts = urlsplit(code)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    _, sep, token = parts.path.rstrip("/").rpartition("/p/")
    return token if sep and TOKEN.fullmatch(token) else None


def refused(message: str, code: int, rule: str | None = None):
    """A scan that opens nothing: the sentence to float over the camera."""
    body = {"error": message}
    if rule:
        body["rule"] = rule
    return jsonify(body), code


@bp.get("/scan/resolve")
def resolve():
    """The player a scanned code names, as JSON; ``slot=duel`` also checks D4 (``other``:
    the player already in the other slot). Refusals are a sentence, and nothing opens."""
    if current_referee() is None:
        return refused(http_message(401), 401)
    code = request.args.get("code", "")
    token = token_of(code) if len(code) <= CODE_MAX else None
    db = get_db()
    row = players.by_token(db, token) if token else None
    if row is None:
        if token and players.by_retired_token(db, token) is not None:
            return refused(gettext(REISSUED), 410)
        return refused(gettext(NOT_PASSPORT), 404)
    if request.args.get("slot") == "duel":
        try:
            check_duelist(db, row["id"], request.args.get("other", type=whole_arg))
        except RuleError as err:
            return refused(rule_message(err), 422, err.rule)
    return jsonify(player={"id": row["id"], "character": row["character"]},
                   sheet_url=url_for("players.sheet", player_id=row["id"]))
