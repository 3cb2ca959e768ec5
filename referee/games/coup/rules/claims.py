"""Coup: the challenge and block windows of a claim, and the cards they cost (C7–C9)."""

from __future__ import annotations

from dataclasses import replace

from referee.games.coup.rules.checks import (
    character_in_play,
    check_copies,
    living,
    need_bool,
    seat,
)
from referee.games.coup.rules.model import (
    BLOCK_CHALLENGE_LOSS,
    BLOCKERS,
    CHALLENGE_BLOCK,
    CHALLENGE_LOSS,
    CLAIMS,
    LOSE,
    PROVE,
    PROVE_BLOCK,
    Block,
    Challenge,
    CoupState,
    LoseInfluence,
    Reveal,
)
from referee.games.coup.rules.turn import (
    action_stands,
    end_turn,
    move,
    note,
    pending_of,
    resolve,
    turn_up,
)
from referee.rules import N_, RuleError

# --- C7: challenges ---------------------------------------------------------------


def challenge_claim(state: CoupState, a: Challenge) -> CoupState:
    pending = pending_of(state)
    if a.challenger is None:
        state = note(state, "C7", N_("Nobody challenges."))
        return action_stands(state)
    challenger = _challenger(state, a.challenger, pending.actor)
    state = note(
        state, "C7", N_("%(player)s challenges %(claimant)s."),
        player=challenger, claimant=pending.actor,
    )
    return replace(state, step=PROVE, pending=replace(pending, challenger=challenger))


def challenge_block(state: CoupState, a: Challenge) -> CoupState:
    pending = pending_of(state)
    blocker = pending.blocker or ""
    if a.challenger is None:
        state = note(state, "C8", N_("Nobody challenges."))
        return _block_stands(state)
    challenger = _challenger(state, a.challenger, blocker)
    state = note(
        state, "C8", N_("%(player)s challenges %(claimant)s."),
        player=challenger, claimant=blocker,
    )
    return replace(
        state, step=PROVE_BLOCK, pending=replace(pending, block_challenger=challenger)
    )


def _challenger(state: CoupState, pid: object, claimant: str) -> str:
    p = living(state, pid, "C7")
    if p.id == claimant:
        raise RuleError(
            "C7", N_("%(player)s cannot challenge their own claim; choose another player."),
            player=p.id,
        )
    return p.id


def reveal_claim(state: CoupState, a: Reveal) -> CoupState:
    """C7 on the action's claim: shown → the challenger pays; a bluff → the action fails."""
    pending = pending_of(state)
    character = _check_reveal(state, a, pending.actor, CLAIMS[pending.action])
    if a.shown:
        state = _show(state, pending.actor, character)
        return replace(state, step=LOSE, loser=pending.challenger, loss=CHALLENGE_LOSS)
    state = turn_up(
        state, pending.actor, character,
        N_("%(player)s does not show the claimed card and turns a card face up: "
           "%(character)s."),
    )
    if state.winner is not None:
        return state
    # Readings: an action that fails because of a bluff did not happen: refund.
    if pending.paid and state.player(pending.actor).alive:
        state = move(state, pending.actor, pending.paid)
        state = note(
            state, "C7", N_("The action fails; %(player)s gets back %(coins)s coins."),
            player=pending.actor, coins=pending.paid,
        )
    else:
        state = note(state, "C7", N_("The action fails."))
    return end_turn(state)


def reveal_block(state: CoupState, a: Reveal) -> CoupState:
    """C7 on a block's claim: shown → the block stands; a bluff → the action resolves."""
    pending = pending_of(state)
    blocker, block = pending.blocker or "", pending.block or ""
    character = _check_reveal(state, a, blocker, block)
    if a.shown:
        state = _show(state, blocker, character)
        return replace(state, step=LOSE, loser=pending.block_challenger, loss=BLOCK_CHALLENGE_LOSS)
    state = turn_up(
        state, blocker, character,
        N_("%(player)s does not show the claimed card and turns a card face up: "
           "%(character)s."),
    )
    if state.winner is not None:
        return state
    state = note(state, "C8", N_("The block fails."))
    return resolve(state)


def _check_reveal(state: CoupState, a: Reveal, claimant: str, claim: str) -> str:
    p = seat(state, a.player)
    if p.id != claimant:
        raise RuleError(
            "C7", N_("Only %(claimant)s answers this challenge: show the card or turn one "
                     "face up."),
            claimant=claimant,
        )
    shown = need_bool(a.shown, "shown")
    character = character_in_play(state, a.character)
    if shown and character != claim:
        raise RuleError(
            "C7",
            N_("Only the claimed card wins a challenge; if %(player)s cannot show it, "
               "they turn a card face up instead."),
            player=p.id,
        )
    check_copies(state, character)
    return character


def _show(state: CoupState, pid: str, character: str) -> CoupState:
    # C7: the shown card goes back into the Court and a new one is drawn: the Court
    # keeps its size. It still counts (C1) while the challenger turns a card face up.
    state = replace(state, shown=character)
    return note(
        state, "C7",
        N_("%(player)s shows the claimed card (%(character)s), shuffles it into the "
           "Court and draws a new one."),
        player=pid, character=character,
    )


# --- C8: blocks ---------------------------------------------------------------------


def block_action(state: CoupState, a: Block) -> CoupState:
    pending = pending_of(state)
    if a.blocker is None:
        if a.character is not None:
            raise RuleError("C8", N_("Name the player who blocks, or record that nobody does."))
        state = note(state, "C8", N_("Nobody blocks."))
        return resolve(state)
    p = living(state, a.blocker, "C8")
    if p.id == pending.actor:
        raise RuleError(
            "C8", N_("%(player)s cannot block their own action."), player=p.id
        )
    if pending.action != "foreign_aid" and p.id != pending.target:
        raise RuleError(
            "C8", N_("Only the target, %(target)s, may block this action."),
            target=pending.target or "",
        )
    character = character_in_play(state, a.character)
    if character not in BLOCKERS[pending.action]:
        raise RuleError(*_WRONG_BLOCK[pending.action])
    state = note(
        state, "C8", N_("%(player)s blocks, claiming: %(character)s."),
        player=p.id, character=character,
    )
    return replace(
        state, step=CHALLENGE_BLOCK, pending=replace(pending, blocker=p.id, block=character)
    )


_WRONG_BLOCK = {
    "foreign_aid": ("C4", N_("Only the Duchess blocks foreign aid; claim the Duchess.")),
    "assassinate": ("C5", N_("Only the Countess blocks an assassination; claim the Countess.")),
    "steal": (
        "C5",
        N_("Only the Captain, the Ambassador or the Inquisitor blocks a steal; claim one "
           "of those in play."),
    ),
}


def _block_stands(state: CoupState) -> CoupState:
    # C8: coins paid for a blocked action stay paid.
    state = note(state, "C8", N_("The block stands: the action fails."))
    return end_turn(state)


# --- C9: losing influence ----------------------------------------------------------


def lose_influence(state: CoupState, a: LoseInfluence) -> CoupState:
    p = seat(state, a.player)
    if p.id != state.loser:
        raise RuleError(
            "C9", N_("%(loser)s turns a card face up now, not %(player)s."),
            loser=state.loser or "", player=p.id,
        )
    character = character_in_play(state, a.character)
    check_copies(state, character)
    cause = state.loss
    state = turn_up(
        state, p.id, character,
        N_("%(player)s loses an influence and turns a card face up: %(character)s."),
    )
    state = replace(state, loser=None, loss=None, shown=None)
    if state.winner is not None:
        return state
    if cause == CHALLENGE_LOSS:
        return action_stands(state)
    if cause == BLOCK_CHALLENGE_LOSS:
        return _block_stands(state)
    return end_turn(state)  # a coup or an assassination has done its work
