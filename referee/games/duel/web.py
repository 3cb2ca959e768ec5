"""The duel screens: pick two players, tap each round's cards, D12, the record, undo."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Blueprint, redirect, render_template, request, session, url_for
from flask_babel import gettext
from sqlite_utils import Database

from referee.games.duel import rules, service
from referee.games.duel.rules import DuelState, Extension, Play, Round, model
from referee.games.duel.words import STALE_OTHER, STALE_ROUND
from referee.rules import N_, RuleError, stats, whole, whole_arg
from referee.rules.cards import RANKS, SUIT_SYMBOLS, SUITS
from referee.store import games, players
from referee.web.context import get_db, signed_in
from referee.web.i18n import rule_message
from referee.web.once import game_target, once_form
from referee.web.screens import GameScreen, form_version, is_htmx, list_page
from referee.web.security import referee_required

bp = Blueprint("duels", __name__)

# One tap per card, a whole round on one phone screen: the table deck as a
# 9 × 4 grid, a row per suit and a column per rank, so that both duelists' grids, their
# hand cards (in the same rank columns) and Confirm fit in a 360 × 740 screen.
KEYPAD: tuple[str, ...] = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)

PICK_TABLE = N_("Tap the table card %(player)s turned up, or the hand card laid over it, "
                "then confirm the round.")
# The pick in progress on this phone, so that scanning two passports one after the
# other sets up their duel; forgotten after a while so an old pick never surprises.
SETUP_KEY = "duel_setup"
SETUP_KEPT = timedelta(minutes=10)
BAD_LINK = N_("No passport matches this link; check it or search by name.")
EXTENSION_CHOICES = {"both": (True, True), "a": (True, False), "b": (False, True),
                     "none": (False, False)}
# D4 in a few words, beside a name in the pickers and on the sheet.
CANNOT_FIGHT = {stats.HEAVY_WOUND: N_("Cannot duel (D4): heavily wounded"),
                stats.DEAD: N_("Cannot duel (D4): dead")}
NO_HP = N_("Cannot duel (D4): 0 HP")
NO_CARTRIDGE = N_("Cannot duel (D4): no cartridge")


@bp.app_template_filter("card")
def card_label(code: str | None) -> str:
    """A canonical code with its suit symbol: ``10S`` → ``10♠``."""
    if not code:
        return "—"
    return f"{code[:-1]}{SUIT_SYMBOLS.get(code[-1], code[-1])}"


SHEET_DUELS = 10  # the latest duels a player's sheet lists (all: the duel list)


def player_panel(db: Database, player_id: int) -> dict:
    """For the player sheet: their latest duels and the duel-deck cards they surrendered."""
    row = players.get(db, player_id)
    return {"duels": [summary(v) for v in service.for_player(db, player_id, SHEET_DUELS)],
            "surrendered": service.surrendered(db, player_id),
            "why_not": why_not(row, service.unfinished(db)) if row else None}


def summary(view: service.DuelView) -> dict:
    """What a list shows about one duel."""
    row, state = view.row, view.state
    wins = rules.round_wins(state) if state else (0, 0)
    names = {"a": row["a_character"], "b": row["b_character"]}
    return {"id": view.id, "row": row, "names": names, "wins": wins, "status": view.status,
            "winner": names.get(row["winner"]) if row["winner"] else None,
            "reason": row["reason"], "rounds": len(state.rounds) if state else 0}


# Reading the forms ------------------------------------------------------------------


def picks_from_form() -> dict:
    """The round form's selections, kept to refill the form after a refusal."""
    picks = {}
    for side in rules.SIDES:
        tokens = request.form.get(f"{side}_tokens", "0").strip() or "0"
        picks[side] = {"table": request.form.get(f"{side}_table", "").strip() or None,
                       "hand": request.form.get(f"{side}_hand", "").strip() or None,
                       "tokens": tokens}
    return picks


def counted(pick: dict) -> bool:
    """Whether a side's pick holds a counting card: the table card or a hand card (D7)."""
    return bool(pick["table"] or pick["hand"])


def round_of(view: service.DuelView, picks: dict) -> Round:
    """The Round action the form describes; RuleError if a card is missing (D6, D8).

    A side's table card may stay untapped when a hand card lies over it (D7): the
    referee often cannot see the covered card, and it counts for nothing.
    """
    plays = {}
    for side in rules.SIDES:
        pick = picks[side]
        if not counted(pick):
            label = view.state.side(side).label if view.state else side
            raise RuleError("D6", PICK_TABLE, player=label)
        tokens = whole(pick["tokens"])
        if tokens is None:
            raise RuleError("D8", model.TOKENS_WHOLE)
        plays[side] = Play(pick["table"], pick["hand"], tokens)
    return Round(a=plays["a"], b=plays["b"])


# The duel screen ----------------------------------------------------------------------


def preview_of(view: service.DuelView, picks: dict | None) -> dict:
    """The live comparison: totals so far, the round's winner and what follows."""
    out: dict = {"totals": {"a": None, "b": None}, "winner": None, "error": None,
                 "after": None, "complete": False, "last": None}
    state = view.state
    if state is None or rules.awaiting(state) != "round" or not picks:
        return out
    if state.rounds and not any(counted(picks[s]) for s in rules.SIDES):
        # the round just confirmed stays where the thumb is until the next card is tapped
        out["last"] = state.rounds[-1]
    for side in rules.SIDES:
        pick = picks[side]
        if counted(pick) and (tokens := whole(pick["tokens"])) is not None:
            try:
                out["totals"][side] = rules.total(Play(pick["table"], pick["hand"], tokens))
            except RuleError:
                out["totals"][side] = None
    if all(counted(picks[s]) for s in rules.SIDES):
        try:
            action = round_of(view, picks)
            record = rules.preview(state, action)
            out.update(winner=record.winner, complete=True,
                       totals={"a": record.a.total, "b": record.b.total},
                       after=rules.apply(state, action))
        except RuleError as err:
            out["error"] = rule_message(err)
    return out


def extension_options(state: DuelState) -> list[dict]:
    """The four D12 answers; those the engine refuses carry its reason and are disabled."""
    options = []
    for choice, (a, b) in EXTENSION_CHOICES.items():
        refusal = None
        try:
            rules.apply(state, Extension(a=a, b=b))
        except RuleError as err:
            refusal = rule_message(err)
        options.append({"choice": choice, "a": a, "b": b, "refusal": refusal})
    return options


def screen(view: service.DuelView, *, picks: dict | None = None, error: str | None = None,
           notice: str | None = None) -> dict:
    """Everything the duel templates need."""
    db = get_db()
    state = view.state
    seated = {side: players.get(db, view.player_id(side)) for side in rules.SIDES}
    sides: dict[str, dict[str, Any]] = {}
    if state is not None:
        for key in rules.SIDES:
            side = state.side(key)
            sides[key] = {
                "key": key, "s": side, "row": seated[key],
                "used": set(rules.table_cards_used(state, key)),
                "hand": rules.hand_cards_allowed(state, key),
                "hand_left": max(side.hand_limit - len(side.surrendered), 0),
                "tokens": rules.tokens_allowed(state, key),
            }
            # D5, D7: the duel-deck cards that may be laid, each under its rank's column
            hand = set(sides[key]["hand"])
            sides[key]["hand_row"] = [c if c in hand else None
                                      for c in (f"{r}{side.suit}" for r in RANKS)]
    picks = picks or {s: {"table": None, "hand": None, "tokens": "0"} for s in rules.SIDES}
    for key, pick in picks.items():
        # the token button shows what was asked, or 0 when that is not a count held (D8)
        held = sides[key]["tokens"] if key in sides else 0
        asked = whole(pick["tokens"])
        pick["tokens_n"] = asked if asked is not None and asked <= held else 0
    return {
        "d": view, "state": state, "players": seated, "sides": sides,
        "awaiting": rules.awaiting(state) if state else None,
        "wins": rules.round_wins(state) if state else (0, 0),
        "round_n": len(state.rounds) + 1 if state else 0, "regular_rounds": rules.REGULAR_ROUNDS,
        "record": rules.record_to_dict(state) if state else None,
        "keypad": KEYPAD, "picks": picks, "preview": preview_of(view, picks),
        "options": extension_options(state) if state and rules.awaiting(state) == "extension"
        else [],
        "last": view.last, "error": error, "notice": notice,
    }


SCREEN = GameScreen("duel/show.html", "duel/_screen.html", screen,
                lambda view, **kwargs: url_for("duels.show", duel_id=view.id), service.load)
respond = SCREEN.respond


def write_step(duel_id: int, step, picks: dict | None = None, stale: str = STALE_OTHER):
    """Run one write; a refusal is 422 and a stale version 409, each with the fresh duel."""
    return SCREEN.write(duel_id, lambda view: step(), stale=stale, refused={"picks": picks})


# Routes -------------------------------------------------------------------------------


@bp.get("/duels")
@referee_required
def index():
    """Every duel, newest first; ?player=<id> keeps that player's."""
    def listing(db: Database, player_id: int | None, limit: int,
                before: int | None) -> list[dict]:
        found = games.listing(db, service.KIND, player_id, limit, before)
        return [summary(v) for v in service.views(db, found)]

    return list_page("duel/index.html", listing, "duels")


def _passport_player(link: str) -> dict | None:
    """The player a pasted or scanned passport URL (…/p/<token>) or bare token names."""
    token = link.split("/p/", 1)[1] if "/p/" in link else link
    token = token.split("?", 1)[0].split("#", 1)[0].strip("/ ")
    if not 16 <= len(token) <= 64:
        return None
    return players.by_token(get_db(), token)


def why_not(row: dict, unfinished: dict[int, list[int]]) -> dict | None:
    """What a picker says beside a player who may not duel now (D4), in a few words
    (picking them gives the refusal in full), and the unfinished duels they sit in."""
    err, busy = service.refusal(row), unfinished.get(row["id"], [])
    if err is None and not busy:
        return None
    text = None
    if err is not None and err.message == model.CANNOT_FIGHT:
        text = gettext(CANNOT_FIGHT.get(row["status"], NO_HP))
    elif err is not None and err.message == model.NO_CARTRIDGE_START:
        text = gettext(NO_CARTRIDGE)
    elif err is not None:
        text = rule_message(err)
    return {"refused": text, "busy": busy}


def new_view(a_id: int | None, b_id: int | None, error: str | None = None) -> dict:
    """The picker: chosen duelists with their stats, search results, the D4 check."""
    db = get_db()
    chosen = {"a": players.get(db, a_id) if a_id else None,
              "b": players.get(db, b_id) if b_id else None}
    q = request.args.get("q", "")
    link = request.args.get("link", "").strip()
    if link:
        found = _passport_player(link)
        if found is None:
            error = error or gettext(BAD_LINK)
        else:
            chosen["a" if chosen["a"] is None else "b"] = found
    for side, row in chosen.items():
        refused = service.refusal(row) if row else None
        if refused is not None:  # D4: the refusal, and the slot stays as it was
            error = error or rule_message(refused)
            chosen[side] = None
    ids = {s: r["id"] if r else None for s, r in chosen.items()}
    refusal = None
    a, b = chosen["a"], chosen["b"]
    if a and b and not error:
        try:
            service.check_start(db, a["id"], b["id"])
        except RuleError as err:
            refusal = rule_message(err)
    slot = "a" if chosen["a"] is None else "b" if chosen["b"] is None else None
    unfinished = service.unfinished(db)
    busy = {s: [{"id": n} for n in unfinished.get(r["id"], [])] for s, r in chosen.items() if r}
    candidates = [r for r in players.search(db, q) if r["id"] not in ids.values()] if slot else []
    marks = {r["id"]: mark for r in candidates if (mark := why_not(r, unfinished))}
    return {"chosen": chosen, "ids": ids, "slot": slot, "q": q, "candidates": candidates,
            "error": error, "refusal": refusal, "busy": busy, "marks": marks,
            "decks": {s: players.deck_cards(r) for s, r in chosen.items() if r}}


def _pending() -> tuple[int | None, int | None]:
    """The duelists this phone picked in the last minutes and has not started yet."""
    kept = session.get(SETUP_KEY)
    if not isinstance(kept, dict) or not isinstance(kept.get("at"), str):
        return None, None
    try:
        at = datetime.fromisoformat(kept["at"])
    except ValueError:
        return None, None
    if datetime.now(UTC) - at > SETUP_KEPT:
        return None, None
    return kept.get("a"), kept.get("b")


def _joined(player_id: int) -> dict:
    """Where "Start a duel" on a sheet leads: opposite the duelist picked a moment ago on
    this phone (scan A's passport, tap, scan B's, tap), else as duelist A."""
    a, b = _pending()
    if a and not b and a != player_id:
        return {"a": a, "b": player_id}
    return {"a": player_id}


@bp.get("/duels/new")
@referee_required
def new():
    """Pick two players by search or passport link; see their stats; start."""
    joining = request.args.get("join", type=whole_arg)
    if joining is not None:
        return redirect(url_for("duels.new", **_joined(joining)), code=303)
    view = new_view(request.args.get("a", type=whole_arg), request.args.get("b", type=whole_arg))
    session[SETUP_KEY] = {**view["ids"], "at": datetime.now(UTC).isoformat()}
    if is_htmx() and request.headers.get("HX-Target") == "duel-pick":
        return render_template("duel/_pick.html", **view)
    return render_template("duel/new.html", **view)


@bp.post("/duels")
@once_form("duel", game_target("duels.show", "duel_id"),
           N_("This duel was already started: here it is."))
def create():
    """Start the duel: both pay a cartridge (D4); refused → 422 and nothing changes."""
    a_id = request.form.get("a", type=whole_arg)
    b_id = request.form.get("b", type=whole_arg)
    try:
        view = service.start(get_db(), signed_in()["id"], a_id, b_id)
    except RuleError as err:
        page = new_view(a_id, b_id, error=rule_message(err))
        return render_template("duel/new.html", **page), 422
    session.pop(SETUP_KEY, None)
    return redirect(url_for("duels.show", duel_id=view.id), code=303)


@bp.get("/duels/<int:duel_id>")
@referee_required
def show(duel_id: int):
    """The duel as it stands in the database: the next step, the record, undo."""
    return respond(SCREEN.found(duel_id))


@bp.post("/duels/<int:duel_id>/preview")
def preview(duel_id: int):
    """The live comparison of totals for the cards tapped so far (changes nothing)."""
    view = SCREEN.found(duel_id)
    return render_template("duel/_preview.html", **screen(view, picks=picks_from_form()))


@bp.post("/duels/<int:duel_id>/rounds")
def rounds(duel_id: int):
    """Confirm the round: apply it with every effect, or refuse with the rule."""
    picks = picks_from_form()
    referee = signed_in()

    def step():
        view = SCREEN.found(duel_id)
        return service.record(get_db(), referee["id"], duel_id, round_of(view, picks),
                              form_version())

    return write_step(duel_id, step, picks, STALE_ROUND)


@bp.post("/duels/<int:duel_id>/extension")
def extension(duel_id: int):
    """Record the D12 decision: both continue, one continues, or both refuse."""
    choice = EXTENSION_CHOICES.get(request.form.get("choice", ""))
    referee = signed_in()

    def step():
        if choice is None:
            raise RuleError("D12", model.EXTENSION_SHAPE)
        action = Extension(a=choice[0], b=choice[1])
        return service.record(get_db(), referee["id"], duel_id, action, form_version())

    return write_step(duel_id, step)


@bp.post("/duels/<int:duel_id>/undo")
def undo(duel_id: int):
    """Take back the duel's latest action and all of its effects on the players."""
    referee = signed_in()
    return write_step(duel_id, lambda: service.undo(get_db(), referee["id"], duel_id,
                                                    form_version()))
