"""Coup: what the table must answer next, and every legal one-tap answer (for the UI)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.games.coup.rules import model as m
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


def legal_actions(state: m.CoupState) -> tuple[m.Declare, ...]:
    """Every action the player whose turn it is may declare now (C4–C6)."""
    if state.step != m.DECLARE or state.winner is not None:
        return ()
    p = state.player(state.turn)
    opponents = [q.id for q in state.players if q.alive and q.id != p.id]
    if p.coins >= m.FORCED_COUP:
        return tuple(m.Declare(p.id, "coup", t) for t in opponents)  # C6
    out: list[m.Declare] = []
    for action in m.ACTIONS:
        if action in m.CLAIMS and m.CLAIMS[action] not in state.in_play:
            continue  # C1: the left-out character has no power in this game
        if p.coins < m.COSTS.get(action, 0):
            continue
        if action in m.TARGETED:
            out.extend(m.Declare(p.id, action, t) for t in opponents)
        else:
            out.append(m.Declare(p.id, action))
    return tuple(out)


def _alive_except(state: m.CoupState, pid: str | None) -> tuple[str, ...]:
    return tuple(p.id for p in state.players if p.alive and p.id != pid)


def _cards_left(state: m.CoupState) -> tuple[str, ...]:
    """Characters a card turned face up (or shown) may still be (C1 card counting)."""
    return tuple(c for c in state.in_play if copies_left(state, c) > 0)


def _blockers(state: m.CoupState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Who may block the pending action, and claiming which characters (C4, C5, C8)."""
    pending = state.pending
    if pending is None or pending.action not in m.BLOCKERS:
        return (), ()
    if pending.action == "foreign_aid":
        players = _alive_except(state, pending.actor)
    else:
        players = (pending.target,) if pending.target else ()
    characters = tuple(c for c in m.BLOCKERS[pending.action] if c in state.in_play)
    return players, characters


def awaiting(state: m.CoupState) -> Question:
    """Which question the screen must ask next, and who may answer it."""
    if state.winner is not None:
        return Question("over")
    pending = state.pending
    if state.step == m.DECLARE or pending is None:
        return Question("declare", (state.turn,), actor=state.turn)
    context: dict[str, Any] = {
        "action": pending.action, "actor": pending.actor, "target": pending.target}
    claim = m.CLAIMS.get(pending.action)
    if state.step == m.CHALLENGE:
        return Question(
            "challenge", _alive_except(state, pending.actor),
            claimant=pending.actor, claim=claim, **context,
        )
    if state.step == m.CHALLENGE_BLOCK:
        return Question(
            "challenge", _alive_except(state, pending.blocker),
            claimant=pending.blocker, claim=pending.block, **context,
        )
    if state.step in (m.PROVE, m.PROVE_BLOCK):
        claimant = pending.actor if state.step == m.PROVE else pending.blocker
        claimed = claim if state.step == m.PROVE else pending.block
        return Question(
            "show_or_turn_up", (claimant or "",), claimant=claimant, claim=claimed,
            characters=_cards_left(state),
            can_show=claimed is not None and copies_left(state, claimed) > 0, **context,
        )
    if state.step == m.BLOCK:
        players, characters = _blockers(state)
        return Question("block", players, characters=characters, **context)
    if state.step == m.LOSE:
        return Question(
            "lose_influence", (state.loser or "",), characters=_cards_left(state),
            reason=state.loss, **context,
        )
    if state.step == m.EXAMINE:
        return Question("examine", (pending.actor,), **context)
    return Question("over")


def options(state: m.CoupState) -> tuple[m.Action, ...]:
    """Every legal answer to the question on screen, one per button."""
    q = awaiting(state)
    if q.kind == "declare":
        return legal_actions(state)
    if q.kind == "challenge":
        return (m.Challenge(None),) + tuple(m.Challenge(p) for p in q.players)
    if q.kind == "show_or_turn_up" and q.claimant and q.claim:
        shown = (m.Reveal(q.claimant, q.claim, True),) if q.can_show else ()
        return shown + tuple(m.Reveal(q.claimant, c, False) for c in q.characters)
    if q.kind == "block":
        return (m.Block(None),) + tuple(m.Block(p, c) for p in q.players for c in q.characters)
    if q.kind == "lose_influence":
        return tuple(m.LoseInfluence(q.players[0], c) for c in q.characters)
    if q.kind == "examine":
        return (m.ExamineVerdict(q.players[0], False), m.ExamineVerdict(q.players[0], True))
    return ()
