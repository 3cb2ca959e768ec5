"""JSON shapes of the card duel: actions as stored and replayed, states for the API.

Round: ``{"type": "round", "a": {"table": "10S", "hand": null, "tokens": 0}, "b": {…}}``;
``"table"`` is null for a table card a hand card covered before it was read (D7).
Extension: ``{"type": "extension", "a": true, "b": false}``. Cards read in any D3
notation and are written back as canonical codes.
"""

from __future__ import annotations

from referee.games.duel.rules import model
from referee.rules import RuleError
from referee.rules.cards import parse_card


def _code(card: object) -> str | None:
    return None if model.is_blank(card) else parse_card(card).code


def _play_to_dict(play: object) -> dict[str, object]:
    # D7: the table card may be null when a hand card lies over it unread
    if not isinstance(play, model.Play) or model.is_blank(play.table) and model.is_blank(play.hand):
        raise RuleError("D6", model.ROUND_SHAPE)
    return {"table": _code(play.table), "hand": _code(play.hand), "tokens": play.tokens}


def action_to_dict(action: model.Action) -> dict[str, object]:
    """The JSON form of an action, cards as canonical codes."""
    if isinstance(action, model.Round):
        return {"type": "round", "a": _play_to_dict(action.a), "b": _play_to_dict(action.b)}
    if isinstance(action, model.Extension):
        return {"type": "extension", "a": action.a, "b": action.b}
    raise RuleError("D6", model.ACTION_SHAPE)


def _play_from_dict(data: object) -> model.Play:
    if not isinstance(data, dict) or model.is_blank(data.get("table")) and model.is_blank(
            data.get("hand")):
        raise RuleError("D6", model.ROUND_SHAPE)
    tokens = data.get("tokens", 0)
    if type(tokens) is not int or tokens < 0:  # D8: bool and 2.0 are not token counts
        raise RuleError("D8", model.TOKENS_WHOLE)
    return model.Play(table=_code(data.get("table")), hand=_code(data.get("hand")), tokens=tokens)


def action_from_dict(data: object) -> model.Action:
    """Read an action from JSON; RuleError names the closest rule when it is malformed."""
    if not isinstance(data, dict):
        raise RuleError("D6", model.ACTION_SHAPE)
    kind = data.get("type")
    if kind == "round":
        return model.Round(a=_play_from_dict(data.get("a")), b=_play_from_dict(data.get("b")))
    if kind == "extension":
        a, b = data.get("a"), data.get("b")
        if not isinstance(a, bool) or not isinstance(b, bool):
            raise RuleError("D12", model.EXTENSION_SHAPE)
        return model.Extension(a=a, b=b)
    raise RuleError("D6", model.ACTION_SHAPE)


def _laid_to_dict(laid: model.PlayRecord) -> dict[str, object]:
    return {"table": laid.table, "hand": laid.hand, "tokens": laid.tokens, "total": laid.total}


def round_to_dict(record: model.RoundRecord) -> dict[str, object]:
    """One played round as the API shows it."""
    return {
        "n": record.n,
        "a": _laid_to_dict(record.a),
        "b": _laid_to_dict(record.b),
        "winner": record.winner,
    }


def _result_to_dict(result: model.Result | None) -> dict[str, object] | None:
    return None if result is None else {"winner": result.winner, "reason": result.reason}


def state_to_dict(state: model.DuelState) -> dict[str, object]:
    """The API body of a duel; the web layer adds id, version and the player ids."""
    return {
        "status": state.status,
        "rounds": [round_to_dict(r) for r in state.rounds],
        "result": _result_to_dict(state.result),
    }


def record_to_dict(state: model.DuelState) -> dict[str, object]:
    """The full D14 record: duelists, rounds, cartridges paid, HP changes, the result."""
    duelists = {}
    for key, side in (("a", state.a), ("b", state.b)):
        duelists[key] = {
            "player": side.start.player,
            "suit": side.suit,
            "hp_before": side.start.hp,
            "hp_after": side.hp,
            "chance_before": side.start.chance,
            "chance_after": side.chance,
            "cartridges_paid": side.cartridges_paid,
            "table_cards": list(side.table_cards),
            "surrendered": list(side.surrendered),
            "heavy_wound": side.heavy_wound,
        }
    return {
        "duelists": duelists,
        "rounds": [round_to_dict(r) for r in state.rounds],
        "extensions": [{"a": a, "b": b} for a, b in state.extensions],
        "status": state.status,
        "result": _result_to_dict(state.result),
    }


_DUELIST_FIELDS = ("player", "hp", "chance", "chance_max", "cartridges", "duel_deck", "suit")


def duelist_to_dict(duelist: model.Duelist) -> dict[str, object]:
    """A start snapshot as JSON, so a stored duel can be replayed from it."""
    data: dict[str, object] = {name: getattr(duelist, name) for name in _DUELIST_FIELDS}
    data["duel_deck"] = list(duelist.duel_deck)
    data["can_fight"] = duelist.can_fight
    data["name"] = duelist.name
    return data


def duelist_from_dict(data: object) -> model.Duelist:
    """Read a start snapshot; ``start`` checks the values themselves (D1, D4)."""
    if not isinstance(data, dict) or any(name not in data for name in _DUELIST_FIELDS):
        player = data.get("name") or data.get("player") if isinstance(data, dict) else ""
        raise RuleError("D4", model.BAD_STATS, player=str(player or ""))
    deck = data["duel_deck"]
    if not isinstance(deck, list | tuple):
        raise RuleError("D1", model.DECK_SHAPE, player=str(data.get("name") or data["player"]))
    return model.Duelist(
        player=data["player"],
        hp=data["hp"],
        chance=data["chance"],
        chance_max=data["chance_max"],
        cartridges=data["cartridges"],
        duel_deck=tuple(deck),
        suit=data["suit"],
        can_fight=data.get("can_fight", True) is True,
        name=str(data.get("name") or ""),
    )
