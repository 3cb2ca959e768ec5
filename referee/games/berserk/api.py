"""Berserk-style battles in the JSON API: decks, players' registered decks (B14), squads,
battles, modifications, strikes and undo under /api/v1/berserk. How a body becomes a
squad or an action and how they are shown; loading, 409 and undo are the generic
layer's (referee.api.games)."""

from __future__ import annotations

from collections.abc import Callable

from flask import abort, jsonify

from referee.api import games, paging
from referee.api.models import Undo
from referee.api.registry import PREFIX, ApiBlueprint
from referee.api.schemas import GamePage
from referee.errors import Conflict
from referee.games.berserk import registered, rules, service, squads
from referee.games.berserk.answers import (
    BerserkBattle,
    BerserkBattleStale,
    BerserkDeck,
    BerserkDeckSummary,
    BerserkPreview,
    BerserkRegisteredDeck,
    BerserkRegisteredDeckSaves,
    BerserkRegisteredDeckStale,
    BerserkSquad,
    BerserkSquadSaves,
    BerserkSquadStale,
    BerserkSquadSummary,
)
from referee.games.berserk.documents import Store, fresh_of
from referee.games.berserk.schemas import (
    BattleAction,
    BattleNew,
    DeckChange,
    DeckCheck,
    DeckNew,
    ModifyIn,
    PreviewIn,
    SquadChange,
    SquadCheck,
    SquadNew,
    StrikeIn,
)
from referee.games.berserk.view import localized
from referee.games.berserk.words import DECK_STALE, SQUAD_STALE, STALE
from referee.games.service import Game
from referee.rules import RuleError
from referee.store import players
from referee.store.once import Made
from referee.web.context import found_or_404, get_db
from referee.web.once import idempotent

bp = ApiBlueprint("api_berserk", __name__, url_prefix=PREFIX + "/berserk")


def problems_json(problems) -> list[dict]:
    """Refusals as the API shows errors: the rule and a sentence."""
    return [{"rule": p.rule, "error": localized(p)} for p in problems]


def summary_json(sm: rules.SquadSummary) -> dict:
    """Live counts of a squad (B12–B14)."""
    return {
        "cards": sm.cards, "gold": sm.gold, "silver": sm.silver,
        "elite_cost": sm.elite_cost, "ordinary_cost": sm.ordinary_cost,
        "elements": [str(e) for e in sm.elements], "element_penalty": sm.element_penalty,
        "gold_used": sm.gold_used, "silver_used": sm.silver_used,
        "gold_left": sm.gold_left, "silver_left": sm.silver_left,
        "flyer_cost": sm.flyer_cost, "flyer_limit": sm.flyer_limit,
        "copies": [{"code": code, "count": n} for code, n in sm.copies],
        "problems": problems_json(sm.problems), "ok": sm.ok,
    }


def summary_with(sm: rules.SquadSummary, hired: tuple) -> dict:
    """A squad's counts, with what it breaks of its player's registered deck (B14)."""
    out = summary_json(sm)
    if hired:
        out.update(problems=out["problems"] + problems_json(hired), ok=False)
    return out


def squad_json(row: dict) -> dict:
    """A saved squad with its counts as they are now, and the registered deck it is hired
    from (B14; null when the player has registered none)."""
    out = {k: row[k] for k in ("id", "name", "deck", "seat", "cards", "settings", "version",
                               "created_at", "updated_at")}
    hired_from = registered.of_player(get_db(), row["player_id"])
    out.update(player=row["player_id"], character=row["character"],
               created_by=row["created_by_name"], updated_by=row["updated_by_name"],
               registered_deck=hired_from["id"] if hired_from else None)
    try:
        settings = service.read_settings(row["settings"])
        sm = squads.summary(service.deck(row["deck"]), squads.picks(row), settings,
                            row["seat"])
        out["summary"] = summary_with(sm, squads.hire_problems(get_db(), row))
    except RuleError as err:
        out["summary"] = None
        out["problems"] = problems_json([err])
    return out


def deck_summary_json(sm: rules.DeckSummary) -> dict:
    """Live counts of a deck (B14)."""
    return {"cards": sm.cards, "deck_min": sm.deck_min, "deck_max": sm.deck_max,
            "max_copies": sm.max_copies, "max_unique_copies": sm.max_unique_copies,
            "copies": [{"code": code, "count": n} for code, n in sm.copies],
            "problems": problems_json(sm.problems), "ok": sm.ok}


def registered_json(row: dict) -> dict:
    """A registered deck with its counts as they are now (its deck file may have changed)."""
    out = {k: row[k] for k in ("id", "name", "deck", "cards", "settings", "version",
                               "created_at", "updated_at")}
    out.update(player=row["player_id"], character=row["character"],
               created_by=row["created_by_name"], updated_by=row["updated_by_name"])
    try:
        settings = service.read_settings(row["settings"])
        out["summary"] = deck_summary_json(registered.summary(
            service.deck(row["deck"]), registered.held(row), settings))
    except RuleError as err:
        out["summary"] = None
        out["problems"] = problems_json([err])
    return out


def battle_json(game: Game) -> dict:
    """A battle: its creatures with their current properties, and its record."""
    rec = service.record(game)
    setup = game.row["setup"]
    return {
        "id": game.id, "version": game.version, "status": game.row["status"],
        "title": game.row["title"],
        "players": dict(zip(service.SIDES, game.row["player_ids"], strict=False)),
        "squads": {s: {k: setup[s].get(k) for k in ("squad", "squad_version", "name", "deck")}
                   for s in service.SIDES},
        "state": rules.state_to_dict(rec.state),
        "log": [{"seq": e.row["seq"], "at": e.row["at"], "referee": e.row["referee"],
                 "action": e.row["action"], "undone": e.undone_by is not None,
                 "outcome": rules.outcome_to_dict(e.outcome) if e.outcome else None,
                 "deaths": list(e.deaths)} for e in rec.entries],
        "created_at": game.row["created_at"], "updated_at": game.row["updated_at"],
    }


BATTLE = games.GameApi(kind=service.KIND, load=service.load, show=battle_json, stale=STALE)
WRITTEN = {200: BerserkBattle, 409: BerserkBattleStale}


def _listed(store: Store, to_json: Callable[[dict], dict]):
    """Stored squads or decks, newest first; ?player=<id> keeps that player's; ?limit=
    (1000) and ?before=<id> page back."""
    player_id, limit = games.player_filter(), paging.limit(1000)
    found = store.listing(get_db(), player_id, limit + 1, paging.id_arg("before"))
    return paging.paged(found, limit, store.count(get_db(), player_id), "before", to_json)


def _replayed(store: Store, made: Made, to_json: Callable[[dict], dict]) -> tuple[dict, int]:
    """A create call repeated with its Idempotency-Key: 201 with the squad or deck it
    made, as it stands now (web.once)."""
    row = store.get(get_db(), made.ref)
    if row is None:
        abort(404)
    return to_json(row), 201


def _settings_sent(body: SquadCheck | SquadNew | DeckCheck | DeckNew | BattleNew) -> object:
    """The body's ``settings`` as sent (a body keeps its JSON; read_settings checks it)."""
    return body.sent().get("settings") or {}


def _saves(store: Store, doc_id: int) -> list[dict]:
    """Every save of a squad or deck, newest first: its version, who, when and what."""
    return [{"version": e["seq"], "at": e["at"], "referee": e["referee"],
             store.body: e[store.body]} for e in store.edits(get_db(), doc_id)]


# Decks and squads -------------------------------------------------------------------


@bp.operation("get", "/decks", {200: list[BerserkDeck]})
def list_decks():
    """Decks of Berserk-style cards with every card's printed properties (B1–B5, B8)."""
    return jsonify([{"name": d.name, "title_en": d.title_en, "title_ru": d.title_ru,
                     "cards": [{**rules.card_to_dict(e.card), "copies": e.copies}
                               for e in d.cards]}
                    for d in service.decks().values()])


@bp.operation("post", "/squads/check", {200: BerserkSquadSummary}, body=SquadCheck)
def check_squad(body: SquadCheck):
    """Count a squad without saving it: crystals, penalty, flyers, copies, problems."""
    settings = service.read_settings(_settings_sent(body))
    if body.seat not in squads.SEATS:
        raise RuleError("B12", squads.BAD_SEAT, value=str(body.seat)[:20])
    deck = service.deck(body.deck)
    chosen = squads.picks_from_json(body.cards)
    sm = squads.summary(deck, chosen, settings, body.seat)
    hired: tuple[RuleError, ...] = ()
    if "player" in body.sent():  # B14: against the player's registered deck, if any
        players.existing(get_db(), body.player)
        hired = registered.hire_problems(registered.of_player(get_db(), body.player),
                                         deck.name, squads.cards_of(deck, chosen))
    return jsonify(summary_with(sm, hired))


@bp.operation("get", "/squads", {200: list[BerserkSquad]}, query=GamePage)
def list_squads():
    """Saved squads, newest first; ?player=<id> keeps that player's; ?limit= (1000) and
    ?before=<id> page back."""
    return _listed(squads.STORE, squad_json)


@bp.operation("post", "/squads", {201: BerserkSquad}, body=SquadNew)
@idempotent("squads", lambda made: _replayed(squads.STORE, made, squad_json))
def create_squad(body: SquadNew):
    """Save a squad for a player; refused (422) unless it keeps B12–B14."""
    row = squads.save(get_db(), games.referee_id(), None, player_id=body.player,
                      name=body.name, deck=body.deck, seat=body.seat,
                      chosen=squads.picks_from_json(body.cards),
                      settings=service.read_settings(_settings_sent(body)))
    return jsonify(squad_json(row)), 201


@bp.operation("get", "/squads/<int:squad_id>", {200: BerserkSquadSaves})
def get_squad(squad_id: int):
    """One squad with its counts and every save (who and when)."""
    row = found_or_404(squads.get, squad_id)
    return jsonify({**squad_json(row), "edits": _saves(squads.STORE, squad_id)})


@bp.operation("put", "/squads/<int:squad_id>", {200: BerserkSquad, 409: BerserkSquadStale},
              body=SquadChange, load=squads.get)
def update_squad(squad_id: int, body: SquadChange):
    """Change a squad; fields left out keep their value. A stale version is 409."""
    row = found_or_404(squads.get, squad_id)
    sent = body.sent()
    chosen = squads.picks_from_json(sent["cards"]) if "cards" in sent else squads.picks(row)
    settings = service.read_settings(sent["settings"] if "settings" in sent
                                     else row["settings"])
    try:
        row = squads.save(get_db(), games.referee_id(), squad_id,
                          player_id=sent.get("player", row["player_id"]),
                          name=sent.get("name", row["name"]), deck=sent.get("deck", row["deck"]),
                          seat=sent.get("seat", row["seat"]), chosen=chosen, settings=settings,
                          version=body.version)
    except Conflict as err:
        return games.stale_answer(squad_json(fresh_of(err)), SQUAD_STALE)
    return jsonify(squad_json(row))


# Registered decks (B14) ------------------------------------------------------------


@bp.operation("post", "/registered-decks/check", {200: BerserkDeckSummary}, body=DeckCheck)
def check_deck(body: DeckCheck):
    """Count a deck against B14 without registering it: cards, copies, unique cards."""
    settings = service.read_settings(_settings_sent(body))
    sm = registered.summary(service.deck(body.deck), registered.counts_from_json(body.cards),
                            settings)
    return jsonify(deck_summary_json(sm))


@bp.operation("get", "/registered-decks", {200: list[BerserkRegisteredDeck]},
              query=GamePage)
def list_registered():
    """Registered decks, newest first; ?player=<id> keeps that player's (one at most);
    ?limit= (1000) and ?before=<id> page back."""
    return _listed(registered.STORE, registered_json)


@bp.operation("post", "/registered-decks", {201: BerserkRegisteredDeck}, body=DeckNew)
@idempotent("decks", lambda made: _replayed(registered.STORE, made, registered_json))
def register_deck(body: DeckNew):
    """Register a player's deck (one a player); refused (422) unless it keeps B14. The
    player's squads are then hired from it."""
    row = registered.save(get_db(), games.referee_id(), None, player_id=body.player,
                          name=body.name, deck=body.deck,
                          counts=registered.counts_from_json(body.cards),
                          settings=service.read_settings(_settings_sent(body)))
    return jsonify(registered_json(row)), 201


@bp.operation("get", "/registered-decks/<int:deck_id>", {200: BerserkRegisteredDeckSaves})
def get_registered(deck_id: int):
    """One registered deck with its counts, every save (who and when) and the squads of
    its player."""
    row = found_or_404(registered.get, deck_id)
    return jsonify({**registered_json(row), "edits": _saves(registered.STORE, deck_id),
                    "squads": [s["id"] for s in squads.listing(get_db(), row["player_id"])]})


@bp.operation("put", "/registered-decks/<int:deck_id>",
              {200: BerserkRegisteredDeck, 409: BerserkRegisteredDeckStale}, body=DeckChange,
              load=registered.get)
def update_registered(deck_id: int, body: DeckChange):
    """Change a registered deck; fields left out keep their value. A stale version is
    409."""
    row = found_or_404(registered.get, deck_id)
    sent = body.sent()
    counts = (registered.counts_from_json(sent["cards"]) if "cards" in sent
              else registered.held(row))
    settings = service.read_settings(sent["settings"] if "settings" in sent
                                     else row["settings"])
    try:
        row = registered.save(get_db(), games.referee_id(), deck_id,
                              player_id=row["player_id"], name=sent.get("name", row["name"]),
                              deck=sent.get("deck", row["deck"]), counts=counts,
                              settings=settings, version=body.version)
    except Conflict as err:
        return games.stale_answer(registered_json(fresh_of(err)), DECK_STALE)
    return jsonify(registered_json(row))


# Battles ----------------------------------------------------------------------------


@bp.operation("get", "/battles", {200: list[BerserkBattle]}, query=GamePage)
def list_battles():
    """Battles, newest first; ?player=<id> keeps that player's; ?limit= (200) and
    ?before=<id> page back."""
    db = get_db()
    return games.listed(service.KIND, lambda row: battle_json(service.load(db, row["id"])))


@bp.operation("post", "/battles", {201: BerserkBattle}, body=BattleNew)
@idempotent("battles", lambda made: games.replayed(BATTLE, made))
def create_battle(body: BattleNew):
    """Put two players' saved squads in play (a moves first); settings default to a's."""
    db = get_db()
    base = None
    if type(body.a) is int and (row := squads.get(db, body.a)) is not None:
        base = service.read_settings(row["settings"])
    settings = service.read_settings(_settings_sent(body), base=base or rules.PUBLISHED)
    game = service.create(db, games.referee_id(), body.a, body.b, settings)
    return games.created(BATTLE, game)


@bp.operation("get", "/battles/<int:game_id>", {200: BerserkBattle})
def get_battle(game_id: int):
    """One battle: creatures with their current properties, and the record."""
    return games.show(BATTLE, game_id)


def _act(game_id: int, action: dict, version: int | None):
    found_or_404(service.load, game_id)
    return games.act(BATTLE, game_id, action, version)


@bp.operation("post", "/battles/<int:game_id>/modifications", WRITTEN, body=ModifyIn)
def modify(game_id: int, body: ModifyIn):
    """Change a creature's properties or elements (B6, B9); lives may kill at once (B10)."""
    return _act(game_id, {"type": "modify", "creature": body.creature,
                          "modification": body.modification}, body.version)


@bp.operation("post", "/battles/<int:game_id>/strikes", WRITTEN, body=StrikeIn)
def strike(game_id: int, body: StrikeIn):
    """Settle a simple strike from the dice (B11): wounds both ways, deaths at once."""
    return _act(game_id, {"type": "strike", **body.sent("version")}, body.version)


@bp.operation("post", "/battles/<int:game_id>/strikes/preview", {200: BerserkPreview},
              body=PreviewIn, load=service.load)
def preview_strike(game_id: int, body: PreviewIn):
    """What a strike would do, as rolled and (in an exchange) lowered; nothing is stored."""
    game = found_or_404(service.load, game_id)
    action = service.read_action({"type": "strike", **body.sent("version")})
    assert isinstance(action, rules.Strike)  # read as a "strike"; else RuleError
    outcomes = service.outcomes(game.state_as(rules.Battle), action)
    return jsonify({"version": game.version,
                    "outcomes": [rules.outcome_to_dict(o) for o in outcomes]})


@bp.operation("post", "/battles/<int:game_id>/actions", WRITTEN, body=BattleAction)
def other_action(game_id: int, body: BattleAction):
    """Any battle action: wound, tap, untap, end_effects (also modify and strike)."""
    return _act(game_id, body.sent("version"), body.version)


@bp.operation("post", "/battles/<int:game_id>/undo", WRITTEN, body=Undo, body_required=False,
              load=service.load)
def undo(game_id: int, body: Undo):
    """Undo the latest action that counts (an undo row is appended)."""
    return games.undo(BATTLE, game_id, body.version)
