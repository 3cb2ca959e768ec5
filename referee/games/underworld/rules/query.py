"""What the screens ask of an Underworld game: what is awaited, what is allowed now, who
won, and the state as JSON."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, islice

from referee.rules import RuleError

from . import actions
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


def _ok(state: State, action: actions.Action) -> bool:
    try:
        apply(state, action)
    except RuleError:
        return False
    return True


def choices(cards: Iterable[str], size: int, limit: int = -1) -> list[tuple[str, ...]]:
    """Every way to pick ``size`` of ``cards``, copies of a code being alike: each a sorted
    tuple, in sorted order (the first ``limit`` of them, if given). The same as
    ``sorted(set(combinations(sorted(cards), size)))`` without making the duplicates
    first (20 cards, 5 codes, 16 to discard: 69 ways, where the positions give 4,845)."""
    counts = sorted(Counter(cards).items())
    if size < 0:
        return []
    if all(n == 1 for _, n in counts):  # no copies: the positions are the ways
        ways = combinations([code for code, _ in counts], size)
        return list(islice(ways, None if limit < 0 else limit))
    room = [0] * (len(counts) + 1)  # room[i]: how many cards from the i-th code on
    for i in range(len(counts) - 1, -1, -1):
        room[i] = room[i + 1] + counts[i][1]
    out: list[tuple[str, ...]] = []
    chosen: list[str] = []

    def pick(i: int, need: int) -> None:
        if need == 0:
            out.append(tuple(chosen))
            return
        if len(out) == limit:
            return
        code, have = counts[i]
        # as many copies of this code as fit, down to as few as leave enough after it
        top, low = min(have, need), max(0, need - room[i + 1])
        chosen.extend([code] * top)
        for n in range(top, low - 1, -1):  # more copies of the lower code sort first
            pick(i + 1, need - n)
            if n > low:
                chosen.pop()
        del chosen[len(chosen) - low:]

    if size <= room[0]:
        pick(0, size)
    return out


class _Listing:
    """The actions found legal so far. Candidates that ``apply`` judges alike, whichever
    card or player they name, are tried once for all (``alike``); the others one by one
    (``each``). ``whole=False`` keeps only the first of an alike group for each player
    who takes it: enough to say which kinds are allowed and who takes them."""

    def __init__(self, state: State, whole: bool) -> None:
        self.state, self.whole = state, whole
        self.out: list[actions.Action] = []

    def each(self, candidates: Iterable[actions.Action]) -> None:
        self.out += [a for a in candidates if _ok(self.state, a)]

    def alike(self, candidates: Sequence[actions.Action]) -> None:
        if not candidates or not _ok(self.state, candidates[0]):
            return
        if self.whole:
            self.out += candidates
            return
        first: dict[str, actions.Action] = {}
        for a in candidates:
            first.setdefault(actor(self.state, a), a)
        self.out += first.values()


def _promised(state: State, pid: str) -> bool:
    """U11: whether a card of ``pid``'s is promised to an accepted helper."""
    enc = state.encounter
    return enc is not None and any(o.accepted and o.fighter == pid for o in enc.offers)


def _preparing(state: State, pid: str, listing: _Listing) -> None:
    p = next(q for q in state.players if q.id == pid)
    plays: list[actions.Action] = []
    for code in sorted(set(p.inventory)):
        card = card_of(state, code)
        if isinstance(card, Item | Skill):
            plays.append(actions.PlayCard(pid, code))
        if isinstance(card, Item):
            plays += [actions.PlayCard(pid, code, old) for old in sorted(set(p.play_area))
                      if getattr(card_of(state, old), "item_type", "") == card.item_type]
    listing.each(plays)
    klass = class_of(state, p)
    if klass and klass.ability_cost and not p.ability_used:
        # U14: the cards discarded matter only when one is a promised reward (U11)
        ups = [actions.PowerUp(pid, combo) for combo in choices(p.inventory, klass.ability_cost)]
        if _promised(state, pid):
            listing.each(ups)
        else:
            listing.alike(ups)
    monsters = sorted({c for c in p.inventory if isinstance(card_of(state, c), Monster)})
    summons: list[actions.Action] = []
    for skill in sorted(set(p.inventory + p.play_area)):
        card = card_of(state, skill)
        if isinstance(card, Skill) and card.summoning:
            summons += [actions.Summon(pid, skill)] + [actions.Summon(pid, skill, m)
                                                        for m in monsters]
    listing.each(summons)


def legal_actions(state: State) -> tuple[actions.Action, ...]:
    """Every concrete action ``apply`` accepts now, except the open-ended ones (Trade,
    AdjustMonster, EventLevel, EventDiscard, EventGive: see ``allowed``). Draw and EventDraw
    list each code left in the castle."""
    return tuple(_legal(state, whole=True))


def _legal(state: State, whole: bool) -> list[actions.Action]:
    """The actions of ``legal_actions``, in its order; with ``whole=False``, of each group
    that ``apply`` judges alike only the first for each player who takes it (``_Listing``):
    at cleanup, one way to discard instead of thousands."""
    phase, me, enc = state.phase, active_player(state), state.encounter
    ids = [p.id for p in state.players]
    listing = _Listing(state, whole)
    left = sorted(set(state.castle or state.discard))
    # Whether a draw is legal never hangs on which card it is (U5, U6, U17; every code
    # listed is in the castle, U1), so one draw is tried for them all: a draw is a full
    # step of the engine, and trying each of 60 codes was most of this function's time.
    if phase in ("draw", "step_over"):
        listing.alike([actions.Draw(c) for c in left])
        listing.each([actions.EndTurn()])
    for pid in ids:
        if may_prepare(state, pid):
            _preparing(state, pid, listing)
    if enc is not None and phase in FIGHTING:
        listing.out.append(actions.Fight())  # U7: a pending fight may always be scored
        asked = {o.helper for o in enc.offers}
        for side in sides(enc):
            p = next(q for q in state.players if q.id == side)
            for helper in ids:
                if helper not in sides(enc) and helper not in asked:
                    # U11: any card the side holds may be named as the reward
                    listing.alike([actions.OfferHelp(helper, side, r)
                                   for r in sorted(set(p.inventory + p.play_area))])
        for o in enc.offers:
            if not o.accepted:
                listing.each([actions.AnswerHelp(o.helper, True),
                              actions.AnswerHelp(o.helper, False)])
    if phase == "event":
        listing.each([actions.EventDone()])
        # U13: the event calls for a challenge or it does not, whoever fights whom
        listing.alike([actions.Challenge(a, b) for a in ids for b in ids if a != b])
        listing.alike([actions.EventDraw(c) for c in left])
        listing.each([actions.EventNoSecondStep()])
    if phase == "playoff":
        listing.each([actions.Challenge(me.id, p.id) for p in state.players
                      if p.level == MAX_LEVEL])
    if phase == "class_change":
        listing.each([actions.KeepClass()])
        # U9: whichever class card was drawn from the deck
        listing.alike([actions.ChangeClass(c) for c in sorted(set(state.class_deck))])
    if phase == "cleanup":
        # U15: any cards held, as many as are over 4: which ones is the player's choice
        excess = len(me.inventory) - INVENTORY
        ways = choices(me.inventory, excess, limit=-1 if whole else 1)
        listing.alike([actions.Discard(way) for way in ways])
    return listing.out


def actor(state: State, action: actions.Action) -> str:
    """Who takes ``action`` ("" for what the referee enters or confirms)."""
    if isinstance(action, actions.AnswerHelp):  # U11: the fighter answers
        offers = state.encounter.offers if state.encounter else ()
        return next((o.fighter for o in offers if o.helper == action.helper), "")
    if action.kind in ("fight", "adjust_monster", "event_level", "event_discard",
                       "event_give"):
        return ""
    for name in ("player", "helper", "challenger"):
        if hasattr(action, name):
            return str(getattr(action, name))
    return active_player(state).id


def allowed(state: State) -> tuple[Option, ...]:
    """The kinds of action allowed now and who may take them, for "what is allowed now"."""
    if state.phase == "over":
        return ()
    return options(state, _legal(state, whole=False))


def options(state: State, legal: Iterable[actions.Action]) -> tuple[Option, ...]:
    """The kinds of the ``legal`` actions and who takes them, then the open-ended ones the
    phase allows (Trade, AdjustMonster, EventLevel, EventDiscard, EventGive)."""
    found = [Option(a.kind, actor(state, a)) for a in legal]
    holders = [p for p in state.players if p.inventory]
    if len(holders) >= 2:
        found.append(Option("trade", ""))
    if state.phase == "fight":
        found.append(Option("adjust_monster", ""))
    if state.phase == "event":
        found.append(Option("event_level", ""))
        if any(p.inventory or p.play_area for p in state.players):
            found += [Option("event_discard", ""), Option("event_give", "")]
    return tuple(dict.fromkeys(found))  # each once, in the order first found


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
