"""Modifications of card properties (B6) and elements (B9), applied in order.

A modification is one effect as the referee reads it off a card. ``effective`` folds a
card's modifications over its printed properties; ``explain`` shows every step that led
to one property's value. Dict shapes (``mod_to_dict`` / ``mod_from_dict``)::

    {"op": "overwrite", "lives": 1, "movement": 1, "strike": [1, 1, 1], "source": "a4"}
    {"op": "lives", "amount": -3}              # B6: +X / -X lives
    {"op": "halve", "props": ["lives", "strike"], "round_up": true}
    {"op": "gain" | "become" | "lose", "element": "forest"}

``source`` (optional everywhere) names what made the effect: a creature's instance id
such as "a4", or a short free text (B7).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from referee.games.berserk.rules.cards import Card, Element, FormatError, Locomotion, SimpleStrike
from referee.rules import N_, RuleError

SOURCE_LIMIT = 60
LIVES_LIMIT = 99

# B1: the base properties; elements are not base and change by B9 only.
OVERWRITABLE = ("cost", "elite", "lives", "movement", "strike")
HALVABLE = ("cost", "lives", "movement", "strike")

OP_NAMES: dict[str, str] = {
    "printed": N_("printed"),
    "overwrite": N_("overwritten"),
    "lives": N_("lives added or taken"),
    "halve_up": N_("halved, rounding up"),
    "halve_down": N_("halved, rounding down"),
    "gain": N_("gains an element"),
    "become": N_("becomes an element"),
    "lose": N_("loses an element"),
}


@dataclass(frozen=True)
class Overwrite:
    """B6: new values replace the base properties given (None = unchanged)."""

    cost: int | None = None
    elite: bool | None = None
    lives: int | None = None
    movement: int | None = None
    strike: SimpleStrike | None = None
    source: str = ""

    def props(self) -> tuple[str, ...]:
        return tuple(p for p in OVERWRITABLE if getattr(self, p) is not None)


@dataclass(frozen=True)
class AddLives:
    """B6 exception: "+X lives" adds X lives, "-X lives" takes X away."""

    amount: int
    source: str = ""


@dataclass(frozen=True)
class Halve:
    """B6 seed: halve some numeric properties, each strike number on its own (the second
    use of the seed's effect halves lives and strike, rounding up: 13, 3-3-4 → 7, 2-2-2)."""

    props: tuple[str, ...]
    round_up: bool = True
    source: str = ""


@dataclass(frozen=True)
class _ElementChange:
    """B9: an effect on one ``element`` of the card; each kind below says which."""

    element: Element
    source: str = ""


@dataclass(frozen=True)
class GainElement(_ElementChange):
    """B9: the card keeps its other elements."""


@dataclass(frozen=True)
class BecomeElement(_ElementChange):
    """B9: the card loses all other elements."""


@dataclass(frozen=True)
class LoseElement(_ElementChange):
    """B9: losing the last element makes the card Neutral."""


Modification = Overwrite | AddLives | Halve | GainElement | BecomeElement | LoseElement
MOD_TYPES = (Overwrite, AddLives, Halve, GainElement, BecomeElement, LoseElement)
_ELEMENT_OPS = {GainElement: "gain", BecomeElement: "become", LoseElement: "lose"}


@dataclass(frozen=True)
class Properties:
    """The current (effective) properties of a card: never negative."""

    cost: int
    elite: bool
    lives: int
    movement: int | None
    locomotion: Locomotion | None
    strike: SimpleStrike | None
    elements: frozenset[Element]

    def get(self, prop: str) -> Any:
        return getattr(self, prop)


@dataclass(frozen=True)
class Step:
    """One line of ``explain``: what happened (``op``, see OP_NAMES) and the value after."""

    op: str
    value: Any
    mod: Modification | None = None

    @property
    def source(self) -> str:
        return self.mod.source if self.mod is not None else ""


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_mod(card: Card, mod: object) -> None:
    """Raise RuleError unless ``mod`` is a well-formed modification that fits ``card``."""
    if not isinstance(mod, MOD_TYPES):
        raise RuleError("B6", N_("A modification must overwrite properties, add or take "
                                 "lives, halve properties, or gain, become or lose an "
                                 "element; choose one of these."))
    if not isinstance(mod.source, str) or len(mod.source) > SOURCE_LIMIT:
        raise RuleError("B7", N_("The source of an effect must be a short text (up to "
                                 "%(limit)s characters), such as a creature's id."),
                        limit=SOURCE_LIMIT)
    if isinstance(mod, Overwrite):
        _check_overwrite(card, mod)
    elif isinstance(mod, AddLives):
        if not _is_int(mod.amount) or mod.amount == 0 or abs(mod.amount) > LIVES_LIMIT:
            raise RuleError("B6", N_("Lives change by a whole number from -%(limit)s to "
                                     "%(limit)s other than 0, not %(value)s."),
                            limit=LIVES_LIMIT, value=str(mod.amount)[:20])
    elif isinstance(mod, Halve):
        if (not isinstance(mod.props, tuple) or not mod.props
                or any(p not in HALVABLE for p in mod.props)):
            raise RuleError("B1", N_("Only the numbers cost, lives, movement and strike can "
                                     "be halved; choose one or more of them."))
        if not isinstance(mod.round_up, bool):
            raise RuleError("B6", N_("Halving rounds either up or down; choose one."))
        _check_props_exist(card, mod.props)
    elif not isinstance(mod.element, Element):
        raise RuleError("B8", N_("Unknown element %(value)s; use one of steppe, forest, "
                                 "mountains, swamps, darkness or fire."),
                        value=str(mod.element)[:20])


def _check_overwrite(card: Card, mod: Overwrite) -> None:
    if not mod.props():
        raise RuleError("B6", N_("An overwrite must give a new cost, eliteness, lives, "
                                 "movement or strike; enter at least one."))
    for prop in ("cost", "lives", "movement"):
        value = getattr(mod, prop)
        if value is not None and (not _is_int(value) or not 0 <= value <= LIVES_LIMIT):
            raise RuleError("B6", N_("An overwritten number must be a whole number from 0 "
                                     "to %(limit)s, not %(value)s."),
                            limit=LIVES_LIMIT, value=str(value)[:20])
    if mod.elite is not None and not isinstance(mod.elite, bool):
        raise RuleError("B6", N_("Eliteness is overwritten with elite or ordinary; choose "
                                 "one."))
    s = mod.strike
    if s is not None and not (isinstance(s, SimpleStrike) and all(
            _is_int(v) and 0 <= v <= LIVES_LIMIT for v in (s.weak, s.medium, s.strong))):
        raise RuleError("B5", N_("A strike is overwritten as three whole numbers X-Y-Z from "
                                 "0 to %(limit)s."), limit=LIVES_LIMIT)
    _check_props_exist(card, mod.props())


def _check_props_exist(card: Card, props: tuple[str, ...]) -> None:
    if "movement" in props and card.locomotion is not Locomotion.GROUND:
        raise RuleError("B4", N_("%(card)s has no movement number (it flies, is a symbiote "
                                 "or an artifact); change another property."),
                        card=card.code)
    if "strike" in props and card.strike is None:
        raise RuleError("B5", N_("%(card)s is an artifact and has no simple strike; change "
                                 "another property."), card=card.code)


def printed(card: Card) -> Properties:
    """The properties as printed (with X fixed, B2)."""
    return Properties(cost=card.cost, elite=card.elite, lives=card.lives,
                      movement=card.movement, locomotion=card.locomotion,
                      strike=card.strike, elements=card.elements)


def _halve(n: int, up: bool) -> int:
    return (n + 1) // 2 if up else n // 2


def step(props: Properties, mod: Modification) -> Properties:
    """Apply one modification (already checked) to current properties."""
    if isinstance(mod, Overwrite):
        return replace(props, **{p: getattr(mod, p) for p in mod.props()})
    if isinstance(mod, AddLives):
        # B6: -X lives takes X away; lives never go below 0.
        return replace(props, lives=max(0, props.lives + mod.amount))
    if isinstance(mod, Halve):
        new: dict[str, Any] = {}
        for p in mod.props:
            value = props.get(p)
            if isinstance(value, SimpleStrike):
                new[p] = SimpleStrike(*(_halve(v, mod.round_up) for v in value.as_list()))
            elif value is not None:
                new[p] = _halve(value, mod.round_up)
        return replace(props, **new)
    if isinstance(mod, GainElement):
        return replace(props, elements=props.elements | {mod.element})
    if isinstance(mod, BecomeElement):
        return replace(props, elements=frozenset({mod.element}))
    # B9: without elements the card is Neutral (an empty set).
    return replace(props, elements=props.elements - {mod.element})


def effective(card: Card, mods: tuple[Modification, ...] | list[Modification] = ()
              ) -> Properties:
    """Current properties of ``card`` after ``mods`` in order (B6, B9)."""
    props = printed(card)
    for mod in mods:
        check_mod(card, mod)
        props = step(props, mod)
    return props


def touches(mod: Modification, prop: str) -> bool:
    """Whether ``mod`` changes (or may change) ``prop``."""
    if isinstance(mod, Overwrite):
        return prop in mod.props()
    if isinstance(mod, AddLives):
        return prop == "lives"
    if isinstance(mod, Halve):
        return prop in mod.props
    return prop == "elements"


def op_of(mod: Modification) -> str:
    """The OP_NAMES key of a modification."""
    if isinstance(mod, Overwrite):
        return "overwrite"
    if isinstance(mod, AddLives):
        return "lives"
    if isinstance(mod, Halve):
        return "halve_up" if mod.round_up else "halve_down"
    return _ELEMENT_OPS[type(mod)]


def explain(card: Card, mods: tuple[Modification, ...] | list[Modification], prop: str
            ) -> tuple[Step, ...]:
    """How ``prop`` got its value: the printed value, then each modification touching it."""
    if prop not in ("cost", "elite", "lives", "movement", "strike", "elements"):
        raise RuleError("B1", N_("Properties are cost, eliteness, lives, movement, strike "
                                 "and elements; choose one of them."))
    props = printed(card)
    steps = [Step("printed", props.get(prop))]
    for mod in mods:
        check_mod(card, mod)
        props = step(props, mod)
        if touches(mod, prop):
            steps.append(Step(op_of(mod), props.get(prop), mod))
    return tuple(steps)


def mod_to_dict(mod: Modification) -> dict[str, Any]:
    """A JSON-friendly dict for one modification."""
    if not isinstance(mod, MOD_TYPES):
        raise FormatError(f"not a modification: {mod!r}")
    d: dict[str, Any] = {"op": op_of(mod)}
    if isinstance(mod, Overwrite):
        for p in mod.props():
            value = getattr(mod, p)
            d[p] = value.as_list() if isinstance(value, SimpleStrike) else value
    elif isinstance(mod, AddLives):
        d["amount"] = mod.amount
    elif isinstance(mod, Halve):
        d.update(op="halve", props=list(mod.props), round_up=mod.round_up)
    else:
        d["element"] = str(mod.element)
    if mod.source:
        d["source"] = mod.source
    return d


_FIELDS = {
    "overwrite": {"cost", "elite", "lives", "movement", "strike"},
    "lives": {"amount"},
    "halve": {"props", "round_up"},
    "gain": {"element"},
    "become": {"element"},
    "lose": {"element"},
}


def mod_from_dict(d: Any) -> Modification:
    """Inverse of ``mod_to_dict``; ValueError on a malformed dict (values are checked by
    ``check_mod`` when the modification is applied)."""
    if not isinstance(d, dict) or not isinstance(d.get("op"), str) or d["op"] not in _FIELDS:
        raise FormatError(f"a modification needs 'op', one of {', '.join(_FIELDS)}; got {d!r}")
    op = d["op"]
    unknown = set(d) - _FIELDS[op] - {"op", "source"}
    if unknown:
        raise FormatError(f"modification {op!r}: unknown field(s) {sorted(unknown)}")
    source = d.get("source", "")
    if op == "overwrite":
        values = {p: d[p] for p in _FIELDS[op] if p in d}
        if "strike" in values:
            s = values["strike"]
            if not isinstance(s, (list, tuple)) or len(s) != 3:
                raise FormatError(
                    f"modification 'overwrite': 'strike' must be [X, Y, Z], got {s!r}")
            values["strike"] = SimpleStrike(*s)
        return Overwrite(source=source, **values)
    if op == "lives":
        if "amount" not in d:
            raise FormatError("modification 'lives' needs 'amount'")
        return AddLives(d["amount"], source)
    if op == "halve":
        props = d.get("props")
        if not isinstance(props, (list, tuple)):
            raise FormatError(f"modification 'halve': 'props' must be a list, got {props!r}")
        return Halve(tuple(props), d.get("round_up", True), source)
    raw: Any = d.get("element")
    try:
        element = Element(raw)
    except ValueError:
        raise FormatError(f"modification {op!r}: unknown element {raw!r}") from None
    if op == "gain":
        return GainElement(element, source)
    if op == "become":
        return BecomeElement(element, source)
    return LoseElement(element, source)
