"""The plain way to list an Underworld state's legal actions: every candidate, each tried
through ``apply``. With ``each_draw=False`` it tries one draw for all draws, and every
other candidate on its own: ``legal_actions`` without knowing which candidates share one
answer.

``allowed`` is the plain one too: the kinds of that whole list. Kept for the property test
that the fast listing equals it (``test_rules_legal.py``) and for
``benchmarks/bench_castle_legal.py``, which times both side by side. Slow on purpose: at
cleanup it tries every way to discard, by position, then drops the duplicates.
"""

from __future__ import annotations

from itertools import combinations

from referee.games.underworld.rules import actions as act
from referee.games.underworld.rules.cards import Item, Monster, Skill
from referee.games.underworld.rules.engine import apply
from referee.games.underworld.rules.play import FIGHTING, may_prepare, sides
from referee.games.underworld.rules.query import Option, options
from referee.games.underworld.rules.state import (
    INVENTORY,
    MAX_LEVEL,
    State,
    active_player,
    card_of,
    class_of,
)
from referee.rules import RuleError


def _ok(state: State, action: act.Action) -> bool:
    try:
        apply(state, action)
    except RuleError:
        return False
    return True


def _preparing(state: State, pid: str) -> list[act.Action]:
    p = next(q for q in state.players if q.id == pid)
    out: list[act.Action] = []
    for code in sorted(set(p.inventory)):
        card = card_of(state, code)
        if isinstance(card, Item | Skill):
            out.append(act.PlayCard(pid, code))
        if isinstance(card, Item):
            out += [act.PlayCard(pid, code, old) for old in sorted(set(p.play_area))
                    if getattr(card_of(state, old), "item_type", "") == card.item_type]
    klass = class_of(state, p)
    if klass and klass.ability_cost and not p.ability_used:
        out += [act.PowerUp(pid, combo)
                for combo in sorted(set(combinations(sorted(p.inventory), klass.ability_cost)))]
    monsters = sorted({c for c in p.inventory if isinstance(card_of(state, c), Monster)})
    for skill in sorted(set(p.inventory + p.play_area)):
        card = card_of(state, skill)
        if isinstance(card, Skill) and card.summoning:
            out += [act.Summon(pid, skill)] + [act.Summon(pid, skill, m) for m in monsters]
    return out


def legal_actions(state: State, *, each_draw: bool = True) -> tuple[act.Action, ...]:
    """Every concrete action ``apply`` accepts now, each candidate tried on its own; the
    draws too, one per code left in the castle, unless ``each_draw`` is off."""
    phase, me, enc = state.phase, active_player(state), state.encounter
    ids = [p.id for p in state.players]
    out: list[act.Action] = []
    left = sorted(set(state.castle or state.discard))
    if phase in ("draw", "step_over"):
        out += _draws(state, [act.Draw(c) for c in left], each_draw)
        out.append(act.EndTurn())
    for pid in ids:
        if may_prepare(state, pid):
            out += _preparing(state, pid)
    if enc is not None and phase in FIGHTING:
        out.append(act.Fight())
        asked = {o.helper for o in enc.offers}
        for side in sides(enc):
            p = next(q for q in state.players if q.id == side)
            for helper in ids:
                if helper not in sides(enc) and helper not in asked:
                    out += [act.OfferHelp(helper, side, r)
                            for r in sorted(set(p.inventory + p.play_area))]
        for o in enc.offers:
            if not o.accepted:
                out += [act.AnswerHelp(o.helper, True), act.AnswerHelp(o.helper, False)]
    if phase == "event":
        out.append(act.EventDone())
        out += [act.Challenge(a, b) for a in ids for b in ids if a != b]
        out += _draws(state, [act.EventDraw(c) for c in left], each_draw)
        out.append(act.EventNoSecondStep())
    if phase == "playoff":
        out += [act.Challenge(me.id, p.id) for p in state.players if p.level == MAX_LEVEL]
    if phase == "class_change":
        out += [act.KeepClass()] + [act.ChangeClass(c) for c in sorted(set(state.class_deck))]
    if phase == "cleanup":
        excess = len(me.inventory) - INVENTORY
        out += [act.Discard(combo) for combo in sorted(set(combinations(sorted(me.inventory),
                                                                    excess)))]
    # the draws were tried in _draws
    return tuple(a for a in out if isinstance(a, act.Draw | act.EventDraw) or _ok(state, a))


def _draws(state: State, draws: list[act.Action], each: bool) -> list[act.Action]:
    if each:
        return [a for a in draws if _ok(state, a)]
    return draws if draws and _ok(state, draws[0]) else []


def allowed(state: State) -> tuple[Option, ...]:
    """The kinds of action allowed now and who may take them, read off the whole list."""
    if state.phase == "over":
        return ()
    return options(state, legal_actions(state, each_draw=False))
