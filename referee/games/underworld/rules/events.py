"""Following an event's text (U5) where it moves cards or steps: a card discarded, a card
given to another player, one more castle card drawn, no second step this turn.

Levels (``EventLevel``), challenges and the end of the event live in ``engine``. Every
effect here is taken only while the event is being followed (phase ``event``; its
challenges are scored first), and every card moves from one place to one other: none is
lost or copied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from referee.rules import N_, RuleError

from .actions import EventDiscard, EventDraw, EventGive, EventNoSecondStep
from .play import guard_promised
from .state import (
    Player,
    State,
    active_player,
    player_of,
    take_from_castle,
    with_player,
    without,
)


def _following(state: State, message: str) -> None:
    if state.phase != "event":
        raise RuleError("U5", message)


def _take(state: State, p: Player, code: str, in_play: bool) -> Player:
    """``p`` less one copy of ``code`` from the inventory, or from the play area."""
    cards = p.play_area if in_play else p.inventory
    rest = without(cards, [code])
    if rest is None:
        held = ", ".join(sorted(set(cards))) or "—"
        if in_play:
            raise RuleError("U5", N_("%(player)s has no %(code)s in the play area; name a card "
                                     "in play: %(cards)s."), player=p.id, code=code, cards=held)
        raise RuleError("U5", N_("%(player)s does not hold %(code)s in the inventory; name a "
                                 "card held there: %(cards)s."), player=p.id, code=code,
                        cards=held)
    guard_promised(state, p.id, [code])  # U11: a promised reward stays until scored
    return replace(p, play_area=rest) if in_play else replace(p, inventory=rest)


def event_discard(state: State, a: EventDiscard) -> State:
    _following(state, N_("An event discards a card only while it is being followed, not "
                         "during a fight; draw the event first, or score the fight."))
    p = _take(state, player_of(state, a.player), a.code, a.in_play)
    return replace(with_player(state, p), discard=state.discard + (a.code,))


def event_give(state: State, a: EventGive) -> State:
    _following(state, N_("An event makes a player give a card only while it is being "
                         "followed, not during a fight; to swap cards by choice, trade them "
                         "(U10)."))
    giver, receiver = player_of(state, a.giver), player_of(state, a.receiver)
    if giver.id == receiver.id:
        raise RuleError("U5", N_("%(player)s cannot give a card to themselves; pick another "
                                 "player to receive it."), player=giver.id)
    # U10 forbids gifts by choice; an event's text may order one, with nothing in return
    state = with_player(state, _take(state, giver, a.code, a.in_play))
    receiver = player_of(state, receiver.id)
    return with_player(state, replace(receiver, inventory=receiver.inventory + (a.code,)))


def event_draw(state: State, a: EventDraw) -> State:
    _following(state, N_("An event gives one more castle card only while it is being "
                         "followed; to step into the castle, draw at the start of a step."))
    state = take_from_castle(state, a.code)
    # the extra card is no step (U6 counts steps) and goes to the inventory whatever it is
    me = active_player(state)
    return with_player(state, replace(me, inventory=me.inventory + (a.code,)))


def event_no_second_step(state: State, a: EventNoSecondStep) -> State:
    _following(state, N_("An event ends the steps only while it is being followed; to stop "
                         "stepping now, end the turn."))
    if state.step >= 2:
        raise RuleError("U6", N_("This is already the second step, so there is no second "
                                 "step to cancel; end the event."))
    if not state.may_step:
        raise RuleError("U6", N_("The steps of this turn have already ended; end the "
                                 "event."))
    return replace(state, may_step=False)


HANDLERS: dict[type, Callable[[State, Any], State]] = {
    EventDiscard: event_discard, EventGive: event_give, EventDraw: event_draw,
    EventNoSecondStep: event_no_second_step}
