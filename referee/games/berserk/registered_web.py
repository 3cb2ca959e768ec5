"""Registering a player's deck (B14), as a judge checks a decklist: pick one deck file,
count each card with big − and + buttons (or type the count), see 30–50 cards, copies and
unique cards checked live, and save it for the player. The player's squads are then hired
from it."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for
from flask_babel import gettext

from referee.decks import search
from referee.games.berserk import files, registered, rules, squads
from referee.games.berserk.documents_web import Editor, deck_files, found_refusal
from referee.games.berserk.game import changed_settings
from referee.games.berserk.rules.deck import TOO_FEW, TOO_MANY
from referee.games.berserk.rules.squad import UNIQUE_COPIES
from referee.games.berserk.view import localized
from referee.games.berserk.web import settings_or_error
from referee.games.berserk.words import DECK_STALE
from referee.rules import N_, RuleError, whole, whole_arg
from referee.store import players
from referee.web.context import get_db, signed_in
from referee.web.once import once_form, row_target
from referee.web.screens import form_version, list_page
from referee.web.security import referee_required

bp = Blueprint("berserk_decks", __name__, url_prefix="/berserk/registered-decks")

HINTS = {
    "copies": N_("copies limit"),
    "unique": N_("unique card"),
    "size": N_("deck is full"),
}


def draft_from_form() -> dict:
    """The deck the registration form holds (not stored yet)."""
    form = request.form
    return {"deck_id": whole(form.get("deck_id")), "version": form_version(),
            "player_id": whole(form.get("player")), "name": form.get("name", ""),
            "deck": form.get("deck", ""), "deck_was": form.get("deck_was", ""),
            "q": form.get("q", "")[:60], "form": form}


def draft_of(row: dict) -> dict:
    """A stored registered deck as the form's draft."""
    return {"deck_id": row["id"], "version": row["version"], "player_id": row["player_id"],
            "name": row["name"], "deck": row["deck"], "deck_was": row["deck"], "q": "",
            "counts": registered.held(row)}


def hint_of(err: RuleError) -> str:
    """Which B14 limit one more copy would break, in two words."""
    if err.message == TOO_MANY:
        return gettext(HINTS["size"])
    return gettext(HINTS["unique" if err.message == UNIQUE_COPIES else "copies"])


def _key(problem: RuleError) -> tuple:
    return problem.rule, problem.message, tuple(sorted(problem.params.items()))


def added(deck, counts: dict, code: str, settings: rules.Settings) -> RuleError | None:
    """The B14 refusal one more copy of ``code`` brings (a copy limit, or the deck's top
    size), None when it may be added. Too few cards is no reason to refuse a card, and a
    problem that stays exactly as it was is not this copy's doing."""
    more = {**counts, code: counts.get(code, 0) + 1}
    before = {_key(p) for p in registered.summary(deck, counts, settings).problems}
    for problem in registered.summary(deck, more, settings).problems:
        if _key(problem) in before or problem.message == TOO_FEW:
            continue
        if problem.params.get("card", code) == code:
            return problem
    return None


def form_view(draft: dict, *, settings: rules.Settings | None = None,
              refusal: str | None = None, error: str | None = None,
              notice: str | None = None) -> tuple[dict, bool]:
    """Everything the registration form shows; applies one + or − first. The flag says
    whether that + was refused (the counts then stay as they were)."""
    db = get_db()
    decks = deck_files()
    deck = decks.get(draft["deck"]) or next(iter(decks.values()))
    settings = settings or rules.PUBLISHED
    refused = False
    counts = {e.code: 0 for e in deck.cards}
    try:
        if "counts" in draft:
            counts.update(draft["counts"])
        elif draft["deck_was"] and draft["deck_was"] != deck.name:
            notice = gettext("Another deck file was chosen: the counts start again from "
                             "nothing.")
        elif draft["deck_was"]:
            counts = registered.counts_from_form(draft["form"], deck)
        registered.cards_of(deck, counts)
    except RuleError as err:
        counts, error = {e.code: 0 for e in deck.cards}, localized(err)
    form = draft.get("form") or {}
    q = draft.get("q", "")
    plus = form.get("plus")
    if not plus and form.get("find") and q.strip():  # Enter in the card search
        card, found = search.the_card([e.card for e in deck.cards], q)
        plus = card.code if card else None
        if card is None:
            refusal, refused = found_refusal(q, found), True
    if plus in counts:
        problem = added(deck, counts, plus, settings)
        if problem is None:
            counts[plus] += 1
        else:
            refusal, refused = localized(problem), True
    elif form.get("minus") in counts and counts[form["minus"]] > 0:
        counts[form["minus"]] -= 1
    summary = registered.summary(deck, counts, settings)
    problems = [localized(p) for p in summary.problems]
    if error in problems:
        error = None  # it stands in the bar of counts already
    shown = {c.code for c in search.find_cards([e.card for e in deck.cards], q)} \
        if q.strip() else None
    rows = []
    for entry in deck.cards:
        problem = added(deck, counts, entry.code, settings)
        rows.append({"entry": entry, "card": entry.card, "count": counts[entry.code],
                     "hint": hint_of(problem) if problem else None,
                     "shown": shown is None or entry.code in shown})
    row = registered.get(db, draft["deck_id"]) if draft["deck_id"] else None
    player = players.get(db, draft["player_id"]) if draft["player_id"] else None
    owned = squads.listing(db, row["player_id"]) if row else []
    view = {
        "draft": {**draft, "deck": deck.name}, "registered": row, "player": player,
        "players": players.search(db, "") if row is None else [],
        "decks": decks, "deck": deck, "rows": rows, "summary": summary,
        "problems": problems,
        "settings": settings, "settings_open": bool(changed_settings(settings)),
        "refusal": refusal, "error": error, "notice": notice,
        "edits": registered.edits(db, row["id"]) if row else [],
        "squads": owned,
    }
    if row:
        view["squad_problems"] = {s["id"]: [localized(p) for p in squads.hire_problems(db, s)]
                                  for s in owned}
    return view, refused


EDITOR = Editor(registered.STORE, "berserk/registered.html", "berserk/_register.html",
                form_view, draft_of, DECK_STALE)


# Routes --------------------------------------------------------------------------------


@bp.get("")
@referee_required
def index():
    """Registered decks, newest first; ?player=<id> keeps that player's."""
    return list_page("berserk/registered_list.html", registered.listing, "decks",
                     problems=lambda listed: {d["id"]: registered.problems_of(d)
                                              for d in listed})


@bp.get("/new")
@referee_required
def new():
    """An empty registration, for the player given by ?player=<id> if any (a player who
    has registered a deck already is shown theirs)."""
    player_id = request.args.get("player", type=whole_arg)
    mine = registered.of_player(get_db(), player_id)
    if mine is not None:
        return redirect(url_for("berserk_decks.show", deck_id=mine["id"]))
    draft = {"deck_id": None, "version": None, "player_id": player_id, "name": "",
             "deck": request.args.get("deck", ""), "deck_was": "", "q": "", "counts": {}}
    return EDITOR.page(form_view(draft)[0])


@bp.post("/build")
def build():
    """One copy more (``plus``) or fewer (``minus``), or a recount after a typed count or
    a change of deck file or numbers. Nothing is stored; a refused copy is 422."""
    settings, error = settings_or_error()
    view, refused = form_view(draft_from_form(), settings=settings, error=error)
    return EDITOR.form(view, 422 if refused or error or view["error"] else 200)


def _save(deck_id: int | None):
    draft = draft_from_form()

    def store(settings: rules.Settings) -> dict:
        if draft["player_id"] is None and deck_id is None:
            raise RuleError(None, N_("Choose the player whose deck this is."))
        deck = files.deck(draft["deck"])
        counts = registered.counts_from_form(request.form, deck)
        if draft["deck_was"] and draft["deck_was"] != deck.name:
            counts = {}
        return registered.save(get_db(), signed_in()["id"], deck_id,
                               player_id=draft["player_id"], name=draft["name"],
                               deck=deck.name, counts=counts, settings=settings,
                               version=draft["version"])

    return EDITOR.save(draft, store, lambda row: redirect(
        url_for("berserk_decks.show", deck_id=row["id"]), code=303))


@bp.post("")
@once_form("decks", row_target("berserk_decks.show", "deck_id", "berserk_decks.index"),
           N_("This deck was already registered: here it is."))
def create():
    """Register a player's deck; refused unless it keeps B14."""
    return _save(None)


@bp.get("/<int:deck_id>")
@referee_required
def show(deck_id: int):
    """A registered deck in the form, with every save (who and when) and the player's
    squads checked against it."""
    return EDITOR.show(EDITOR.stored(deck_id))


@bp.post("/<int:deck_id>")
def update(deck_id: int):
    """Save a change of the deck made against the version the form was opened at."""
    EDITOR.stored(deck_id)
    return _save(deck_id)
