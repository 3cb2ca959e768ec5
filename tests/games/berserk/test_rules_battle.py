"""Berserk-style battles: actions, death (B10), strikes in play (B11), effect sources (B7),
serialization, and random legal battles checked after every step."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from referee.games.berserk.rules import (
    AddLives,
    Battle,
    BecomeElement,
    Card,
    Element,
    EndEffects,
    GainElement,
    Halve,
    LoseElement,
    Modify,
    Overwrite,
    Settings,
    SimpleStrike,
    Strike,
    Tap,
    Untap,
    Wound,
    action_from_dict,
    action_to_dict,
    allowed,
    apply,
    attackers,
    card_from_dict,
    creature,
    effective,
    living,
    next_attacker,
    preview,
    replay,
    start,
    state_from_dict,
    state_to_dict,
    targets,
    winner,
)
from referee.rules import RuleError


def card(code: str = "C", **fields: object) -> Card:
    d: dict[str, object] = {"code": code, "name_en": code, "name_ru": code, "cost": 3,
                            "lives": 3, "movement": 2, "strike": [1, 2, 3]}
    d.update(fields)
    return card_from_dict(d)


def artifact(code: str = "ART", lives: int = 3) -> Card:
    return card_from_dict({"code": code, "name_en": code, "name_ru": code,
                           "kind": "artifact", "cost": 2, "lives": lives})


def battle(a: list[Card], b: list[Card], **settings: object) -> Battle:
    return start(a, b, Settings(**settings), check=False)


def rule_of(state: Battle, action: object) -> str:
    with pytest.raises(RuleError) as e:
        apply(state, action)
    return e.value.rule


# --- Worked examples and rules in play --------------------------------------------------


def test_B3_creatures_and_artifacts_start_with_their_printed_lives() -> None:
    s = battle([card("C5", lives=5), artifact("ART", lives=4)], [card("C2", lives=2)])
    assert [(c.id, c.props.lives, c.wounds, c.dead) for c in s.creatures] == [
        ("a1", 5, 0, False), ("a2", 4, 0, False), ("b1", 2, 0, False)]
    shown = {c["id"]: c["lives_left"] for c in state_to_dict(s)["creatures"]}
    assert shown == {"a1": 5, "a2": 4, "b1": 2}
    # An artifact's lives are lives like a creature's: wounds count down from them (B10).
    s = apply(s, Wound("a2", 3))
    assert (creature(s, "a2").props.lives, creature(s, "a2").dead) == (4, False)
    assert {c["id"]: c["lives_left"] for c in state_to_dict(s)["creatures"]}["a2"] == 1
    s = apply(s, Wound("a2", 1))
    assert creature(s, "a2").dead and [c.id for c in living(s, "a")] == ["a1"]


def test_B3_starting_lives_are_the_card_s_own_even_after_its_copy_changed() -> None:
    # Two copies of one card: changing the lives of one (B6, B7) leaves the other's
    # starting lives as printed.
    s = battle([card("C4", lives=4), card("C4", lives=4)], [card()])
    s = apply(s, Modify("a1", AddLives(2)))
    assert (creature(s, "a1").props.lives, creature(s, "a2").props.lives) == (6, 4)
    assert effective(creature(s, "a2").card).lives == 4


def test_B10_example_3_eight_lives_five_wounds_minus_three_lives_dies() -> None:
    s = battle([card(lives=8)], [card()])
    s = apply(s, Wound("a1", 5))
    assert not creature(s, "a1").dead
    s = apply(s, Modify("a1", AddLives(-3)))
    c = creature(s, "a1")
    assert (c.props.lives, c.wounds, c.dead) == (5, 5, True)
    assert winner(s) == "b"


def test_B10_dead_creature_takes_no_more_actions() -> None:
    s = apply(battle([card(lives=2)], [card(), card()]), Wound("a1", 2))
    for action in [Wound("a1", 1), Modify("a1", AddLives(5)), Tap("a1"),
                   Strike("a1", "b1", 6), Strike("b1", "a1", 6)]:
        assert rule_of(s, action) == "B10"
    assert allowed(s)["a1"] == () and living(s, "a") == ()


def test_B10_B11_strike_wounds_both_sides_and_both_may_die() -> None:
    s = battle([card(strike=[2, 3, 4], lives=1)], [card(strike=[1, 2, 3], lives=4)])
    s = apply(s, Strike("a1", "b1", attacker_die=5, defender_die=1))
    a, b = creature(s, "a1"), creature(s, "b1")
    assert (b.wounds, a.wounds, a.dead, b.dead, b.props.lives) == (4, 1, True, True, 4)
    assert winner(s) == "draw"
    assert s.last_strike.wounds_to_target == 4


def test_B11_example_1_in_battle_with_the_attackers_choice_to_lower() -> None:
    s = battle([card(strike=[2, 3, 4], lives=9)], [card(strike=[1, 2, 3], lives=9)])
    opts = preview(s, Strike("a1", "b1", 5, 1))
    assert [(o.wounds_to_target, o.wounds_to_attacker) for o in opts] == [(4, 1), (3, 0)]
    s = apply(s, Strike("a1", "b1", 5, 1, lower=True))
    assert (creature(s, "b1").wounds, creature(s, "a1").wounds) == (3, 0)


def test_B11_example_2_tapped_target_does_not_roll() -> None:
    s = battle([card(strike=[2, 3, 4])], [card(lives=9)])
    s = apply(s, Tap("b1"))
    assert rule_of(s, Strike("a1", "b1", 4, 2)) == "B11"
    assert creature(apply(s, Strike("a1", "b1", 4)), "b1").wounds == 3


def test_B11_striking_taps_the_attacker_unless_the_event_says_otherwise() -> None:
    s = apply(battle([card()], [card(lives=9)]), Strike("a1", "b1", 3, 3))
    assert creature(s, "a1").tapped and attackers(s) == ("b1",)
    assert rule_of(s, Strike("a1", "b1", 3, 3)) == "B11"
    s = apply(s, Untap("a1"))
    assert attackers(s) == ("a1", "b1")
    free = apply(battle([card()], [card(lives=9)], strike_taps_attacker=False),
                 Strike("a1", "b1", 3, 3))
    assert not creature(free, "a1").tapped


def test_B11_strike_only_the_other_side_and_artifacts_neither_strike_nor_answer() -> None:
    s = battle([card(), artifact("TOTEM")], [card(lives=9), artifact("IDOL", lives=2)])
    assert rule_of(s, Strike("a1", "a2", 3)) == "B11"
    assert rule_of(s, Strike("a1", "a1", 3, 3)) == "B11"
    assert rule_of(s, Strike("a2", "b1", 3, 3)) == "B5"
    assert rule_of(s, Strike("a1", "b2", 3, 3)) == "B5"
    assert targets(s, "a1") == ("b1", "b2")
    s = apply(s, Strike("a1", "b2", 6))  # strong 3 >= 2 lives
    assert creature(s, "b2").dead and targets(s, "b1") == ("a1", "a2")


def test_B11_B12_the_next_attacker_is_the_striking_sides_next_open_creature() -> None:
    s = battle([card(), artifact("TOTEM"), card(), card()], [card(lives=9), card(lives=9)])
    assert next_attacker(s) == "a1"  # B12: the first player strikes first
    s = apply(s, Strike("a1", "b1", 3, 3))  # B11: a1 is tapped now
    assert next_attacker(s, "a1") == "a3"  # the artifact a2 does not strike (B5)
    s = apply(s, Strike("a3", "b1", 3, 3))
    assert next_attacker(s, "a3") == "a4"
    s = apply(s, Untap("a1"))
    s = apply(s, Strike("a4", "b1", 3, 3))
    assert next_attacker(s, "a4") == "a1"  # open again, it has not struck since
    s = apply(s, Tap("a1"))
    assert next_attacker(s, "a4") == "b1"  # side a has no open creature: b strikes
    assert next_attacker(s, "b2") == "b1"  # b1 is open: it has not struck this turn
    assert next_attacker(s, "nobody") == "b1"


def test_B11_the_next_attacker_when_striking_leaves_the_attacker_open() -> None:
    s = battle([card(), card()], [card(lives=9), card(lives=9)], strike_taps_attacker=False)
    s = apply(s, Strike("a1", "b1", 3, 3))
    assert next_attacker(s, "a1") == "a2"
    assert next_attacker(s, "a2") == "b1"  # through the squad: the other side's turn
    assert next_attacker(s, "b2") == "a1"


def test_B10_B11_no_next_attacker_when_nothing_can_strike() -> None:
    s = battle([card()], [card(lives=9)])
    s = apply(apply(s, Tap("a1")), Tap("b1"))
    assert next_attacker(s) is None and next_attacker(s, "a1") is None
    won = apply(battle([card(strike=[9, 9, 9])], [card(lives=1)]), Strike("a1", "b1", 6))
    assert next_attacker(won, "a1") is None  # b1 is dead: no target is left


def test_B11_tap_and_untap_must_change_something() -> None:
    s = battle([card()], [card()])
    assert rule_of(s, Untap("a1")) == "B11"
    s = apply(s, Tap("a1"))
    assert rule_of(s, Tap("a1")) == "B11"
    assert allowed(s)["a1"] == ("modify", "wound", "untap")


def test_B7_instance_ids_and_effects_of_one_source_only() -> None:
    forefather = card("FOREFATHER")
    s = battle([forefather, forefather], [card("VICTIM", lives=9)])
    assert creature(s, "a1").card == creature(s, "a2").card
    s = apply(s, Modify("b1", AddLives(-2, source="a1")))
    s = apply(s, Modify("b1", AddLives(-3, source="a2")))
    assert creature(s, "b1").props.lives == 4
    s = apply(s, EndEffects("b1", "a1"))
    assert creature(s, "b1").props.lives == 6
    assert [m.source for m in creature(s, "b1").mods] == ["a2"]
    assert rule_of(s, EndEffects("b1", "a1")) == "B7"
    assert rule_of(s, Modify("x9", AddLives(1))) == "B7"
    assert rule_of(s, EndEffects("a1", "a2")) == "B7"


def test_B7_B10_ending_an_effect_that_gave_lives_can_kill() -> None:
    s = battle([card(lives=3)], [card()])
    s = apply(s, Modify("a1", AddLives(3, source="chronomaster")))
    s = apply(s, Wound("a1", 4))
    assert not creature(s, "a1").dead
    assert creature(apply(s, EndEffects("a1", "chronomaster")), "a1").dead


def test_B4_B6_modifications_in_battle_are_checked_against_the_card() -> None:
    s = battle([card(movement="flying")], [artifact()])
    assert rule_of(s, Modify("a1", Overwrite(movement=2))) == "B4"
    assert rule_of(s, Modify("b1", Halve(("strike",)))) == "B5"
    assert rule_of(s, Modify("a1", "lives -1")) == "B6"
    s = apply(s, Modify("a1", Overwrite(strike=SimpleStrike(0, 0, 9))))
    assert creature(s, "a1").props.strike == SimpleStrike(0, 0, 9)


def test_B10_wound_action_checks_amount() -> None:
    s = battle([card()], [card()])
    for bad in [0, -1, 100, "2", True, None]:
        assert rule_of(s, Wound("a1", bad)) == "B10"
    assert creature(apply(s, Wound("a1", 2)), "a1").wounds == 2


def test_B12_B14_start_refuses_a_squad_that_breaks_the_rules() -> None:
    elites = [card(f"E{i}", cost=c, elite=True) for i, c in enumerate([9, 8, 8])]
    with pytest.raises(RuleError) as e:
        start(elites, [card()])
    assert e.value.rule == "B12"
    assert len(start([card()], elites).creatures) == 4  # the second player has 25 gold
    flyers = [card(f"F{i}", cost=8, movement="flying") for i in range(2)]
    with pytest.raises(RuleError) as e:
        start([card()], flyers)
    assert e.value.rule == "B14"
    s = start([card("A1"), card("A2")], [card("B1")])
    assert [c.id for c in s.creatures] == ["a1", "a2", "b1"]


def test_B11_unknown_action_is_refused_with_a_rule_error() -> None:
    s = battle([card()], [card()])
    for bad in [None, "strike", {"type": "tap"}, Strike(["a1"], "b1", 3)]:
        with pytest.raises(RuleError):
            apply(s, bad)


# --- Serialization -----------------------------------------------------------------------


def test_B6_B11_actions_and_states_round_trip_through_json() -> None:
    actions = [
        Modify("b1", Overwrite(lives=7, strike=SimpleStrike(1, 1, 1), source="a1")),
        Modify("a1", GainElement(Element.FIRE)),
        Strike("a1", "b1", 5, 1, lower=True, strike_mod=1),
        Wound("b1", 1), Tap("b1"), Untap("b1"), EndEffects("b1", "a1"),
    ]
    squads = ([card("A", strike=[2, 3, 4], lives=9)], [card("B", lives=9)])
    s = start(*squads)
    for action in actions:
        d = json.loads(json.dumps(action_to_dict(action)))
        assert action_from_dict(d) == action
        s = apply(s, action_from_dict(d))
    dumped = json.loads(json.dumps(state_to_dict(s)))
    assert state_from_dict(dumped) == s
    assert dumped["creatures"][1]["effective"]["lives"] == 9
    assert dumped["last_strike"] is None and dumped["winner"] is None
    assert replay(*squads, actions) == s


@pytest.mark.parametrize("bad", [
    None, [], {"type": "heal", "creature": "a1"}, {"type": "tap"}, {"type": ["tap"]},
    {"type": "modify", "creature": "a1", "modification": {"op": ["lives"]}},
    {"type": "tap", "creature": "a1", "extra": 1},
    {"type": "modify", "creature": "a1", "modification": {"op": "fly"}},
    {"type": "strike", "attacker": "a1", "target": "b1"},
])
def test_B7_malformed_action_dicts_raise_value_error(bad: object) -> None:
    with pytest.raises(ValueError):
        action_from_dict(bad)


def test_B7_malformed_state_dicts_raise_value_error() -> None:
    good = state_to_dict(battle([card()], [card()]))
    for change in [{"creatures": None}, {"settings": {"x": 1}}]:
        with pytest.raises(ValueError):
            state_from_dict(good | change)
    broken = json.loads(json.dumps(good))
    broken["creatures"][0]["mods"] = [{"op": "overwrite", "movement": -1}]
    with pytest.raises(ValueError):
        state_from_dict(broken)


# --- Random battles ---------------------------------------------------------------------

SOURCES = ("", "a1", "b1", "spell")


@st.composite
def cards(draw: st.DrawFn, code: str) -> Card:
    if draw(st.integers(0, 9)) == 0:
        return artifact(code, lives=draw(st.integers(1, 6)))
    return card(code, cost=draw(st.integers(0, 6)), lives=draw(st.integers(1, 8)),
                movement=draw(st.sampled_from([0, 1, 2, 3, "flying", "symbiote"])),
                strike=draw(st.lists(st.integers(0, 5), min_size=3, max_size=3)),
                elements=draw(st.lists(st.sampled_from(list(Element)), max_size=2)))


@st.composite
def modifications(draw: st.DrawFn, c: Card) -> object:
    src = draw(st.sampled_from(SOURCES))
    numbers = [p for p in ("cost", "lives", "movement", "strike")
               if (p != "movement" or c.movement is not None)
               and (p != "strike" or c.strike is not None)]
    kind = draw(st.integers(0, 5))
    if kind == 0:
        props = draw(st.lists(st.sampled_from(numbers), min_size=1, unique=True))
        values: dict[str, object] = {
            p: (SimpleStrike(*draw(st.lists(st.integers(0, 6), min_size=3, max_size=3)))
                if p == "strike" else draw(st.integers(0, 9))) for p in props}
        if draw(st.booleans()):
            values["elite"] = draw(st.booleans())
        return Overwrite(source=src, **values)
    if kind in (1, 2):
        return AddLives(draw(st.sampled_from([-6, -3, -2, -1, 1, 2, 3])), src)
    if kind == 3:
        props = draw(st.lists(st.sampled_from(numbers), min_size=1, unique=True))
        return Halve(tuple(props), draw(st.booleans()), src)
    cls = draw(st.sampled_from([GainElement, BecomeElement, LoseElement]))
    return cls(draw(st.sampled_from(list(Element))), src)


def legal_action(draw: st.DrawFn, s: Battle) -> object | None:
    choices = [(cid, kind) for cid, kinds in allowed(s).items() for kind in kinds]
    if not choices:
        return None
    cid, kind = draw(st.sampled_from(choices))
    c = creature(s, cid)
    if kind == "modify":
        return Modify(cid, draw(modifications(c.card)))
    if kind == "wound":
        return Wound(cid, draw(st.integers(1, 4)))
    if kind == "end_effects":
        return EndEffects(cid, draw(st.sampled_from(sorted({m.source for m in c.mods
                                                            if m.source}))))
    if kind in ("tap", "untap"):
        return Tap(cid) if kind == "tap" else Untap(cid)
    target = creature(s, draw(st.sampled_from(targets(s, cid))))
    rolls = target.open and target.card.strike is not None and draw(st.integers(0, 9)) > 0
    strike = Strike(cid, target.id, draw(st.integers(1, 6)),
                    draw(st.integers(1, 6)) if rolls else None,
                    attacker_die_mod=draw(st.integers(-2, 2)),
                    strike_mod=draw(st.integers(-2, 2)), answer_mod=draw(st.integers(-2, 2)))
    if len(preview(s, strike)) == 2 and draw(st.booleans()):
        strike = replace(strike, lower=True)
    return strike


def check_invariants(before: Battle, after: Battle) -> None:
    hash(after)
    for old, new in zip(before.creatures, after.creatures, strict=True):
        p = new.props
        numbers = [p.cost, p.lives, p.movement or 0, *(p.strike.as_list() if p.strike else [])]
        assert min(numbers) >= 0  # B6: effective properties never negative
        assert new.dead == (new.wounds >= p.lives)  # B10
        assert new.wounds >= old.wounds  # nothing heals
        if old.dead:
            assert new == old  # B10: the dead stay as they fell


@hyp_settings(max_examples=60, deadline=None)
@given(st.data())
def test_B6_B10_B11_random_legal_battles_keep_the_invariants(data: st.DataObject) -> None:
    squad_a = data.draw(st.lists(cards("A"), min_size=1, max_size=3))
    squad_b = data.draw(st.lists(cards("B"), min_size=1, max_size=3))
    s = start(squad_a, squad_b, check=False)
    done = []
    for _ in range(data.draw(st.integers(5, 30))):
        action = legal_action(data.draw, s)
        if action is None:
            break
        assert action_from_dict(json.loads(json.dumps(action_to_dict(action)))) == action
        after = apply(s, action)
        check_invariants(s, after)
        if isinstance(action, Strike):
            assert creature(after, action.attacker).tapped
        s, done = after, [*done, action]
    assert state_from_dict(json.loads(json.dumps(state_to_dict(s)))) == s
    assert replay(squad_a, squad_b, done, check=False) == s
    if winner(s) is None:
        assert living(s, "a") and living(s, "b")


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 8), st.text(max_size=3),
                 st.sampled_from(["a1", "b1", "a2", "b9"]), st.lists(st.integers(), max_size=2))


@hyp_settings(max_examples=150, deadline=None)
@given(st.data())
def test_B7_B10_B11_any_junk_action_is_applied_or_refused_with_a_rule_error(
        data: st.DataObject) -> None:
    s = battle([card("A"), artifact("T")], [card("B", lives=4)])
    if data.draw(st.booleans()):
        s = apply(s, Tap("b1"))
    action = data.draw(st.one_of(
        st.builds(Strike, JUNK, JUNK, JUNK, JUNK, JUNK, JUNK, JUNK, JUNK, JUNK),
        st.builds(Modify, JUNK, st.one_of(JUNK, st.builds(AddLives, JUNK, JUNK),
                                          st.builds(Overwrite, lives=JUNK, cost=JUNK),
                                          st.builds(Halve, JUNK, JUNK),
                                          st.builds(GainElement, JUNK))),
        st.builds(Wound, JUNK, JUNK), st.builds(Tap, JUNK), st.builds(Untap, JUNK),
        st.builds(EndEffects, JUNK, JUNK), JUNK,
    ))
    try:
        after = apply(s, action)
    except RuleError as e:
        assert e.rule.startswith("B") and e.text
    else:
        check_invariants(s, after)


@hyp_settings(max_examples=100, deadline=None)
@given(st.data())
def test_B6_B9_effective_properties_never_negative(data: st.DataObject) -> None:
    c = data.draw(cards("X"))
    mods = data.draw(st.lists(modifications(c), max_size=8))
    p = effective(c, mods)
    assert min(p.cost, p.lives, p.movement or 0) >= 0
    assert p.strike is None or min(p.strike.as_list()) >= 0
    assert p.elements <= frozenset(Element)


def test_B11_B12_the_next_attacker_of_a_side_when_the_other_side_strikes_back() -> None:
    s = battle([card(), card(), card()], [card(lives=9), card(lives=9), card(lives=9)])
    assert next_attacker(s, side="b") == "b1"  # b has not struck: its first
    s = apply(s, Strike("a1", "b1", 3, 3))
    assert next_attacker(s, "a1", side="b") == "b1"  # a's striker says nothing of b's
    s = apply(s, Strike("b1", "a2", 3, 3))
    assert next_attacker(s, "b1", side="b") == "b2"
    assert next_attacker(s, "a1", side="a") == "a2"  # a1 is tapped, a2 still open
    s = apply(apply(s, Tap("b2")), Tap("b3"))
    assert next_attacker(s, "b1", side="b") is None  # every one of b is tapped
    assert next_attacker(s, "b1") == "a2"  # so the panel offers side a's


def test_B11_a_sides_next_attacker_when_striking_leaves_the_attacker_open() -> None:
    s = battle([card(), card()], [card(lives=9), card(lives=9)], strike_taps_attacker=False)
    s = apply(s, Strike("b2", "a1", 3, 3))
    assert next_attacker(s, "b2", side="b") == "b1"  # round the squad again
    assert next_attacker(s, "b2", side="a") == "a1"
