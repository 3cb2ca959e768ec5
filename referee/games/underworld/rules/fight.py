"""Fight scores (U7, U11–U14) line by line, and the quick fight for looser games (U7–U8).

A side's score is a list of lines, so the referee sees every number before confirming:
``level``, each ``card`` in play, each summoned ``ally``, a powered ``ability``; helpers
add their own lines (their ``player`` differs from the side's). A monster's side has its
``strength`` and any ``modifier`` lines.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from referee.rules import N_, RuleError

from .cards import Item, Monster, Skill
from .state import MAX_LEVEL, MIN_LEVEL, Encounter, State, card_of, class_of, player_of


@dataclass(frozen=True)
class Line:
    source: str  # level | card | ally | ability | strength | modifier
    player: str  # whose contribution ("" for the monster's side)
    code: str  # the card behind the number ("" for a level)
    value: int


@dataclass(frozen=True)
class Side:
    who: str  # a player id, or the monster's card code
    lines: tuple[Line, ...]

    @property
    def total(self) -> int:
        return sum(line.value for line in self.lines)


@dataclass(frozen=True)
class Breakdown:
    """``outcome`` is seen from ``fighter``'s side: win, loss or draw. ``pending`` shows
    what each helper still waiting for an answer would add (U11: see before accepting)."""

    fighter: Side
    opponent: Side
    outcome: str
    pending: tuple[Side, ...] = ()


def outcome_of(mine: int, theirs: int) -> str:
    # U7: the higher score wins; equal scores are a draw
    return "win" if mine > theirs else "loss" if mine < theirs else "draw"


def own_lines(state: State, pid: str) -> tuple[Line, ...]:
    """U7: level + cards in play + summoned allies + a powered characteristic ability."""
    p = player_of(state, pid)
    lines = [Line("level", pid, "", p.level)]
    for code in p.play_area:
        card = card_of(state, code)
        if isinstance(card, Item | Skill):
            lines.append(Line("card", pid, code, card.bonus))
    for code in p.allies:
        card = card_of(state, code)
        if isinstance(card, Monster):
            lines.append(Line("ally", pid, code, card.strength))
    klass = class_of(state, p)
    if p.powered and klass is not None:
        lines.append(Line("ability", pid, klass.code, klass.ability_bonus))
    return tuple(lines)


def side_of(state: State, enc: Encounter, pid: str) -> Side:
    """The player's own lines plus those of every helper they accepted (U11)."""
    lines = list(own_lines(state, pid))
    for offer in enc.offers:
        if offer.accepted and offer.fighter == pid:
            lines.extend(own_lines(state, offer.helper))
    return Side(pid, tuple(lines))


def monster_side(state: State, enc: Encounter) -> Side:
    monster = card_of(state, enc.monster)
    strength = monster.strength if isinstance(monster, Monster) else 0
    lines = [Line("strength", "", enc.monster, strength)]
    lines.extend(Line("modifier", "", code, amount) for code, amount in enc.modifiers)
    return Side(enc.monster, tuple(lines))


def fight_breakdown(state: State) -> Breakdown | None:
    """The scores of the pending fight or challenge, or None when none is pending."""
    enc = state.encounter
    if enc is None:
        return None
    fighter = side_of(state, enc, enc.fighter)
    opponent = (monster_side(state, enc) if enc.monster
                else side_of(state, enc, enc.defender))
    pending = tuple(Side(o.helper, own_lines(state, o.helper))
                    for o in enc.offers if not o.accepted)
    return Breakdown(fighter, opponent, outcome_of(fighter.total, opponent.total), pending)


def breakdown_to_dict(bd: Breakdown) -> dict[str, object]:
    def side(s: Side) -> dict[str, object]:
        return {"who": s.who, "total": s.total,
                "lines": [{"source": ln.source, "player": ln.player, "code": ln.code,
                           "value": ln.value} for ln in s.lines]}
    return {"fighter": side(bd.fighter), "opponent": side(bd.opponent),
            "outcome": bd.outcome, "pending": [side(s) for s in bd.pending]}


def level_after(level: int, outcome: str) -> int:
    # U8: win +1, loss -1 never below 1; levels run 1-10 (U4)
    step = {"win": 1, "loss": -1}.get(outcome, 0)
    return max(MIN_LEVEL, min(MAX_LEVEL, level + step))


@dataclass(frozen=True)
class QuickFight:
    level_before: int
    level: int
    player_score: int
    monster_score: int
    outcome: str


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def quick_fight(level: int, bonuses: int | Iterable[int], strength: int) -> QuickFight:
    """A fight from numbers alone (no cards tracked): level + bonuses vs strength, then
    U8 on the level."""
    if not _whole(level) or not MIN_LEVEL <= level <= MAX_LEVEL:
        raise RuleError("U8", N_("The level must be a whole number from 1 to 10; correct "
                                 "it."))
    values: list[Any] | None = [bonuses] if _whole(bonuses) else list(bonuses) if isinstance(
        bonuses, Iterable) and not isinstance(bonuses, str) else None
    if values is None or not all(_whole(v) for v in values):
        raise RuleError("U7", N_("Bonuses must be whole numbers (one per card, helper or "
                                 "ally); correct them."))
    if not _whole(strength):
        raise RuleError("U7", N_("The monster's strength must be a whole number; correct "
                                 "it."))
    mine = level + sum(values)
    outcome = outcome_of(mine, strength)
    return QuickFight(level, level_after(level, outcome), mine, strength, outcome)
