"""What the screens ask of an Underworld game: what is awaited, what is allowed now, who
won, and the state as JSON."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from referee.rules import RuleError

from . import actions as act
from .cards import Item, Monster, Skill, card_to_dict
from .engine import apply, can_draw
from .fight import breakdown_to_dict, fight_breakdown
from .play import FIGHTING, may_prepare, sides
from .state import INVENTORY, MAX_LEVEL, State, active_player, card_of, class_of


@dataclass(frozen=True)
class Awaiting:
    phase: str  # see state.PHASES
    player: str  # whose turn it is
    step: int  # 1 or 2 (U6)
    may_step_again: bool  # U6: a second step is open after this one
    fighters: tuple[str, ...] = ()  # the sides of a pending fight or challenge
    discard: int = 0  # cards to discard at cleanup (U15)
    winner: str = ""


@dataclass(frozen=True)
class Option:
    """An action kind allowed now, and who takes it ("" when the referee enters it)."""

    action: str
    player: str


def whose_turn(state: State) -> str:
    return active_player(state).id


def winner(state: State) -> str | None:
    """The player who won (U16/U17), or None while the game goes on."""
    return state.winner or None


def awaiting(state: State) -> Awaiting:
    me = active_player(state)
    enc = state.encounter
    return Awaiting(
        phase=state.phase, player=me.id, step=state.step,
        may_step_again=state.step == 1 and state.may_step and state.phase != "playoff",
        fighters=sides(enc) if enc else (),
        discard=max(0, len(me.inventory) - INVENTORY) if state.phase == "cleanup" else 0,
        winner=state.winner)


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


def legal_actions(state: State) -> tuple[act.Action, ...]:
    """Every concrete action ``apply`` accepts now, except the open-ended ones (Trade,
    AdjustMonster, EventLevel, EventDiscard, EventGive: see ``allowed``). Draw and EventDraw
    list each code left in the castle."""
    phase, me, enc = state.phase, active_player(state), state.encounter
    ids = [p.id for p in state.players]
    out: list[act.Action] = []
    left = sorted(set(state.castle or state.discard))
    # Whether a draw is legal never hangs on which card it is (U5, U6, U17; every code
    # listed is in the castle, U1), so one draw is tried for them all: a draw is a full
    # step of the engine, and trying each of 60 codes was most of this function's time.
    if phase in ("draw", "step_over"):
        out += _all_or_none(state, [act.Draw(c) for c in left])
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
        out += _all_or_none(state, [act.EventDraw(c) for c in left])
        out.append(act.EventNoSecondStep())
    if phase == "playoff":
        out += [act.Challenge(me.id, p.id) for p in state.players if p.level == MAX_LEVEL]
    if phase == "class_change":
        out += [act.KeepClass()] + [act.ChangeClass(c) for c in sorted(set(state.class_deck))]
    if phase == "cleanup":
        excess = len(me.inventory) - INVENTORY
        out += [act.Discard(combo) for combo in sorted(set(combinations(sorted(me.inventory),
                                                                    excess)))]
    return tuple(a for a in out if isinstance(a, act.Draw | act.EventDraw) or _ok(state, a))


def _all_or_none(state: State, draws: list[act.Action]) -> list[act.Action]:
    return draws if draws and _ok(state, draws[0]) else []


def actor(state: State, action: act.Action) -> str:
    """Who takes ``action`` ("" for what the referee enters or confirms)."""
    if isinstance(action, act.AnswerHelp):  # U11: the fighter answers
        offers = state.encounter.offers if state.encounter else ()
        return next((o.fighter for o in offers if o.helper == action.helper), "")
    if action.kind in ("fight", "adjust_monster", "event_level", "event_discard",
                       "event_give"):
        return ""
    for name in ("player", "helper", "challenger"):
        if hasattr(action, name):
            return getattr(action, name)
    return active_player(state).id


def allowed(state: State) -> tuple[Option, ...]:
    """The kinds of action allowed now and who may take them, for "what is allowed now"."""
    if state.phase == "over":
        return ()
    seen = dict.fromkeys(Option(a.kind, actor(state, a)) for a in legal_actions(state))
    holders = [p for p in state.players if p.inventory]
    if len(holders) >= 2:
        seen[Option("trade", "")] = None
    if state.phase == "fight":
        seen[Option("adjust_monster", "")] = None
    if state.phase == "event":
        seen[Option("event_level", "")] = None
        if any(p.inventory or p.play_area for p in state.players):
            seen[Option("event_discard", "")] = None
            seen[Option("event_give", "")] = None
    return tuple(seen)


def state_to_dict(state: State) -> dict[str, object]:
    """The whole state in JSON-friendly form (lists, dicts, strings, numbers)."""
    enc = state.encounter
    bd = fight_breakdown(state)
    return {
        "phase": state.phase, "turn": state.turn, "step": state.step,
        "round": (state.turn - 1) // len(state.players) + 1,
        "active": active_player(state).id, "streak": state.streak,
        "may_step": state.may_step, "playoff": state.playoff, "winner": state.winner,
        "can_draw": can_draw(state), "event": state.event,
        "players": [{"id": p.id, "level": p.level, "class": p.class_card,
                     "past_classes": list(p.past_classes), "inventory": list(p.inventory),
                     "play_area": list(p.play_area), "allies": list(p.allies),
                     "powered": p.powered, "ability_used": p.ability_used}
                    for p in state.players],
        "encounter": None if enc is None else {
            "fighter": enc.fighter, "monster": enc.monster, "defender": enc.defender,
            "from_event": enc.from_event,
            "modifiers": [{"card": c, "amount": n} for c, n in enc.modifiers],
            "offers": [{"helper": o.helper, "fighter": o.fighter, "reward": o.reward,
                        "accepted": o.accepted} for o in enc.offers]},
        "breakdown": None if bd is None else breakdown_to_dict(bd),
        "castle": list(state.castle), "discard": list(state.discard),
        "class_deck": list(state.class_deck),
        "cards": [card_to_dict(c) for c in state.cards],
    }
