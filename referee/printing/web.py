"""The organizer's Print page: passports and card sheets as PDF downloads."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request

from referee.decks import DeckError, UnknownDeck, load_all
from referee.printing import service
from referee.rules import RuleError, whole_arg
from referee.store import players
from referee.web.context import get_db, is_loopback, public_base
from referee.web.i18n import rule_message
from referee.web.security import organizer_required

bp = Blueprint("printing", __name__, url_prefix="/print")


def _page(error: str | None = None, status: int = 200):
    broken: list[DeckError] = []
    decks = load_all(errors=broken)
    problems = [err.describe(rule_message) for err in broken]
    base = public_base()
    return render_template("printing/index.html", players=players.search(get_db(), "", 100_000),
                           decks=decks.values(), problems=problems, error=error,
                           base=base, base_is_local=is_loopback(base)), status


def _pdf(data: bytes, filename: str) -> Response:
    return Response(data, mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _lang() -> str:
    lang = request.args.get("lang", "both")
    return lang if lang in service.LANGS else "both"


@bp.get("/")
@organizer_required
def index():
    """Choose passports or a deck to print."""
    return _page()


@bp.get("/passports.pdf")
@organizer_required
def passports():
    """All passports, or the players ticked on the page."""
    ids = request.args.getlist("player", type=whole_arg)
    try:
        data = service.passports(get_db(), public_base(), ids, _lang())
    except RuleError as err:
        return _page(rule_message(err), 422)
    return _pdf(data, "passports.pdf")


@bp.get("/deck.pdf")
@organizer_required
def deck():
    """One deck's card sheets, with mirrored backs if asked."""
    name = request.args.get("name", "")
    offset = (request.args.get("offset_x", 0.0, type=float),
              request.args.get("offset_y", 0.0, type=float))
    try:
        if request.args.get("shop") == "1":  # one card a page with its bleed (print shops)
            bleed = request.args.get("bleed", 3.175, type=float)
            data = service.shop_deck(name, bleed, _lang())
            return _pdf(data, f"{name}-print-shop.pdf")
        data = service.deck(name, request.args.get("backs") == "1", offset, _lang())
    except RuleError as err:
        return _page(rule_message(err), 422)
    except (DeckError, UnknownDeck) as err:
        return _page(err.describe(rule_message), 422)
    return _pdf(data, f"{name}.pdf")
