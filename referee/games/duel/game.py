"""The card duel (D1–D14) as a game kind: two passports' snapshots in, rounds on top.

The setup holds both duelists as they stood when the duel began (D1, D4), so the duel is
rebuilt by replaying its steps from them whatever has happened to the passports since.
The start itself is a step: it takes each duelist's cartridge (D4), and undoing it
cancels the duel and gives the cartridges back.
"""

from __future__ import annotations

from referee.games.duel import rules
from referee.games.duel.rules import DuelState, Extension, Play, Round
from referee.games.interface import Choices, Effect, GameKind
from referee.notes import Note, note
from referee.rules import N_, RuleError

NAME = "duel"
BAD_SETUP = N_("This duel's setup is damaged (%(field)s); start a new duel.")

# Reasons written on the player events as notes, read in each reader's language; the
# duel named as everywhere else (games.names: "Duel 3"). Events written before keep the
# "duel #3" msgids, which the catalog still holds.
REASON_START = N_("Duel %(duel)s, start")
REASON_ROUND = N_("Duel %(duel)s, round %(round)s")
REASON_EXTENSION = N_("Duel %(duel)s, extension decision")


def setup_of(state: DuelState) -> dict:
    """What is stored to start this duel again: both start snapshots."""
    return {"a": rules.duelist_to_dict(state.a.start), "b": rules.duelist_to_dict(state.b.start)}


def start(setup: object) -> DuelState:
    """The duel's first state: both pay their cartridge (D4)."""
    if not isinstance(setup, dict) or set(setup) != set(rules.SIDES):
        raise RuleError(None, BAD_SETUP, field="setup")
    return rules.start(rules.duelist_from_dict(setup["a"]), rules.duelist_from_dict(setup["b"]))


def _plays(state: DuelState, side: str) -> list[Play]:
    """Every play ``side`` may make this round: a table card left (D2, D6), a hand card
    or none (D5, D7), and as many tokens as they hold (D8); with a hand card, the table
    card under it may also go unread (D7)."""
    laid = rules.hand_cards_allowed(state, side)
    tokens = range(rules.tokens_allowed(state, side) + 1)
    read = Choices(Play, rules.table_cards_left(state, side), (None, *laid), tokens)
    return [*read, *Choices(Play, (None,), laid, tokens)]


def legal(state: DuelState) -> Choices | tuple:
    """Every round or D12 decision the referee may enter now."""
    waiting = rules.awaiting(state)
    if waiting == "round":
        return Choices(Round, _plays(state, "a"), _plays(state, "b"))
    if waiting == "extension":
        out = []
        for a in (False, True):
            for b in (False, True):
                try:
                    rules.apply(state, Extension(a=a, b=b))
                except RuleError:  # D12: continuing costs a cartridge they may not have
                    continue
                out.append(Extension(a=a, b=b))
        return tuple(out)
    return ()


def _registry_id(player: object) -> int:
    """The passport a duelist stands for: the duel service snapshots registry rows, so
    the engine's player is a registry id (``service.snapshot``: ``player=row["id"]``)."""
    assert isinstance(player, int)  # see above; the engine alone also takes names
    return player


def effects(before: DuelState | None, after: DuelState) -> dict[int, Effect]:
    """What one step did to both passports: stats, surrendered cards, D13's refill."""
    if before is None:  # D4: the start takes one cartridge from each
        return {_registry_id(s.start.player):
                Effect({"cartridges": s.cartridges - s.start.cartridges})
                for s in (after.a, after.b)}
    won = after.result.winner if after.result and before.result is None else None
    out = {}
    for key, change in rules.effects_between(before, after).items():
        refill = ("chance",) if won == key else ()  # D13: back to the passport maximum
        # effects_between's values: ints for the stats, a tuple of card codes surrendered
        deltas = {k: n for k in ("hp", "chance", "cartridges")
                  if isinstance(n := change[k], int) and n and k not in refill}
        surrendered = change["surrendered"]
        assert isinstance(surrendered, tuple)  # effects_between builds it as one
        out[_registry_id(change["player"])] = Effect(deltas, refill, surrendered)
    return out


def step_note(number: int | Note, action: object | None, after: DuelState) -> Note:
    """"duel #3, round 2" on the players' events."""
    if action is None:
        return note(REASON_START, duel=number)
    if isinstance(action, Round):
        return note(REASON_ROUND, duel=number, round=len(after.rounds))
    return note(REASON_EXTENSION, duel=number)


KIND = GameKind(
    name=NAME, title=N_("Duels"), start=start, legal=legal, apply=rules.apply,
    read=rules.state_to_dict, action_from_dict=rules.action_from_dict,
    action_to_dict=rules.action_to_dict, status=lambda state: state.status, effects=effects,
    start_is_step=True, note=step_note, undo_event="duel_undo")
