"""The card duel engine (D1–D14): worked examples, readings, JSON, random legal duels."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from hypothesis import event, given, settings
from hypothesis import strategies as st

from referee.games.duel import rules as duel
from referee.games.duel.rules import (
    Duelist,
    DuelState,
    Extension,
    Play,
    Result,
    Round,
    action_from_dict,
    action_to_dict,
    apply,
    awaiting,
    duelist_from_dict,
    duelist_to_dict,
    effects,
    effects_between,
    hand_cards_allowed,
    preview,
    record_to_dict,
    replay,
    round_wins,
    start,
    state_to_dict,
    table_cards_left,
    table_cards_used,
    tokens_allowed,
    total,
)
from referee.rules import RuleError

ROOT = Path(__file__).resolve().parents[3]
HEARTS = ("6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH")
CLUBS = ("6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC")


def player_a(**changes: object) -> Duelist:
    """A of the worked examples: HP 3/3, chance 2/2, 3 cartridges, suit ♥."""
    a = Duelist(player=1, name="A", hp=3, chance=2, chance_max=2, cartridges=3,
                duel_deck=HEARTS, suit="♥")
    return replace(a, **changes)


def player_b(**changes: object) -> Duelist:
    """B of the worked examples: HP 3/3, chance 1/1, 2 cartridges, suit ♣."""
    b = Duelist(player=2, name="B", hp=3, chance=1, chance_max=1, cartridges=2,
                duel_deck=CLUBS, suit="♣")
    return replace(b, **changes)


def rnd(a: str, b: str, *, a_hand: str | None = None, b_hand: str | None = None,
        a_tokens: int = 0, b_tokens: int = 0) -> Round:
    return Round(a=Play(a, a_hand, a_tokens), b=Play(b, b_hand, b_tokens))


def play(state: DuelState, *actions: object) -> DuelState:
    for action in actions:
        state = apply(state, action)
    return state


def refused(state: DuelState, action: object, rule: str) -> RuleError:
    """Assert the action is refused under ``rule`` and return the error."""
    with pytest.raises(RuleError) as err:
        apply(state, action)
    assert err.value.rule == rule, err.value.text
    return err.value


# A 1–1 duel after three rounds (A wins, B wins, tie): the extension is open.
TIED_AFTER_THREE = (rnd("10S", "7H"), rnd("6D", "QC"), rnd("9D", "9S"))


# Worked examples -----------------------------------------------------------------------


def test_D4_D9_D11_D13_example_1_a_wins_two_rounds_to_one() -> None:
    state = start(player_a(), player_b())
    assert (state.a.cartridges, state.b.cartridges) == (2, 1)
    state = apply(state, rnd("10S", "7H"))
    assert (state.rounds[-1].winner, state.b.hp) == ("a", 2)
    state = apply(state, rnd("6D", "QC"))
    assert (state.rounds[-1].winner, state.a.hp) == ("b", 2)
    state = apply(state, rnd("KH", "9S"))
    assert (state.a.hp, state.b.hp) == (2, 1)
    assert round_wins(state) == (2, 1)
    assert state.status == "finished"
    assert state.result == Result("a", "rounds")
    assert (state.a.chance, state.b.chance) == (2, 1)


def test_D13_example_1_winner_chance_restored_loser_keeps_what_they_have() -> None:
    state = start(player_a(), player_b())
    state = play(state, rnd("10S", "7H", a_tokens=2, b_tokens=1),
                 rnd("6D", "QC"), rnd("KH", "9S"))
    assert state.result == Result("a", "rounds")
    assert state.a.chance == 2  # restored from 0 to the passport's maximum
    assert state.b.chance == 0  # B spent its token and lost: nothing comes back
    assert effects(state)["a"]["chance"] == 0
    assert effects(state)["b"]["chance"] == -1


def test_D8_D9_example_2_tokens_make_a_tied_round() -> None:
    state = apply(start(player_a(), player_b()), rnd("9C", "JD", a_tokens=2))
    last = state.rounds[-1]
    assert (last.a.total, last.b.total, last.winner) == (11, 11, None)
    assert state.a.chance == 0
    assert (state.a.hp, state.b.hp) == (3, 3)


def test_D7_D1_example_3_hand_card_counts_and_is_surrendered_for_good() -> None:
    state = apply(start(player_a(), player_b()), rnd("6S", "KC", a_hand="AH"))
    last = state.rounds[-1]
    assert (last.a.table, last.a.hand, last.a.total, last.b.total) == ("6S", "AH", 14, 13)
    assert last.winner == "a"
    assert "AH" not in state.a.duel_deck
    assert state.a.surrendered == ("AH",)
    assert "AH" not in hand_cards_allowed(state, "a")
    err = refused(state, rnd("7S", "8C", a_hand="AH"), "D7")
    assert err.params["card"] == "AH"
    assert effects(state)["a"]["surrendered"] == ("AH",)


def test_D10_example_4_zero_hp_is_a_heavy_wound_and_ends_the_duel() -> None:
    state = apply(start(player_a(), player_b(hp=1)), rnd("KS", "6S"))
    assert state.b.hp == 0
    assert state.b.heavy_wound is True
    assert state.status == "finished"
    assert state.result == Result("a", "heavy_wound")
    assert len(state.rounds) == 1
    refused(state, rnd("QS", "7S"), "D10")  # no R2
    assert effects(state)["b"] == {
        "player": 2, "hp": -1, "chance": 0, "cartridges": -1, "surrendered": (),
        "heavy_wound": True,
    }


def test_D12_example_5_one_continues_the_other_refuses() -> None:
    state = play(start(player_a(), player_b()), *TIED_AFTER_THREE)
    assert round_wins(state) == (1, 1)
    assert (state.status, awaiting(state)) == ("extension", "extension")
    state = apply(state, Extension(a=True, b=False))
    assert state.result == Result("a", "extension")
    assert (state.a.cartridges_paid, state.b.cartridges_paid) == (2, 1)
    assert (state.a.cartridges, state.b.cartridges) == (1, 1)


def test_D12_example_5_both_continue_and_play_a_fourth_round() -> None:
    state = play(start(player_a(), player_b()), *TIED_AFTER_THREE, Extension(True, True))
    assert (state.status, awaiting(state)) == ("in_progress", "round")
    assert (state.a.cartridges, state.b.cartridges) == (1, 0)
    state = apply(state, rnd("AS", "6S"))
    assert state.rounds[-1].n == 4
    assert state.result == Result("a", "rounds")  # D11 again after the extra round
    assert record_to_dict(state)["duelists"]["b"]["cartridges_paid"] == 2


def test_D12_D13_example_5_both_refuse_is_a_draw_and_restores_nothing() -> None:
    state = start(player_a(), player_b())
    state = play(state, rnd("10S", "7H", a_tokens=1), rnd("6D", "QC", b_tokens=1),
                 rnd("9D", "9S"), Extension(False, False))
    assert state.result == Result(None, "draw")
    assert (state.a.chance, state.b.chance) == (1, 0)
    assert (state.a.cartridges_paid, state.b.cartridges_paid) == (1, 1)


def test_D4_example_6_no_cartridge_no_duel() -> None:
    b = player_b(cartridges=0)
    with pytest.raises(RuleError) as err:
        start(player_a(), b)
    assert err.value.rule == "D4"
    assert err.value.params == {"player": "B"}
    assert "B has no cartridge" in err.value.text
    assert b.cartridges == 0  # nothing was paid


def test_D7_example_7_foreign_or_surrendered_hand_card_refused() -> None:
    state = start(player_a(), player_b())
    err = refused(state, rnd("6S", "KC", a_hand="AS"), "D7")
    assert err.params["suit"] == "H"
    assert "6H, 7H" in err.params["cards"]
    state = apply(state, rnd("6S", "KC", a_hand="AH"))
    again = refused(state, rnd("7S", "KD", a_hand="т♥"), "D7")
    assert "AH" not in again.params["cards"]
    assert state.rounds[-1].n == 1  # nothing recorded by the refusals


def test_D6_example_8_table_card_cannot_turn_up_twice() -> None:
    state = apply(start(player_a(), player_b()), rnd("QS", "7H"))
    err = refused(state, rnd("QS", "8H"), "D6")
    assert err.params == {"card": "QS", "player": "A"}
    assert table_cards_used(state, "a") == ("QS",)


def test_D7_D14_a_table_card_covered_by_a_hand_card_may_go_unread() -> None:
    # Reading of D7/D14: only the hand card counts, so a covered table card the referee
    # did not read is recorded as not read; D6 checks every table card that was read.
    state = start(player_a(), player_b())
    state = apply(state, Round(a=Play(None, "AH"), b=Play("KC")))
    last = state.rounds[-1]
    assert (last.a.table, last.a.hand, last.a.total, last.b.total) == (None, "AH", 14, 13)
    assert last.winner == "a" and state.b.hp == 2
    assert state.a.surrendered == ("AH",)
    assert table_cards_used(state, "a") == () and len(table_cards_left(state, "a")) == 36
    rounds = state_to_dict(state)["rounds"]
    assert rounds[0]["a"] == {"table": None, "hand": "AH", "tokens": 0, "total": 14}
    assert record_to_dict(state)["duelists"]["a"]["table_cards"] == []
    # tokens still add to the hand card (D8); the hand card is still checked (D7, D1)
    assert apply(state, Round(a=Play("", "KH", 2), b=Play("6D"))).rounds[-1].a.total == 15
    refused(state, Round(a=Play(None, "AS"), b=Play("6D")), "D7")
    refused(state, Round(a=Play(None, "AH"), b=Play("6D")), "D7")
    # a read table card under a hand card still counts toward D6's repeat check
    state = apply(state, Round(a=Play("QS", "KH"), b=Play("6D")))
    refused(state, rnd("QS", "7D"), "D6")
    assert table_cards_used(state, "a") == ("QS",)


def test_D6_a_side_with_neither_table_nor_hand_card_is_refused_with_its_name() -> None:
    state = start(player_a(), player_b())
    err = refused(state, Round(a=Play("QS"), b=Play(None, " ", 1)), "D6")
    assert err.params == {"player": "B"}
    assert "hand card laid over it" in err.text
    assert state.rounds == ()


def test_D8_example_9_more_tokens_than_held_refused() -> None:
    state = start(player_a(), player_b())
    err = refused(state, rnd("QS", "7H", a_tokens=3), "D8")
    assert (err.params["have"], err.params["want"]) == (2, 3)


def test_D5_example_10_fourth_hand_card_refused() -> None:
    state = start(player_a(), player_b())
    state = play(
        state,
        rnd("10S", "6D", a_hand="6H"),
        rnd("10D", "7D", a_hand="7H"),
        rnd("10C", "8D", a_hand="8H"),
        Extension(True, True),
    )
    assert hand_cards_allowed(state, "a") == ()
    err = refused(state, rnd("JS", "9D", a_hand="9H"), "D5")
    assert err.params["limit"] == 3
    assert apply(state, rnd("JS", "9D")).rounds[-1].winner == "a"


# Every rule, the readings and the edges --------------------------------------------------


def test_D1_duel_deck_must_be_of_the_passport_suit() -> None:
    with pytest.raises(RuleError) as err:
        start(player_a(duel_deck=("6H", "QS")), player_b())
    assert (err.value.rule, err.value.params["card"]) == ("D1", "QS")
    with pytest.raises(RuleError) as err:
        start(player_a(duel_deck="6H 7H"), player_b())
    assert err.value.rule == "D1"


def test_D1_D3_duel_deck_and_suit_are_canonicalised() -> None:
    state = start(player_a(duel_deck=["т♥", "6 червей", "6H"], suit="черви"), player_b())
    assert state.a.suit == "H"
    assert state.a.duel_deck == ("6H", "AH")


def test_D2_each_duelist_has_an_own_table_deck() -> None:
    state = start(player_a(), player_b())
    assert len(table_cards_left(state, "a")) == 36
    state = apply(state, rnd("QS", "QS"))
    assert state.rounds[-1].winner is None
    assert "QS" not in table_cards_left(state, "a")
    assert len(table_cards_left(state, "b")) == 35


def test_D3_actions_accept_any_notation_and_record_codes() -> None:
    state = apply(start(player_a(), player_b()), rnd("Д♠", "10 червей", b_hand="т♣"))
    last = state_to_dict(state)["rounds"][0]
    assert last["a"] == {"table": "QS", "hand": None, "tokens": 0, "total": 12}
    assert last["b"] == {"table": "10H", "hand": "AC", "tokens": 0, "total": 14}
    refused(state, rnd("11S", "6D"), "D3")


def test_D4_same_player_cannot_duel_themselves() -> None:
    with pytest.raises(RuleError) as err:
        start(player_a(), player_b(player=1))
    assert err.value.rule == "D4"


@pytest.mark.parametrize("changes", [{"hp": 0}, {"can_fight": False}])
def test_D4_a_duelist_who_cannot_fight_may_not_duel(changes: dict) -> None:
    with pytest.raises(RuleError) as err:
        start(player_a(**changes), player_b())
    assert (err.value.rule, err.value.params) == ("D4", {"player": "A"})


@pytest.mark.parametrize("changes", [{"hp": -1}, {"chance": True}, {"cartridges": "2"}])
def test_D4_invalid_sheet_numbers_are_refused(changes: dict) -> None:
    with pytest.raises(RuleError) as err:
        start(player_a(**changes), player_b())
    assert err.value.rule == "D4"


def test_D4_each_duelist_pays_one_cartridge_to_start() -> None:
    state = start(player_a(), player_b())
    assert effects(state)["a"]["cartridges"] == -1
    assert effects(state)["b"]["cartridges"] == -1
    assert (state.a.cartridges_paid, state.b.cartridges_paid) == (1, 1)


def test_D5_hand_is_smaller_when_the_duel_deck_is() -> None:
    state = start(player_a(duel_deck=("6H", "7H")), player_b())
    assert state.a.hand_limit == 2
    state = play(state, rnd("10S", "6D", a_hand="6H"), rnd("10D", "7D", a_hand="7H"))
    assert hand_cards_allowed(state, "a") == ()
    empty = start(player_a(duel_deck=()), player_b())
    assert empty.a.hand_limit == 0
    err = refused(empty, rnd("10S", "6D", a_hand="6H"), "D5")
    assert "empty duel deck" in err.text


def test_D5_D7_reading_unplayed_hand_cards_stay_in_the_duel_deck() -> None:
    state = play(start(player_a(), player_b()), rnd("KS", "6D", a_hand="QH"),
                 rnd("KD", "7D"), rnd("KC", "8D"))
    assert state.status == "finished"
    assert state.a.duel_deck == tuple(c for c in HEARTS if c != "QH")
    assert state.b.duel_deck == CLUBS
    assert effects(state)["b"]["surrendered"] == ()


def test_D7_only_the_laid_hand_card_counts_even_when_lower() -> None:
    state = apply(start(player_a(), player_b()), rnd("AS", "7D", a_hand="6H"))
    assert (state.rounds[-1].a.total, state.rounds[-1].winner) == (6, "b")
    assert total(Play("AS", "6H", 1)) == 7
    assert total(Play("9C", None, 2)) == 11


def test_D8_tokens_must_be_a_whole_number() -> None:
    state = start(player_a(), player_b())
    for bad in (-1, True, 1.0, "1", None):
        refused(state, rnd("QS", "7H", a_tokens=bad), "D8")  # type: ignore[arg-type]
    assert tokens_allowed(state, "a") == 2


def test_D9_loser_loses_one_hp_and_a_tie_costs_nobody() -> None:
    state = apply(start(player_a(), player_b()), rnd("6S", "7S"))
    assert (state.a.hp, state.b.hp) == (2, 3)
    state = apply(state, rnd("8S", "8D"))
    assert (state.a.hp, state.b.hp) == (2, 3)
    assert state.rounds[-1].winner is None


def test_D10_three_rounds_then_over() -> None:
    state = play(start(player_a(), player_b()), rnd("6S", "7S"), rnd("8S", "6D"),
                 rnd("AS", "6C"))
    assert (state.status, awaiting(state)) == ("finished", None)
    assert (state.result, len(state.rounds)) == (Result("a", "rounds"), 3)
    err = refused(state, rnd("KS", "KD"), "D10")
    assert "start a new duel" in err.text
    refused(state, Extension(True, True), "D10")
    assert hand_cards_allowed(state, "a") == ()


def test_D10_reading_a_heavy_wound_stays_at_zero_hp() -> None:
    state = play(start(player_a(hp=1), player_b()), rnd("6S", "AS", b_tokens=1))
    assert (state.a.hp, state.a.heavy_wound, state.result) == (0, True, Result("b", "heavy_wound"))
    assert record_to_dict(state)["duelists"]["a"]["hp_after"] == 0


def test_D11_reading_a_leader_after_three_rounds_wins_despite_a_tie() -> None:
    state = play(start(player_a(), player_b()), rnd("KS", "6D"), rnd("8S", "8D"),
                 rnd("9S", "9D"))
    assert state.result == Result("a", "rounds")
    refused(state, Extension(True, True), "D10")


def test_D12_round_refused_while_the_extension_is_undecided() -> None:
    state = play(start(player_a(), player_b()), *TIED_AFTER_THREE)
    refused(state, rnd("KS", "6D"), "D12")
    with pytest.raises(RuleError) as err:
        preview(state, rnd("KS", "6D"))
    assert err.value.rule == "D12"


def test_D12_extension_refused_when_none_is_open() -> None:
    state = start(player_a(), player_b())
    refused(state, Extension(True, False), "D12")
    refused(play(state, *TIED_AFTER_THREE), Extension(1, 0), "D12")  # type: ignore[arg-type]


def test_D12_a_duelist_without_cartridges_cannot_continue() -> None:
    # B starts with one cartridge and pays it: B "cannot" continue, and the engine makes
    # the referee enter that as a refusal, so the record says what happened.
    state = play(start(player_a(), player_b(cartridges=1)), *TIED_AFTER_THREE)
    err = refused(state, Extension(True, True), "D12")
    assert err.params == {"player": "B"}
    state = apply(state, Extension(True, False))
    assert state.result == Result("a", "extension")


def test_D12_extension_rounds_repeat_while_wins_stay_equal() -> None:
    state = play(start(player_a(cartridges=5), player_b(cartridges=5)), *TIED_AFTER_THREE,
                 Extension(True, True), rnd("7S", "7D"))
    assert state.status == "extension"
    state = play(state, Extension(True, True), rnd("6S", "AD"))
    assert state.result == Result("b", "rounds")
    assert state.extensions == ((True, True), (True, True))
    assert (state.a.cartridges_paid, state.b.cartridges_paid) == (3, 3)


def test_D13_restoring_never_takes_tokens_away() -> None:
    state = play(start(player_a(chance=4, chance_max=2), player_b()),
                 rnd("KS", "6D"), rnd("KD", "6C"), rnd("KC", "6H"))
    assert state.result is not None and state.result.winner == "a"
    assert state.a.chance == 4


def test_D14_record_keeps_rounds_cartridges_hp_and_result() -> None:
    state = play(start(player_a(), player_b()), rnd("6S", "KC", a_hand="AH", a_tokens=1),
                 rnd("6D", "QC"), rnd("9D", "9S"), Extension(True, False))
    record = record_to_dict(state)
    assert record["rounds"][0] == {
        "n": 1,
        "a": {"table": "6S", "hand": "AH", "tokens": 1, "total": 15},
        "b": {"table": "KC", "hand": None, "tokens": 0, "total": 13},
        "winner": "a",
    }
    a, b = record["duelists"]["a"], record["duelists"]["b"]
    assert (a["player"], a["cartridges_paid"], a["hp_before"], a["hp_after"]) == (1, 2, 3, 2)
    assert (b["player"], b["cartridges_paid"], b["hp_before"], b["hp_after"]) == (2, 1, 3, 2)
    assert a["surrendered"] == ["AH"]
    assert record["extensions"] == [{"a": True, "b": False}]
    assert record["result"] == {"winner": "a", "reason": "extension"}
    json.dumps(record)


def test_D14_state_to_dict_has_exactly_the_api_shape() -> None:
    state = start(player_a(), player_b())
    assert state_to_dict(state) == {"status": "in_progress", "rounds": [], "result": None}
    state = play(state, *TIED_AFTER_THREE, Extension(False, False))
    body = state_to_dict(state)
    assert set(body) == {"status", "rounds", "result"}
    assert set(body["rounds"][0]) == {"n", "a", "b", "winner"}
    assert set(body["rounds"][0]["a"]) == {"table", "hand", "tokens", "total"}
    assert body["result"] == {"winner": None, "reason": "draw"}
    assert json.loads(json.dumps(body)) == body


# Queries, JSON and undo ------------------------------------------------------------------


def test_D9_preview_shows_totals_without_changing_the_state() -> None:
    state = start(player_a(), player_b())
    seen = preview(state, rnd("9C", "JD", a_hand="KH", a_tokens=1))
    assert (seen.n, seen.a.total, seen.b.total, seen.winner) == (1, 14, 11, "a")
    assert state.rounds == () and state.a.chance == 2
    with pytest.raises(RuleError) as err:
        preview(state, rnd("9C", "JD", a_hand="KC"))
    assert err.value.rule == "D7"


@pytest.mark.parametrize(
    "action",
    [None, "round", 3, Play("QS"), Round(a=None, b=None), Round(a=Play(None), b=Play("QS")),
     Round(a=Play("QS"), b=Play("  "))],
)
def test_D6_malformed_actions_raise_rule_errors(action: object) -> None:
    refused(start(player_a(), player_b()), action, "D6")


def test_D6_D12_actions_round_trip_through_json() -> None:
    actions = [rnd("Д♠", "10 червей", a_hand="т♥", a_tokens=2), Extension(True, False)]
    dicts = [action_to_dict(a) for a in actions]
    assert dicts[0] == {
        "type": "round",
        "a": {"table": "QS", "hand": "AH", "tokens": 2},
        "b": {"table": "10H", "hand": None, "tokens": 0},
    }
    assert dicts[1] == {"type": "extension", "a": True, "b": False}
    back = [action_from_dict(json.loads(json.dumps(d))) for d in dicts]
    assert back[0] == rnd("QS", "10H", a_hand="AH", a_tokens=2)
    assert back[1] == actions[1]
    extra = {"type": "round", "note": "x", "a": {"table": "qs", "hand": ""}, "b": {"table": "6d"}}
    assert action_from_dict(extra) == rnd("QS", "6D")
    # D7: a covered table card left unread is stored as null and read back as None
    unread = Round(a=Play(None, "т♥"), b=Play("6D"))
    stored = action_to_dict(unread)
    assert stored["a"] == {"table": None, "hand": "AH", "tokens": 0}
    assert action_from_dict(json.loads(json.dumps(stored))) == Round(Play(None, "AH"),
                                                                     Play("6D"))


@pytest.mark.parametrize(
    ("data", "rule"),
    [
        (None, "D6"),
        ([], "D6"),
        ({"type": "surrender"}, "D6"),
        ({"type": "round", "a": {"table": "QS"}}, "D6"),
        ({"type": "round", "a": {"table": "QS"}, "b": {"hand": ""}}, "D6"),
        ({"type": "round", "a": {"table": "QS"}, "b": {"table": None, "tokens": 1}}, "D6"),
        ({"type": "round", "a": {"table": "QX"}, "b": {"table": "6D"}}, "D3"),
        ({"type": "round", "a": {"table": "QS", "hand": 5}, "b": {"table": "6D"}}, "D3"),
        ({"type": "round", "a": {"table": "QS", "tokens": True}, "b": {"table": "6D"}}, "D8"),
        ({"type": "round", "a": {"table": "QS", "tokens": -1}, "b": {"table": "6D"}}, "D8"),
        ({"type": "round", "a": {"table": "QS", "tokens": 1.5}, "b": {"table": "6D"}}, "D8"),
        ({"type": "extension", "a": True}, "D12"),
        ({"type": "extension", "a": 1, "b": 0}, "D12"),
    ],
)
def test_D3_D6_D8_D12_malformed_json_actions_are_refused(data: object, rule: str) -> None:
    with pytest.raises(RuleError) as err:
        action_from_dict(data)
    assert err.value.rule == rule


def test_D14_duelist_snapshot_round_trips_and_replay_rebuilds_the_duel() -> None:
    a, b = player_a(), player_b()
    assert duelist_from_dict(json.loads(json.dumps(duelist_to_dict(a)))) == a
    with pytest.raises(RuleError):
        duelist_from_dict({"player": 1})
    actions = [*TIED_AFTER_THREE, Extension(True, True), rnd("AS", "6S")]
    stored = [action_to_dict(x) for x in actions]
    rebuilt = replay(a, b, [action_from_dict(d) for d in stored])
    assert rebuilt == play(start(a, b), *actions)
    assert hash(rebuilt) == hash(play(start(a, b), *actions))


def test_D1_D10_effects_between_gives_an_action_and_its_undo() -> None:
    before = start(player_a(chance=1), player_b(hp=1))
    after = apply(before, rnd("6S", "QC", a_hand="AH", a_tokens=1))
    change = effects_between(before, after)
    assert change["a"] == {"player": 1, "hp": 0, "chance": 1, "cartridges": 0,
                           "surrendered": ("AH",), "returned": (), "heavy_wound": None}
    assert change["b"]["hp"] == -1 and change["b"]["heavy_wound"] is True
    undo = effects_between(after, before)
    assert undo["a"] == {"player": 1, "hp": 0, "chance": -1, "cartridges": 0,
                         "surrendered": (), "returned": ("AH",), "heavy_wound": None}
    assert undo["b"]["hp"] == 1 and undo["b"]["heavy_wound"] is False


def test_D12_extension_decision_is_in_the_effects() -> None:
    before = play(start(player_a(), player_b()), *TIED_AFTER_THREE)
    after = apply(before, Extension(True, True))
    change = effects_between(before, after)
    assert (change["a"]["cartridges"], change["b"]["cartridges"]) == (-1, -1)


# Random legal duels ----------------------------------------------------------------------


@st.composite
def duelists(draw) -> tuple[Duelist, Duelist]:
    suits = draw(st.permutations(["S", "H", "D", "C"]))
    out = []
    for n, suit in enumerate(suits[:2], start=1):
        deck = [f"{r}{suit}" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")]
        chance_max = draw(st.integers(0, 4))
        out.append(Duelist(
            player=n, hp=draw(st.integers(1, 4)), chance=draw(st.integers(0, chance_max)),
            chance_max=chance_max, cartridges=draw(st.integers(1, 5)),
            duel_deck=tuple(draw(st.lists(st.sampled_from(deck), unique=True, max_size=9))),
            suit=suit,
        ))
    return out[0], out[1]


def _legal_play(data, state: DuelState, side: str) -> Play:
    table = data.draw(st.sampled_from(table_cards_left(state, side)))
    allowed = hand_cards_allowed(state, side)
    hand = data.draw(st.none() | st.sampled_from(allowed)) if allowed else None
    if hand and data.draw(st.booleans()):
        table = None  # D7: the covered table card was not read
    tokens = data.draw(st.integers(0, tokens_allowed(state, side)))
    return Play(table, hand, tokens)


def _tying_play(data, state: DuelState, side: str, target: int) -> Play | None:
    """A legal play of ``side`` reaching exactly ``target``: tied rounds, and so
    extensions, would be too rare to test with plays drawn at random."""
    chance = tokens_allowed(state, side)
    fits = [c for c in table_cards_left(state, side) if 0 <= target - total(Play(c)) <= chance]
    if not fits:
        return None
    table = data.draw(st.sampled_from(fits))
    return Play(table, None, target - total(Play(table)))


def _check_invariants(state: DuelState, extensions: list[tuple[bool, bool]]) -> None:
    wins = round_wins(state)
    for i, key in enumerate(("a", "b")):
        side = state.side(key)
        assert side.hp >= 0
        assert side.cartridges >= 0
        assert 0 <= side.chance <= max(side.start.chance_max, side.start.chance)
        # HP lost equals rounds lost.
        assert side.start.hp - side.hp == wins[1 - i]
        # A surrendered card is never played again and never back in the deck.
        hands = [getattr(r, key).hand for r in state.rounds if getattr(r, key).hand]
        assert tuple(hands) == side.surrendered
        assert len(set(hands)) == len(hands) <= side.hand_limit
        assert not set(hands) & set(side.duel_deck)
        assert set(side.duel_deck) | set(hands) == set(side.start.duel_deck)
        tables = [getattr(r, key).table for r in state.rounds if getattr(r, key).table]
        assert len(set(tables)) == len(tables)  # D6: every card read, read once
        assert tuple(tables) == side.table_cards
        # D7: an unread table card always lies under a hand card
        assert all(getattr(r, key).hand for r in state.rounds if not getattr(r, key).table)
        paid = 1 + sum(1 for e in extensions if e[i])
        assert side.cartridges_paid == paid == side.start.cartridges - side.cartridges
        assert side.heavy_wound == (side.hp == 0)
    assert (state.result is None) == (state.status != "finished")


def _check_result(state: DuelState) -> None:
    winner, reason = state.result
    wins = round_wins(state)
    if reason == "heavy_wound":
        assert state.side("b" if winner == "a" else "a").hp == 0
    elif reason == "rounds":
        assert len(state.rounds) >= 3
        assert wins[0] != wins[1] and (wins[0] > wins[1]) == (winner == "a")
    elif reason == "extension":
        assert state.extensions[-1] in ((True, False), (False, True))
    else:
        assert (reason, winner, state.extensions[-1]) == ("draw", None, (False, False))
    if winner is not None:
        side = state.side(winner)
        assert side.chance == max(side.start.chance_max, side.start.chance)
    assert sum(s.heavy_wound for s in (state.a, state.b)) <= 1


@settings(max_examples=150, deadline=None)
@given(pair=duelists(), data=st.data())
def test_D1_to_D14_random_legal_duels_keep_every_invariant(pair, data) -> None:
    state = start(*pair)
    actions: list = []
    extensions: list[tuple[bool, bool]] = []
    while state.status != "finished":
        if awaiting(state) == "round":
            a = _legal_play(data, state, "a")
            b = data.draw(st.booleans()) and _tying_play(data, state, "b", total(a))
            action = Round(a=a, b=b or _legal_play(data, state, "b"))
            assert preview(state, action) == apply(state, action).rounds[-1]
        else:
            # Mostly "continue", so that extra rounds get played and tested.
            keen = st.sampled_from([True, True, True, False])
            action = Extension(
                a=state.a.cartridges > 0 and data.draw(keen),
                b=state.b.cartridges > 0 and data.draw(keen),
            )
            extensions.append((action.a, action.b))
        before = state
        state = apply(state, action)
        actions.append(action)
        _check_invariants(state, extensions)
        # An already surrendered card is refused if laid again.
        if state.status == "in_progress" and state.a.surrendered and hand_cards_allowed(
            state, "a"
        ):
            again = Round(a=Play(table_cards_left(state, "a")[0], state.a.surrendered[0]),
                          b=Play(table_cards_left(state, "b")[0]))
            refused(state, again, "D7")
        # Each action's effects add up to the duel's effects.
        step = effects_between(before, state)
        assert step["a"]["hp"] == effects(state)["a"]["hp"] - effects(before)["a"]["hp"]
    _check_result(state)
    event(f"{state.result.reason} after {len(state.rounds)} rounds")
    refused(state, Extension(False, False), "D10")
    stored = json.loads(json.dumps([action_to_dict(a) for a in actions]))
    assert replay(*pair, [action_from_dict(d) for d in stored]) == state


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.floats(allow_nan=False)
    | st.sampled_from(["QS", "10 червей", "TH", "", "round", "extension", "AH"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["type", "a", "b", "table", "hand", "tokens"]), inner,
                      max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(data=_json)
def test_D6_junk_actions_raise_only_rule_errors(data: object) -> None:
    state = start(player_a(), player_b())
    try:
        state = apply(state, action_from_dict(data))
    except RuleError as err:
        assert re.fullmatch(r"D\d+", err.rule)
        assert err.text
    else:
        assert len(state.rounds) == 1


# Russian messages -------------------------------------------------------------------------


def _messages() -> set[str]:
    found: set[str] = set()
    duel = ROOT / "referee" / "games" / "duel" / "rules"
    for path in (ROOT / "referee" / "rules" / "cards.py", duel / "__init__.py",
                 duel / "model.py", duel / "codec.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
                found.add(node.args[0].value)
    return found


def test_D1_to_D14_every_message_has_a_russian_translation() -> None:
    po = ROOT / "referee" / "translations" / "ru" / "LC_MESSAGES" / "duel.po"
    with po.open("rb") as fh:
        catalog = read_po(fh, locale="ru")
    messages = _messages()
    assert len(messages) >= 20
    placeholders = re.compile(r"%\((\w+)\)s")
    for message in messages:
        entry = catalog.get(message)
        assert entry is not None and entry.string, message
        assert set(placeholders.findall(entry.string)) == set(placeholders.findall(message))
    assert {m.id for m in catalog if m.id} == messages  # no stale entries
    assert duel.__all__


@pytest.mark.parametrize("changes", [{"cartridges": 0}, {"hp": 0}, {"can_fight": False},
                                     {"hp": 0, "cartridges": 0}, {"cartridges": -1}])
def test_D4_one_duelist_is_refused_alone_as_the_start_would_refuse_them(changes):
    # The pickers ask about one player at a time: the same refusal as start's.
    with pytest.raises(RuleError) as alone:
        duel.check_duelist(player_b(**changes))
    with pytest.raises(RuleError) as both:
        start(player_a(), player_b(**changes))
    assert (alone.value.rule, alone.value.text) == (both.value.rule, both.value.text)
    assert alone.value.rule == "D4"
    duel.check_duelist(player_a())  # able and armed: nothing to say
