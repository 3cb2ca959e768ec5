"""Coin toss, a tiny duel, pure: the caller calls heads or tails (T1), the referee enters
the toss (T2); a wrong call costs the caller a life, a right one the other side. Sides
take turns calling; a side at 0 lives has lost (T3)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.rules import N_, RuleError

FACES = ("heads", "tails")
CALL_FIRST = N_("Call heads or tails before the toss (T1).")
NOT_A_FACE = N_("A coin shows heads or tails, not %(face)s (T2).")
OVER = N_("The game is over: a side has no life left (T3).")
BAD_LIVES = N_("Each side has 1 to 5 lives, not %(lives)s (T3).")


@dataclass(frozen=True)
class Coin:
    lives: tuple[int, int]
    caller: int = 0  # 0: side a, 1: side b
    called: str | None = None


@dataclass(frozen=True)
class Call:
    face: str


@dataclass(frozen=True)
class Toss:
    face: str


def start(setup: dict) -> Coin:
    lives = setup.get("lives", 2)
    if type(lives) is not int or not 1 <= lives <= 5:
        raise RuleError("T3", BAD_LIVES, lives=str(lives))
    return Coin((lives, lives))


def over(state: Coin) -> bool:
    return 0 in state.lives


def legal(state: Coin) -> list:
    if over(state):
        return []
    return [Call(f) for f in FACES] if state.called is None else [Toss(f) for f in FACES]


def apply(state: Coin, action) -> Coin:
    if over(state):
        raise RuleError("T3", OVER)
    if action.face not in FACES:
        raise RuleError("T2", NOT_A_FACE, face=str(action.face))
    if isinstance(action, Call):
        return replace(state, called=action.face)
    if state.called is None:
        raise RuleError("T1", CALL_FIRST)
    loser = state.caller if action.face != state.called else 1 - state.caller
    lives = tuple(n - 1 if side == loser else n for side, n in enumerate(state.lives))
    return Coin(lives, 1 - state.caller, None)


def read(state: Coin) -> dict:
    return {"lives": list(state.lives), "caller": "ab"[state.caller], "called": state.called}


def action_from_dict(d: object) -> Call | Toss:
    if not isinstance(d, dict) or d.get("type") not in ("call", "toss"):
        raise RuleError("T1", CALL_FIRST)
    return (Call if d["type"] == "call" else Toss)(str(d.get("face")))


def action_to_dict(action: Call | Toss) -> dict:
    return {"type": "call" if isinstance(action, Call) else "toss", "face": action.face}
