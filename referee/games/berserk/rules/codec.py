"""JSON-friendly dicts for battle actions and states.

Action shapes (optional keys may be left out)::

    {"type": "modify", "creature": "b2", "modification": {...see mods.py...}}
    {"type": "end_effects", "creature": "b2", "source": "a4"}
    {"type": "strike", "attacker": "a1", "target": "b2", "attacker_die": 5,
     "defender_die": 1 | null, "lower": false, "attacker_die_mod": 0,
     "defender_die_mod": 0, "strike_mod": 0, "answer_mod": 0}
    {"type": "wound", "creature": "b2", "amount": 2}
    {"type": "tap" | "untap", "creature": "a1"}

``action_from_dict`` checks the shape (FormatError, a ValueError); ``apply`` checks the values.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from referee.games.berserk.rules import battle
from referee.games.berserk.rules.cards import (
    FormatError,
    card_from_dict,
    card_to_dict,
    sorted_elements,
)
from referee.games.berserk.rules.mods import Properties, mod_from_dict, mod_to_dict
from referee.games.berserk.rules.settings import settings_from_dict, settings_to_dict
from referee.games.berserk.rules.strike import Level, StrikeOutcome
from referee.rules import RuleError

ACTION_TYPES: dict[str, type[battle.Action]] = {
    "modify": battle.Modify,
    "end_effects": battle.EndEffects,
    "strike": battle.Strike,
    "wound": battle.Wound,
    "tap": battle.Tap,
    "untap": battle.Untap,
}
_TYPE_NAMES = {cls: name for name, cls in ACTION_TYPES.items()}


def action_to_dict(action: battle.Action) -> dict[str, Any]:
    """A JSON-friendly dict for one action."""
    name = _TYPE_NAMES.get(type(action))
    if name is None:
        raise FormatError(f"not a Berserk action: {action!r}")
    d: dict[str, Any] = {"type": name}
    for f in fields(action):
        value = getattr(action, f.name)
        d[f.name] = mod_to_dict(value) if f.name == "modification" else value
    return d


def action_from_dict(d: Any) -> battle.Action:
    """Rebuild an action from ``action_to_dict``; ValueError on a malformed dict."""
    if not isinstance(d, dict) or not isinstance(d.get("type"), str) or (
            d["type"] not in ACTION_TYPES):
        raise FormatError(f"an action needs 'type', one of {', '.join(ACTION_TYPES)}; got {d!r}")
    cls = ACTION_TYPES[d["type"]]
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(d) - set(known) - {"type"})
    if unknown:
        raise FormatError(f"action {d['type']!r}: unknown field(s) {unknown}")
    missing = sorted(name for name, f in known.items()
                     if name not in d and f.default is MISSING)
    if missing:
        raise FormatError(f"action {d['type']!r}: missing field(s) {missing}")
    values: dict[str, Any] = {k: v for k, v in d.items() if k != "type"}
    if "modification" in values:
        values["modification"] = mod_from_dict(values["modification"])
    return cls(**values)


def props_to_dict(props: Properties) -> dict[str, Any]:
    """Current properties, JSON-friendly."""
    return {
        "cost": props.cost, "elite": props.elite, "lives": props.lives,
        "movement": props.movement,
        "locomotion": str(props.locomotion) if props.locomotion else None,
        "strike": props.strike.as_list() if props.strike else None,
        "elements": [str(e) for e in sorted_elements(props.elements)],
    }


def outcome_to_dict(out: StrikeOutcome) -> dict[str, Any]:
    """A strike's outcome; levels as names: none, weak, medium, strong."""
    return {
        "attack_roll": out.attack_roll, "defence_roll": out.defence_roll,
        "strike": out.strike.name.lower(), "answer": out.answer.name.lower(),
        "wounds_to_target": out.wounds_to_target,
        "wounds_to_attacker": out.wounds_to_attacker,
        "may_lower": out.may_lower, "lowered": out.lowered,
    }


def outcome_from_dict(d: dict[str, Any]) -> StrikeOutcome:
    values = dict(d)
    values["strike"] = Level[d["strike"].upper()]
    values["answer"] = Level[d["answer"].upper()]
    return StrikeOutcome(**values)


def creature_to_dict(c: battle.Creature) -> dict[str, Any]:
    props = c.props
    return {
        "id": c.id, "owner": c.owner, "card": card_to_dict(c.card),
        "mods": [mod_to_dict(m) for m in c.mods], "wounds": c.wounds,
        "tapped": c.tapped, "dead": c.dead, "effective": props_to_dict(props),
        "lives_left": max(0, props.lives - c.wounds),
    }


def state_to_dict(state: battle.Battle) -> dict[str, Any]:
    """The whole battle for the API: every creature with its effective properties."""
    return {
        "settings": settings_to_dict(state.settings),
        "creatures": [creature_to_dict(c) for c in state.creatures],
        "living": {owner: [c.id for c in battle.living(state, owner)]
                   for owner in battle.PLAYERS},
        "winner": battle.winner(state),
        "allowed": {cid: list(kinds) for cid, kinds in battle.allowed(state).items()},
        "last_strike": outcome_to_dict(state.last_strike) if state.last_strike else None,
    }


def state_from_dict(d: Any) -> battle.Battle:
    """Rebuild a battle from ``state_to_dict`` (derived keys are ignored)."""
    if not isinstance(d, dict) or not isinstance(d.get("creatures"), list):
        raise FormatError("a battle needs a list of 'creatures'")
    try:
        creatures = tuple(_creature_from_dict(c) for c in d["creatures"])
        if len({c.id for c in creatures}) != len(creatures):
            raise FormatError("creature ids must be different")
        last = d.get("last_strike")
        return battle.Battle(creatures=creatures,
                             settings=settings_from_dict(d.get("settings", {})),
                             last_strike=outcome_from_dict(last) if last else None)
    except (KeyError, TypeError, AttributeError) as e:
        raise FormatError(f"malformed battle: {e}") from None


def _creature_from_dict(c: dict[str, Any]) -> battle.Creature:
    creature = battle.Creature(id=c["id"], owner=c["owner"], card=card_from_dict(c["card"]),
                               mods=tuple(mod_from_dict(m) for m in c.get("mods", [])),
                               wounds=c.get("wounds", 0), tapped=c.get("tapped", False))
    if not isinstance(creature.id, str) or creature.owner not in battle.PLAYERS:
        raise FormatError(f"creature {creature.id!r}: bad id or owner")
    w = creature.wounds
    if isinstance(w, bool) or not isinstance(w, int) or w < 0:
        raise FormatError(f"creature {creature.id}: 'wounds' must be a whole number >= 0")
    if not isinstance(creature.tapped, bool):
        raise FormatError(f"creature {creature.id}: 'tapped' must be true or false")
    try:
        creature.props  # noqa: B018 - checks every modification against the card
    except RuleError as e:
        raise FormatError(f"creature {creature.id}: {e.text}") from None
    return creature
