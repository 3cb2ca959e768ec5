"""Underworld: preparing for a fight, each refusal with its rule id and its exact sentence —
playing cards (U10), trading (U10), help (U11), Summoning (U12), the characteristic ability
(U14) and monster modifiers (U7)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.underworld.rules import (
    AdjustMonster,
    AnswerHelp,
    Challenge,
    Draw,
    EndTurn,
    Fight,
    Offer,
    OfferHelp,
    PlayCard,
    PowerUp,
    Summon,
    Trade,
    apply,
)
from referee.games.underworld.rules.play import may_prepare, sides
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import game, player, run, with_class


def refused(state, action, rule: str, text: str) -> None:
    with pytest.raises(RuleError) as caught:
        apply(state, action)
    assert (caught.value.rule, caught.value.text) == (rule, text)


def holding(state, pid: str, inventory=(), play_area=()):
    """Test setup only: what ``pid`` holds."""
    players = tuple(replace(p, inventory=tuple(inventory), play_area=tuple(play_area))
                    if p.id == pid else p for p in state.players)
    return replace(state, players=players)


WAIT = ("{} may play cards now only in their own turn, as a side of a fight or as a helper "
        "who offered help; wait for that.")


# --- U5: who prepares -------------------------------------------------------------------

def test_U5_U11_U13_who_may_prepare_when():
    s = game()
    assert may_prepare(s, "A") and not may_prepare(s, "B")
    fight = apply(s, Draw("M02"))
    assert may_prepare(fight, "A") and not may_prepare(fight, "B")
    offered = apply(fight, OfferHelp("B", "A", "M01"))
    assert may_prepare(offered, "B") and not may_prepare(offered, "C")
    pvp = run(s, Draw("E01"), Challenge("B", "C"))
    assert [pid for pid in "ABC" if may_prepare(pvp, pid)] == ["A", "B", "C"]
    assert sides(pvp.encounter) == ("B", "C") and sides(fight.encounter) == ("A",)
    # an event is followed by the active player alone
    event = apply(s, Draw("E02"))
    assert may_prepare(event, "A") and not may_prepare(event, "B")
    # nobody prepares at cleanup, at a class change or when the game is over
    for phase in ("cleanup", "class_change", "over"):
        assert not may_prepare(replace(s, phase=phase), "A")
    # an encounter left over outside a fight lets no one else in
    assert not may_prepare(replace(offered, phase="step_over"), "B")


def test_U5_a_player_out_of_turn_plays_nothing():
    s = game({"B": ["I01", "S01", "M01", "M01"]}, classes=None)
    refused(s, PlayCard("B", "I01"), "U5", WAIT.format("B"))
    refused(with_class(s, "B", "C04"), PowerUp("B", ("M01", "M01")), "U5", WAIT.format("B"))
    refused(run(s, Draw("M02")), PlayCard("B", "S01"), "U5", WAIT.format("B"))
    refused(replace(s, phase="cleanup"), PlayCard("A", "M01"), "U5", WAIT.format("A"))


# --- U10: the play area -----------------------------------------------------------------

def test_U10_a_card_is_played_from_the_inventory_into_the_play_area():
    s = game({"A": ["I01", "I03", "I01", "S01"]})
    s = run(s, PlayCard("A", "I01"), PlayCard("A", "S01"))
    a = player(s, "A")
    assert a.play_area == ("I01", "S01") and a.inventory == ("I03", "I01") and s.discard == ()
    refused(s, PlayCard("A", "I04"), "U10",
            "A does not hold I04 in the inventory; use cards held there.")
    refused(s, PlayCard("A", "M01"), "U10", "A does not hold M01 in the inventory; use cards "
                                            "held there.")
    refused(game(), PlayCard("A", "M01"), "U10", "Only items and skills are played into the "
            "play area; a monster joins a fight only through Summoning.")
    refused(apply(game({"A": ["E01", "M01", "M01", "M01"]}), Draw("M02")),
            PlayCard("A", "E01"), "U10", "Only items and skills are played into the play "
            "area; a monster joins a fight only through Summoning.")


def test_U10_skills_never_replace_and_never_twice():
    s = run(game({"A": ["S01", "S01", "S02", "M01"]}), PlayCard("A", "S01"))
    refused(s, PlayCard("A", "S01"), "U10", "The same skill is never twice in play: S01 is "
            "already in play; keep this copy in the inventory.")
    refused(s, PlayCard("A", "S02", "S01"), "U10", "Only an item replaces a card in play; "
            "play S02 without naming one.")
    assert player(apply(s, PlayCard("A", "S02")), "A").play_area == ("S01", "S02")


def test_U10_one_item_of_a_type_and_replacing_discards_the_old():
    s = game({"A": ["I03", "I04", "I01", "I06"]})
    refused(s, PlayCard("A", "I03", "I04"), "U10", "I03 replaces nothing: no item of its "
            "type is in play; play it without naming one.")
    s = run(s, PlayCard("A", "I03"), PlayCard("A", "I01"))
    refused(s, PlayCard("A", "I04"), "U10", "Only one card of each item type in play: "
            "replace I03 with I04 (the old one is discarded) or keep it in the inventory.")
    refused(s, PlayCard("A", "I04", "I01"), "U10", "I04 can replace only an item of its type "
            "in play: name one of I03.")
    s = apply(s, PlayCard("A", "I04", "I03"))
    assert player(s, "A").play_area == ("I01", "I04") and s.discard == ("I03",)
    assert player(s, "A").inventory == ("I06",)
    # a potion is its own type: it goes in beside the armour and the sword
    assert player(apply(s, PlayCard("A", "I06")), "A").play_area == ("I01", "I04", "I06")


def test_U10_a_second_weapon_only_for_a_warrior():
    s = run(game({"A": ["I01", "I02", "I01", "M01"]}), PlayCard("A", "I01"))
    text = ("A second weapon only for a class that may wield two weapons (Warrior): replace "
            "I01 with I02 or keep it in the inventory.")
    refused(s, PlayCard("A", "I02"), "U10", text)
    refused(with_class(s, "A", "C02"), PlayCard("A", "I02"), "U10", text)  # a Cleric
    s = run(with_class(s, "A", "C01"), PlayCard("A", "I02"))
    assert player(s, "A").play_area == ("I01", "I02")
    refused(s, PlayCard("A", "I01"), "U10", "No free place for I01: I01, I02 already in play "
            "for its type; replace one (the old one is discarded) or keep it in the "
            "inventory.")
    refused(s, PlayCard("A", "I01", "I03"), "U10", "I01 can replace only an item of its type "
            "in play: name one of I01, I02.")
    s = apply(s, PlayCard("A", "I01", "I02"))
    assert player(s, "A").play_area == ("I01", "I01") and s.discard == ("I02",)


def test_U10_magic_cards_only_for_a_class_that_may_use_magic():
    s = game({"A": ["I05", "S04", "M01", "M01"]})
    for klass in (None, "C01", "C04"):  # a Human, a Warrior, a Vampire
        t = with_class(s, "A", klass) if klass else s
        refused(t, PlayCard("A", "I05"), "U10", "I05 is a magic card: only a class that may "
                "use magic (Cleric, Witch) plays it; keep it in the inventory.")
        refused(t, PlayCard("A", "S04"), "U10", "S04 is a magic card: only a class that may "
                "use magic (Cleric, Witch) plays it; keep it in the inventory.")
    for klass in ("C02", "C03", "C08"):  # Cleric, Witch, Dark mage
        t = run(with_class(s, "A", klass), PlayCard("A", "I05"), PlayCard("A", "S04"))
        assert player(t, "A").play_area == ("I05", "S04")


# --- U10: trading -----------------------------------------------------------------------

def test_U10_a_trade_swaps_cards_and_is_never_a_gift():
    s = game({"A": ["I01", "I03", "M01", "M01"], "B": ["S01", "S02", "M01", "M01"]})
    t = apply(s, Trade("A", "B", ("I01", "M01"), ("S02",)))
    assert player(t, "A").inventory == ("I03", "M01", "S02")
    assert player(t, "B").inventory == ("S01", "M01", "M01", "I01", "M01")
    gift = "A trade is never a gift: each side gives at least one card; add a card in return."
    refused(s, Trade("A", "B", ("I01",), ()), "U10", gift)
    refused(s, Trade("A", "B", (), ("S01",)), "U10", gift)
    refused(s, Trade("A", "A", ("I01",), ("I03",)), "U10", "A player trades with someone "
            "else; pick another partner.")
    refused(s, Trade("A", "B", ("I01", "I01"), ("S01",)), "U10", "A does not hold I01, I01 "
            "in the inventory; use cards held there.")
    refused(s, Trade("A", "B", ("I01",), ("S01", "I03")), "U10", "B does not hold S01, I03 "
            "in the inventory; use cards held there.")
    refused(s, Trade("A", "Z", ("I01",), ("S01",)), "U4", "Player Z is not in this game; "
            "pick one of A, B, C.")
    # any two players may trade, in or out of turn
    t = apply(s, Trade("B", "C", ("S01",), ("M01",)))
    assert player(t, "C").inventory == ("M01", "M01", "M01", "S01")


# --- U11: help --------------------------------------------------------------------------

NO_FIGHT = "Help is offered and answered only before a fight is scored; wait for a fight."


def test_U11_help_is_offered_only_to_a_side_of_a_pending_fight():
    s = game({"A": ["I01", "S01", "M01", "M01"]})
    refused(s, OfferHelp("B", "A", "I01"), "U11", NO_FIGHT)
    refused(s, AnswerHelp("B", True), "U11", NO_FIGHT)
    f = run(s, PlayCard("A", "I01"), Draw("M05"))
    stale = replace(apply(f, OfferHelp("B", "A", "I01")), phase="step_over")
    refused(stale, AnswerHelp("B", True), "U11", NO_FIGHT)
    refused(stale, OfferHelp("C", "A", "I01"), "U11", NO_FIGHT)
    refused(f, OfferHelp("C", "B", "M01"), "U11", "B is not fighting now; offer help to one "
            "of A.")
    refused(f, OfferHelp("A", "A", "M01"), "U11", "A is fighting and cannot help in the same "
            "fight; let another player help.")
    refused(f, OfferHelp("B", "A", "I03"), "U11", "The reward must be a card A holds in the "
            "inventory or play area: name one of I01, M01, S01.")
    offered = apply(f, OfferHelp("B", "A", "I01"))
    assert offered.encounter.offers == (Offer("B", "A", "I01", False),)
    refused(offered, OfferHelp("B", "A", "S01"), "U11", "B has already offered help in this "
            "fight; wait for the answer.")
    both = apply(offered, OfferHelp("C", "A", "S01"))
    assert both.encounter.offers == (Offer("B", "A", "I01"), Offer("C", "A", "S01"))
    bare = holding(f, "A")
    refused(bare, OfferHelp("B", "A", "M01"), "U11", "A holds no card to offer as a reward, "
            "so no help can be offered.")
    pvp = run(game(), Draw("E01"), Challenge("A", "B"))
    refused(pvp, OfferHelp("C", "A", "I09"), "U11", "The reward must be a card A holds in "
            "the inventory or play area: name one of M01.")
    refused(pvp, OfferHelp("B", "C", "M01"), "U11", "C is not fighting now; offer help to "
            "one of A, B.")
    assert apply(pvp, OfferHelp("C", "B", "M01")).encounter.offers == (Offer("C", "B", "M01"),)


def test_U11_the_fighter_accepts_or_refuses_and_a_card_is_promised_once():
    s = game({"A": ["I01", "S01", "M01", "M01"]})
    f = run(s, Draw("M05"), OfferHelp("B", "A", "I01"), OfferHelp("C", "A", "I01"))
    refused(f, AnswerHelp("A", True), "U11", "No offer of help from A is waiting for an "
            "answer.")
    yes = apply(f, AnswerHelp("B", True))
    assert yes.encounter.offers == (Offer("B", "A", "I01", True), Offer("C", "A", "I01"))
    refused(yes, AnswerHelp("B", False), "U11", "No offer of help from B is waiting for an "
            "answer.")
    refused(yes, AnswerHelp("C", True), "U11", "I01 is already promised to another helper; "
            "ask for a different reward.")
    no = apply(yes, AnswerHelp("C", False))
    assert no.encounter.offers == (Offer("B", "A", "I01", True),)
    # two copies held: each may be promised
    two = run(game({"A": ["M01", "M01", "M01", "S01"]}), Draw("M05"),
              OfferHelp("B", "A", "M01"), OfferHelp("C", "A", "M01"), AnswerHelp("C", True),
              AnswerHelp("B", True))
    assert two.encounter.offers == (Offer("B", "A", "M01", True), Offer("C", "A", "M01", True))
    # exactly two held: both may be promised, to two helpers
    pair = run(game({"A": ["M01", "M01", "I01", "S01"]}), Draw("M05"),
               OfferHelp("B", "A", "M01"), OfferHelp("C", "A", "M01"), AnswerHelp("B", True),
               AnswerHelp("C", True))
    assert [o.accepted for o in pair.encounter.offers] == [True, True]
    # three held, two promised: one may go, not two
    assert player(apply(two, Trade("A", "B", ("M01",), ("M01",))), "A").inventory.count(
        "M01") == 3
    refused(two, Trade("A", "B", ("M01", "M01"), ("M01",)), "U11", "M01 is promised to a helper as "
            "a reward; keep it until the fight is scored.")
    # the promise stands until the fight is scored, then the reward moves
    won = run(s, Draw("M01"), OfferHelp("B", "A", "I01"), AnswerHelp("B", True), Fight())
    assert "I01" in player(won, "B").inventory and "I01" not in player(won, "A").inventory


def test_U11_a_promised_card_is_neither_replaced_traded_nor_discarded():
    s = with_class(game({"A": ["I01", "I02", "M01", "S03"]}), "A", "C04")
    f = run(s, PlayCard("A", "I01"), Draw("M05"), OfferHelp("B", "A", "I01"),
            AnswerHelp("B", True))
    kept = "I01 is promised to a helper as a reward; keep it until the fight is scored."
    refused(f, PlayCard("A", "I02", "I01"), "U11", kept)
    f2 = run(s, Draw("M05"), OfferHelp("B", "A", "M01"), AnswerHelp("B", True))
    refused(f2, PowerUp("A", ("M01", "I02")), "U11", "M01 is promised to a helper as a "
            "reward; keep it until the fight is scored.")
    assert player(apply(f2, PowerUp("A", ("I01", "I02"))), "A").powered
    f3 = run(s, Draw("M05"), OfferHelp("B", "A", "S03"), AnswerHelp("B", True))
    refused(f3, Summon("A", "S03"), "U11", "S03 is promised to a helper as a reward; keep it "
            "until the fight is scored.")
    # an offer not yet answered promises nothing either
    f5 = run(s, Draw("M05"), OfferHelp("B", "A", "I01"))
    assert player(apply(f5, Trade("A", "B", ("I01",), ("M01",))), "B").inventory[-1] == "I01"
    # a refused offer promises nothing
    f4 = run(s, Draw("M05"), OfferHelp("B", "A", "I01"), AnswerHelp("B", False))
    assert player(apply(f4, Trade("A", "B", ("I01",), ("M01",))), "B").inventory[-1] == "I01"
    # a promise of B's fight does not bind A
    pvp = run(game({"A": ["I01", "M01", "M01", "M01"]}), Draw("E01"), Challenge("A", "B"),
              OfferHelp("C", "B", "M01"), AnswerHelp("C", True))
    assert player(apply(pvp, PlayCard("A", "I01")), "A").play_area == ("I01",)


# --- U14: the characteristic ability ----------------------------------------------------

def test_U14_power_up_discards_the_cost_and_marks_the_class_card():
    s = with_class(game({"A": ["I01", "S01", "M01", "M01"]}), "A", "C04")  # cost 2
    t = apply(s, PowerUp("A", ("M01", "I01")))
    a = player(t, "A")
    assert a.powered and a.ability_used and a.inventory == ("S01", "M01")
    assert t.discard == ("M01", "I01")
    refused(t, PowerUp("A", ("S01", "M01")), "U14", "A has already powered up this turn; the "
            "ability works once a turn.")
    refused(s, PowerUp("A", ("M01",)), "U14", "Discard exactly 2 inventory cards to power "
            "up; 1 were named.")
    refused(s, PowerUp("A", ("M01", "M01", "I01")), "U14", "Discard exactly 2 inventory "
            "cards to power up; 3 were named.")
    refused(s, PowerUp("A", ("I01", "I01")), "U14", "A does not hold I01, I01 in the "
            "inventory; use cards held there.")
    refused(holding(s, "A", ["M01"]), PowerUp("A", ("M01", "M01")), "U14", "Powering up "
            "needs 2 inventory cards to discard; A holds only 1.")
    exact = holding(s, "A", ["M01", "S01"])
    assert player(apply(exact, PowerUp("A", ("S01", "M01"))), "A").inventory == ()
    refused(s, PowerUp("A", ()), "U14", "Discard exactly 2 inventory cards to power up; 0 "
            "were named.")


def test_U14_only_a_class_with_an_ability_powers_up():
    s = game()
    refused(s, PowerUp("A", ("M01", "M01")), "U14", "A plain Human has no characteristic "
            "ability; only some classes power up.")
    refused(with_class(s, "A", "C01"), PowerUp("A", ("M01", "M01")), "U14", "The class C01 "
            "has no characteristic ability to power up; fight without it.")
    t = apply(with_class(s, "A", "C07"), PowerUp("A", ("M01",)))  # Dark knight: cost 1
    assert player(t, "A").inventory == ("M01",) * 3 and player(t, "A").powered
    # the class card turns back at the end of the turn, and may power up again next turn
    t = run(t, Draw("I01"), EndTurn())
    assert not player(t, "A").powered and not player(t, "A").ability_used


# --- U12: Summoning ---------------------------------------------------------------------

def test_U12_summoning_the_monster_met_ends_the_encounter():
    s = game({"A": ["S03", "M01", "M01", "M01"]})
    f = run(s, Draw("M09"))
    t = apply(f, Summon("A", "S03"))
    a = player(t, "A")
    assert a.allies == ("M09",) and a.inventory == ("M01",) * 3 and a.level == 1
    assert t.discard == ("S03",) and t.encounter is None and t.phase == "step_over"
    assert t.streak == 0 and t.may_step
    # a streak of one win is broken by the hypnotised monster (no fight won)
    won = run(game({"A": ["S03", "I01", "M01", "M01"]}), PlayCard("A", "I01"), Draw("M01"),
              Fight(), Draw("M09"))
    assert won.streak == 1 and apply(won, Summon("A", "S03")).streak == 0


def test_U12_summoning_from_the_play_area():
    s = run(game({"A": ["S03", "M01", "M01", "M03"]}), PlayCard("A", "S03"), Draw("M09"))
    t = apply(s, Summon("A", "S03"))
    assert player(t, "A").play_area == () and player(t, "A").allies == ("M09",)
    s = run(game({"A": ["S03", "M01", "M01", "M03"]}), PlayCard("A", "S03"), Draw("M09"))
    t = apply(s, Summon("A", "S03", "M03"))
    a = player(t, "A")
    assert a.play_area == () and a.allies == ("M03",) and a.inventory == ("M01", "M01")
    assert t.phase == "fight" and t.encounter == s.encounter and t.discard == ("S03",)


def test_U12_summoning_refusals():
    s = game({"A": ["S03", "S01", "I01", "M03"], "B": ["S03", "M04", "M01", "M01"]})
    f = apply(s, Draw("M09"))
    refused(f, Summon("A", "S01"), "U12", "S01 is not a Summoning skill; use a Summoning "
            "card.")
    refused(f, Summon("A", "M03"), "U12", "M03 is not a Summoning skill; use a Summoning "
            "card.")
    refused(holding(f, "A", ["M03"]), Summon("A", "S03"), "U12", "A does not hold S03 in "
            "the inventory; use cards held there.")
    refused(f, Summon("B", "S03"), "U5", WAIT.format("B"))
    met = ("Only the player who met a monster summons it, before the fight is scored; a "
           "helper summons from the inventory instead.")
    helped = apply(f, OfferHelp("B", "A", "I01"))
    refused(helped, Summon("B", "S03"), "U12", met)
    refused(s, Summon("A", "S03"), "U12", met)
    pvp = run(s, Draw("E01"), Challenge("A", "B"))
    refused(pvp, Summon("A", "S03"), "U12", met)
    # from the inventory: a monster held, in a pending fight
    pending = ("A monster from the inventory joins only a pending fight its player fights or "
               "helps in; wait for one.")
    refused(s, Summon("A", "S03", "M03"), "U12", pending)
    refused(apply(s, Draw("E01")), Summon("A", "S03", "M03"), "U12", pending)
    # a state where the fight is over (or never began) joins nothing, whatever is left in it
    refused(replace(f, phase="step_over"), Summon("A", "S03", "M03"), "U12", pending)
    refused(replace(f, encounter=None), Summon("A", "S03", "M03"), "U12", pending)
    refused(f, Summon("A", "S03", "M04"), "U12", "M04 is not a monster in the inventory of A; "
            "summon a monster card held there.")
    refused(f, Summon("A", "S03", "I01"), "U12", "I01 is not a monster in the inventory of A; "
            "summon a monster card held there.")
    t = apply(helped, Summon("B", "S03", "M04"))
    assert player(t, "B").allies == ("M04",) and player(t, "B").inventory == ("M01", "M01")
    assert t.phase == "fight" and t.discard == ("S03",)
    t = apply(pvp, Summon("B", "S03", "M04"))
    assert player(t, "B").allies == ("M04",) and t.phase == "challenge"
    # a promised monster stays for the helper
    owed = run(f, OfferHelp("C", "A", "M03"), AnswerHelp("C", True))
    refused(owed, Summon("A", "S03", "M03"), "U11", "M03 is promised to a helper as a "
            "reward; keep it until the fight is scored.")


# --- U7: monster modifiers --------------------------------------------------------------

def test_U7_a_monster_score_is_adjusted_by_a_whole_number_from_minus_20_to_20():
    f = apply(game(), Draw("M09"))
    t = run(f, AdjustMonster(-20, "S02"), AdjustMonster(20), AdjustMonster(1, "E02"))
    assert t.encounter.modifiers == (("S02", -20), ("", 20), ("E02", 1))
    bad = "The adjustment must be a whole number from -20 to 20, not 0; correct it."
    for amount in (-21, 21, 0):
        refused(f, AdjustMonster(amount), "U7", bad)
    refused(f, AdjustMonster(2, "X99"), "U1", "There is no card X99 in this game; check the "
            "code on the card.")
    only = ("Only a monster's score is adjusted, while a fight against it is pending; draw "
            "the monster first.")
    refused(game(), AdjustMonster(2), "U7", only)
    refused(run(game(), Draw("E01"), Challenge("A", "B")), AdjustMonster(2), "U7", only)
    refused(replace(f, phase="step_over"), AdjustMonster(2), "U7", only)
    refused(replace(f, encounter=None), AdjustMonster(2), "U7", only)


def test_U11_a_second_copy_of_a_promised_card_may_go():
    s = run(game({"A": ["I01", "I01", "M01", "M01"]}), PlayCard("A", "I01"), Draw("M05"),
            OfferHelp("B", "A", "I01"), AnswerHelp("B", True))
    t = apply(s, Trade("A", "B", ("I01",), ("M01",)))  # the one in play stays promised
    assert player(t, "A").play_area == ("I01",) and "I01" in player(t, "B").inventory
