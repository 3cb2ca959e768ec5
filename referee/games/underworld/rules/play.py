"""Preparing for a fight: playing cards (U10), trading (U10), help (U11), summoning
(U12), the characteristic ability (U14) and monster modifiers (U7)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from referee.rules import N_, RuleError

from .actions import AdjustMonster, AnswerHelp, OfferHelp, PlayCard, PowerUp, Summon, Trade
from .cards import WEAPON, Item, Monster, Skill
from .state import (
    Encounter,
    Offer,
    Player,
    State,
    active_player,
    card_of,
    class_of,
    holds,
    less,
    player_of,
    with_player,
)

FIGHTING = ("fight", "challenge")


def sides(enc: Encounter) -> tuple[str, ...]:
    return (enc.fighter, enc.defender) if enc.defender else (enc.fighter,)


def may_prepare(state: State, pid: str) -> bool:
    """Who may play cards or power up now: the active player in their turn (U5), and
    during a fight its sides and the players who offered help (U11, U13)."""
    if state.phase in ("over", "cleanup", "class_change"):
        return False
    if pid == active_player(state).id:
        return True
    enc = state.encounter
    return enc is not None and state.phase in FIGHTING and (
        pid in sides(enc) or any(o.helper == pid for o in enc.offers))


def _require_prepare(state: State, pid: str) -> None:
    if not may_prepare(state, pid):
        raise RuleError("U5", N_("%(player)s may play cards now only in their own turn, as a "
                                 "side of a fight or as a helper who offered help; wait for "
                                 "that."), player=pid)


def guard_promised(state: State, pid: str, codes: Iterable[str]) -> None:
    """U11: a reward promised to an accepted helper stays with the fighter until scored."""
    enc = state.encounter
    if enc is None:
        return
    owed = Counter(o.reward for o in enc.offers if o.accepted and o.fighter == pid)
    p = player_of(state, pid)
    left = Counter(p.inventory) + Counter(p.play_area)
    left.subtract(codes)
    for code, count in owed.items():
        if left[code] < count:
            raise RuleError("U11", N_("%(code)s is promised to a helper as a reward; keep it "
                                      "until the fight is scored."), code=code)


def _not_held(pid: str, codes: Iterable[str], rule: str = "U10") -> RuleError:
    return RuleError(rule, N_("%(player)s does not hold %(codes)s in the inventory; use "
                               "cards held there."), player=pid, codes=", ".join(codes))


def _check_magic(state: State, p: Player, card: Item | Skill) -> None:
    klass = class_of(state, p)
    if card.magic and not (klass and klass.magic):
        raise RuleError("U10", N_("%(code)s is a magic card: only a class that may use magic "
                                  "(Cleric, Witch) plays it; keep it in the inventory."),
                        code=card.code)


def play_card(state: State, a: PlayCard) -> State:
    p = player_of(state, a.player)
    _require_prepare(state, p.id)
    if a.code not in p.inventory:
        raise _not_held(p.id, [a.code])
    card = card_of(state, a.code)
    if not isinstance(card, Item | Skill):
        raise RuleError("U10", N_("Only items and skills are played into the play area; a "
                                  "monster joins a fight only through Summoning."))
    _check_magic(state, p, card)
    play, thrown = p.play_area, tuple[str, ...]()
    if isinstance(card, Skill):
        if a.replaces:
            raise RuleError("U10", N_("Only an item replaces a card in play; play %(code)s "
                                      "without naming one."), code=a.code)
        if a.code in play:
            raise RuleError("U10", N_("The same skill is never twice in play: %(code)s is "
                                      "already in play; keep this copy in the inventory."),
                            code=a.code)
    else:
        same = [c for c in play if getattr(card_of(state, c), "item_type", None)
                == card.item_type]
        klass = class_of(state, p)
        if a.replaces:
            if a.replaces not in same:
                if not same:
                    raise RuleError("U10", N_("%(code)s replaces nothing: no item of its type "
                                              "is in play; play it without naming one."),
                                    code=a.code)
                raise RuleError("U10", N_("%(code)s can replace only an item of its type in "
                                          "play: name one of %(cards)s."),
                                code=a.code, cards=", ".join(same))
            guard_promised(state, p.id, [a.replaces])
            play, thrown = less(play, [a.replaces]), (a.replaces,)
        elif card.item_type == WEAPON and len(same) == 1 and not (klass and klass.two_weapons):
            raise RuleError("U10", N_("A second weapon only for a class that may wield two "
                                      "weapons (Warrior): replace %(old)s with %(code)s or keep "
                                      "it in the inventory."), old=same[0], code=a.code)
        elif len(same) >= 2:
            raise RuleError("U10", N_("No free place for %(code)s: %(old)s already in play for "
                                      "its type; replace one (the old one is discarded) or "
                                      "keep it in the inventory."),
                            code=a.code, old=", ".join(same))
        elif same and card.item_type != WEAPON:
            raise RuleError("U10", N_("Only one card of each item type in play: replace "
                                      "%(old)s with %(code)s (the old one is discarded) or keep "
                                      "it in the inventory."), old=same[0], code=a.code)
    p = replace(p, inventory=less(p.inventory, [a.code]), play_area=play + (a.code,))
    return replace(with_player(state, p), discard=state.discard + thrown)


def trade(state: State, a: Trade) -> State:
    p, q = player_of(state, a.player), player_of(state, a.partner)
    if p.id == q.id:
        raise RuleError("U10", N_("A player trades with someone else; pick another "
                                  "partner."))
    if not a.gives or not a.takes:
        raise RuleError("U10", N_("A trade is never a gift: each side gives at least one "
                                  "card; add a card in return."))
    for who, codes in ((p, a.gives), (q, a.takes)):
        if not holds(who.inventory, codes):
            raise _not_held(who.id, codes)
        guard_promised(state, who.id, codes)
    p = replace(p, inventory=less(p.inventory, a.gives) + a.takes)
    q = replace(q, inventory=less(q.inventory, a.takes) + a.gives)
    return with_player(with_player(state, p), q)


def power_up(state: State, a: PowerUp) -> State:
    p = player_of(state, a.player)
    klass = class_of(state, p)
    if klass is None:
        raise RuleError("U14", N_("A plain Human has no characteristic ability; only some "
                                  "classes power up."))
    if klass.ability_cost == 0:
        raise RuleError("U14", N_("The class %(code)s has no characteristic ability to power "
                                  "up; fight without it."), code=klass.code)
    if p.ability_used:
        raise RuleError("U14", N_("%(player)s has already powered up this turn; the ability "
                                  "works once a turn."), player=p.id)
    _require_prepare(state, p.id)
    cost = klass.ability_cost
    if len(p.inventory) < cost:
        raise RuleError("U14", N_("Powering up needs %(cost)s inventory cards to discard; "
                                  "%(player)s holds only %(have)s."),
                        cost=cost, player=p.id, have=len(p.inventory))
    if len(a.discards) != cost:
        raise RuleError("U14", N_("Discard exactly %(cost)s inventory cards to power up; "
                                  "%(count)s were named."), cost=cost, count=len(a.discards))
    if not holds(p.inventory, a.discards):
        raise _not_held(p.id, a.discards, "U14")
    guard_promised(state, p.id, a.discards)
    p = replace(p, inventory=less(p.inventory, a.discards), powered=True, ability_used=True)
    return replace(with_player(state, p), discard=state.discard + a.discards)


def _pending(state: State) -> Encounter:
    if state.encounter is None or state.phase not in FIGHTING:
        raise RuleError("U11", N_("Help is offered and answered only before a fight is "
                                  "scored; wait for a fight."))
    return state.encounter


def offer_help(state: State, a: OfferHelp) -> State:
    enc = _pending(state)
    helper, fighter = player_of(state, a.helper), player_of(state, a.fighter)
    if fighter.id not in sides(enc):
        raise RuleError("U11", N_("%(player)s is not fighting now; offer help to one of "
                                  "%(players)s."), player=fighter.id,
                        players=", ".join(sides(enc)))
    if helper.id in sides(enc):
        raise RuleError("U11", N_("%(player)s is fighting and cannot help in the same "
                                  "fight; let another player help."), player=helper.id)
    if any(o.helper == helper.id for o in enc.offers):
        raise RuleError("U11", N_("%(player)s has already offered help in this fight; wait "
                                  "for the answer."), player=helper.id)
    held = fighter.inventory + fighter.play_area
    if not held:
        raise RuleError("U11", N_("%(player)s holds no card to offer as a reward, so no help "
                                  "can be offered."), player=fighter.id)
    if a.reward not in held:
        raise RuleError("U11", N_("The reward must be a card %(player)s holds in the "
                                  "inventory or play area: name one of %(cards)s."),
                        player=fighter.id, cards=", ".join(sorted(set(held))))
    offer = Offer(helper=helper.id, fighter=fighter.id, reward=a.reward)
    return replace(state, encounter=replace(enc, offers=enc.offers + (offer,)))


def answer_help(state: State, a: AnswerHelp) -> State:
    enc = _pending(state)
    offer = next((o for o in enc.offers if o.helper == a.helper and not o.accepted), None)
    if offer is None:
        raise RuleError("U11", N_("No offer of help from %(player)s is waiting for an "
                                  "answer."), player=a.helper)
    if not a.accept:
        return replace(state, encounter=replace(
            enc, offers=tuple(o for o in enc.offers if o is not offer)))
    fighter = player_of(state, offer.fighter)
    owed = sum(1 for o in enc.offers if o.accepted and o.fighter == fighter.id
               and o.reward == offer.reward)
    if (fighter.inventory + fighter.play_area).count(offer.reward) <= owed:
        raise RuleError("U11", N_("%(code)s is already promised to another helper; ask for a "
                                  "different reward."), code=offer.reward)
    offers = tuple(replace(o, accepted=True) if o is offer else o for o in enc.offers)
    return replace(state, encounter=replace(enc, offers=offers))


def summon(state: State, a: Summon) -> State:
    p = player_of(state, a.player)
    _require_prepare(state, p.id)
    skill = card_of(state, a.skill)
    if not (isinstance(skill, Skill) and skill.summoning):
        raise RuleError("U12", N_("%(code)s is not a Summoning skill; use a Summoning card."),
                        code=a.skill)
    if a.skill not in p.inventory + p.play_area:
        raise _not_held(p.id, [a.skill], "U12")
    _check_magic(state, p, skill)
    enc = state.encounter
    if not a.monster:
        if state.phase != "fight" or enc is None or enc.fighter != p.id:
            raise RuleError("U12", N_("Only the player who met a monster summons it, before "
                                      "the fight is scored; a helper summons from the inventory "
                                      "instead."))
        guard_promised(state, p.id, [a.skill])
        joined = enc.monster
    else:
        if state.phase not in FIGHTING or enc is None or not may_prepare(state, p.id):
            raise RuleError("U12", N_("A monster from the inventory joins only a pending fight "
                                      "its player fights or helps in; wait for one."))
        if a.monster not in p.inventory or not isinstance(card_of(state, a.monster), Monster):
            raise RuleError("U12", N_("%(code)s is not a monster in the inventory of "
                                      "%(player)s; summon a monster card held there."),
                            code=a.monster, player=p.id)
        guard_promised(state, p.id, [a.skill, a.monster])
        joined = a.monster
    if a.skill in p.inventory:
        p = replace(p, inventory=less(p.inventory, [a.skill]))
    else:
        p = replace(p, play_area=less(p.play_area, [a.skill]))
    if a.monster:
        p = replace(p, inventory=less(p.inventory, [a.monster]))
    state = replace(with_player(state, replace(p, allies=p.allies + (joined,))),
                    discard=state.discard + (a.skill,))
    if a.monster:
        return state
    # U12: the monster met is hypnotised; the encounter ends as a step with no level change
    return replace(state, encounter=None, phase="step_over", streak=0)


def adjust_monster(state: State, a: AdjustMonster) -> State:
    enc = state.encounter
    if state.phase != "fight" or enc is None or not enc.monster:
        raise RuleError("U7", N_("Only a monster's score is adjusted, while a fight against "
                                 "it is pending; draw the monster first."))
    if not -20 <= a.amount <= 20 or a.amount == 0:
        raise RuleError("U7", N_("The adjustment must be a whole number from -20 to 20, not "
                                 "0; correct it."))
    if a.card:
        card_of(state, a.card)
    return replace(state, encounter=replace(enc, modifiers=enc.modifiers + ((a.card, a.amount),)))


HANDLERS: dict[type, Callable[[State, Any], State]] = {
    PlayCard: play_card, Trade: trade, PowerUp: power_up, OfferHelp: offer_help,
    AnswerHelp: answer_help, Summon: summon, AdjustMonster: adjust_monster}
