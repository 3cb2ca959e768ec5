"""The Berserk-style battle as a game kind (B1–B14): its setup, actions and settings.

A battle's setup holds both squads' printed cards (X fixed, B2) and the event's settings
(B11–B14), so a later edit of a deck file never changes a battle in progress. The
numbers of the published rules an event may change are read here, purely.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields

from referee.games.berserk import rules
from referee.games.berserk.rules import PUBLISHED, Battle, Settings, Strike
from referee.games.interface import Choices, GameKind, default_status
from referee.rules import N_, RuleError, whole

NAME = "berserk"
SIDES = ("a", "b")
SETTING_LIMIT = 99

# The numbers of the published rules an event may change, grouped by their rule.
SETTING_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("B11", ("tapped_medium_from", "tapped_strong_from", "tie_answer_from",
             "strike_taps_attacker")),
    ("B12", ("first_gold", "first_silver", "second_gold", "second_silver")),
    ("B13", ("element_penalty",)),
    ("B14", ("flyer_cost_limit", "max_copies", "max_unique_copies", "deck_min", "deck_max")),
)
SETTING_RULE = {key: rule for rule, keys in SETTING_GROUPS for key in keys}
SETTING_LABELS = {
    "tapped_medium_from": N_("Tapped target: medium strike from a roll of"),
    "tapped_strong_from": N_("Tapped target: strong strike from a roll of"),
    "tie_answer_from": N_("Tie: the target answers when the attacker rolled at least"),
    "strike_taps_attacker": N_("A creature that strikes is tapped"),
    "first_gold": N_("First player: gold crystals"),
    "first_silver": N_("First player: silver crystals"),
    "second_gold": N_("Second player: gold crystals"),
    "second_silver": N_("Second player: silver crystals"),
    "element_penalty": N_("Gold lost for each element beyond the first"),
    "flyer_cost_limit": N_("Flying creatures may cost at most"),
    "max_copies": N_("Copies of a card at most"),
    "max_unique_copies": N_("Copies of a unique card at most"),
    "deck_min": N_("Cards in a deck at least"),
    "deck_max": N_("Cards in a deck at most"),
}

UNKNOWN_SETTING = N_("There is no setting %(setting)s; use one of %(settings)s.")
BAD_SETUP = N_("This battle's setup cannot be read (%(detail)s); start the battle again "
               "from two saved squads.")
NO_SQUAD = N_("There is no squad %(id)s; it may have been mistyped. Open the list of squads.")


def _number(key: str, value: object, strict: bool) -> int:
    if not strict and isinstance(value, str) and (number := whole(value)) is not None:
        value = number
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= SETTING_LIMIT:
        raise RuleError(SETTING_RULE[key],
                        N_("%(setting)s must be a whole number from 0 to %(limit)s, not "
                           "%(value)s."),
                        setting=key, limit=SETTING_LIMIT, value=str(value)[:20])
    return value


def _switch(key: str, value: object, strict: bool) -> bool:
    if not strict and isinstance(value, str) and value in ("0", "1", "on", "off", "true",
                                                           "false"):
        return value in ("1", "on", "true")
    if not isinstance(value, bool):
        raise RuleError(SETTING_RULE[key], N_("%(setting)s is either yes or no, not %(value)s."),
                        setting=key, value=str(value)[:20])
    return value


def read_settings(values: object, strict: bool = True,
                  base: Settings = PUBLISHED) -> Settings:
    """Settings from JSON (``strict``: numbers and booleans) or from a form (text).
    Missing keys keep ``base``; every refusal names the setting and its rule."""
    if values is None:
        return base
    if not isinstance(values, Mapping):
        raise RuleError(None, UNKNOWN_SETTING, setting="?", settings=", ".join(SETTING_RULE))
    known = {f.name: f for f in fields(Settings)}
    chosen: dict[str, object] = {}
    for key, value in values.items():
        if key not in known:
            raise RuleError(None, UNKNOWN_SETTING, setting=str(key)[:40],
                            settings=", ".join(SETTING_RULE))
        if known[key].type == "bool":
            chosen[key] = _switch(key, value, strict)
        else:
            chosen[key] = _number(key, value, strict)
    settings = Settings(**{**rules.settings_to_dict(base), **chosen})
    if settings.deck_min > settings.deck_max:
        raise RuleError("B14", N_("A deck of at least %(min)s cards cannot also have at most "
                                  "%(max)s; lower the first number or raise the second."),
                        min=settings.deck_min, max=settings.deck_max)
    if settings.tapped_medium_from > settings.tapped_strong_from:
        raise RuleError("B11", N_("A medium strike on a tapped target from %(medium)s cannot "
                                  "come after a strong one from %(strong)s; lower the first "
                                  "number."),
                        medium=settings.tapped_medium_from, strong=settings.tapped_strong_from)
    return settings


def changed_settings(settings: Settings) -> dict[str, object]:
    """The settings that differ from the published rules (shown on the screens)."""
    published = rules.settings_to_dict(PUBLISHED)
    return {k: v for k, v in rules.settings_to_dict(settings).items() if published[k] != v}


# The stored-game kind ------------------------------------------------------------------


def start(setup: object) -> Battle:
    """The battle a stored setup starts; RuleError for a setup that is not right."""
    if not isinstance(setup, dict) or not all(isinstance(setup.get(s), dict) for s in SIDES):
        raise RuleError(None, BAD_SETUP, detail="sides a and b")
    settings = read_settings(setup.get("settings") or {})
    squads = []
    for side in SIDES:
        raw = setup[side].get("cards")
        if not isinstance(raw, list):
            raise RuleError(None, BAD_SETUP, detail=f"cards of side {side}")
        try:
            cards = tuple(rules.card_from_dict(c) for c in raw)
        except ValueError as err:
            raise RuleError(None, BAD_SETUP, detail=str(err)[:200]) from None
        if not cards:
            raise RuleError("B12", N_("The squad of side %(side)s has no cards; add cards to "
                                      "it first."), side=side.upper())
        squads.append(cards)
    # B12–B14: the engine checks both squads against these settings, a first, b second.
    return rules.start(squads[0], squads[1], settings)


def read_action(d: object) -> rules.Action:
    """An action dict as the engine reads it; a malformed one is a refusal, not a crash."""
    try:
        return rules.action_from_dict(d)
    except (ValueError, TypeError) as err:
        raise RuleError(None, N_("This action cannot be read (%(detail)s); check its fields "
                                 "against the API description."),
                        detail=str(err)[:200]) from None


def finished(state: Battle) -> bool:
    """A battle ends when one side (or both) has no living creature left."""
    return rules.winner(state) is not None






def legal(state: Battle) -> list[rules.Action]:
    """Strikes as they may be rolled (B11), taps, untaps and ends of effects, now.

    Modifications and wounds from abilities are open-ended (any card text): the screens
    offer them as forms, and they are not listed here."""
    if finished(state):
        return []
    out: list = []
    dice = range(1, 7)
    for creature, kinds in rules.allowed(state).items():
        if "tap" in kinds:
            out.append(rules.Tap(creature))
        if "untap" in kinds:
            out.append(rules.Untap(creature))
        if "strike" in kinds:
            for target in rules.targets(state, creature):
                answers = (None,) if rules.creature(state, target).tapped else dice
                out.extend(Choices(lambda a, d, c=creature, t=target: Strike(c, t, a, d),
                                   dice, answers))
    return out


def read(state: Battle) -> dict:
    """The battle as plain data: creatures, their properties, whose move, the winner."""
    return rules.state_to_dict(state)


KIND = GameKind(
    name=NAME, title=N_("Berserk battles"), start=start, legal=legal, apply=rules.apply,
    read=read, action_from_dict=read_action, action_to_dict=rules.action_to_dict,
    status=default_status(finished))
