"""The card duel (D1–D14), as a pure fold: ``start(a, b)`` then ``apply(state, action)``.

The referee reads the cards off the table and enters them; the engine checks them against
the rules, counts the totals and keeps the record (D14). Side keys are ``"a"`` and
``"b"``. States and actions are frozen, so a duel is rebuilt by replaying its actions.
The dataclasses live in :mod:`referee.rules.duel_model` and the JSON helpers in
:mod:`referee.rules.duel_json`; both are re-exported here, so callers import this module.
"""

from __future__ import annotations

from dataclasses import replace

from referee.games.duel.rules import model
from referee.games.duel.rules.codec import (
    action_from_dict,
    action_to_dict,
    duelist_from_dict,
    duelist_to_dict,
    record_to_dict,
    state_to_dict,
)
from referee.games.duel.rules.model import (
    EXTENSION,
    FINISHED,
    HAND_SIZE,
    IN_PROGRESS,
    REGULAR_ROUNDS,
    SIDES,
    Action,
    Duelist,
    DuelState,
    Extension,
    Play,
    PlayRecord,
    Result,
    Round,
    RoundRecord,
    Side,
    is_blank,
)
from referee.rules import RuleError
from referee.rules.cards import parse_card, parse_suit, sort_codes, table_deck


def _other(key: str) -> str:
    return "b" if key == "a" else "a"


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 0


def _label(d: object) -> str:
    return str(getattr(d, "name", "") or getattr(d, "player", ""))


def _canonical(d: Duelist) -> Duelist:
    label = _label(d)
    if not isinstance(d, Duelist):
        raise RuleError("D4", model.BAD_STATS, player=label)
    if not all(_is_count(v) for v in (d.hp, d.chance, d.chance_max, d.cartridges)):
        raise RuleError("D4", model.BAD_STATS, player=label)
    suit = parse_suit(d.suit)
    if isinstance(d.duel_deck, str | bytes) or not isinstance(
        d.duel_deck, tuple | list | set | frozenset
    ):
        raise RuleError("D1", model.DECK_SHAPE, player=label)
    deck = [parse_card(text) for text in d.duel_deck]
    for card in deck:
        if card.suit != suit:  # D1: one suit, the passport's
            raise RuleError("D1", model.DECK_SUIT, card=card.code, player=label, suit=suit)
    return replace(d, suit=suit, duel_deck=sort_codes(c.code for c in deck))


def _able(d: Duelist) -> None:
    if not d.can_fight or d.hp <= 0:  # D4: HP > 0, not heavily wounded, not dead
        raise RuleError("D4", model.CANNOT_FIGHT, player=_label(d))


def _armed(d: Duelist) -> None:
    if d.cartridges < 1:  # D4: each pays one cartridge to start
        raise RuleError("D4", model.NO_CARTRIDGE_START, player=_label(d))


def check_duelist(d: Duelist) -> None:
    """Whether this one player may duel now, whoever the other is (D4, D1): the refusal
    ``start`` would give on their account, or nothing."""
    d = _canonical(d)
    _able(d)
    _armed(d)


def may_duel(d: Duelist, other: object = None) -> None:
    """D4 for one duelist, before the other is known (a scanned passport in a slot): able
    to fight, holding a cartridge, not the player ``other`` already in the other slot."""
    if other is not None and _canonical(d).player == other:
        raise RuleError("D4", model.SAME_PLAYER)
    check_duelist(d)


def start(a: Duelist, b: Duelist) -> DuelState:
    """Open a duel between two duelists (D4) and take each one's cartridge."""
    a, b = _canonical(a), _canonical(b)
    if a.player == b.player:
        raise RuleError("D4", model.SAME_PLAYER)
    for d in (a, b):
        _able(d)
    for d in (a, b):
        _armed(d)
    sides = [
        Side(start=d, hp=d.hp, chance=d.chance, cartridges=d.cartridges - 1,
             duel_deck=d.duel_deck, cartridges_paid=1)
        for d in (a, b)
    ]
    return DuelState(a=sides[0], b=sides[1])


def _check_play(side: Side, play: object) -> PlayRecord:
    if not isinstance(play, Play):
        raise RuleError("D6", model.ROUND_SHAPE)
    if is_blank(play.table) and is_blank(play.hand):
        raise RuleError("D6", model.NO_COUNTING_CARD, player=side.label)
    # D7: a table card under a laid hand card counts for nothing and may go unread.
    table = None if is_blank(play.table) else parse_card(play.table)
    if table and table.code in side.table_cards:  # D6: a table deck shows a card once
        raise RuleError("D6", model.TABLE_TWICE, card=table.code, player=side.label)
    hand = None
    if not is_blank(play.hand):
        hand = parse_card(play.hand)
        if side.hand_limit == 0:  # D5: fewer cards when the deck holds fewer, here none
            raise RuleError("D5", model.NO_HAND, player=side.label)
        if len(side.surrendered) >= side.hand_limit:  # D5
            raise RuleError("D5", model.HAND_LIMIT, player=side.label, limit=side.hand_limit)
        cards = ", ".join(side.duel_deck)
        if hand.suit != side.suit:  # D7: only one's own duel deck
            raise RuleError(
                "D7", model.HAND_SUIT, card=hand.code, player=side.label, suit=side.suit,
                cards=cards,
            )
        if hand.code not in side.duel_deck:  # D1: surrendered cards never come back
            raise RuleError("D7", model.HAND_GONE, card=hand.code, player=side.label, cards=cards)
    if not _is_count(play.tokens):
        raise RuleError("D8", model.TOKENS_WHOLE)
    if play.tokens > side.chance:
        raise RuleError(
            "D8", model.TOKENS_SHORT, player=side.label, have=side.chance, want=play.tokens
        )
    # D7: a laid hand card replaces the table card; D8: each token adds 1.
    counting = hand or table
    assert counting is not None  # D6: one of the two was read above
    return PlayRecord(
        table.code if table else None, hand.code if hand else None, play.tokens,
        counting.value + play.tokens,
    )


def preview(state: DuelState, action: Round) -> RoundRecord:
    """The round ``action`` would record (totals and winner), without applying it."""
    if state.status == FINISHED:
        raise RuleError("D10", model.OVER)
    if state.status == EXTENSION:
        raise RuleError("D12", model.DECIDE_FIRST)
    if not isinstance(action, Round):
        raise RuleError("D6", model.ROUND_SHAPE)
    a, b = _check_play(state.a, action.a), _check_play(state.b, action.b)
    # D9: the higher total wins; equal totals tie.
    winner = "a" if a.total > b.total else "b" if b.total > a.total else None
    return RoundRecord(n=len(state.rounds) + 1, a=a, b=b, winner=winner)


def _after_play(side: Side, laid: PlayRecord, lost: bool) -> Side:
    hp = side.hp - 1 if lost else side.hp  # D9
    hand = (laid.hand,) if laid.hand else ()
    return replace(
        side,
        hp=hp,
        chance=side.chance - laid.tokens,  # D8: spent tokens are gone
        duel_deck=tuple(c for c in side.duel_deck if c not in hand),
        surrendered=side.surrendered + hand,  # D1: surrendered for good
        table_cards=side.table_cards + ((laid.table,) if laid.table else ()),
        heavy_wound=hp == 0,  # D10
    )


def _finish(state: DuelState, winner: str | None, reason: str) -> DuelState:
    if winner is not None:
        # D13: restored to the passport's maximum; restoring never takes tokens away.
        side = state.side(winner)
        side = replace(side, chance=max(side.chance, side.start.chance_max))
        state = state.with_side(winner, side)
    return replace(state, status=FINISHED, result=Result(winner, reason))


def _settle(state: DuelState) -> DuelState:
    for key in SIDES:
        if state.side(key).heavy_wound:  # D10: ends at once, the other wins
            return _finish(state, _other(key), "heavy_wound")
    if len(state.rounds) < REGULAR_ROUNDS:
        return state
    wins_a, wins_b = round_wins(state)
    if wins_a != wins_b:  # D11
        return _finish(state, "a" if wins_a > wins_b else "b", "rounds")
    return replace(state, status=EXTENSION)  # D12: equal wins, the duel may go on


def _decide(state: DuelState, action: Extension) -> DuelState:
    if state.status != EXTENSION:
        raise RuleError("D12", model.NO_EXTENSION)
    wants = {"a": action.a, "b": action.b}
    if not all(isinstance(w, bool) for w in wants.values()):
        raise RuleError("D12", model.EXTENSION_SHAPE)
    for key, continues in wants.items():
        side = state.side(key)
        # D12: "cannot" (no cartridge) is a refusal; the referee must enter it as one.
        if continues and side.cartridges < 1:
            raise RuleError("D12", model.NO_CARTRIDGE_MORE, player=side.label)
    for key, continues in wants.items():
        if continues:
            side = state.side(key)
            side = replace(
                side, cartridges=side.cartridges - 1, cartridges_paid=side.cartridges_paid + 1
            )
            state = state.with_side(key, side)
    state = replace(state, extensions=state.extensions + ((action.a, action.b),))
    if action.a and action.b:
        return replace(state, status=IN_PROGRESS)  # one more round, then D11/D12 again
    if action.a or action.b:
        return _finish(state, "a" if action.a else "b", "extension")
    return _finish(state, None, "draw")  # D12: both refuse


def apply(state: DuelState, action: Action) -> DuelState:
    """The state after ``action``; raise RuleError (and change nothing) if it is illegal."""
    if state.status == FINISHED:
        raise RuleError("D10", model.OVER)
    if isinstance(action, Extension):
        return _decide(state, action)
    if not isinstance(action, Round):
        raise RuleError("D6", model.ACTION_SHAPE)
    played = preview(state, action)
    a = _after_play(state.a, played.a, lost=played.winner == "b")
    b = _after_play(state.b, played.b, lost=played.winner == "a")
    return _settle(replace(state, a=a, b=b, rounds=state.rounds + (played,)))


def replay(a: Duelist, b: Duelist, actions: object) -> DuelState:
    """Start a duel and fold ``actions`` into it: how a stored duel is rebuilt."""
    state = start(a, b)
    for action in actions:  # type: ignore[attr-defined]
        state = apply(state, action)
    return state


# Queries for the screens ------------------------------------------------------------


def round_wins(state: DuelState) -> tuple[int, int]:
    """Rounds won so far by a and by b."""
    winners = [r.winner for r in state.rounds]
    return winners.count("a"), winners.count("b")


def awaiting(state: DuelState) -> str | None:
    """What the referee enters next: ``"round"``, ``"extension"`` or None when over."""
    return {IN_PROGRESS: "round", EXTENSION: "extension"}.get(state.status)


def hand_cards_allowed(state: DuelState, side: str) -> tuple[str, ...]:
    """Duel-deck cards ``side`` may still lay; empty once the D5 hand is spent."""
    s = state.side(side)
    if state.status == FINISHED or len(s.surrendered) >= s.hand_limit:
        return ()
    return s.duel_deck


def table_cards_used(state: DuelState, side: str) -> tuple[str, ...]:
    """Cards already turned up from ``side``'s table deck in this duel (D6)."""
    return state.side(side).table_cards


def table_cards_left(state: DuelState, side: str) -> tuple[str, ...]:
    """Cards that may still turn up from ``side``'s table deck (D2, D6)."""
    used = set(state.side(side).table_cards)
    return tuple(c.code for c in table_deck() if c.code not in used)


def tokens_allowed(state: DuelState, side: str) -> int:
    """The most chance tokens ``side`` may spend in the next round (D8)."""
    return state.side(side).chance


def total(play: Play) -> int:
    """The counting card plus tokens (D7, D8), without checking whose cards they are."""
    if not isinstance(play, Play) or is_blank(play.table) and is_blank(play.hand):
        raise RuleError("D6", model.ROUND_SHAPE)
    table = None if is_blank(play.table) else parse_card(play.table)
    hand = None if is_blank(play.hand) else parse_card(play.hand)
    if not _is_count(play.tokens):
        raise RuleError("D8", model.TOKENS_WHOLE)
    counting = hand or table
    assert counting is not None  # D6: refused above when both are blank
    return counting.value + play.tokens


def effects(state: DuelState) -> dict[str, dict[str, object]]:
    """What the duel did to each player so far, against the start snapshot.

    ``hp``, ``chance``, ``cartridges`` are deltas; ``surrendered`` the duel-deck cards
    laid (D1); ``heavy_wound`` whether the duelist reached 0 HP (D10).
    """
    return {
        key: {
            "player": s.start.player,
            "hp": s.hp - s.start.hp,
            "chance": s.chance - s.start.chance,
            "cartridges": s.cartridges - s.start.cartridges,
            "surrendered": s.surrendered,
            "heavy_wound": s.heavy_wound,
        }
        for key, s in (("a", state.a), ("b", state.b))
    }


def effects_between(before: DuelState, after: DuelState) -> dict[str, dict[str, object]]:
    """The change from ``before`` to ``after``: one action's effects, or (swapped) its undo.

    ``surrendered``/``returned`` list cards leaving/coming back to the duel deck;
    ``heavy_wound`` is True (wounded), False (wound undone) or None (unchanged).
    """
    out: dict[str, dict[str, object]] = {}
    for key in SIDES:
        old, new = before.side(key), after.side(key)
        out[key] = {
            "player": new.start.player,
            "hp": new.hp - old.hp,
            "chance": new.chance - old.chance,
            "cartridges": new.cartridges - old.cartridges,
            "surrendered": tuple(c for c in new.surrendered if c not in old.surrendered),
            "returned": tuple(c for c in old.surrendered if c not in new.surrendered),
            "heavy_wound": None if new.heavy_wound == old.heavy_wound else new.heavy_wound,
        }
    return out


__all__ = [
    "EXTENSION",
    "FINISHED",
    "HAND_SIZE",
    "IN_PROGRESS",
    "REGULAR_ROUNDS",
    "SIDES",
    "Action",
    "DuelState",
    "Duelist",
    "Extension",
    "Play",
    "PlayRecord",
    "Result",
    "Round",
    "RoundRecord",
    "Side",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "awaiting",
    "check_duelist",
    "duelist_from_dict",
    "duelist_to_dict",
    "effects",
    "effects_between",
    "hand_cards_allowed",
    "may_duel",
    "preview",
    "record_to_dict",
    "replay",
    "round_wins",
    "start",
    "state_to_dict",
    "table_cards_left",
    "table_cards_used",
    "tokens_allowed",
    "total",
]
