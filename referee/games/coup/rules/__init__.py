"""Coup (Complots edition, with the Inquisitor): the referee's rules engine.

Rules and readings: ``shared/rules/coup.md`` (C1–C10). The engine knows only what is
said and shown at the table; it never asks for or tracks a hidden card. A game is
``new_game(...)`` folded with ``apply(state, action)``; ``awaiting`` and ``options``
say what the table must answer next and offer every legal one-tap answer.

Choices where the rules page leaves room (each also cited where it is coded):
- Coins (C2) are counted in silver value: 24 silver + 6 gold = 54. Player coins plus the
  supply always make 54; a player who takes coins gets what the supply still holds.
- Coins for an action (Coup 7, Assassin 3) are paid when it is declared; a bluff caught
  by a challenge gives them back, a block does not (readings, C8).
- Foreign aid may be blocked by any other player; an assassination or a steal only by
  its target (C8: "the one blocked"). One block per action: the first to speak (as C7).
- Card counting (C1): cards turned face up, plus a card shown to win a challenge while
  its challenger turns a card up, never exceed the copies of that character.
- Exchanges and shown cards keep the Court's size: it is fixed at setup (C2, C3).
- The Inquisitor's examine (C5 b) ends with one visible choice: give the card back, or
  have it shuffled into the Court and replaced (``ExamineVerdict``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.games.coup.rules.claims import (
    block_action,
    challenge_block,
    challenge_claim,
    lose_influence,
    reveal_block,
    reveal_claim,
)
from referee.games.coup.rules.codec import (
    action_from_dict,
    action_to_dict,
    log_text,
    state_to_dict,
)
from referee.games.coup.rules.model import (
    ACTION_NAMES,
    ACTIONS,
    BLOCK,
    CHALLENGE,
    CHALLENGE_BLOCK,
    CHARACTER_NAMES,
    CHARACTERS,
    DECLARE,
    EXAMINE,
    LOSE,
    OVER,
    PROVE,
    PROVE_BLOCK,
    STARTING_COINS,
    TOTAL_COINS,
    VARIANTS,
    Action,
    Block,
    Challenge,
    CoupState,
    Declare,
    ExamineVerdict,
    LogEntry,
    LoseInfluence,
    Pending,
    Player,
    Reveal,
)
from referee.games.coup.rules.query import Question, awaiting, legal_actions, options
from referee.games.coup.rules.turn import declare, examine, note
from referee.rules import N_, RuleError

__all__ = [
    "ACTIONS",
    "ACTION_NAMES",
    "CHARACTERS",
    "CHARACTER_NAMES",
    "TOTAL_COINS",
    "VARIANTS",
    "Action",
    "Block",
    "Challenge",
    "CoupState",
    "Declare",
    "ExamineVerdict",
    "LogEntry",
    "LoseInfluence",
    "Pending",
    "Player",
    "Question",
    "Reveal",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "awaiting",
    "legal_actions",
    "log_text",
    "new_game",
    "options",
    "state_to_dict",
]


def new_game(
    players: tuple[str, ...] | list[str],
    variant: str = "ambassador",
    first: str | None = None,
    one_coin_start: bool = False,
) -> CoupState:
    """A table in seating order, ``first`` to play (default: the first seat).

    ``one_coin_start`` gives the starting player 1 coin instead of 2 (C3, 2 players only).
    Long because every setup check of C1–C4 stands here in turn, each with its refusal.
    """
    ids = tuple(players) if isinstance(players, (list, tuple)) else ()
    if not all(isinstance(p, str) and p for p in ids) or len(set(ids)) != len(ids):
        raise RuleError("C1", N_("Give every player a distinct, non-empty name."))
    if not 2 <= len(ids) <= 8:
        raise RuleError(
            "C1", N_("Coup is for 2 to 8 players, not %(count)s."), count=len(ids)
        )
    if variant not in VARIANTS:
        raise RuleError(
            "C1", N_("Choose the Ambassador or the Inquisitor as the fifth character.")
        )
    if first is None:
        first = ids[0]
    if first not in ids:
        raise RuleError(
            "C4",
            N_("The starting player %(player)s is not at the table; choose one of "
               "%(players)s."),
            player=str(first),
            players=", ".join(ids),
        )
    if not isinstance(one_coin_start, bool) or (one_coin_start and len(ids) != 2):
        raise RuleError(
            "C3", N_("Only a 2-player game may give the starting player 1 coin; turn it off.")
        )
    # C1: 3 copies of each character for 2–6 players (C3 splits those 3 copies into the
    # 2-player piles), 4 copies for 7–8.
    copies = 4 if len(ids) >= 7 else 3
    deck = copies * 5
    if len(ids) == 2:
        # C3: one pile deals a card to each player and leaves 3 in the Court; of the two
        # other piles each player keeps one card and sets 4 aside.
        court, out = 3, 2 * 4
    else:
        court, out = deck - 2 * len(ids), 0
    seats = tuple(
        Player(p, 1 if one_coin_start and p == first else STARTING_COINS) for p in ids
    )
    state = CoupState(
        players=seats,
        variant=variant,
        copies=copies,
        court=court,
        out_of_game=out,
        supply=TOTAL_COINS - sum(p.coins for p in seats),
        turn=first,
    )
    return note(
        state,
        "C2",
        N_("New game: %(count)s players, %(copies)s copies of each character, "
           "%(court)s cards in the Court, %(out)s out of the game; %(player)s starts."),
        count=len(ids),
        copies=copies,
        court=court,
        out=out,
        player=first,
    )


def apply(state: CoupState, action: Action) -> CoupState:
    """The table after ``action``; an action the rules forbid raises ``RuleError``."""
    if state.winner is not None:
        raise RuleError(
            "C10", N_("The game is over: %(player)s has won; start a new game."),
            player=state.winner,
        )
    handler = _HANDLERS.get((state.step, type(action)))
    if handler is None:
        raise _out_of_step(state)
    return handler(state, action)


def _out_of_step(state: CoupState) -> RuleError:
    pending = state.pending
    rule, message = _WAITING.get(state.step, _WAITING[DECLARE])
    if state.step in (CHALLENGE, PROVE, EXAMINE):
        who = pending.actor if pending else state.turn
    elif state.step in (CHALLENGE_BLOCK, PROVE_BLOCK):
        who = pending.blocker if pending and pending.blocker else state.turn
    elif state.step == LOSE:
        who = state.loser or state.turn
    else:
        who = state.turn
    return RuleError(rule, message, player=who)


_WAITING = {
    DECLARE: ("C4", N_("First %(player)s declares an action for this turn.")),
    CHALLENGE: ("C7", N_("First record who challenges the claim of %(player)s, or that "
                         "nobody does.")),
    PROVE: ("C7", N_("First record whether %(player)s shows the claimed card or turns a "
                     "card face up.")),
    BLOCK: ("C8", N_("First record who blocks the action of %(player)s, or that nobody "
                     "does.")),
    CHALLENGE_BLOCK: ("C8", N_("First record who challenges the block by %(player)s, or "
                               "that nobody does.")),
    PROVE_BLOCK: ("C7", N_("First record whether %(player)s shows the claimed card or "
                           "turns a card face up.")),
    LOSE: ("C9", N_("First record which card %(player)s turns face up.")),
    EXAMINE: ("C5", N_("First record whether %(player)s gives the examined card back or "
                       "has it swapped.")),
    OVER: ("C10", N_("The game is over: %(player)s has won; start a new game.")),
}

_HANDLERS: dict[tuple[str, type[Action]], Callable[[CoupState, Any], CoupState]] = {
    (DECLARE, Declare): declare,
    (CHALLENGE, Challenge): challenge_claim,
    (PROVE, Reveal): reveal_claim,
    (BLOCK, Block): block_action,
    (CHALLENGE_BLOCK, Challenge): challenge_block,
    (PROVE_BLOCK, Reveal): reveal_block,
    (LOSE, LoseInfluence): lose_influence,
    (EXAMINE, ExamineVerdict): examine,
}
