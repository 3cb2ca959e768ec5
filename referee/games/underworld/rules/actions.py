"""Underworld actions: what a referee enters, one frozen dataclass each, and their JSON.

Chance arrives here as data: ``Draw`` carries the code of the card turned over,
``ChangeClass`` the class card drawn. ``kind`` is the JSON name of each action.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from referee.rules import N_, RuleError


@dataclass(frozen=True)
class _Action:
    """Every action: ``kind`` names it in JSON, ``rule`` is cited when its fields are wrong."""

    kind: ClassVar[str]
    rule: ClassVar[str]

    def __init_subclass__(cls, *, kind: str, rule: str) -> None:
        super().__init_subclass__()
        cls.kind, cls.rule = kind, rule


@dataclass(frozen=True)
class Draw(_Action, kind="draw", rule="U5"):
    """U5: the active player steps into the castle and turns over ``code``."""

    code: str


@dataclass(frozen=True)
class PlayCard(_Action, kind="play", rule="U10"):
    """U10: ``player`` plays ``code`` from the inventory; an item may name the item of
    its type in play that it ``replaces`` (the old one is discarded)."""

    player: str
    code: str
    replaces: str = ""


@dataclass(frozen=True)
class OfferHelp(_Action, kind="offer_help", rule="U11"):
    """U11: ``helper`` offers to help ``fighter`` in the pending fight for ``reward``."""

    helper: str
    fighter: str
    reward: str


@dataclass(frozen=True)
class AnswerHelp(_Action, kind="answer_help", rule="U11"):
    """U11: the fighter accepts or refuses ``helper``'s offer."""

    helper: str
    accept: bool


@dataclass(frozen=True)
class Summon(_Action, kind="summon", rule="U12"):
    """U12: ``player`` uses the Summoning skill ``skill`` on the monster just met
    (``monster`` empty) or on ``monster`` from their inventory."""

    player: str
    skill: str
    monster: str = ""


@dataclass(frozen=True)
class PowerUp(_Action, kind="power_up", rule="U14"):
    """U14: ``player`` powers the characteristic ability, discarding ``discards``."""

    player: str
    discards: tuple[str, ...]


@dataclass(frozen=True)
class AdjustMonster(_Action, kind="adjust_monster", rule="U7"):
    """U7: a card's text changes the monster's score by ``amount``."""

    amount: int
    card: str = ""


@dataclass(frozen=True)
class Fight(_Action, kind="fight", rule="U7"):
    """U7/U8/U13: compare the scores of the pending fight and settle it."""


@dataclass(frozen=True)
class Challenge(_Action, kind="challenge", rule="U13"):
    """U13/U17: ``challenger`` fights ``defender`` (from an event, or in the play-off)."""

    challenger: str
    defender: str


@dataclass(frozen=True)
class EventLevel(_Action, kind="event_level", rule="U5"):
    """U5: the event being followed changes ``player``'s level by ``delta``."""

    player: str
    delta: int


@dataclass(frozen=True)
class EventDiscard(_Action, kind="event_discard", rule="U5"):
    """U5: the event being followed makes ``player`` discard ``code`` from the inventory,
    or from the play area when ``in_play``."""

    player: str
    code: str
    in_play: bool = False


@dataclass(frozen=True)
class EventGive(_Action, kind="event_give", rule="U5"):
    """U5: the event being followed makes ``giver`` hand ``code`` (from the inventory, or
    from the play area when ``in_play``) to ``receiver``'s inventory, nothing in return."""

    giver: str
    receiver: str
    code: str
    in_play: bool = False


@dataclass(frozen=True)
class EventDraw(_Action, kind="event_draw", rule="U5"):
    """U5: the event being followed gives the active player one more castle card,
    ``code``, into the inventory (no step is taken)."""

    code: str


@dataclass(frozen=True)
class EventNoSecondStep(_Action, kind="event_no_second_step", rule="U6"):
    """U6: the event being followed ends the active player's steps: no second step this
    turn."""


@dataclass(frozen=True)
class EventDone(_Action, kind="event_done", rule="U5"):
    """U5: the event has been followed; its card is discarded and the step ends."""


@dataclass(frozen=True)
class ChangeClass(_Action, kind="change_class", rule="U9"):
    """U9: after two wins in a row the player drew ``code`` from the class deck."""

    code: str


@dataclass(frozen=True)
class KeepClass(_Action, kind="keep_class", rule="U9"):
    """U9: the player declines to draw a class card."""


@dataclass(frozen=True)
class EndTurn(_Action, kind="end_turn", rule="U6"):
    """U6: the active player takes no further step."""


@dataclass(frozen=True)
class Discard(_Action, kind="discard", rule="U15"):
    """U15: the active player discards ``codes`` to keep 4 inventory cards."""

    codes: tuple[str, ...]


@dataclass(frozen=True)
class Trade(_Action, kind="trade", rule="U10"):
    """U10: ``player`` gives ``gives`` and takes ``takes`` from ``partner``'s inventory."""

    player: str
    partner: str
    gives: tuple[str, ...]
    takes: tuple[str, ...]


Action = (Draw | PlayCard | OfferHelp | AnswerHelp | Summon | PowerUp | AdjustMonster | Fight
          | Challenge | EventLevel | EventDiscard | EventGive | EventDraw | EventNoSecondStep
          | EventDone | ChangeClass | KeepClass | EndTurn | Discard | Trade)
ACTIONS: dict[str, type[Action]] = {a.kind: a for a in (
    Draw, PlayCard, OfferHelp, AnswerHelp, Summon, PowerUp, AdjustMonster, Fight, Challenge,
    EventLevel, EventDiscard, EventGive, EventDraw, EventNoSecondStep, EventDone, ChangeClass,
    KeepClass, EndTurn, Discard, Trade)}


def check_action(action: object) -> None:
    """Raise RuleError unless ``action`` is an Underworld action with well-typed fields."""
    if not isinstance(action, _Action) or type(action) not in ACTIONS.values():
        raise RuleError("U5", N_("This is not an Underworld action; choose one of "
                                 "%(kinds)s."), kinds=", ".join(ACTIONS))
    for f in fields(action):
        _check_value(action.kind, action.rule, f.name, str(f.type), getattr(action, f.name))


def _check_value(kind: str, rule: str, name: str, typ: str, value: object) -> None:
    if typ == "str" and not isinstance(value, str):
        raise RuleError(rule, N_("%(action)s: %(field)s must be text (a card code or a player "
                                 "id); correct it."), action=kind, field=name)
    if typ == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        raise RuleError(rule, N_("%(action)s: %(field)s must be a whole number; correct it."),
                        action=kind, field=name)
    if typ == "bool" and not isinstance(value, bool):
        raise RuleError(rule, N_("%(action)s: %(field)s must be true or false; correct it."),
                        action=kind, field=name)
    if typ.startswith("tuple") and not (
            isinstance(value, tuple) and all(isinstance(v, str) for v in value)):
        raise RuleError(rule, N_("%(action)s: %(field)s must be a list of card codes; "
                                 "correct it."), action=kind, field=name)


def action_to_dict(action: Action) -> dict[str, object]:
    """JSON-friendly form: ``{"kind": ..., field: value, ...}`` (tuples become lists)."""
    check_action(action)
    out: dict[str, object] = {"kind": action.kind}
    for f in fields(action):
        value = getattr(action, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def action_from_dict(d: object) -> Action:
    """The action ``action_to_dict`` wrote; RuleError on anything malformed."""
    if not isinstance(d, dict) or d.get("kind") not in ACTIONS:
        kind = d.get("kind") if isinstance(d, dict) else None
        raise RuleError("U5", N_("Unknown action %(kind)s; choose one of %(kinds)s."),
                        kind=str(kind), kinds=", ".join(ACTIONS))
    cls = ACTIONS[d["kind"]]
    names = {f.name: f for f in fields(cls)}
    for key in d:
        if key != "kind" and key not in names:
            raise RuleError(cls.rule, N_("%(action)s: unknown field %(field)s; remove it."),
                            action=cls.kind, field=str(key))
    values: dict[str, Any] = {}
    for name, f in names.items():
        if name not in d:
            if f.default is not MISSING:
                continue
            raise RuleError(cls.rule, N_("%(action)s: the field %(field)s is missing; add "
                                         "it."), action=cls.kind, field=name)
        value = d[name]
        values[name] = tuple(value) if isinstance(value, list) else value
    action = cls(**values)
    check_action(action)
    return action
