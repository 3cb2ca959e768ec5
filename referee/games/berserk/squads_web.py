"""The squad builder: pick cards from a deck file with live crystal counts (B12), the
element penalty (B13) and the limits (B14); refusals with their reasons; save for a player.
Once the player has registered a deck, only its cards are offered, as many as it holds."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, redirect, request, session, url_for
from flask_babel import gettext

from referee.decks import search
from referee.games.berserk import registered, rules, squads
from referee.games.berserk.documents_web import Editor, deck_files, found_refusal
from referee.games.berserk.game import changed_settings
from referee.games.berserk.rules.deck import BEYOND_HELD, NOT_HELD
from referee.games.berserk.view import localized
from referee.games.berserk.web import settings_or_error
from referee.games.berserk.words import SQUAD_STALE
from referee.rules import N_, RuleError, whole, whole_arg
from referee.store import players
from referee.web.context import get_db, signed_in
from referee.web.once import once_form, row_target
from referee.web.screens import form_version, list_page
from referee.web.security import referee_required

bp = Blueprint("berserk_squads", __name__, url_prefix="/berserk/squads")


def draft_from_form() -> dict:
    """The squad the builder form holds (not stored yet)."""
    form = request.form
    return {"squad_id": whole(form.get("squad_id")), "version": form_version(),
            "player_id": whole(form.get("player")), "name": form.get("name", ""),
            "deck": form.get("deck", ""), "seat": form.get("seat", "first"),
            "tokens": form.getlist("card"), "deck_was": form.get("deck_was", ""),
            "q": form.get("q", "")[:60]}


def draft_of(squad: dict) -> dict:
    """A stored squad as the builder's draft."""
    return {"squad_id": squad["id"], "version": squad["version"],
            "player_id": squad["player_id"], "name": squad["name"], "deck": squad["deck"],
            "seat": squad["seat"], "tokens": [p.token for p in squads.picks(squad)],
            "deck_was": squad["deck"], "q": ""}


HINTS = {
    "elite": N_("needs gold"),
    "crystals": N_("too few crystals"),
    "penalty": N_("element penalty"),
    "flyers": N_("flyer limit"),
    "copies": N_("copies limit"),
    "held": N_("all copies in the squad"),
    "not_held": N_("not in the deck"),
    "other": N_("not allowed"),
}


def hint_of(err: RuleError) -> str:
    """Which limit a card would break, in two words (B12–B14)."""
    params = set(err.params)
    if err.rule == "B12":
        key = "elite" if "gold" in params else "crystals"
    elif err.rule == "B13":
        key = "penalty"
    elif err.message == BEYOND_HELD:
        key = "held"
    elif err.message == NOT_HELD:
        key = "not_held"
    elif err.rule == "B14":
        key = "copies" if "count" in params else "flyers"
    else:
        key = "other"
    return gettext(HINTS[key])


def builder(draft: dict, *, settings: rules.Settings | None = None,
            refusal: str | None = None, error: str | None = None,
            notice: str | None = None, add: tuple[str, int | None] | None = None,
            remove: str | None = None,
            find: Callable[[str], int | None] | None = None) -> tuple[dict, bool]:
    """Everything the builder shows; applies one add or remove first. The flag says
    whether that add was refused (the picks then stay as they were). ``find``: add the
    one card the search finds (the search's text is the draft's ``q``), with the X the
    function reads for it."""
    db = get_db()
    decks = deck_files()
    # B14: once the player has registered a deck, the squad is hired from it. A saved
    # squad built from another deck file is shown as it is, with that problem.
    hired_from = registered.of_player(db, draft["player_id"])
    held = registered.held(hired_from) if hired_from else None
    kept = draft["squad_id"] and draft["deck"] == draft["deck_was"]
    if hired_from is not None and hired_from["deck"] in decks and not kept \
            and draft["deck"] != hired_from["deck"]:
        if draft["deck_was"] and draft["deck_was"] != hired_from["deck"] and draft["tokens"]:
            notice = gettext("%(player)s has registered a deck of %(deck)s cards: the squad "
                             "is hired from it (B14) and starts empty.",
                             player=hired_from["character"], deck=hired_from["deck"])
        draft = {**draft, "deck": hired_from["deck"], "deck_was": "",
                 "tokens": [] if draft["deck_was"] else draft["tokens"]}
    deck = decks.get(draft["deck"]) or next(iter(decks.values()))
    choices = decks if hired_from is None else {
        name: d for name, d in decks.items() if name in (hired_from["deck"], deck.name)}
    settings = settings or rules.PUBLISHED
    seat = draft["seat"] if draft["seat"] in squads.SEATS else "first"
    refused = False
    try:
        picks = squads.picks_from_tokens(draft["tokens"])
        if draft["deck_was"] and draft["deck_was"] != deck.name:
            picks, notice = (), gettext("Another deck was chosen: the squad starts empty.")
        squads.cards_of(deck, picks)
    except RuleError as err:
        picks, error = (), localized(err)
    q = draft.get("q", "")
    offered = [e.card for e in deck.cards if held is None or held.get(e.code)]
    shown = {c.code for c in search.find_cards(offered, q)} if q.strip() else None
    if find is not None and q.strip():  # Enter in a blank search only counts again
        card, found = search.the_card(offered, q)
        if card is None:
            refusal, refused = found_refusal(q, found), True
        else:
            try:
                add = (card.code, find(card.code))
            except RuleError as err:
                refusal, refused = localized(err), True
    if add is not None:
        try:
            picks = squads.add(deck, picks, squads.Pick(*add), settings, seat, hired_from)
        except RuleError as err:
            refusal, refused = localized(err), True
    if remove is not None:
        picks = squads.remove(picks, remove)
    summary = squads.summary(deck, picks, settings, seat)
    hired = registered.hire_problems(hired_from, deck.name, squads.cards_of(deck, picks))
    counts = squads.counts(picks)
    rows = []
    for entry in deck.cards:
        if held is not None and not held.get(entry.code) and not counts.get(entry.code):
            continue  # B14: only the cards the registered deck holds
        hint = None
        try:
            squads.add(deck, picks, squads.Pick(entry.code, 0 if entry.card.variable_cost
                                                  else None), settings, seat, hired_from)
        except RuleError as err:
            hint = hint_of(err)  # a short mark; the whole reason shows when it is tapped
        xs = [p.x for p in picks if p.code == entry.code and p.x is not None]
        rows.append({"entry": entry, "card": entry.card, "count": counts.get(entry.code, 0),
                     "hint": hint, "xs": xs, "shown": shown is None or entry.code in shown,
                     "held": held.get(entry.code, 0) if held is not None else None})
    squad = squads.get(db, draft["squad_id"]) if draft["squad_id"] else None
    player = players.get(db, draft["player_id"]) if draft["player_id"] else None
    view = {
        "draft": {**draft, "seat": seat, "deck": deck.name}, "squad": squad, "player": player,
        "players": players.search(db, "") if squad is None else [],
        "decks": choices, "deck": deck, "picks": picks, "rows": rows, "summary": summary,
        "problems": [localized(p) for p in summary.problems + hired],
        "hired_from": hired_from,
        "unregistered": gettext("%(player)s has registered no deck: this squad is not checked "
                                "against one (B14).", player=player["character"])
        if player and hired_from is None else None,
        "settings": settings, "settings_open": bool(changed_settings(settings)),
        "refusal": refusal, "error": error, "notice": notice,
        "crystals": {s: settings.crystals(s == "first") for s in squads.SEATS},
        "edits": squads.edits(db, squad["id"]) if squad else [],
    }
    return view, refused


EDITOR = Editor(squads.STORE, "berserk/squad.html", "berserk/_builder.html", builder,
                draft_of, SQUAD_STALE)


# Routes --------------------------------------------------------------------------------


@bp.get("")
@referee_required
def index():
    """Saved squads, newest first; ?player=<id> keeps that player's."""
    db = get_db()
    return list_page("berserk/squads.html", squads.listing, "squads",
                     problems=lambda listed: {s["id"]: squads.problems_of(s, db)
                                              for s in listed},
                     unregistered=lambda listed: {
                         s["player_id"] for s in listed
                         if registered.of_player(db, s["player_id"]) is None})


@bp.get("/new")
@referee_required
def new():
    """An empty builder, for the player given by ?player=<id> if any."""
    draft = {"squad_id": None, "version": None,
             "player_id": request.args.get("player", type=whole_arg),
             "name": "", "deck": request.args.get("deck", ""), "seat": "first", "tokens": [],
             "deck_was": "", "q": ""}
    return EDITOR.page(builder(draft)[0])


@bp.post("/build")
def build():
    """Add (``plus``) or remove (``minus``) one card, or recount after a change of seat,
    deck or numbers.
    Nothing is stored; a refused card comes back as 422 with its reason."""
    draft = draft_from_form()
    settings, error = settings_or_error()
    add = remove = find = None
    if request.form.get("plus"):
        code = request.form["plus"]
        try:
            add = (code, typed_x(code))
        except RuleError as err:
            view, _ = builder(draft, settings=settings, refusal=localized(err))
            return EDITOR.form(view, 422)
    elif request.form.get("minus"):
        remove = request.form["minus"]
    elif request.form.get("find"):
        find = typed_x  # Enter in the card search
    view, refused = builder(draft, settings=settings, error=error, add=add, remove=remove,
                            find=find)
    return EDITOR.form(view, 422 if refused or error else 200)


def typed_x(code: str) -> int | None:
    """The X typed for the next copy of a cost-X card (B2); None when left blank."""
    raw_x = request.form.get(f"x_{code}", "").strip()
    return squads.picks_from_tokens([f"{code}:{raw_x}"])[0].x if raw_x else None


def _save(squad_id: int | None):
    draft = draft_from_form()

    def store(settings: rules.Settings) -> dict:
        if draft["player_id"] is None:
            raise RuleError(None, N_("Choose the player this squad is for."))
        return squads.save(get_db(), signed_in()["id"], squad_id,
                           player_id=draft["player_id"], name=draft["name"],
                           deck=draft["deck"], seat=draft["seat"],
                           chosen=squads.picks_from_tokens(draft["tokens"]),
                           settings=settings, version=draft["version"])

    def shown(squad: dict):
        # The squad's page says it was saved once, after this redirect (not on a reload).
        session["saved_squad"] = squad["id"]
        return redirect(url_for("berserk_squads.show", squad_id=squad["id"]), code=303)

    return EDITOR.save(draft, store, shown)


@bp.post("")
@once_form("squads", row_target("berserk_squads.show", "squad_id",
                                "berserk_squads.index"),
           N_("This squad was already saved: here it is."))
def create():
    """Save a new squad for its player; refused unless it keeps B12–B14."""
    return _save(None)


@bp.get("/<int:squad_id>")
@referee_required
def show(squad_id: int):
    """A saved squad in the builder, with every save (who and when)."""
    squad = EDITOR.stored(squad_id)
    saved = session.pop("saved_squad", None) == squad_id
    return EDITOR.show(squad, notice=gettext("The squad is saved.") if saved else None)


@bp.post("/<int:squad_id>")
def update(squad_id: int):
    """Save a change of the squad made against the version the form was opened at."""
    EDITOR.stored(squad_id)
    return _save(squad_id)

