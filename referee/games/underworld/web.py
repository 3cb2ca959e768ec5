"""Underworld games (U1–U17) on the phone: setup, the table, undo, quick fights."""

from __future__ import annotations

import re
from dataclasses import fields

from flask import Blueprint, make_response, redirect, render_template, request, url_for
from flask_babel import gettext
from sqlite_utils import Database
from werkzeug.datastructures import MultiDict

import referee.games.service  # noqa: F401  (games.service: the views hold act and undo)
import referee.players.service
from referee import games
from referee.decks import search
from referee.errors import Conflict
from referee.games.underworld import rules, service
from referee.games.underworld.rules.state import INVENTORY, MAX_LEVEL, MAX_SEATS, MIN_SEATS
from referee.games.underworld.view import card_name, card_text, data, refusal
from referee.games.underworld.words import STALE, STALE_LEVEL
from referee.notes import note
from referee.rules import N_, RuleError, whole, whole_arg
from referee.store import players
from referee.web.context import get_db, signed_in
from referee.web.i18n import rule_message
from referee.web.once import game_target, once_form
from referee.web.screens import GameScreen, form_version, is_htmx, list_page
from referee.web.security import referee_required

bp = Blueprint("underworld", __name__, url_prefix="/underworld")
# Links printed or bookmarked before the game took its own name still lead here.
old = Blueprint("castle", __name__, url_prefix="/castle")


@old.route("", defaults={"rest": ""}, methods=["GET", "POST"])
@old.route("/<path:rest>", methods=["GET", "POST"])
def moved(rest: str):
    """/castle/… is /underworld/… now (308 keeps a form's POST a POST)."""
    query = request.query_string.decode("ascii", "replace")
    target = "/underworld" + (f"/{rest}" if rest else "") + (f"?{query}" if query else "")
    return redirect(target, code=308)

_WHOLE = re.compile(r"^[+-]?\d{1,3}$")
RECORD_SHOWN = 60  # the record's latest steps on the table screen; ?record=all for every one


bp.add_app_template_global(card_name, "uw_card_name")
bp.add_app_template_global(card_text, "uw_card_text")


def player_panel(db: Database, player_id: int) -> list[dict]:
    """For the player sheet: the underworld games this player sits at."""
    return service.listing(db, player_id)


def _names(game: games.service.Game) -> dict[str, str]:
    return service.names(get_db(), game.state_as(service.Table).seats)


# Reading the forms ----------------------------------------------------------------------


def _trade(form: MultiDict, names: dict[str, str]) -> dict:
    player, partner = form.get("player", ""), form.get("partner", "")
    gives: list[str] = []
    takes: list[str] = []
    for value in form.getlist("cards"):
        owner, _, code = value.partition(":")
        if owner == player:
            gives.append(code)
        elif owner == partner:
            takes.append(code)
        else:
            raise RuleError("U10", N_("Tick only cards of the two players who trade; "
                                      "%(player)s is not one of them."),
                            player=names.get(owner, owner))
    return {"kind": "trade", "player": player, "partner": partner, "gives": gives,
            "takes": takes}


def action_from_form(form: MultiDict, names: dict[str, str]) -> dict:
    """The engine action (as JSON) a screen form describes; the engine checks the rest."""
    kind = form.get("kind", "")
    cls = rules.ACTIONS.get(kind)
    if cls is None:
        return {"kind": kind}
    if kind == "trade":
        return _trade(form, names)
    out: dict = {"kind": kind}
    if kind == "offer_help" and "target" in form:  # one select names the side and the card
        out["fighter"], _, out["reward"] = form["target"].partition("|")
    if kind in ("event_discard", "event_give") and "held" in form:
        # one select names the holder, the card and where it is: "<player>|<code>|play"
        holder, _, rest = form["held"].partition("|")
        out["player" if kind == "event_discard" else "giver"] = holder
        out["code"], _, place = rest.partition("|")
        out["in_play"] = place == "play"
    for f in fields(cls):
        if f.type.startswith("tuple"):
            out[f.name] = form.getlist(f.name)
        elif f.name in out or f.name not in form:
            continue
        elif f.type == "int":
            raw = form[f.name].strip()
            out[f.name] = int(raw) if _WHOLE.match(raw) else raw
        elif f.type == "bool":
            out[f.name] = form[f.name] in ("1", "true", "on", "yes")
        else:
            out[f.name] = form[f.name]
    return out


# The table screen -----------------------------------------------------------------------


def screen(game: games.service.Game, *, error: str | None = None, notice: str | None = None,
           q: str = "", whole: bool = False, typed: dict | None = None) -> dict:
    """Everything the castle templates need; the record's latest steps unless ``whole``;
    ``typed``, a refused form as it was sent, keeps its panel open and filled in."""
    view = data(get_db(), game)
    if typed and typed.get("kind") in ("draw", "event_draw"):
        q = q or typed.get("q", "")  # a refused search shows the cards it found
    rec = view.record(None if whole else RECORD_SHOWN)
    live = [r for r in rec if not r["undone"] and not r["undo"]]
    return {
        "g": game, "v": view, "s": view.state, "aw": view.awaiting, "q": q,
        "seats": view.seats(), "fight": view.fight(), "help": view.help_form(),
        "preparers": view.preparers(), "draws": view.draw_options(q),
        "challenges": view.challenges(), "classes": view.class_options(),
        "trade": view.trade_form(), "cleanup": view.cleanup(), "record": rec,
        "event": view.event_form(),
        "last": live[0] if live else None, "can_undo": bool(game.actions or game.unread),
        "latest": rec[0] if rec else None,  # what was just done (an undo too), shown first
        "headline": view.headline(), "allowed": view.allowed_now(),
        "banners": view.banners(), "error": error, "notice": notice,
        "whole": whole or len(game.history) <= RECORD_SHOWN, "max_level": MAX_LEVEL,
        "typed": typed or {},
    }


# After a plain form's write the page opens at the game, whose first line is that step.
SCREEN = GameScreen("underworld/show.html", "underworld/_screen.html", screen,
                lambda game, **kwargs: url_for("underworld.show", game_id=game.id,
                                               _anchor=f"underworld-{game.id}"),
                service.load)
respond = SCREEN.respond


def write_step(game_id: int, step):
    """Run one write: a refusal is 422 and a stale version 409, each with the fresh game.

    A refused tap leaves the window where it was (the screen's swap scrolls to the top):
    the refusal floats over the screen, so the controls stay under the thumb."""
    answer = SCREEN.write(game_id, step, stale=STALE,
                          refusal=lambda err, game: refusal(err, _names(game)),
                          refused={"typed": request.form.to_dict()})
    if is_htmx() and isinstance(answer, tuple) and answer[1] == 422:
        answer = make_response(answer)
        answer.headers["HX-Reswap"] = "outerHTML"
    return answer


# Routes: list, setup ----------------------------------------------------------------------


@bp.get("")
@referee_required
def index():
    """Every underworld game, newest first; ?player=<id> keeps that player's."""
    return list_page("underworld/index.html", service.listing, "games")


def setup_view(error: str | None = None, entered: MultiDict | None = None) -> dict:
    """The setup screen: chosen players in turn order, the search, decks, starting cards."""
    db = get_db()
    source = entered or request.args
    ids = []
    for raw in source.getlist("p"):
        number = whole(raw)
        if number is not None and number not in ids:
            ids.append(number)
    chosen = [r for r in (players.get(db, pid) for pid in ids[:6]) if r]
    q = request.args.get("q", "")
    taken = {r["id"] for r in chosen}
    candidates = ([r for r in players.search(db, q) if r["id"] not in taken]
                  if len(chosen) < 6 else [])
    castles, class_decks = service.decks("castle"), service.decks("class")
    castle = source.get("castle") or service.CASTLE_DECK
    deck = castles.get(castle) or next(iter(castles.values()), None)
    cards = service.distinct(e.card for e in deck.cards) if deck else []
    starts = {r["id"]: (source.getlist(f"start_{r['id']}") + [""] * INVENTORY)[:INVENTORY]
              for r in chosen}
    return {"chosen": chosen, "ids": [r["id"] for r in chosen], "q": q,
            "candidates": candidates, "castles": castles, "class_decks": class_decks,
            "castle": castle, "classes": source.get("classes") or service.CLASS_DECK,
            "passport": bool(source.get("passport")), "title": source.get("title", ""),
            "starts": starts, "cards": cards, "error": error,
            "seats_min": MIN_SEATS, "seats_max": MAX_SEATS, "inventory": INVENTORY}


@bp.get("/new")
@referee_required
def new():
    """Pick 2–6 players, the decks, each player's 4 starting cards, passport levels or not."""
    view = setup_view()
    if is_htmx() and request.headers.get("HX-Target") == "underworld-candidates":
        return render_template("underworld/_candidates.html", **view)
    return render_template("underworld/new.html", **view)


@bp.post("")
@once_form("underworld", game_target("underworld.show"),
           N_("This castle game was already started: here it is."))
def create():
    """Start the game; a refusal re-shows the setup (422) and nothing is stored."""
    form = request.form
    ids = [n for n in map(whole, form.getlist("p")) if n is not None]
    wanted = {
        "players": ids, "castle": form.get("castle", ""), "classes": form.get("classes", ""),
        "starting": {str(pid): form.getlist(f"start_{pid}") for pid in ids},
        "passport_levels": bool(form.get("passport")), "title": form.get("title", ""),
    }
    try:
        game = service.create(get_db(), signed_in()["id"], wanted)
    except RuleError as err:
        return render_template("underworld/new.html",
                               **setup_view(rule_message(err), form)), 422
    return redirect(url_for("underworld.show", game_id=game.id), code=303)


# Routes: the table -----------------------------------------------------------------------


@bp.get("/<int:game_id>")
@referee_required
def show(game_id: int):
    """The game as it stands in the database: whose turn, what is allowed, the record."""
    return respond(SCREEN.found(game_id), q=request.args.get("q", ""),
                   whole=request.args.get("record") == "all")


@bp.get("/<int:game_id>/cards")
@referee_required
def cards(game_id: int):
    """The drawn-card picker, filtered by code or name (changes nothing)."""
    game, q = SCREEN.found(game_id), request.args.get("q", "")
    view = data(get_db(), game)
    return render_template("underworld/_pick.html", g=game, q=q,
                           draws=view.draw_options(q))


def drawn_code(game: games.service.Game, typed: str) -> str:
    """U5: the castle card the search finds, of those that can be drawn now; a refusal
    when it finds none or several (an exact code finds its card alone: "m1" is M01)."""
    options = [c["card"] for group in data(get_db(), game).draw_options()
               for c in group["cards"]]
    card, found = search.the_card(options, typed)
    text = typed.strip()[:40]
    if card is not None:
        return card.code
    if not text:
        raise RuleError("U5", N_("Type the drawn card's code or a part of its name, then "
                                 "Enter."))
    if not found:
        raise RuleError("U5", N_("No card left in the castle matches “%(text)s”; type a code "
                                 "such as M07 or a part of a name."), text=text)
    raise RuleError("U5", N_("“%(text)s” matches %(codes)s: tap the card drawn."),
                    text=text, codes=", ".join(c.code for c in found[:8]))


@bp.post("/<int:game_id>/act")
def act(game_id: int):
    """Apply one action made against the version on screen, or refuse it with the rule."""
    referee = signed_in()

    def step(game: games.service.Game) -> games.service.Game:
        action = action_from_form(request.form, _names(game))
        if action["kind"] in ("draw", "event_draw") and "code" not in request.form \
                and "q" in request.form:
            action["code"] = drawn_code(game, request.form["q"])  # Enter in the search
        if isinstance(action.get("card"), str):  # a typed card code: "m7" is M07
            typed = action["card"]
            action["card"] = next((c.code for c in game.state_as(service.Table).state.cards
                                   if service.same_code(c.code, typed)), typed)
        return games.service.act(get_db(), referee["id"], service.KIND, game_id, action,
                                 form_version())

    return write_step(game_id, step)


@bp.post("/<int:game_id>/undo")
def undo(game_id: int):
    """Take back the latest action (and the levels it moved on the passports)."""
    referee = signed_in()
    return write_step(game_id, lambda game: games.service.undo(get_db(), referee["id"],
                                                               service.KIND, game_id,
                                                               form_version()))


# Routes: quick fight ---------------------------------------------------------------------


def quick_view(player_id: int | None, **extra) -> dict:
    db = get_db()
    player = players.get(db, player_id) if player_id else None
    q = request.args.get("q", "")
    view = {"player": player, "q": q,
            "candidates": [] if player else players.search(db, q),
            "bonuses": "", "strength": "", "result": None, "error": None, "notice": None}
    view.update(extra)
    return view


def _result_args() -> dict | None:
    args = request.args
    if args.get("outcome") not in ("win", "loss", "draw"):
        return None
    numbers = {k: args.get(k, type=whole_arg) for k in ("mine", "theirs", "before", "after")}
    if None in numbers.values():
        return None
    return {"outcome": args["outcome"], **numbers, "event": args.get("event", type=whole_arg)}


@bp.get("/quick")
@referee_required
def quick():
    """A fight from numbers alone (U7–U8) on a registry player's level."""
    view = quick_view(request.args.get("player", type=whole_arg), result=_result_args())
    if request.args.get("undone"):
        view["notice"] = gettext("The quick fight was undone: the level is back.")
    return render_template("underworld/quick.html", **view)


@bp.post("/quick/preview")
def quick_preview():
    """What the quick fight would do, before it is settled (changes nothing)."""
    form = request.form
    preview, error = None, None
    if form.get("strength", "").strip():
        try:
            preview = service.preview_quick(get_db(), form.get("player", type=whole_arg),
                                            form.get("bonuses", ""), form.get("strength"))
        except RuleError as err:
            error = rule_message(err)
    return render_template("underworld/_quick_preview.html", preview=preview,
                           error=error)


@bp.post("/quick")
def quick_settle():
    """Settle the quick fight: the level moves as one event on the sheet (undoable)."""
    form = request.form
    player_id = form.get("player", type=whole_arg)
    keep = {"bonuses": form.get("bonuses", ""), "strength": form.get("strength", "")}
    fight = note(service.QUICK_REASON, bonuses=keep["bonuses"].strip() or "0",
                 strength=keep["strength"].strip())
    try:
        done = service.quick_fight(get_db(), signed_in()["id"], player_id,
                                   form.get("bonuses", ""), form.get("strength", ""),
                                   form_version(), fight)
    except Conflict as err:
        view = quick_view(player_id, **keep,
                          notice=gettext(STALE_LEVEL, player=err.fresh["character"]))
        return render_template("underworld/quick.html", **view), 409
    except RuleError as err:
        view = quick_view(player_id, **keep, error=rule_message(err))
        return render_template("underworld/quick.html", **view), 422
    r = done.fight
    return redirect(url_for("underworld.quick", player=player_id, outcome=r.outcome,
                            mine=r.player_score, theirs=r.monster_score,
                            before=r.level_before, after=r.level, event=done.event_id),
                    code=303)


@bp.post("/quick/undo")
def quick_undo():
    """Take back a quick fight's level change (a compensating event on the sheet)."""
    player_id = request.form.get("player", type=whole_arg)
    try:
        referee.players.service.undo(get_db(), signed_in()["id"],
                                     request.form.get("event", type=whole_arg) or 0)
    except RuleError as err:
        return render_template("underworld/quick.html",
                               **quick_view(player_id, error=rule_message(err))), 422
    return redirect(url_for("underworld.quick", player=player_id, undone=1), code=303)
