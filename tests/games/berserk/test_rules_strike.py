"""Berserk-style simple strike (B11) and wounds (B10) as pure functions.

The expected table below is written by hand from the B11 text, not computed from the
engine's own table.
"""

from __future__ import annotations

import pytest

from referee.games.berserk.rules import (
    PUBLISHED,
    Level,
    Settings,
    SimpleStrike,
    is_dead,
    levels,
    options,
    resolve,
    strike_table,
    wounds,
)
from referee.rules import RuleError

ATT = SimpleStrike(2, 3, 4)
TGT = SimpleStrike(1, 2, 3)
CODE = {"-": Level.NONE, "W": Level.WEAK, "M": Level.MEDIUM, "S": Level.STRONG}

# B11, open target. Row = attacker's die A, column = defender's die D (1..6).
# Each cell: attacker's strike, then the target's answer (- for none).
#        D=1 D=2 D=3 D=4 D=5 D=6
OPEN = """
    1:   W-  W-  --  -W  WM  -M
    2:   W-  W-  W-  --  -W  WM
    3:   MW  W-  W-  W-  --  -W
    4:   M-  MW  W-  W-  W-  --
    5:   SW  M-  MW  W-  -W  W-
    6:   S-  SW  M-  MW  W-  -W
"""
# B11, tapped target: A <= 3 weak, 4-5 medium, >= 6 strong, never an answer.
TAPPED = {1: "W-", 2: "W-", 3: "W-", 4: "M-", 5: "M-", 6: "S-"}


def _open_expected() -> dict[tuple[int, int], str]:
    table = {}
    for line in OPEN.strip().splitlines():
        a, cells = line.split(":")
        for d, cell in enumerate(cells.split(), start=1):
            table[int(a), d] = cell
    return table


OPEN_EXPECTED = _open_expected()
ALL_PAIRS = [(a, d) for a in range(1, 7) for d in range(1, 7)]


def _value(strike: SimpleStrike, level: Level) -> int:
    return {Level.NONE: 0, Level.WEAK: strike.weak, Level.MEDIUM: strike.medium,
            Level.STRONG: strike.strong}[level]


def test_B11_open_table_has_36_cells() -> None:
    assert len(OPEN_EXPECTED) == 36
    assert len(strike_table(True)) == 36 and len(strike_table(False)) == 36


@pytest.mark.parametrize(("a", "d"), ALL_PAIRS)
def test_B11_open_target_all_36_outcomes(a: int, d: int) -> None:
    cell = OPEN_EXPECTED[a, d]
    strike, answer = CODE[cell[0]], CODE[cell[1]]
    row = strike_table(True)[(a - 1) * 6 + (d - 1)]
    assert (row.attacker_die, row.defender_die, row.strike, row.answer) == (a, d, strike, answer)
    out = resolve(a, d, True, ATT, TGT)
    assert (out.strike, out.answer) == (strike, answer)
    assert (out.wounds_to_target, out.wounds_to_attacker) == (
        _value(ATT, strike), _value(TGT, answer))
    exchange = strike is not Level.NONE and answer is not Level.NONE
    expected_chooser = None
    if exchange:
        expected_chooser = "attacker" if strike > answer else "target"
    assert out.may_lower == row.may_lower == expected_chooser
    if exchange:
        # B11: lower both strikes one step: strong -> medium -> weak -> none.
        down = {Level.STRONG: Level.MEDIUM, Level.MEDIUM: Level.WEAK, Level.WEAK: Level.NONE}
        low = resolve(a, d, True, ATT, TGT, lower=True)
        assert (low.strike, low.answer, low.lowered) == (down[strike], down[answer], True)
        assert low.wounds_to_target == _value(ATT, down[strike])
        assert options(a, d, True, ATT, TGT) == (out, low)
    else:
        with pytest.raises(RuleError) as e:
            resolve(a, d, True, ATT, TGT, lower=True)
        assert e.value.rule == "B11"
        assert options(a, d, True, ATT, TGT) == (out,)


@pytest.mark.parametrize(("a", "d"), ALL_PAIRS)
def test_B11_tapped_target_all_36_outcomes(a: int, d: int) -> None:
    """The defender's die ``d`` would be whatever it rolled; a tapped target does not roll."""
    strike = CODE[TAPPED[a][0]]
    row = strike_table(False)[(a - 1) * 6 + (d - 1)]
    assert (row.attacker_die, row.defender_die, row.strike, row.answer, row.may_lower) == (
        a, d, strike, Level.NONE, None)
    out = resolve(a, None, False, ATT, TGT)
    assert (out.strike, out.answer, out.wounds_to_attacker) == (strike, Level.NONE, 0)
    assert out.wounds_to_target == _value(ATT, strike)
    with pytest.raises(RuleError) as e:
        resolve(a, d, False, ATT, TGT)
    assert e.value.rule == "B11"


def test_B11_example_1_strike_234_on_open_123() -> None:
    def both(a: int, d: int, lower: bool = False) -> tuple[int, int]:
        out = resolve(a, d, True, ATT, TGT, lower=lower)
        return out.wounds_to_target, out.wounds_to_attacker

    assert both(5, 1) == (4, 1)
    assert both(5, 1, lower=True) == (3, 0)
    assert resolve(5, 1, True, ATT, TGT).may_lower == "attacker"
    assert both(3, 3) == (2, 0)
    assert both(6, 6) == (0, 1)
    assert both(2, 4) == (0, 0)
    assert both(1, 6) == (0, 2)


def test_B11_example_2_same_attack_on_tapped_target() -> None:
    assert [resolve(a, None, False, ATT, TGT).wounds_to_target for a in (4, 6, 3)] == [3, 4, 2]


def test_B11_die_modifiers_add_to_the_roll_beyond_the_table() -> None:
    assert levels(9, 1) == (Level.STRONG, Level.NONE)  # Δ +8 counts as >= +5
    assert levels(1, 9) == (Level.NONE, Level.MEDIUM)  # Δ -8 counts as <= -5
    assert levels(7, 7) == (Level.NONE, Level.WEAK)  # tie with A >= 5
    assert levels(0, None) == (Level.WEAK, Level.NONE)
    out = resolve(4, 5, True, ATT, TGT, attacker_die_mod=2, defender_die_mod=-1)
    assert (out.attack_roll, out.defence_roll, out.strike, out.answer) == (
        6, 4, Level.MEDIUM, Level.WEAK)
    assert resolve(3, None, False, ATT, TGT, attacker_die_mod=3).strike is Level.STRONG


def test_B11_wound_modifiers_never_below_zero_and_no_strike_deals_nothing() -> None:
    out = resolve(5, 1, True, ATT, TGT, strike_mod=1, answer_mod=-5)
    assert (out.wounds_to_target, out.wounds_to_attacker) == (5, 0)
    assert resolve(2, 4, True, ATT, TGT, strike_mod=3).wounds_to_target == 0
    assert wounds(ATT, Level.WEAK, -9) == 0 and wounds(None, Level.STRONG) == 0


def test_B11_target_that_cannot_answer_is_struck_like_a_tapped_one() -> None:
    out = resolve(6, None, True, ATT, TGT)
    assert (out.strike, out.answer, out.wounds_to_target) == (Level.STRONG, Level.NONE, 4)
    with pytest.raises(RuleError) as e:
        resolve(6, 2, True, ATT, None)  # an artifact has no strike to answer with
    assert e.value.rule == "B5"


def test_B11_settings_change_the_published_numbers() -> None:
    house = Settings(tapped_medium_from=3, tapped_strong_from=5, tie_answer_from=4)
    assert levels(3, None, house) == (Level.MEDIUM, Level.NONE)
    assert levels(5, None, house) == (Level.STRONG, Level.NONE)
    assert levels(4, 4, house) == (Level.NONE, Level.WEAK)
    assert levels(4, 4, PUBLISHED) == (Level.WEAK, Level.NONE)


@pytest.mark.parametrize(("kwargs", "rule"), [
    ({"attacker_die": 0}, "B11"), ({"attacker_die": 7}, "B11"), ({"attacker_die": "5"}, "B11"),
    ({"attacker_die": True}, "B11"), ({"defender_die": 0}, "B11"),
    ({"defender_die": 2.5}, "B11"), ({"attacker_die_mod": 21}, "B11"),
    ({"strike_mod": "1"}, "B11"), ({"lower": "yes"}, "B11"),
])
def test_B11_bad_dice_and_modifiers_are_refused(kwargs: dict, rule: str) -> None:
    args = {"attacker_die": 3, "defender_die": 3} | kwargs
    with pytest.raises(RuleError) as e:
        resolve(args.pop("attacker_die"), args.pop("defender_die"), True, ATT, TGT, **args)
    assert e.value.rule == rule


@pytest.mark.parametrize(("w", "lives", "dead"), [(0, 1, False), (2, 3, False), (3, 3, True),
                                                   (5, 3, True), (0, 0, True)])
def test_B10_dead_exactly_when_wounds_reach_lives(w: int, lives: int, dead: bool) -> None:
    assert is_dead(w, lives) is dead
