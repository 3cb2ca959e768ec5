"""``apply``: the Underworld turn (U5–U9, U13, U15) and the end of the game (U16–U17)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from referee.rules import N_, RuleError

from . import events, play
from .actions import (
    Challenge,
    ChangeClass,
    Discard,
    Draw,
    EndTurn,
    EventDone,
    EventLevel,
    Fight,
    KeepClass,
    check_action,
)
from .cards import WEAPON, ClassCard, Event, Item, Monster
from .fight import fight_breakdown, level_after
from .state import (
    INVENTORY,
    MAX_LEVEL,
    MIN_LEVEL,
    Encounter,
    Player,
    State,
    active_player,
    card_of,
    holds,
    less,
    player_of,
    take_from_castle,
    with_player,
)


def _duration(state: State, code: str) -> str:
    return getattr(card_of(state, code), "duration", "lasting")


def spend(state: State) -> State:
    """U15: cards whose one-use effect is spent leave every play area."""
    thrown: list[str] = []
    players = []
    for p in state.players:
        spent = [c for c in p.play_area if _duration(state, c) == "immediate"]
        thrown += spent
        players.append(replace(p, play_area=less(p.play_area, spent)))
    return replace(state, players=tuple(players), discard=state.discard + tuple(thrown))


def can_draw(state: State) -> bool:
    return bool(state.castle or state.discard)


def draw(state: State, a: Draw) -> State:
    me = active_player(state)
    if state.phase == "playoff" or (state.playoff and me.level == MAX_LEVEL):
        raise RuleError("U17", N_("In the play-off a level-10 player does not step into the "
                                  "castle: challenge another level-10 player."))
    if state.phase == "step_over":
        if state.step >= 2:
            raise RuleError("U6", N_("Never more than two steps in a turn; end the turn."))
        if not state.may_step:
            raise RuleError("U6", N_("There is no second step this turn (after a lost fight, "
                                     "or an event ended the steps); end the turn."))
        step = 2
    elif state.phase == "draw":
        step = 1
    else:
        raise RuleError("U5", N_("A castle card is drawn only at the start of a step; finish "
                                 "the current step first."))
    card = card_of(state, a.code)
    state = replace(take_from_castle(state, a.code), step=step, fought=False)
    if isinstance(card, Monster):  # U5: a monster must be fought
        return replace(state, phase="fight", encounter=Encounter(fighter=me.id, monster=a.code))
    if isinstance(card, Event):
        return replace(state, phase="event", event=a.code)
    # U5: a drawn item or skill goes to the inventory; no fight, so a second step is open
    me = replace(me, inventory=me.inventory + (a.code,))
    return replace(with_player(state, me), phase="step_over", streak=0)


def _hand_rewards(state: State, enc: Encounter, side: str) -> State:
    # U11: on a win the fighter hands each accepted helper the promised card
    for offer in enc.offers:
        if not (offer.accepted and offer.fighter == side):
            continue
        giver, helper = player_of(state, side), player_of(state, offer.helper)
        if offer.reward in giver.inventory:
            giver = replace(giver, inventory=less(giver.inventory, [offer.reward]))
        elif offer.reward in giver.play_area:
            giver = replace(giver, play_area=less(giver.play_area, [offer.reward]))
        else:
            continue
        helper = replace(helper, inventory=helper.inventory + (offer.reward,))
        state = with_player(with_player(state, giver), helper)
    return state


def _move_level(state: State, pid: str, outcome: str) -> State:
    p = player_of(state, pid)
    return with_player(state, replace(p, level=level_after(p.level, outcome)))


def fight(state: State, a: Fight) -> State:
    enc = state.encounter
    if state.phase not in play.FIGHTING or enc is None:
        raise RuleError("U7", N_("There is no fight to score now; draw a card or start a "
                                 "challenge first."))
    breakdown = fight_breakdown(state)
    assert breakdown is not None  # U7: a fight is on
    outcome = breakdown.outcome
    reverse = {"win": "loss", "loss": "win", "draw": "draw"}[outcome]
    # U8/U13: only the sides' levels move; helpers neither lose nor gain (U11)
    state = _move_level(state, enc.fighter, outcome)
    if enc.defender:
        state = _move_level(state, enc.defender, reverse)
    if outcome == "win":
        state = _hand_rewards(state, enc, enc.fighter)
    elif outcome == "loss" and enc.defender:
        state = _hand_rewards(state, enc, enc.defender)
    state = replace(spend(state), encounter=None)
    me = active_player(state).id
    if enc.monster:
        streak = state.streak + 1 if outcome == "win" else 0
        state = replace(state, discard=state.discard + (enc.monster,), streak=streak,
                        may_step=outcome != "loss", phase="step_over")
        return _offer_class(state)
    if me not in (enc.fighter, enc.defender) or state.reading < 2:
        # Others fought, so the active player did not; or the first reading of U9, where
        # only a monster fight counts toward the row: a lost challenge still ends the steps
        lost = state.reading < 2 and (me == enc.fighter and outcome == "loss" or
                                      me == enc.defender and outcome == "win")
        return replace(state, may_step=state.may_step and not lost and enc.from_event,
                       phase="event" if enc.from_event else "step_over")
    mine = outcome if enc.fighter == me else reverse
    # U9/U13: a challenge is a fight: won, it counts toward two in a row; lost or drawn,
    # the row starts again. Lost, it also ends the steps (U6); U17 ends the turn.
    streak = state.streak + 1 if mine == "win" else 0
    may_step = state.may_step and mine != "loss" and enc.from_event
    state = replace(state, streak=streak, fought=True, may_step=may_step,
                    phase="event" if enc.from_event else "step_over")
    return _offer_class(state)


def _offer_class(state: State) -> State:
    # U9: two fights won in a row this turn; after a challenge the event goes on after it
    if state.streak >= 2 and state.class_deck:
        return replace(state, phase="class_change")
    return state


def _after_class(state: State) -> str:
    """The phase after the class change: the event still being followed, if any (the
    first reading of U9 went on to the step's end)."""
    return "event" if state.event and state.reading >= 2 else "step_over"


def challenge(state: State, a: Challenge) -> State:
    attacker, defender = player_of(state, a.challenger), player_of(state, a.defender)
    if attacker.id == defender.id:
        raise RuleError("U13", N_("A player cannot challenge themselves; pick another "
                                  "player."))
    if state.phase == "playoff":
        me = active_player(state)
        tens = [p.id for p in state.players if p.level == MAX_LEVEL and p.id != me.id]
        if attacker.id != me.id or defender.id not in tens:
            raise RuleError("U17", N_("In the play-off %(player)s challenges another level-10 "
                                      "player: one of %(players)s."),
                            player=me.id, players=", ".join(tens))
    elif state.phase == "event":
        event = card_of(state, state.event)
        if not (isinstance(event, Event) and event.challenge):
            raise RuleError("U13", N_("This event does not make players fight each other; "
                                      "follow its text and end it."))
    else:
        raise RuleError("U13", N_("A challenge starts only from an event that calls for it, "
                                  "or in the play-off; go on with the step."))
    enc = Encounter(fighter=attacker.id, defender=defender.id,
                    from_event=state.phase == "event")
    return replace(state, phase="challenge", encounter=enc)


def event_level(state: State, a: EventLevel) -> State:
    if state.phase != "event":
        raise RuleError("U5", N_("An event changes levels only while it is being followed; "
                                 "draw the event first."))
    if not -9 <= a.delta <= 9 or a.delta == 0:
        raise RuleError("U5", N_("The level change must be a whole number from -9 to 9, not 0; "
                                 "correct it."))
    p = player_of(state, a.player)
    level = max(MIN_LEVEL, min(MAX_LEVEL, p.level + a.delta))  # U4, U8: levels 1-10
    return with_player(state, replace(p, level=level))


def event_done(state: State, a: EventDone) -> State:
    if state.phase != "event":
        raise RuleError("U5", N_("No event is being followed now; there is nothing to "
                                 "end."))
    # U9: a step without a fight of the active player's own breaks the row; a challenge
    # they fought in it left the row as its result did (U13)
    return replace(state, phase="step_over", event="", fought=False,
                   streak=state.streak if state.fought and state.reading >= 2 else 0,
                   discard=state.discard + (state.event,))


def _fit_class(state: State, p: Player, klass: ClassCard) -> tuple[Player, tuple[str, ...]]:
    # U10 under the new class: one weapon unless it wields two, magic only if it may
    cards = {c: card_of(state, c) for c in p.play_area}
    thrown = [c for c in p.play_area if getattr(cards[c], "magic", False) and not klass.magic]
    bonus = {c: card.bonus for c, card in cards.items()
             if isinstance(card, Item) and card.item_type == WEAPON}
    weapons = [c for c in p.play_area if c not in thrown and c in bonus]
    keep = 2 if klass.two_weapons else 1
    thrown += sorted(weapons, key=lambda c: -bonus[c])[keep:]  # the weaker go
    return replace(p, play_area=less(p.play_area, thrown)), tuple(thrown)


def change_class(state: State, a: ChangeClass) -> State:
    if state.phase != "class_change":
        raise RuleError("U9", N_("A class card is drawn only after two fights won in a row in "
                                 "one turn; go on with the turn."))
    if a.code not in state.class_deck:
        raise RuleError("U9", N_("%(code)s is not in the class deck; enter the class card "
                                 "drawn."), code=a.code)
    klass = card_of(state, a.code)
    assert isinstance(klass, ClassCard)  # U9: the class deck holds class cards only
    me = active_player(state)
    past = me.past_classes + ((me.class_card,) if me.class_card else ())
    me = replace(me, class_card=a.code, past_classes=past, powered=False)
    me, thrown = _fit_class(state, me, klass)
    return replace(with_player(state, me), class_deck=less(state.class_deck, [a.code]),
                   discard=state.discard + thrown, phase=_after_class(state))


def keep_class(state: State, a: KeepClass) -> State:
    if state.phase != "class_change":
        raise RuleError("U9", N_("A class card is drawn only after two fights won in a row in "
                                 "one turn; go on with the turn."))
    return replace(state, phase=_after_class(state))


def begin_turn(state: State, index: int) -> State:
    p = state.players[index]
    # U3/U12: "until the end of the round" cards and summoned allies end at this turn
    lasting_round = tuple(c for c in p.play_area if _duration(state, c) == "round")
    ending = lasting_round + p.allies
    p = replace(p, play_area=less(p.play_area, lasting_round), allies=())
    state = replace(with_player(state, p), active=index, turn=state.turn + 1, step=1,
                    streak=0, fought=False, may_step=True, event="", encounter=None,
                    discard=state.discard + ending)
    tens = [q.id for q in state.players if q.level == MAX_LEVEL]
    if p.level < MAX_LEVEL:
        return replace(state, phase="draw")
    if tens == [p.id]:  # U16: nobody else reached 10 in this round
        return replace(state, phase="over", winner=p.id)
    return replace(state, phase="playoff", playoff=True)  # U17


def end_turn(state: State, a: EndTurn) -> State:
    if state.phase == "draw" and can_draw(state):
        raise RuleError("U6", N_("Step into the castle first: a turn has at least one "
                                 "step."))
    if state.phase not in ("step_over", "draw"):
        raise RuleError("U6", N_("Finish the current step first; the turn ends after it."))
    state = spend(state)
    # U14: the powered class card turns back at the end of the turn
    state = replace(state, players=tuple(replace(p, powered=False, ability_used=False)
                                         for p in state.players))
    if len(active_player(state).inventory) > INVENTORY:
        return replace(state, phase="cleanup")  # U15
    return begin_turn(state, (state.active + 1) % len(state.players))


def discard(state: State, a: Discard) -> State:
    if state.phase != "cleanup":
        raise RuleError("U15", N_("Cards are discarded down to 4 only at the end of the "
                                  "turn; end the turn first."))
    me = active_player(state)
    excess = len(me.inventory) - INVENTORY
    if len(a.codes) != excess:
        raise RuleError("U15", N_("Discard exactly %(count)s cards so that 4 stay in the "
                                  "inventory; %(named)s were named."),
                        count=excess, named=len(a.codes))
    if not holds(me.inventory, a.codes):
        raise RuleError("U15", N_("%(player)s does not hold %(codes)s in the inventory; "
                                  "discard cards held there."),
                        player=me.id, codes=", ".join(a.codes))
    me = replace(me, inventory=less(me.inventory, a.codes))
    state = replace(with_player(state, me), discard=state.discard + a.codes)
    return begin_turn(state, (state.active + 1) % len(state.players))


HANDLERS: dict[type, Callable[[State, Any], State]] = {
    Draw: draw, Fight: fight, Challenge: challenge, EventLevel: event_level,
    EventDone: event_done, ChangeClass: change_class, KeepClass: keep_class,
    EndTurn: end_turn, Discard: discard, **play.HANDLERS, **events.HANDLERS}


def _settle(state: State) -> State:
    # U17: the play-off ends as soon as one player alone is at level 10
    tens = [p.id for p in state.players if p.level == MAX_LEVEL]
    if state.playoff and not state.winner and len(tens) == 1:
        return replace(state, phase="over", winner=tens[0], encounter=None)
    return state


def apply(state: State, action: object) -> State:
    """The state after ``action``; RuleError (with the rule id) when the rules forbid it."""
    if not isinstance(state, State):
        raise RuleError("U4", N_("This is not an Underworld game; start one with new_game."))
    check_action(action)
    if state.phase == "over":
        raise RuleError("U16", N_("The game is over: %(player)s won; start a new game."),
                        player=state.winner)
    return _settle(HANDLERS[type(action)](state, action))
