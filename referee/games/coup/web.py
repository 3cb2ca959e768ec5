"""The Coup screens: seat a table, then one screen per turn asking only what is shown."""

from __future__ import annotations

import json

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext
from sqlite_utils import Database

import referee.games.service  # noqa: F401  (games.service: the views hold act and undo)
from referee import games
from referee.games.coup import rules, service
from referee.games.coup.data import data
from referee.games.coup.rules import (
    ACTION_NAMES,
    Block,
    Challenge,
    Declare,
    ExamineVerdict,
    LoseInfluence,
    Reveal,
)
from referee.games.coup.rules.model import COSTS, FORCED_COUP, INFLUENCE, TARGETED
from referee.games.coup.words import STALE, translator
from referee.rules import N_, RuleError, whole, whole_arg
from referee.store import players
from referee.store.games import listing
from referee.web.context import get_db, signed_in
from referee.web.i18n import rule_message
from referee.web.once import game_target, once_form
from referee.web.screens import GameScreen, form_version, is_htmx, list_page
from referee.web.security import referee_required

bp = Blueprint("coup", __name__)

MAX_SEATS = 8


def _json(action) -> str:
    return json.dumps(rules.action_to_dict(action), separators=(",", ":"))


def char(code: str | None) -> str:
    """A character's name in the reader's language."""
    return service.character_name(code, gettext)


def describe(action: dict | None, names: dict[str, str]) -> str:
    """One stored step in words, for the undo bar."""
    try:
        a = rules.action_from_dict(action)
    except RuleError:
        return "?"
    who = names.get(getattr(a, "player", None) or "", "")
    if isinstance(a, Declare):
        label = gettext(ACTION_NAMES.get(a.action, a.action))
        if a.target:
            return gettext("%(player)s: %(action)s → %(target)s", player=who, action=label,
                           target=names.get(a.target, a.target))
        return gettext("%(player)s: %(action)s", player=who, action=label)
    if isinstance(a, Challenge):
        if a.challenger is None:
            return gettext("nobody challenges")
        return gettext("%(player)s challenges", player=names.get(a.challenger, a.challenger))
    if isinstance(a, Reveal):
        if a.shown:
            return gettext("%(player)s shows the %(character)s", player=who,
                           character=char(a.character))
        return gettext("%(player)s turns up the %(character)s", player=who,
                       character=char(a.character))
    if isinstance(a, Block):
        if a.blocker is None:
            return gettext("nobody blocks")
        return gettext("%(player)s blocks as the %(character)s",
                       player=names.get(a.blocker, a.blocker), character=char(a.character))
    if isinstance(a, LoseInfluence):
        return gettext("%(player)s turns up the %(character)s", player=who,
                       character=char(a.character))
    if isinstance(a, ExamineVerdict):
        if a.swap:
            return gettext("%(player)s has the examined card swapped", player=who)
        return gettext("%(player)s gives the examined card back", player=who)
    return "?"


# The table screen -----------------------------------------------------------------------


def _declare_view(state, names: dict[str, str], act: str | None) -> dict:
    """The legal actions of this turn; targeted ones ask for a tap on a player (C4–C6)."""
    legal = rules.legal_actions(state)
    me = state.player(state.turn)
    forced = me.coins >= FORCED_COUP  # C6
    plain, targeted, seen = [], [], set()
    for a in legal:
        if a.action in seen:
            continue
        seen.add(a.action)
        entry = {"action": a.action, "label": gettext(ACTION_NAMES[a.action]),
                 "cost": COSTS.get(a.action, 0)}
        if a.action in TARGETED:
            targeted.append(entry)
        else:
            plain.append({**entry, "json": _json(a)})
    if forced:
        act = "coup"
    targets = {a.target: _json(a) for a in legal if a.action == act and a.target}
    return {"plain": plain, "targeted": targeted, "forced": forced,
            "act": act if targets else None,
            "act_label": gettext(ACTION_NAMES[act]) if targets and act else "",
            "targets": targets}


def _answers(state, q: rules.Question, names: dict[str, str]) -> dict:
    """Every legal one-tap answer to the question on screen, labelled."""
    out: dict = {"nobody": None, "players": [], "shown": None, "cards": [],
                 "blockers": [], "back": None, "swap": None}
    for a in rules.options(state):
        if isinstance(a, Challenge):
            if a.challenger is None:
                out["nobody"] = _json(a)
            else:
                out["players"].append({"id": a.challenger, "name": names[a.challenger],
                                       "json": _json(a)})
        elif isinstance(a, Reveal) and a.shown:
            out["shown"] = _json(a)
        elif isinstance(a, (Reveal, LoseInfluence)):
            out["cards"].append({"code": a.character, "name": char(a.character),
                                 "json": _json(a)})
        elif isinstance(a, Block):
            if a.blocker is None:
                out["nobody"] = _json(a)
                continue
            if not out["blockers"] or out["blockers"][-1]["id"] != a.blocker:
                out["blockers"].append({"id": a.blocker, "name": names[a.blocker],
                                        "claims": []})
            out["blockers"][-1]["claims"].append(
                {"code": a.character, "name": char(a.character), "json": _json(a)})
        elif isinstance(a, ExamineVerdict):
            out["swap" if a.swap else "back"] = _json(a)
    # Foreign aid: every blocker claims the same one character, so one row of names.
    claims = {c["code"] for b in out["blockers"] for c in b["claims"]}
    out["one_claim"] = char(claims.pop()) if len(claims) == 1 else None
    return out


def screen(game: games.service.Game, *, act: str | None = None, error: str | None = None,
           notice: str | None = None) -> dict:
    """Everything the table templates need."""
    table = data(get_db(), game)
    state, names = table.state, table.names
    q = rules.awaiting(state)
    declare = _declare_view(state, names, act) if q.kind == "declare" else None
    targets = declare["targets"] if declare and declare["act"] else {}
    seats = [{
        "id": p.id, "name": names[p.id], "coins": p.coins, "influence": p.influence,
        "alive": p.alive, "turn": p.id == state.turn and state.winner is None,
        "face_up": [char(c) for c in p.face_up], "target": targets.get(p.id),
        "winner": p.id == state.winner,
    } for p in state.players]
    pending = state.pending
    last = game.actions[-1] if game.actions else None
    return {
        "table": game, "state": state, "names": names, "q": q, "seats": seats,
        "declare": declare, "answers": _answers(state, q, names),
        "pending": pending, "char": char,
        "action_label": gettext(ACTION_NAMES[pending.action]) if pending else "",
        "claim": char(q.claim) if q.claim else "",
        "log": [{"rule": e.rule, "text": line}
                for e, line in reversed(table.lines(translator(), plurals=True))],
        "face_up_counts": [(char(c), state.face_up_count(c)) for c in state.in_play
                           if state.face_up_count(c)],
        "last": last, "last_text": describe(last["action"], names) if last else "",
        "fresh": not game.actions, "error": error, "notice": notice,
        "influence_max": INFLUENCE, "two_player_deal": len(state.players) == 2,  # C2, C3
    }


SCREEN = GameScreen("coup/show.html", "coup/_screen.html", screen,
                lambda game, **kwargs: url_for("coup.show", game_id=game.id), service.load)
respond = SCREEN.respond


def _named(err: RuleError, game: games.service.Game) -> str:
    """The refusal naming players by their characters."""
    return rule_message(data(get_db(), game).in_words(err))


def write_step(game_id: int, step):
    """Run one write; a refusal is 422 and a stale version 409, each with the fresh table."""
    return SCREEN.write(game_id, lambda game: step(), stale=STALE, refusal=_named)


# Setting up a table -----------------------------------------------------------------


def _seat_ids() -> list[int]:
    """The seats chosen so far, in seating order (repeated ?seat=<id>)."""
    out: list[int] = []
    for raw in request.values.getlist("seat"):
        number = whole(raw)
        if number is not None and number not in out:
            out.append(number)
    return out[:MAX_SEATS]


def new_view(seat_ids: list[int], error: str | None = None) -> dict:
    """The setup screen: seats in order, candidates to add, variant and options."""
    db = get_db()
    seats = [r for r in (players.get(db, pid) for pid in seat_ids) if r]
    ids = [r["id"] for r in seats]
    q = request.args.get("q", "")
    candidates = [r for r in players.search(db, q) if r["id"] not in ids] \
        if len(ids) < MAX_SEATS else []
    count = len(ids)
    copies = 4 if count >= 7 else 3
    first = request.values.get("first", type=whole_arg)
    return {
        "seats": seats, "ids": ids, "q": q, "candidates": candidates, "error": error,
        "count": count, "copies": copies, "cards": copies * 5,
        "court": 3 if count == 2 else copies * 5 - 2 * count,
        "variant": request.values.get("variant", "ambassador"),
        "first": first if first in ids else (ids[0] if ids else None),
        "one_coin": request.values.get("one_coin_start") == "1" and count == 2,
        "title": request.values.get("title", ""),
        "with_seats": lambda change: url_for("coup.new", seat=change),
    }


@bp.get("/coup")
@referee_required
def index():
    """Every Coup table, newest first; ?player=<id> keeps the tables where they sit."""
    return list_page("coup/index.html", service.listing, "tables")


@bp.get("/coup/new")
@referee_required
def new():
    """Seat 2–8 registry players in order; choose the fifth character and options."""
    view = new_view(_seat_ids())
    if is_htmx() and request.headers.get("HX-Target") == "coup-pick":
        return render_template("coup/_pick.html", **view)
    return render_template("coup/new.html", **view)


@bp.post("/coup")
@once_form("coup", game_target("coup.show"), N_("This table was already started: here it is."))
def create():
    """Start the table from the setup form; a refused setup is 422 and stores nothing."""
    ids = _seat_ids()
    first = request.form.get("first", type=whole_arg)
    try:
        game = service.create(
            get_db(), signed_in()["id"], ids,
            variant=request.form.get("variant", "ambassador"), first=first,
            one_coin_start=request.form.get("one_coin_start") == "1",
            title=request.form.get("title", ""))
    except RuleError as err:
        return render_template("coup/new.html", **new_view(ids, rule_message(err))), 422
    return redirect(url_for("coup.show", game_id=game.id), code=303)


@bp.get("/coup/<int:game_id>")
@referee_required
def show(game_id: int):
    """The table as stored: the seats, the one question to answer now, the log, undo.

    ``?act=<action>`` asks for the target of a targeted action: tap a player.
    """
    return respond(SCREEN.found(game_id), act=request.args.get("act"))


@bp.post("/coup/<int:game_id>/act")
def act(game_id: int):
    """Record one answer (the button's action); refused → 422, stale → 409."""
    referee = signed_in()
    try:
        data = json.loads(request.form.get("action", ""))
    except ValueError:
        data = None
    return write_step(game_id, lambda: games.service.act(get_db(), referee["id"], service.KIND,
                                                         game_id, data, form_version()))


@bp.post("/coup/<int:game_id>/undo")
def undo(game_id: int):
    """Take back the table's latest step (an undo row is appended; history stays)."""
    referee = signed_in()
    return write_step(game_id, lambda: games.service.undo(get_db(), referee["id"], service.KIND,
                                                          game_id, form_version()))


def player_panel(db: Database, player_id: int) -> list[dict]:
    """For the player sheet: the Coup tables where this player has a seat."""
    return listing(db, service.KIND, player_id, limit=10)
