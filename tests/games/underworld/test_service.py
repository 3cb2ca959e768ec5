"""Underworld games through the stored-game service: underworld.md's worked examples on the
shipped decks, setup, passport levels written as player events, undo, quick fights."""

from __future__ import annotations

import json
import random
import shutil
import time

import pytest

from referee.decks import DECKS_DIR
from referee.errors import Conflict
from referee.games import service as games
from referee.games.underworld import rules as uw
from referee.games.underworld import service as underworld
from referee.players import service as player_service
from referee.rules import RuleError
from referee.store import games as store
from referee.store import players as rows
from referee.store import write

REF = 1  # the referee "ref" of conftest's database


def seat(db, name: str, level: int = 1) -> dict:
    return player_service.create(db, None, {"character": name, "hp_max": 3, "chance_max": 1,
                                            "cartridges": 1, "suit": "S", "level": level})


def start(db, players: list[dict], hands: list[list[str]], passport: bool = False,
          **extra) -> games.Game:
    """An underworld game on the shipped decks, players in this turn order."""
    return underworld.create(db, REF, {
        "players": [p["id"] for p in players], "passport_levels": passport,
        "starting": {str(p["id"]): h for p, h in zip(players, hands, strict=True)}, **extra})


def act(db, game: games.Game, *actions: dict) -> games.Game:
    """Apply each action against the version just seen, as a screen would."""
    for action in actions:
        game = games.act(db, REF, "underworld", game.id, action, game.version)
    return game


def pid(row: dict) -> str:
    """The engine's name for a registry player."""
    return str(row["id"])


def level(game: games.Game, row: dict) -> int:
    return next(p.level for p in game.state.state.players if p.id == pid(row))


def passport(db, row: dict) -> int:
    return rows.get(db, row["id"])["level"]


def level_events(db, row: dict) -> list[tuple]:
    return [(r[0], json.loads(r[1])["level"]["after"]) for r in db.execute(
        "SELECT kind, changes FROM events WHERE player_id = ? AND kind != 'create' "
        "ORDER BY id", [row["id"]])]


FILLER = ["M01", "M01", "M03", "M03"]  # weak monsters to fill a starting hand
FILLER_B = ["M06", "M06", "M08", "M08"]  # another hand that leaves M01–M05 in the castle


@pytest.fixture
def ab(db):
    return seat(db, "Anna"), seat(db, "Boris")


# --- the worked examples of underworld.md ----------------------------------------------

def test_U7_U8_U6_example1_win_at_level_3_with_sword_and_armour(db):
    a, b = seat(db, "Anna", 3), seat(db, "Boris")
    game = start(db, [a, b], [["I02", "I06", "M01", "M01"], FILLER_B],
                 passport=True)
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "I02"},
               {"kind": "play", "player": pid(a), "code": "I06"}, {"kind": "draw", "code": "M07"})
    bd = game.state.state.encounter and uw.fight_breakdown(game.state.state)
    assert [(ln.source, ln.code, ln.value) for ln in bd.fighter.lines] == [
        ("level", "", 3), ("card", "I02", 2), ("card", "I06", 1)]
    assert (bd.fighter.total, bd.opponent.total, bd.outcome) == (6, 5, "win")
    game = act(db, game, {"kind": "fight"})
    assert level(game, a) == 4 and passport(db, a) == 4  # the passport follows the game
    assert level_events(db, a) == [("underworld", 4)]
    assert uw.awaiting(game.state.state).may_step_again
    game = act(db, game, {"kind": "draw", "code": "M02"})
    assert game.state.state.step == 2


def test_U8_example2_level_1_loses_to_strength_7_and_stays_at_1(db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, ["M04", "M04", "M05", "M05"]], passport=True)
    game = act(db, game, {"kind": "draw", "code": "M11"}, {"kind": "fight"})
    assert level(game, a) == 1 and passport(db, a) == 1 and level_events(db, a) == []
    with pytest.raises(RuleError) as refused:  # U6: no second step after a loss
        act(db, game, {"kind": "draw", "code": "M02"})
    assert refused.value.rule == "U6"


def test_U7_U8_U6_example3_draw_keeps_the_level_and_allows_a_second_step(db):
    a, b = seat(db, "Anna", 4), seat(db, "Boris")
    game = start(db, [a, b], [["I06", "M01", "M01", "M01"], FILLER_B], passport=True)
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "I06"},
               {"kind": "draw", "code": "M07"}, {"kind": "fight"})
    assert level(game, a) == 4 and passport(db, a) == 4
    assert act(db, game, {"kind": "draw", "code": "M02"}).state.state.step == 2


def test_U9_U10_example4_two_wins_offer_a_class_and_the_warrior_holds_two_weapons(db):
    a, b = seat(db, "Anna", 5), seat(db, "Boris")
    game = start(db, [a, b], [["I01", "I02", "M01", "M01"], FILLER_B], passport=True)
    game = act(db, game, {"kind": "draw", "code": "M02"}, {"kind": "fight"},
               {"kind": "draw", "code": "M04"}, {"kind": "fight"})
    assert game.state.state.phase == "class_change" and passport(db, a) == 7
    game = act(db, game, {"kind": "change_class", "code": "C01"},
               {"kind": "play", "player": pid(a), "code": "I01"},
               {"kind": "play", "player": pid(a), "code": "I02"})
    me = game.state.state.players[0]
    assert me.class_card == "C01" and me.play_area == ("I01", "I02")


def test_U10_example5_second_weapon_and_magic_per_class(db, ab):
    a, b = ab
    game = start(db, [a, b], [["I01", "I02", "I05", "S09"], FILLER])
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "I01"})
    with pytest.raises(RuleError) as refused:  # a Human's second weapon
        act(db, game, {"kind": "play", "player": pid(a), "code": "I02"})
    assert refused.value.rule == "U10" and "second weapon" in refused.value.text
    assert games.load(db, "underworld", game.id).version == game.version  # nothing stored
    with pytest.raises(RuleError) as refused:  # magic for a Human
        act(db, game, {"kind": "play", "player": pid(a), "code": "S09"})
    assert refused.value.rule == "U10" and "magic" in refused.value.text
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "I02", "replaces": "I01"})
    assert game.state.state.players[0].play_area == ("I02",)
    assert "I01" in game.state.state.discard


def test_U10_example5_a_cleric_plays_magic_a_warrior_does_not(db):
    a, b = seat(db, "Anna", 3), seat(db, "Boris")
    hands = [["I05", "S09", "I01", "I02"], FILLER]
    for klass, magic_ok in (("C02", True), ("C01", False)):
        game = start(db, [a, b], hands)
        game = act(db, game, {"kind": "play", "player": pid(a), "code": "I01"},
                   {"kind": "draw", "code": "M02"}, {"kind": "fight"},
                   {"kind": "draw", "code": "M01"}, {"kind": "fight"},
                   {"kind": "change_class", "code": klass})
        magic = {"kind": "play", "player": pid(a), "code": "S09"}
        if magic_ok:
            assert "S09" in act(db, game, magic).state.state.players[0].play_area
        else:
            with pytest.raises(RuleError, match="magic"):
                act(db, game, magic)


def test_U11_example6_helper_adds_their_score_and_takes_the_reward(db):
    a, b = seat(db, "Anna", 2), seat(db, "Boris", 3)
    game = start(db, [a, b], [["I06", "S01", "M01", "M01"], ["I02", "M01", "M03", "M03"]],
                 passport=True)
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "I06"},
               {"kind": "draw", "code": "M11"},
               {"kind": "offer_help", "helper": pid(b), "fighter": pid(a), "reward": "S01"},
               {"kind": "play", "player": pid(b), "code": "I02"},
               {"kind": "answer_help", "helper": pid(b), "accept": True})
    bd = uw.fight_breakdown(game.state.state)
    assert (bd.fighter.total, bd.opponent.total, bd.outcome) == (8, 7, "win")
    game = act(db, game, {"kind": "fight"})
    assert (level(game, a), level(game, b)) == (3, 3)
    assert (passport(db, a), passport(db, b)) == (3, 3) and level_events(db, b) == []
    anna, boris = game.state.state.players
    assert "S01" not in anna.inventory and "S01" in boris.inventory


def test_U13_example7_challenge_the_defender_plays_a_skill_before_scoring(db):
    b, a = seat(db, "Boris", 4), seat(db, "Anna", 5)
    game = start(db, [b, a], [["I06", "S01", "M01", "M01"], ["I06", "M01", "M03", "M03"]],
                 passport=True)
    game = act(db, game, {"kind": "play", "player": pid(b), "code": "I06"},
               {"kind": "draw", "code": "I09"}, {"kind": "end_turn"},
               {"kind": "play", "player": pid(a), "code": "I06"}, {"kind": "draw", "code": "E02"},
               {"kind": "challenge", "challenger": pid(a), "defender": pid(b)})
    assert uw.fight_breakdown(game.state.state).outcome == "win"  # 6 vs 5 so far
    game = act(db, game, {"kind": "play", "player": pid(b), "code": "S01"})
    bd = uw.fight_breakdown(game.state.state)
    assert (bd.fighter.total, bd.opponent.total, bd.outcome) == (6, 7, "loss")
    game = act(db, game, {"kind": "fight"})
    assert (level(game, a), level(game, b)) == (4, 5)
    assert (passport(db, a), passport(db, b)) == (4, 5)


def test_U2_example8_a_castle_deck_with_33_monsters_names_the_limit(db, ab, tmp_path,
                                                                     monkeypatch):
    text = (DECKS_DIR / "castle-sample.toml").read_text(encoding="utf-8")
    text = text.replace('name = "castle-sample"', 'name = "castle-33"', 1)
    text = text.replace('strength = 1\ncopies = 3', 'strength = 1\ncopies = 2', 1)
    (tmp_path / "castle-33.toml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("REFEREE_DECKS", str(tmp_path))
    a, b = ab
    with pytest.raises(RuleError) as refused:
        start(db, [a, b], [FILLER, FILLER_B], castle="castle-33")
    assert refused.value.rule == "U2"
    assert "monsters: 33, must be exactly 34" in refused.value.text
    assert db["games"].count == 0
    # A stored setup is checked again by the engine when the game is replayed.
    setup, _ = underworld.build_setup(db, {"players": [a["id"], b["id"]], "starting": {
        pid(a): FILLER, pid(b): ["M04"] * 2 + ["M05"] * 2}})
    setup["castle"]["cards"][0]["copies"] = 2
    with pytest.raises(RuleError, match="monsters: 33, must be exactly 34"):
        underworld.start(setup)


def _to_ten(db, levels: tuple[int, ...]):
    players = [seat(db, name, lv) for name, lv in zip(("Anna", "Boris", "Vera"), levels,
                                                      strict=False)]
    hands = [["I03", "S07", "M01", "M01"], ["I08", "M04", "M04", "M05"],
             ["M05", "M06", "M06", "M08"]]
    game = start(db, players, hands[:len(players)], passport=True)
    game = act(db, game, {"kind": "play", "player": pid(players[0]), "code": "I03"},
               {"kind": "draw", "code": "M02"}, {"kind": "fight"}, {"kind": "end_turn"})
    return game, players


def test_U16_example9_alone_at_10_after_the_round_wins(db):
    game, (a, b, v) = _to_ten(db, (9, 9, 9))
    assert level(game, a) == 10 and passport(db, a) == 10 and game.row["status"] == \
        "in_progress"
    game = act(db, game, {"kind": "draw", "code": "M19"}, {"kind": "fight"},
               {"kind": "end_turn"}, {"kind": "draw", "code": "M20"}, {"kind": "fight"},
               {"kind": "end_turn"})
    assert uw.winner(game.state.state) == pid(a)
    assert game.row["status"] == "finished"
    assert (passport(db, b), passport(db, v)) == (8, 8)


def test_U17_example9_both_at_10_play_off_instead_of_stepping(db):
    game, (a, b) = _to_ten(db, (9, 9))
    game = act(db, game, {"kind": "play", "player": pid(b), "code": "I08"},
               {"kind": "draw", "code": "M05"}, {"kind": "fight"}, {"kind": "end_turn"})
    state = game.state.state
    assert state.phase == "playoff" and (passport(db, a), passport(db, b)) == (10, 10)
    with pytest.raises(RuleError) as refused:
        act(db, game, {"kind": "draw", "code": "M06"})
    assert refused.value.rule == "U17"
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "S07"},
               {"kind": "challenge", "challenger": pid(a), "defender": pid(b)},
               {"kind": "fight"})  # 10 + 3 + 1 against 10 + 3
    assert uw.winner(game.state.state) == pid(a)
    assert (passport(db, a), passport(db, b)) == (10, 9)


# --- U4 setup ------------------------------------------------------------------------------

def test_U4_levels_start_at_1_by_default_and_passports_stay_untouched(db):
    a, b = seat(db, "Anna", 6), seat(db, "Boris", 2)
    game = start(db, [a, b], [["I03", "M01", "M01", "M01"], FILLER_B])
    assert [p.level for p in game.state.state.players] == [1, 1]
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "I03"},
               {"kind": "draw", "code": "M02"}, {"kind": "fight"})
    assert level(game, a) == 2 and passport(db, a) == 6 and level_events(db, a) == []
    assert game.row["setup"]["passport_levels"] is False and "levels" not in game.row["setup"]


def test_U4_starting_cards_by_code_or_name_in_either_language(db, ab):
    a, b = ab
    game = start(db, [a, b], [["m07", "Gate Troll", "I01 · Rusty Sword", "крыса"],
                              ["rat", "палаш", "S01", "keen eye"]])
    hands = [p.inventory for p in game.state.state.players]
    assert hands == [("M07", "M07", "I01", "M01"), ("M01", "I02", "S01", "S07")]


@pytest.mark.parametrize(("players", "hands", "needle"), [
    (1, [FILLER], "2 to 6"),
    (2, [FILLER, FILLER[:3]], "exactly 4 starting cards"),
    (2, [FILLER, ["M01", "M01", "M03", "zzz"]], "No castle card matches"),
    (2, [FILLER, ["M01", "M01", "M03", "skeleton golem"]], "No castle card matches"),
    (2, [FILLER, ["M01", "M01", "M03", "shield"]], "matches several cards"),
    (2, [FILLER, ["M16", "M16", "M03", "M03"]], "No copy of M16"),
])
def test_U4_setup_refusals_store_nothing(db, players, hands, needle):
    seated = [seat(db, f"P{i}") for i in range(players)]
    with pytest.raises(RuleError) as refused:
        start(db, seated, hands)
    assert refused.value.rule == "U4" and needle in refused.value.text
    assert db["games"].count == 0 and db["game_actions"].count == 0


def test_U4_unknown_players_decks_and_a_level_10_passport_are_refused(db, ab):
    a, b = ab
    with pytest.raises(RuleError, match="No player 999"):
        underworld.create(db, REF, {"players": [a["id"], 999], "starting": {}})
    with pytest.raises(RuleError, match="no castle deck named nosuch") as refused:
        start(db, [a, b], [FILLER, FILLER_B], castle="nosuch")
    assert refused.value.rule == "U1" and "castle-sample" in refused.value.text
    with pytest.raises(RuleError, match="no class deck named castle-sample"):
        start(db, [a, b], [FILLER, FILLER_B], classes="castle-sample")
    player_service.set_exact(db, None, b["id"], {"level": 10})
    with pytest.raises(RuleError) as refused:
        start(db, [a, b], [FILLER, FILLER_B], passport=True)
    assert refused.value.rule == "U4" and "level 10 on the passport" in refused.value.text


def test_U1_the_game_keeps_its_decks_when_the_file_changes(db, ab, tmp_path, monkeypatch):
    shutil.copy(DECKS_DIR / "castle-sample.toml", tmp_path / "castle-sample.toml")
    monkeypatch.setenv("REFEREE_DECKS", str(tmp_path))
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    text = (tmp_path / "castle-sample.toml").read_text(encoding="utf-8")
    (tmp_path / "castle-sample.toml").write_text(text.replace("Gate Troll", "Bridge Troll"),
                                                 encoding="utf-8")
    again = underworld.load(db, game.id)
    assert next(c for c in again.state.state.cards if c.code == "M07").name_en == "Gate Troll"


# --- the store: undo, levels, replay -------------------------------------------------------

def test_U8_undo_takes_the_passport_level_back_with_the_fight(db):
    a, b = seat(db, "Anna", 3), seat(db, "Boris")
    game = start(db, [a, b], [["I03", "M01", "M01", "M01"], FILLER_B], passport=True)
    game = act(db, game, {"kind": "draw", "code": "M02"}, {"kind": "fight"})
    assert passport(db, a) == 4
    game = games.undo(db, REF, "underworld", game.id, game.version)
    assert level(game, a) == 3 and passport(db, a) == 3
    assert level_events(db, a) == [("underworld", 4), ("underworld", 3)]
    assert game.state.state.phase == "fight"  # back before the fight, the monster met
    assert [r["undoes"] is not None for r in game.history] == [False, False, True]


def test_U8_a_level_changed_elsewhere_to_its_bound_refuses_the_fight(db):
    a, b = seat(db, "Anna", 9), seat(db, "Boris")
    game = start(db, [a, b], [["I03", "M01", "M01", "M01"], FILLER_B], passport=True)
    game = act(db, game, {"kind": "draw", "code": "M02"})
    player_service.set_exact(db, None, a["id"], {"level": 10})  # another referee's tap
    with pytest.raises(RuleError, match="Level must stay between 1 and 10"):
        act(db, game, {"kind": "fight"})
    assert underworld.load(db, game.id).version == game.version


def test_stale_version_is_refused_with_the_fresh_game(db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    games.act(db, REF, "underworld", game.id, {"kind": "draw", "code": "I01"}, 0)
    with pytest.raises(games.Conflict) as stale:
        games.act(db, 2, "underworld", game.id, {"kind": "draw", "code": "I02"}, 0)
    assert stale.value.fresh.version == 1 and db["game_actions"].count == 1


def test_the_table_remembers_every_step_for_the_record(db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "I01"}, {"kind": "end_turn"})
    steps = game.state.steps()
    assert [type(t.action).__name__ for t in steps] == ["NoneType", "Draw", "EndTurn"]
    assert steps[1].state.players[0].inventory[-1] == "I01"
    assert underworld.load(db, 10**6) is None


def test_listing_by_player_names_the_seats(db, ab):
    a, b = ab
    v = seat(db, "Vera")
    first = start(db, [a, b], [FILLER, FILLER_B], title="Tavern")
    start(db, [b, v], [FILLER, FILLER_B])
    assert [g["id"] for g in underworld.listing(db, a["id"])] == [first.id]
    found = underworld.listing(db)
    assert [[s["character"] for s in g["seated"]] for g in found] == [["Boris", "Vera"],
                                                                    ["Anna", "Boris"]]
    assert found[1]["title"] == "Tavern"


def long_game(db, count: int = 300, seed: int = 5) -> int:
    """An underworld game of ``count`` random legal actions (or until it ends), stored as rows
    straight away (acting one by one would replay the game each time)."""
    rng = random.Random(seed)  # chance for the test only
    players = [seat(db, f"Long {i}", 1) for i in range(4)]
    hands = [["M01", "M01", "M01", "M02"], ["M03", "M03", "M04", "M04"],
             ["M05", "M05", "M06", "M06"], ["M08", "M08", "M09", "M09"]]
    game = start(db, players, hands)
    state, actions = game.state.state, []
    while len(actions) < count and state.phase != "over":
        options = list(uw.legal_actions(state))
        draws = [a for a in options if isinstance(a, uw.Draw)]
        if draws:  # a castle card is as likely as any other copy
            options = [a for a in options if not isinstance(a, uw.Draw)] + \
                [uw.Draw(rng.choice(state.castle or state.discard))] * 4
        action = rng.choice(options)
        state = uw.apply(state, action)
        actions.append(action)
    with write(db):
        for action in actions:
            store.append(db, game.id, action=uw.action_to_dict(action), referee_id=REF)
        store.touch(db, game.id, version=len(actions), status="in_progress")
    return game.id


def test_a_long_game_replays_fast(db):
    """Hundreds of actions load in well under the 50 ms budget on a normal machine; the
    bound here is loose for slow shared runners."""
    game_id = long_game(db)
    underworld.load(db, game_id)  # warm
    began = time.perf_counter()
    again = underworld.load(db, game_id)
    took = time.perf_counter() - began
    assert len(again.actions) >= 150 and len(again.state.steps()) == len(again.actions) + 1
    assert took < 0.5, took


# --- quick fight ---------------------------------------------------------------------------

def test_U7_U8_quick_fight_writes_one_level_event(db):
    a = seat(db, "Anna", 3)
    done = underworld.quick_fight(db, REF, a["id"], "2+1", "5", None, "quick")
    assert (done.fight.outcome, done.fight.player_score, done.fight.level) == ("win", 6, 4)
    assert passport(db, a) == 4 and done.event_id is not None
    assert level_events(db, a) == [("adjust", 4)]
    player_service.undo(db, REF, done.event_id)
    assert passport(db, a) == 3


def test_U8_quick_fight_floor_and_draw_write_nothing(db):
    a = seat(db, "Anna", 1)
    lost = underworld.quick_fight(db, REF, a["id"], [], 7, None, "quick")
    assert (lost.fight.outcome, lost.fight.level, lost.event_id) == ("loss", 1, None)
    drawn = underworld.quick_fight(db, REF, a["id"], [3, 1], 5, None, "quick")
    assert (drawn.fight.outcome, drawn.event_id) == ("draw", None)
    assert level_events(db, a) == []


def test_quick_fight_refuses_bad_numbers_and_a_stale_sheet(db):
    a = seat(db, "Anna", 3)
    for bonuses, strength in (("2+x", 5), ("1", "-3"), ("1", 100), ("++1", 4)):
        with pytest.raises(RuleError) as refused:
            underworld.quick_fight(db, REF, a["id"], bonuses, strength, None, "quick")
        assert refused.value.rule == "U7"
    with pytest.raises(Conflict) as stale:
        underworld.quick_fight(db, REF, a["id"], "1", "1", a["version"] + 5, "quick")
    assert stale.value.fresh["level"] == 3 and passport(db, a) == 3
    assert underworld.parse_bonuses("2 + 1 -1, 3") == (2, 1, -1, 3)
