"""Coup: declaring an action and resolving it, coins, losses and the log (C2–C6, C9, C10).

The challenge and block windows in between live in ``coup_claims``.
"""

from __future__ import annotations

from dataclasses import replace

from referee.games.coup.rules.checks import character_in_play, need_bool, seat
from referee.games.coup.rules.model import (
    ACTIONS,
    ASSASSINATION_LOSS,
    BLOCK,
    BLOCKERS,
    CHALLENGE,
    CLAIMS,
    COSTS,
    COUP_LOSS,
    DECLARE,
    EXAMINE,
    FORCED_COUP,
    GAINS,
    LOSE,
    OVER,
    STEAL,
    TARGETED,
    CoupState,
    Declare,
    ExamineVerdict,
    LogEntry,
    Pending,
)
from referee.rules import N_, RuleError

# --- C4: declaring an action -------------------------------------------------------


def declare(state: CoupState, a: Declare) -> CoupState:
    p = seat(state, a.player)
    if p.id != state.turn:
        raise RuleError(
            "C4", N_("It is the turn of %(turn)s, not of %(player)s."),
            turn=state.turn, player=p.id,
        )
    if not isinstance(a.action, str) or a.action not in ACTIONS:
        raise RuleError(
            "C4", N_("Unknown action %(action)s; choose one of %(actions)s."),
            action=str(a.action), actions=", ".join(ACTIONS),
        )
    if a.action in CLAIMS:
        character_in_play(state, CLAIMS[a.action])  # C1: no Ambassador in an Inquisitor game
    if p.coins >= FORCED_COUP and a.action != "coup":
        raise RuleError(
            "C6", N_("%(player)s starts the turn with %(coins)s coins and must launch a coup."),
            player=p.id, coins=p.coins,
        )
    cost = COSTS.get(a.action, 0)
    if p.coins < cost:
        raise RuleError(
            "C5" if a.action == "assassinate" else "C4",
            N_("This action costs %(cost)s coins and %(player)s has %(coins)s; "
               "choose an action they can pay for."),
            cost=cost, player=p.id, coins=p.coins,
        )
    _check_target(state, a)
    # Coins are paid when the action is declared; a bluff gives them back (readings).
    state = move(state, p.id, -cost)
    pending = Pending(actor=p.id, action=a.action, target=a.target, paid=cost)
    state = replace(state, pending=pending)
    state = note(state, *_DECLARED[a.action], player=p.id, target=a.target or "")
    if a.action == "income":
        # C4: income cannot be blocked or challenged.
        return end_turn(gain(state, p.id, GAINS["income"]))
    if a.action == "coup":
        # C4: a coup cannot be blocked or challenged.
        return replace(state, step=LOSE, loser=a.target, loss=COUP_LOSS)
    if a.action == "foreign_aid":
        return replace(state, step=BLOCK)  # no claim, so nothing to challenge
    return replace(state, step=CHALLENGE)


def _check_target(state: CoupState, a: Declare) -> None:
    if a.action not in TARGETED:
        if a.target is not None:
            raise RuleError("C4", N_("This action has no target; leave the target empty."))
        return
    targets = [p.id for p in state.players if p.alive and p.id != a.player]
    if a.target not in targets:
        raise RuleError(
            "C4",
            N_("Choose the target among the opponents still in the game: %(targets)s."),
            targets=", ".join(targets),
        )


_DECLARED = {
    "income": ("C4", N_("%(player)s takes income.")),
    "foreign_aid": ("C4", N_("%(player)s takes foreign aid.")),
    "coup": ("C4", N_("%(player)s pays 7 coins and launches a coup against %(target)s.")),
    "tax": ("C5", N_("%(player)s claims the Duchess to take 3 coins.")),
    "assassinate": (
        "C5", N_("%(player)s claims the Assassin, pays 3 coins and targets %(target)s.")
    ),
    "steal": ("C5", N_("%(player)s claims the Captain to steal from %(target)s.")),
    "exchange": ("C5", N_("%(player)s claims the Ambassador to exchange cards with the Court.")),
    "inquisitor_exchange": (
        "C5", N_("%(player)s claims the Inquisitor to exchange a card with the Court.")
    ),
    "examine": ("C5", N_("%(player)s claims the Inquisitor to examine a card of %(target)s.")),
}


def turn_up(state: CoupState, pid: str, character: str, message: str) -> CoupState:
    seats = tuple(
        replace(p, face_up=p.face_up + (character,)) if p.id == pid else p
        for p in state.players
    )
    state = note(replace(state, players=seats), "C9", message, player=pid, character=character)
    p = state.player(pid)
    if not p.alive:
        # C9: out of the game; their coins go back to the supply.
        state = move(state, pid, -p.coins)
        state = note(
            state, "C9", N_("%(player)s is out of the game; %(coins)s coins return to the supply."),
            player=pid, coins=p.coins,
        )
        alive = [q.id for q in state.players if q.alive]
        if len(alive) == 1:
            # C10: the last player with a face-down card wins, even in the middle of a turn.
            state = replace(
                state, winner=alive[0], step=OVER, pending=None, loser=None, loss=None,
                shown=None,
            )
            state = note(state, "C10", N_("%(player)s wins the game."), player=alive[0])
    return state


# --- resolution ---------------------------------------------------------------------


def action_stands(state: CoupState) -> CoupState:
    """The claim stood: the block window opens if the action can be blocked (readings)."""
    pending = pending_of(state)
    if pending.action in BLOCKERS and _target_alive(state):
        return replace(state, step=BLOCK)
    return resolve(state)


def resolve(state: CoupState) -> CoupState:
    pending = pending_of(state)
    actor, target = pending.actor, pending.target
    if target is not None and not _target_alive(state):
        # The target went out while answering a challenge: nothing left to hit.
        state = note(
            state, "C9", N_("%(target)s is already out of the game: the action has no effect."),
            target=target,
        )
        return end_turn(state)
    if pending.action in GAINS:
        state = gain(state, actor, GAINS[pending.action])
    elif pending.action == "steal" and target is not None:
        taken = min(STEAL, state.player(target).coins)  # C5: all they have if fewer
        state = move(move(state, target, -taken, supply=False), actor, taken, supply=False)
        state = note(
            state, "C5", N_("%(player)s takes %(coins)s coins from %(target)s."),
            player=actor, coins=taken, target=target,
        )
    elif pending.action == "assassinate":
        return replace(state, step=LOSE, loser=target, loss=ASSASSINATION_LOSS)
    elif pending.action == "examine":
        return replace(state, step=EXAMINE)
    else:
        # C5: the exchange happens out of sight; the Court keeps its size.
        state = note(state, "C5", N_("%(player)s exchanges with the Court."), player=actor)
    return end_turn(state)


def examine(state: CoupState, a: ExamineVerdict) -> CoupState:
    pending = pending_of(state)
    p = seat(state, a.player)
    if p.id != pending.actor:
        raise RuleError(
            "C5", N_("Only the Inquisitor's player, %(player)s, decides about the examined "
                     "card."),
            player=pending.actor,
        )
    if need_bool(a.swap, "swap"):
        message = N_("%(player)s makes %(target)s shuffle the examined card into the Court "
                     "and draw a new one.")
    else:
        message = N_("%(player)s gives the examined card back to %(target)s.")
    state = note(state, "C5", message, player=p.id, target=pending.target or "")
    return end_turn(state)


def pending_of(state: CoupState) -> Pending:
    if state.pending is None:  # only a hand-made state gets here
        raise RuleError("C4", N_("No action is being settled; declare an action first."))
    return state.pending


def _target_alive(state: CoupState) -> bool:
    pending = state.pending
    return pending is not None and pending.target is not None and (
        state.player(pending.target).alive
    )


def end_turn(state: CoupState) -> CoupState:
    """C4: play passes clockwise to the next player still in the game."""
    ids = [p.id for p in state.players]
    start = ids.index(state.turn)
    for step in range(1, len(ids) + 1):
        nxt = state.players[(start + step) % len(ids)]
        if nxt.alive:
            break
    return replace(
        state, step=DECLARE, turn=nxt.id, pending=None, loser=None, loss=None, shown=None
    )


# --- coins and log -------------------------------------------------------------------


def move(state: CoupState, pid: str, delta: int, supply: bool = True) -> CoupState:
    """Give ``delta`` coins to ``pid`` (negative: take), from or to the supply (C2)."""
    seats = tuple(replace(p, coins=p.coins + delta) if p.id == pid else p for p in state.players)
    return replace(state, players=seats, supply=state.supply - delta if supply else state.supply)


def gain(state: CoupState, pid: str, want: int) -> CoupState:
    # C2 holds 54 coins in all: a player takes what the supply still has.
    coins = min(want, state.supply)
    state = move(state, pid, coins)
    return note(state, "C4", N_("%(player)s gains %(coins)s coins."), player=pid, coins=coins)


def note(state: CoupState, rule: str, message: str, **params: str | int) -> CoupState:
    entry = LogEntry(rule, message, tuple(sorted(params.items())))
    return replace(state, log=state.log + (entry,))
