"""Wounds and death (B10) and the simple-strike table (B11), as pure functions.

``resolve`` takes the dice the referee read off the table and both sides' current
strikes and returns the wounds both ways. ``strike_table`` gives the whole table as data
(36 rows for each of an open and a tapped target) so it can be shown or checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from referee.games.berserk.rules.cards import SimpleStrike
from referee.games.berserk.rules.settings import PUBLISHED, Settings
from referee.rules import N_, RuleError

MOD_LIMIT = 20
ATTACKER = "attacker"
TARGET = "target"


class Level(IntEnum):
    """B5, B11: which of X-Y-Z a strike uses; NONE is no strike at all."""

    NONE = 0
    WEAK = 1
    MEDIUM = 2
    STRONG = 3

    def lowered(self) -> Level:
        """B11: one step down, strong -> medium -> weak -> none."""
        return Level(max(0, self - 1))


LEVEL_NAMES: dict[Level, str] = {
    Level.NONE: N_("no strike"),
    Level.WEAK: N_("weak"),
    Level.MEDIUM: N_("medium"),
    Level.STRONG: N_("strong"),
}

_N, _W, _M, _S = Level.NONE, Level.WEAK, Level.MEDIUM, Level.STRONG

# B11, open target, by Δ = A − D clamped to ±5: (attacker strikes, target answers).
# Δ 0 is split by the attacker's roll: see TIE_HIGH and Settings.tie_answer_from.
OPEN_TABLE: dict[int, tuple[Level, Level]] = {
    5: (_S, _N),
    4: (_S, _W),
    3: (_M, _N),
    2: (_M, _W),
    1: (_W, _N),
    0: (_W, _N),
    -1: (_W, _N),
    -2: (_N, _N),
    -3: (_N, _W),
    -4: (_W, _M),
    -5: (_N, _M),
}
TIE_HIGH: tuple[Level, Level] = (_N, _W)


def is_dead(wounds: int, lives: int) -> bool:
    """B10: dead as soon as the wounds reach or pass the current lives."""
    return wounds >= lives


def levels(attack: int, defence: int | None, settings: Settings = PUBLISHED
           ) -> tuple[Level, Level]:
    """B11: (attacker's strike, target's answer) for modified rolls; ``defence`` None
    means the target does not roll (tapped, or cannot answer)."""
    if defence is None:
        if attack >= settings.tapped_strong_from:
            return _S, _N
        if attack >= settings.tapped_medium_from:
            return _M, _N
        return _W, _N
    delta = max(-5, min(5, attack - defence))
    if delta == 0 and attack >= settings.tie_answer_from:
        return TIE_HIGH
    return OPEN_TABLE[delta]


def chooser(strike: Level, answer: Level) -> str | None:
    """B11: where both sides strike, the side with the stronger strike may lower both."""
    if strike is _N or answer is _N or strike == answer:
        return None
    return ATTACKER if strike > answer else TARGET


def wounds(simple_strike: SimpleStrike | None, level: Level, modifier: int = 0) -> int:
    """B11: strike value + modifiers, never below 0; no strike deals nothing."""
    if level is _N or simple_strike is None:
        return 0
    value = (0, simple_strike.weak, simple_strike.medium, simple_strike.strong)[level]
    return max(0, value + modifier)


@dataclass(frozen=True)
class StrikeOutcome:
    """What a simple strike did: levels both ways and the wounds they deal."""

    attack_roll: int  # A, die plus modifiers
    defence_roll: int | None  # D, or None when the target did not roll
    strike: Level
    answer: Level
    wounds_to_target: int
    wounds_to_attacker: int
    may_lower: str | None  # "attacker" / "target": who may lower this exchange
    lowered: bool = False


@dataclass(frozen=True)
class TableRow:
    """One of the 36 die pairs; for a tapped target ``defender_die`` is ignored."""

    attacker_die: int
    defender_die: int
    strike: Level
    answer: Level
    may_lower: str | None


def _die(value: object, who: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        if who == ATTACKER:
            raise RuleError("B11", N_("The attacker's die must be a number from 1 to 6, not "
                                      "%(value)s; put bonuses into the die modifier."),
                            value=str(value)[:20])
        raise RuleError("B11", N_("The defender's die must be a number from 1 to 6, not "
                                  "%(value)s, or empty when the target does not roll."),
                        value=str(value)[:20])
    return value


def _modifier(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MOD_LIMIT:
        raise RuleError("B11", N_("A die or wound modifier must be a whole number from "
                                  "-%(limit)s to %(limit)s, not %(value)s."),
                        limit=MOD_LIMIT, value=str(value)[:20])
    return value


def resolve(attacker_die: int, defender_die: int | None, target_open: bool,
            attacker_strike: SimpleStrike, target_strike: SimpleStrike | None, *,
            lower: bool = False, attacker_die_mod: int = 0, defender_die_mod: int = 0,
            strike_mod: int = 0, answer_mod: int = 0, settings: Settings = PUBLISHED
            ) -> StrikeOutcome:
    """B11: settle one simple strike.

    ``defender_die`` is None when the target does not roll: always for a tapped target,
    and for an open one that cannot answer (then the tapped rows apply). ``lower`` is the
    exchange choice of the side with the stronger strike. ``*_die_mod`` add to the rolls;
    ``strike_mod`` / ``answer_mod`` add to the wounds of the attack / of the answer.
    """
    a = _die(attacker_die, ATTACKER) + _modifier(attacker_die_mod)
    d = None
    if defender_die is not None:
        if not target_open:
            raise RuleError("B11", N_("A tapped target does not roll; leave the defender's "
                                      "die empty."))
        if target_strike is None:
            raise RuleError("B5", N_("An artifact has no strike and cannot answer; leave "
                                     "the defender's die empty."))
        d = _die(defender_die, TARGET) + _modifier(defender_die_mod)
    strike_mod, answer_mod = _modifier(strike_mod), _modifier(answer_mod)
    if not isinstance(lower, bool):
        raise RuleError("B11", N_("The exchange choice is either to lower both strikes or "
                                  "not; choose one."))
    strike, answer = levels(a, d, settings)
    side = chooser(strike, answer)
    if lower:
        if side is None:
            raise RuleError("B11", N_("Strikes can be lowered only where both sides strike; "
                                      "settle this strike without lowering."))
        strike, answer = strike.lowered(), answer.lowered()
    return StrikeOutcome(
        attack_roll=a, defence_roll=d, strike=strike, answer=answer,
        wounds_to_target=wounds(attacker_strike, strike, strike_mod),
        wounds_to_attacker=wounds(target_strike, answer, answer_mod),
        may_lower=side, lowered=lower,
    )


def options(attacker_die: int, defender_die: int | None, target_open: bool,
            attacker_strike: SimpleStrike, target_strike: SimpleStrike | None, **kw: Any
            ) -> tuple[StrikeOutcome, ...]:
    """Every outcome the exchange choice allows: one, or two (as rolled, then lowered)."""
    kw.pop("lower", None)
    plain = resolve(attacker_die, defender_die, target_open, attacker_strike,
                    target_strike, **kw)
    if plain.may_lower is None:
        return (plain,)
    return plain, resolve(attacker_die, defender_die, target_open, attacker_strike,
                          target_strike, lower=True, **kw)


def strike_table(target_open: bool, settings: Settings = PUBLISHED) -> tuple[TableRow, ...]:
    """B11 as data: all 36 unmodified die pairs for an open or a tapped target."""
    rows = []
    for a in range(1, 7):
        for d in range(1, 7):
            strike, answer = levels(a, d if target_open else None, settings)
            rows.append(TableRow(a, d, strike, answer, chooser(strike, answer)))
    return tuple(rows)
