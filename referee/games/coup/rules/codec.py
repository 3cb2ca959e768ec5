"""Coup: JSON-friendly actions and state, and readable log lines."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, fields
from typing import Any

from referee.games.coup.rules import model
from referee.games.coup.rules.query import awaiting, legal_actions, options
from referee.rules import N_, RuleError

_TAGS: dict[str, type[model.Action]] = {
    "declare": model.Declare,
    "challenge": model.Challenge,
    "reveal": model.Reveal,
    "block": model.Block,
    "lose_influence": model.LoseInfluence,
    "examine_verdict": model.ExamineVerdict,
}
_TAG_OF = {cls: tag for tag, cls in _TAGS.items()}
# Field types: str, bool, or str-or-None (may be left out, meaning None).
_FIELD_TYPES: dict[type, dict[str, str]] = {
    model.Declare: {"player": "str", "action": "str", "target": "str?"},
    model.Challenge: {"challenger": "str?"},
    model.Reveal: {"player": "str", "character": "str", "shown": "bool"},
    model.Block: {"blocker": "str?", "character": "str?"},
    model.LoseInfluence: {"player": "str", "character": "str"},
    model.ExamineVerdict: {"player": "str", "swap": "bool"},
}


def action_to_dict(action: model.Action) -> dict[str, object]:
    """``{"type": ..., field: value, ...}``, for the event log."""
    tag = _TAG_OF.get(type(action))
    if tag is None:
        raise _malformed("type")
    return {"type": tag, **{f.name: getattr(action, f.name) for f in fields(action)}}


def action_from_dict(data: object) -> model.Action:
    """The action stored by ``action_to_dict``; malformed input raises ``RuleError``."""
    if not isinstance(data, dict):
        raise _malformed("type")
    tag = data.get("type")
    cls = _TAGS.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise _malformed("type")
    spec = _FIELD_TYPES[cls]
    for key in data:
        if key != "type" and key not in spec:
            raise _malformed(str(key))
    values: dict[str, Any] = {}
    for name, kind in spec.items():
        if name not in data and not kind.endswith("?"):
            raise _malformed(name)
        value = data.get(name)
        ok = (
            isinstance(value, bool) if kind == "bool"
            else isinstance(value, str) or (kind == "str?" and value is None)
        )
        if not ok:
            raise _malformed(name)
        values[name] = value
    return cls(**values)


def _malformed(field: str) -> RuleError:
    return RuleError(
        "C4",
        N_("This action record is malformed (%(field)s); send a known action type with "
           "its fields."),
        field=field,
    )


def log_text(entry: model.LogEntry, gettext: Callable[[str], str] | None = None) -> str:
    """The log line in the reader's language (``gettext`` translates; default English)."""
    tr = gettext or (lambda s: s)
    params = {
        k: tr(model.CHARACTER_NAMES[v]) if k == "character" and v in model.CHARACTER_NAMES else v
        for k, v in entry.params
    }
    return tr(entry.message) % params


def state_to_dict(state: model.CoupState) -> dict[str, object]:
    """The table for the API: seats, coins, cards face up, the question on screen, log."""
    q = awaiting(state)
    pending = state.pending
    return {
        "game": "coup",
        "variant": state.variant,
        "characters": list(state.in_play),
        "copies": state.copies,
        "players": [
            {
                "id": p.id,
                "coins": p.coins,
                "face_up": list(p.face_up),
                "influence": p.influence,
                "out": not p.alive,
            }
            for p in state.players
        ],
        "supply": state.supply,
        "total_coins": model.TOTAL_COINS,
        "court": state.court,
        "out_of_game": state.out_of_game,
        "face_up": {c: state.face_up_count(c) for c in state.in_play},
        "turn": state.turn,
        "must_coup": q.kind == "declare" and state.player(state.turn).coins >= model.FORCED_COUP,
        "step": state.step,
        "pending": asdict(pending) if pending is not None else None,
        "loser": state.loser,
        "shown": state.shown,
        "awaiting": {
            **asdict(q),
            "players": list(q.players),
            "characters": list(q.characters),
        },
        "legal_actions": [action_to_dict(a) for a in legal_actions(state)],
        "options": [action_to_dict(a) for a in options(state)],
        "winner": state.winner,
        "log": [
            {
                "rule": e.rule,
                "message": e.message,
                "params": dict(e.params),
                "text": log_text(e),
            }
            for e in state.log
        ],
    }
