"""Berserk-style battles as the strike panel uses them: a strike's preview with every
modifier and the event's settings (B11), the next attacker a side offers (B11, B12),
replaying a stored battle (B12–B14) and hiring a squad from a deck (B14)."""

from __future__ import annotations

import pytest

from referee.games.berserk.rules import (
    Battle,
    Card,
    FormatError,
    Level,
    Settings,
    Strike,
    Tap,
    apply,
    card_from_dict,
    hire_problems,
    next_attacker,
    preview,
    replay,
    squad_summary,
    start,
    strike_table,
)
from referee.rules import RuleError


def card(code: str = "C", **fields: object) -> Card:
    d: dict[str, object] = {"code": code, "name_en": code, "name_ru": code, "cost": 3,
                            "lives": 9, "movement": 2, "strike": [1, 2, 3]}
    d.update(fields)
    return card_from_dict(d)


def battle(a: list[Card], b: list[Card], **settings: object) -> Battle:
    return start(a, b, Settings(**settings), check=False)


def test_B11_preview_adds_every_die_and_wound_modifier() -> None:
    s = battle([card("A", strike=[2, 3, 4])], [card("B", strike=[1, 2, 3])])
    # A 3+2 = 5, D 2+1 = 3: Δ +2, a medium strike (3+1) and a weak answer (1+2); the
    # attacker may lower both to a weak strike (2+1) and no answer.
    strike = Strike("a1", "b1", 3, 2, attacker_die_mod=2, defender_die_mod=1,
                    strike_mod=1, answer_mod=2)
    assert [(o.attack_roll, o.defence_roll, o.strike, o.answer, o.wounds_to_target,
             o.wounds_to_attacker, o.lowered) for o in preview(s, strike)] == [
        (5, 3, Level.MEDIUM, Level.WEAK, 4, 3, False),
        (5, 3, Level.WEAK, Level.NONE, 3, 0, True)]


def test_B11_preview_follows_the_event_s_settings() -> None:
    s = battle([card("A", strike=[2, 3, 4])], [card("B")], tie_answer_from=7,
               tapped_medium_from=3)
    (tie,) = preview(s, Strike("a1", "b1", 5, 5))  # published: no strike, weak answer
    assert (tie.strike, tie.answer, tie.wounds_to_target) == (Level.WEAK, Level.NONE, 2)
    s = apply(s, Tap("b1"))
    (tapped,) = preview(s, Strike("a1", "b1", 3))  # published: weak
    assert (tapped.strike, tapped.wounds_to_target) == (Level.MEDIUM, 3)


def test_B11_the_strike_table_follows_the_event_s_settings() -> None:
    rows = {(r.attacker_die, r.defender_die): r
            for r in strike_table(False, Settings(tapped_strong_from=5))}
    assert (rows[5, 1].strike, rows[4, 1].strike) == (Level.STRONG, Level.MEDIUM)
    rows = {(r.attacker_die, r.defender_die): r
            for r in strike_table(True, Settings(tie_answer_from=6))}
    assert (rows[5, 5].strike, rows[5, 5].answer) == (Level.WEAK, Level.NONE)
    assert (rows[6, 6].strike, rows[6, 6].answer) == (Level.NONE, Level.WEAK)


def test_B11_a_side_whose_strikers_stay_open_goes_on_after_its_latest_striker() -> None:
    s = battle([card(), card(), card()], [card()], strike_taps_attacker=False)
    s = apply(s, Strike("a1", "b1", 3, 3))
    assert next_attacker(s, "a1", side="a") == "a2"
    assert next_attacker(s, "a2", side="a") == "a3"
    assert next_attacker(s, "a3", side="a") == "a1"  # round the squad again
    assert next_attacker(s, "a2", side="b") == "b1"


def test_B12_B14_a_stored_battle_is_replayed_with_its_squads_checked() -> None:
    elites = [card(f"E{i}", cost=c, elite=True) for i, c in enumerate([12, 13])]
    with pytest.raises(RuleError) as e:
        replay(elites, [card()], [])
    assert (e.value.rule, e.value.params) == ("B12", {"cost": 25, "gold": 24})
    assert len(replay(elites, [card()], [], check=False).creatures) == 3


def test_B14_hiring_names_the_rule_and_by_default_no_player() -> None:
    squad = [card("K"), card("K"), card("Z")]
    problems = hire_problems(squad, {"K": 1})
    assert [(p.rule, p.params) for p in problems] == [
        ("B14", {"card": "K", "player": "", "count": 2, "held": 1, "over": 1}),
        ("B14", {"card": "Z", "player": ""})]


def test_B12_a_squad_holds_cards_only() -> None:
    with pytest.raises(FormatError, match=r"^a squad holds cards, not str$"):
        squad_summary([card(), "K"])  # type: ignore[list-item]


def test_B14_a_battle_checks_squads_against_the_event_s_settings() -> None:
    flyers = [card(f"F{i}", cost=8, movement="flying") for i in range(2)]  # 16 crystals
    with pytest.raises(RuleError) as e:
        start(flyers, [card()])
    assert e.value.rule == "B14"
    s = start(flyers, [card()], Settings(flyer_cost_limit=16))
    assert [c.id for c in s.creatures] == ["a1", "a2", "b1"]
