"""Coup: what the table must answer next, and every legal one-tap answer (for the UI)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.games.coup.rules import model
from referee.games.coup.rules.checks import copies_left


@dataclass(frozen=True)
class Question:
    """The question on the referee's screen.

    ``kind`` is one of ``declare``, ``challenge``, ``show_or_turn_up``, ``block``,
    ``lose_influence``, ``examine`` and ``over``; ``players`` may answer it.
    """

    kind: str
    players: tuple[str, ...] = ()
    action: str | None = None  # the action being settled
    actor: str | None = None  # whose turn it is
    target: str | None = None
    claimant: str | None = None  # whose claim is challenged or must be proven
    claim: str | None = None  # the character claimed
    characters: tuple[str, ...] = ()  # block: claims allowed; lose/show: cards allowed (C1)
    can_show: bool = False  # show_or_turn_up: the claimed card may still be shown (C1)
    reason: str | None = None  # lose_influence: coup, assassination, challenge, block_challenge


def legal_actions(state: model.CoupState) -> tuple[model.Declare, ...]:
    """Every action the player whose turn it is may declare now (C4–C6)."""
    if state.step != model.DECLARE or state.winner is not None:
        return ()
    p = state.player(state.turn)
    opponents = [q.id for q in state.players if q.alive and q.id != p.id]
    if p.coins >= model.FORCED_COUP:
        return tuple(model.Declare(p.id, "coup", t) for t in opponents)  # C6
    out: list[model.Declare] = []
    for action in model.ACTIONS:
        if action in model.CLAIMS and model.CLAIMS[action] not in state.in_play:
            continue  # C1: the left-out character has no power in this game
        if p.coins < model.COSTS.get(action, 0):
            continue
        if action in model.TARGETED:
            out.extend(model.Declare(p.id, action, t) for t in opponents)
        else:
            out.append(model.Declare(p.id, action))
    return tuple(out)


def _alive_except(state: model.CoupState, pid: str | None) -> tuple[str, ...]:
    return tuple(p.id for p in state.players if p.alive and p.id != pid)


def _cards_left(state: model.CoupState) -> tuple[str, ...]:
    """Characters a card turned face up (or shown) may still be (C1 card counting)."""
    return tuple(c for c in state.in_play if copies_left(state, c) > 0)


def _blockers(state: model.CoupState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Who may block the pending action, and claiming which characters (C4, C5, C8)."""
    pending = state.pending
    if pending is None or pending.action not in model.BLOCKERS:
        return (), ()
    if pending.action == "foreign_aid":
        players = _alive_except(state, pending.actor)
    else:
        players = (pending.target,) if pending.target else ()
    characters = tuple(c for c in model.BLOCKERS[pending.action] if c in state.in_play)
    return players, characters


def awaiting(state: model.CoupState) -> Question:
    """Which question the screen must ask next, and who may answer it."""
    if state.winner is not None:
        return Question("over")
    pending = state.pending
    if state.step == model.DECLARE or pending is None:
        return Question("declare", (state.turn,), actor=state.turn)
    context: dict[str, Any] = {
        "action": pending.action, "actor": pending.actor, "target": pending.target}
    claim = model.CLAIMS.get(pending.action)
    if state.step == model.CHALLENGE:
        return Question(
            "challenge", _alive_except(state, pending.actor),
            claimant=pending.actor, claim=claim, **context,
        )
    if state.step == model.CHALLENGE_BLOCK:
        return Question(
            "challenge", _alive_except(state, pending.blocker),
            claimant=pending.blocker, claim=pending.block, **context,
        )
    if state.step in (model.PROVE, model.PROVE_BLOCK):
        claimant = pending.actor if state.step == model.PROVE else pending.blocker
        claimed = claim if state.step == model.PROVE else pending.block
        return Question(
            "show_or_turn_up", (claimant or "",), claimant=claimant, claim=claimed,
            characters=_cards_left(state),
            can_show=claimed is not None and copies_left(state, claimed) > 0, **context,
        )
    if state.step == model.BLOCK:
        players, characters = _blockers(state)
        return Question("block", players, characters=characters, **context)
    if state.step == model.LOSE:
        return Question(
            "lose_influence", (state.loser or "",), characters=_cards_left(state),
            reason=state.loss, **context,
        )
    if state.step == model.EXAMINE:
        return Question("examine", (pending.actor,), **context)
    return Question("over")


def options(state: model.CoupState) -> tuple[model.Action, ...]:
    """Every legal answer to the question on screen, one per button."""
    q = awaiting(state)
    if q.kind == "declare":
        return legal_actions(state)
    if q.kind == "challenge":
        return (model.Challenge(None),) + tuple(model.Challenge(p) for p in q.players)
    if q.kind == "show_or_turn_up" and q.claimant and q.claim:
        shown = (model.Reveal(q.claimant, q.claim, True),) if q.can_show else ()
        return shown + tuple(model.Reveal(q.claimant, c, False) for c in q.characters)
    if q.kind == "block":
        return (model.Block(None),) + tuple(model.Block(p, c) for p in q.players
                                            for c in q.characters)
    if q.kind == "lose_influence":
        return tuple(model.LoseInfluence(q.players[0], c) for c in q.characters)
    if q.kind == "examine":
        return (model.ExamineVerdict(q.players[0], False), model.ExamineVerdict(q.players[0], True))
    return ()
