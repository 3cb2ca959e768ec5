"""Berserk-style battles on the phone: two squads in play, strikes from dice, changes
of properties with their history, the record and undo (B1–B14)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext

import referee.games.service  # noqa: F401  (games.service: the views hold act and undo)
from referee import games
from referee.games.berserk import rules, service, squads
from referee.games.berserk.rules import (
    AddLives,
    BecomeElement,
    Element,
    EndEffects,
    GainElement,
    Halve,
    LoseElement,
    Overwrite,
    SimpleStrike,
    Tap,
    Untap,
    Wound,
)
from referee.games.berserk.view import (
    HALVABLE,
    MOD_OPS,
    card_name,
    card_text,
    localized,
    mod_dict,
    screen,
    strike_of,
    words,
)
from referee.games.berserk.words import STALE
from referee.rules import N_, RuleError, whole, whole_arg
from referee.web.context import get_db, signed_in
from referee.web.once import game_target, once_form
from referee.web.screens import GameScreen, form_version, is_htmx, list_page
from referee.web.security import referee_required

bp = Blueprint("berserk", __name__, url_prefix="/berserk")
bp.add_app_template_global(card_name, "berserk_name")
bp.add_app_template_global(card_text, "berserk_text")
bp.add_app_template_global(words, "berserk_words")
bp.add_app_template_global(mod_dict, "berserk_mod")

NEED_VALUE = N_("Enter a whole number for this change, such as 3 or -2.")


def settings_from_form() -> rules.Settings:
    """The rules numbers a setup form sends (fields ``s_<name>``); others stay published."""
    values = {key: request.form[f"s_{key}"].strip() for key in service.SETTING_RULE
              if f"s_{key}" in request.form}
    return service.read_settings(values, strict=False)


def settings_or_error() -> tuple[rules.Settings, str | None]:
    """The form's rules numbers, or the published ones with the sentence refusing them."""
    try:
        return settings_from_form(), None
    except RuleError as err:
        return rules.PUBLISHED, localized(err)


# The strike panel (B11) ----------------------------------------------------------------


def strike_picks() -> dict:
    """What the strike form holds so far."""
    form = request.form
    # (Fields named "target" or "action" would hide the form's own properties in a browser.)
    picks = {k: form.get(k, "").strip() for k in ("a_die", "d_die", "a_mod", "d_mod", "s_mod",
                                                 "n_mod")}
    picks.update(attacker=form.get("attacker_id", "").strip(),
                 target=form.get("target_id", "").strip())
    return picks


def _url(game: games.service.Game, open_id: str | None = None, **kwargs) -> str:
    # The top of the page, where the result of the step is shown: no anchor
    # down to the creature, which stays open all the same.
    return url_for("berserk.show", game_id=game.id, c=open_id)


SCREEN = GameScreen("berserk/show.html", "berserk/_screen.html", screen, _url, service.load)
respond = SCREEN.respond


def write_step(game_id: int, make_action, open_id: str | None = None,
               picks: dict | None = None, wounds: str | None = None):
    """Apply one action (or undo): refusals are 422 and stale forms 409, with the screen."""
    referee = signed_in()

    def step(game: games.service.Game) -> games.service.Game:
        action = make_action()
        if action is None:
            return games.service.undo(get_db(), referee["id"], service.KIND, game_id,
                                      form_version())
        return games.service.act(get_db(), referee["id"], service.KIND, game_id, action,
                                 form_version())

    response = SCREEN.write(game_id, step, stale=STALE,
                            refusal=lambda err, game: localized(err),
                            refused={"picks": picks, "wounds": wounds}, open_id=open_id)
    if is_htmx() and isinstance(response, tuple) and response[1] == 422:
        # A refusal floats over the screen and the page stays where it was, so the
        # controls stay under the thumb; only a step that was written goes to the top.
        return response[0], 422, {"HX-Reswap": "outerHTML"}
    return response


# Routes -----------------------------------------------------------------------------


@bp.get("")
@referee_required
def index():
    """Every battle, newest first; ?player=<id> keeps that player's."""
    return list_page("berserk/index.html", service.listing, "battles")


def new_view(a: int | None, b: int | None, error: str | None = None,
             settings: rules.Settings | None = None) -> dict:
    """The setup: squad A, then squad B, then the rules numbers and the start."""
    db = get_db()
    listed = squads.listing(db)
    by_id = {s["id"]: s for s in listed}
    chosen = {"a": by_id.get(a), "b": by_id.get(b)}
    slot = "a" if chosen["a"] is None else "b" if chosen["b"] is None else None
    if settings is None:
        # The first squad's numbers are the event's numbers it was built with.
        base = chosen["a"]["settings"] if chosen["a"] else None
        try:
            settings = service.read_settings(base)
        except RuleError:
            settings = rules.PUBLISHED
    taken = {s["player_id"] for s in chosen.values() if s}
    candidates = [s for s in listed if s["player_id"] not in taken] if slot else []
    problems = {s["id"]: squads.problems_of(s, db) for s in candidates}  # B12–B14
    ids = {k: s["id"] if s else None for k, s in chosen.items()}
    return {"chosen": chosen, "ids": ids, "slot": slot, "squads": candidates,
            "problems": problems, "settings": settings, "error": error,
            "settings_open": bool(service.changed_settings(settings))}


@bp.get("/new")
@referee_required
def new():
    """Choose two saved squads and the rules numbers (published by default); start."""
    return render_template("berserk/new.html", **new_view(request.args.get("a", type=whole_arg),
                                                          request.args.get("b", type=whole_arg)))


@bp.post("")
@once_form("berserk", game_target("berserk.show"),
           N_("This battle was already started: here it is."))
def create():
    """Start the battle: both squads are checked against the settings first (B12–B14)."""
    a, b = request.form.get("a", type=whole_arg), request.form.get("b", type=whole_arg)
    settings = None
    try:
        settings = settings_from_form()
        game = service.create(get_db(), signed_in()["id"], a, b, settings)
    except RuleError as err:
        view = new_view(a, b, error=localized(err), settings=settings)
        return render_template("berserk/new.html", **view), 422
    return redirect(url_for("berserk.show", game_id=game.id), code=303)


@bp.get("/<int:game_id>")
@referee_required
def show(game_id: int):
    """The battle as it stands in the database."""
    return respond(SCREEN.found(game_id), open_id=request.args.get("c"))


@bp.post("/<int:game_id>/strike/preview")
def preview(game_id: int):
    """The strike panel for what is tapped so far: both outcomes, nothing stored."""
    game = SCREEN.found(game_id)
    version = form_version()
    if version is not None and version != game.version:
        response = respond(game, 409, notice=gettext(STALE))
        if is_htmx():
            body, status = response
            return body, status, {"HX-Retarget": f"#battle-{game.id}",
                                  "HX-Reswap": "outerHTML"}
        return response
    view = screen(game, picks=strike_picks())
    if request.headers.get("HX-Target") == f"strike-{game.id}":
        return render_template("berserk/_strike.html", **view)
    if is_htmx():
        return render_template("berserk/_screen.html", **view)
    return render_template("berserk/show.html", **view)


@bp.post("/<int:game_id>/strike")
def strike(game_id: int):
    """Confirm the strike as rolled or, in an exchange, lowered (B11); wounds at once."""
    picks = strike_picks()
    lower = request.form.get("lower") == "1"
    return write_step(game_id,
                      lambda: strike_of(picks, SCREEN.found(game_id).state, lower),
                      picks=picks)


ELEMENT_CHANGES: dict[str, type[GainElement | BecomeElement | LoseElement]] = {
    "gain": GainElement, "become": BecomeElement, "lose": LoseElement}


def _wholes(parts: list[str]) -> list[int] | None:
    """The whole numbers typed, or None when one of them is not one."""
    numbers = [whole(p) for p in parts]
    return [n for n in numbers if n is not None] if None not in numbers else None


def modification_of(form) -> rules.Modification:
    """The modification the creature form describes (B6, B9)."""
    op = form.get("op", "")
    source = form.get("source", "").strip()
    value = form.get("value", "").strip().replace("−", "-").replace("–", "-")
    if op in ("gain", "become", "lose"):
        try:
            element = Element(form.get("element", ""))
        except ValueError:
            raise RuleError("B9", N_("Choose the element first.")) from None
        return ELEMENT_CHANGES[op](element, source)
    if op == "halve":
        props = tuple(p for p in HALVABLE if p in form.getlist("halve"))
        if not props:
            raise RuleError("B6", N_("Tick what is halved: lives, strike, cost or movement."))
        return Halve(props, form.get("round", "up") != "down", source)
    if op in ("set_strike", "set_base"):
        parts = [p for p in value.replace(",", " ").replace("-", " ").replace("/", " ").split()
                 if p]
        numbers = _wholes(parts)
        if op == "set_strike":
            if numbers is None or len(numbers) != 3:
                raise RuleError("B5", N_("Enter the new strike as three numbers X-Y-Z, such as "
                                         "1-1-1."))
            return Overwrite(strike=SimpleStrike(*numbers), source=source)
        # B6: one effect overwrites all three at once, as the seed's "1, 1 and 1-1-1"
        if numbers is None or len(numbers) not in (4, 5):
            raise RuleError("B6", N_("Enter lives, movement and strike, such as 1, 1, 1-1-1 "
                                     "(for a flyer or a symbiote lives and strike, such as 1, "
                                     "1-1-1)."))
        movement = numbers[1] if len(numbers) == 5 else None
        return Overwrite(lives=numbers[0], movement=movement,
                         strike=SimpleStrike(*numbers[-3:]), source=source)
    if op not in MOD_OPS:
        raise RuleError("B6", N_("Choose what changes from the list."))
    try:
        number = int(value.replace("+", ""))
    except ValueError:
        raise RuleError("B6", NEED_VALUE) from None
    if op == "lives":
        return AddLives(number, source)
    changed: dict[str, Any] = {op.removeprefix("set_"): number}  # lives, cost or movement
    return Overwrite(**changed, source=source)


@bp.post("/<int:game_id>/creatures/<cid>/modify")
def modify(game_id: int, cid: str):
    """Apply one change of properties or elements to a creature (B6, B9)."""
    return write_step(game_id, lambda: rules.Modify(cid, modification_of(request.form)),
                      open_id=cid)


@bp.post("/<int:game_id>/creatures/<cid>/act")
def act(game_id: int, cid: str):
    """Wounds from an ability (B10), tap, open, or end one source's effects (B7)."""
    form = request.form

    def action():
        do = form.get("do", "")
        if do == "wound":
            try:
                amount = int(form.get("amount", "").strip())
            except ValueError:
                raise RuleError("B10", NEED_VALUE) from None
            return Wound(cid, amount)
        if do == "tap":
            return Tap(cid)
        if do == "untap":
            return Untap(cid)
        if do == "end_effects":
            return EndEffects(cid, form.get("source", ""))
        raise RuleError(None, N_("Choose wounds, tap, open or the end of a source's effects."))

    typed = form.get("amount", "")[:2] if form.get("do") == "wound" else None
    return write_step(game_id, action, open_id=cid, wounds=typed)


@bp.post("/<int:game_id>/undo")
def undo(game_id: int):
    """Take back the latest action that counts (an undo row is appended)."""
    return write_step(game_id, lambda: None)
