"""The duel's JSON: actions as stored and replayed, start snapshots, the D14 record."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.duel.rules import (
    Duelist,
    Extension,
    Play,
    Round,
    action_from_dict,
    action_to_dict,
    duelist_from_dict,
    duelist_to_dict,
    record_to_dict,
    start,
)
from referee.rules import RuleError
from referee.rules.cards import table_deck
from tests.games.duel.test_rules import HEARTS, play, player_a, player_b, rnd

CODES = [card.code for card in table_deck()]


def said(do, *args: object) -> tuple[str | None, str]:
    with pytest.raises(RuleError) as err:
        do(*args)
    return err.value.rule, err.value.text


plays = st.builds(
    Play,
    table=st.sampled_from(CODES),
    hand=st.none() | st.sampled_from(CODES),
    tokens=st.integers(0, 20),
) | st.builds(Play, table=st.none(), hand=st.sampled_from(CODES), tokens=st.integers(0, 20))
actions = st.builds(Round, a=plays, b=plays) | st.builds(Extension, a=st.booleans(),
                                                         b=st.booleans())


@settings(max_examples=100, deadline=None)
@given(actions)
def test_D6_D7_D12_an_action_round_trips_through_its_json(action):
    document = json.loads(json.dumps(action_to_dict(action)))
    assert action_from_dict(document) == action
    assert action_to_dict(action_from_dict(document)) == document


duelists = st.builds(
    Duelist,
    player=st.integers(1, 10**6) | st.text(min_size=1, max_size=8),
    hp=st.integers(0, 9), chance=st.integers(0, 9), chance_max=st.integers(0, 9),
    cartridges=st.integers(0, 99),
    duel_deck=st.lists(st.sampled_from(HEARTS), unique=True).map(tuple),
    suit=st.sampled_from(["H", "♥", "черви"]),
    can_fight=st.booleans(),
    name=st.text(max_size=8),
)


@settings(max_examples=100, deadline=None)
@given(duelists)
def test_D14_a_start_snapshot_round_trips_through_its_json(duelist):
    document = json.loads(json.dumps(duelist_to_dict(duelist)))
    assert duelist_from_dict(document) == duelist
    assert duelist_to_dict(duelist_from_dict(document)) == document


def test_D14_a_start_snapshot_has_every_field_by_name():
    assert duelist_to_dict(player_a(can_fight=False)) == {
        "player": 1, "name": "A", "hp": 3, "chance": 2, "chance_max": 2, "cartridges": 3,
        "duel_deck": list(HEARTS), "suit": "♥", "can_fight": False}


def test_D4_a_snapshot_without_a_name_or_fit_flag_reads_as_unnamed_and_able():
    document = duelist_to_dict(player_b())
    del document["name"], document["can_fight"]
    assert duelist_from_dict(document) == player_b(name="")
    assert duelist_from_dict({**document, "can_fight": "yes"}).can_fight is False


@pytest.mark.parametrize(("document", "who"), [
    ({"player": 7, "name": "Anna"}, "Anna"),
    ({"player": 7}, "7"),
    ({"name": ""}, ""),
    ([], ""),
    ("A", ""),
])
def test_D4_a_snapshot_missing_numbers_is_refused_and_named(document, who):
    assert said(duelist_from_dict, document) == ("D4", (
        f"{who}'s sheet has invalid numbers: HP, chance and cartridges must be whole numbers, "
        "0 or more; correct the sheet first."))


@pytest.mark.parametrize(("name", "who"), [("Anna", "Anna"), ("", "1"), (None, "1")])
def test_D1_a_snapshot_whose_duel_deck_is_not_a_list_is_refused_and_named(name, who):
    document = {**duelist_to_dict(player_a()), "duel_deck": "6H,7H", "name": name}
    assert said(duelist_from_dict, document) == (
        "D1", f"{who}'s duel deck must be a list of cards, e.g. 6H, 7H, AH.")


ROUND_SHAPE = ("D6", "A round needs, for each duelist, a table card, an optional hand card "
                     "and a number of chance tokens.")


@pytest.mark.parametrize("bad", ["QS", None, Play(None), Play(" ", None)])
def test_D6_a_round_without_a_card_on_a_side_is_not_written(bad):
    assert said(action_to_dict, Round(a=Play("6D"), b=bad)) == ROUND_SHAPE


def test_D6_an_unknown_action_is_not_written():
    assert said(action_to_dict, "round") == (
        "D6", "Unknown duel action: record a round or an extension decision.")


def test_D6_D8_a_stored_round_with_a_bad_side_or_tokens_is_refused_with_the_sentence():
    bad_side = {"type": "round", "a": {"table": "QS"}, "b": "6D"}
    assert said(action_from_dict, bad_side) == ROUND_SHAPE
    bad_tokens = {"type": "round", "a": {"table": "QS"}, "b": {"table": "6D", "tokens": "1"}}
    assert said(action_from_dict, bad_tokens) == ("D8", (
        "Chance tokens must be a whole number, 0 or more; enter how many tokens the duelist "
        "spent."))


def test_D14_the_record_names_each_duelists_numbers_before_and_after():
    state = play(start(player_a(), player_b(hp=1)), rnd("6S", "QC", a_hand="AH", a_tokens=1))
    record = record_to_dict(state)
    assert record["status"] == "finished"
    assert record["result"] == {"winner": "a", "reason": "heavy_wound"}
    assert record["extensions"] == []
    assert record["duelists"]["a"] == {
        "player": 1, "suit": "H", "hp_before": 3, "hp_after": 3, "chance_before": 2,
        "chance_after": 2, "cartridges_paid": 1, "table_cards": ["6S"],
        "surrendered": ["AH"], "heavy_wound": False}
    assert record["duelists"]["b"] == {
        "player": 2, "suit": "C", "hp_before": 1, "hp_after": 0, "chance_before": 1,
        "chance_after": 1, "cartridges_paid": 1, "table_cards": ["QC"], "surrendered": [],
        "heavy_wound": True}


@pytest.mark.parametrize("document", [{"type": "extension", "a": True},
                                      {"type": "extension", "a": 1, "b": False}])
def test_D12_a_stored_extension_decision_must_be_yes_or_no_for_each(document):
    assert said(action_from_dict, document) == ("D12", (
        "An extension decision needs, for each duelist, yes (continues and pays a "
        "cartridge) or no (refuses)."))
