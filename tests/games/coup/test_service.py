"""Coup tables as stored games: setup from the registry, the readings of coup.md, replay."""

from __future__ import annotations

import random
import time

import pytest

from referee.games import service as games
from referee.games.coup import rules as coup
from referee.games.coup import service
from referee.games.coup.rules import TOTAL_COINS
from referee.players import service as player_service
from referee.rules import RuleError

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Ilya", "Kira"]


@pytest.fixture
def seats(db):
    """Nine registry players; a table takes the first few."""
    return [player_service.create(db, None, {
        "character": name, "hp_max": 3, "chance_max": 1, "cartridges": 2, "suit": "S",
    })["id"] for name in NAMES]


def D(player, action, target=None):
    return {"type": "declare", "player": str(player), "action": action,
            "target": str(target) if target is not None else None}


def C(challenger=None):
    return {"type": "challenge", "challenger": str(challenger) if challenger else None}


def R(player, character, shown):
    return {"type": "reveal", "player": str(player), "character": character, "shown": shown}


def B(blocker=None, character=None):
    return {"type": "block", "blocker": str(blocker) if blocker else None,
            "character": character}


def L(player, character):
    return {"type": "lose_influence", "player": str(player), "character": character}


def play(db, game, *actions):
    for action in actions:
        game = games.act(db, 1, "coup", game.id, action, version=game.version)
    return game


def coins(game) -> list[int]:
    return [p.coins for p in game.state.players]


def influence(game) -> list[int]:
    return [p.influence for p in game.state.players]


def refused(db, game, action, rule: str) -> RuleError:
    before = db.execute("SELECT count(*) FROM game_actions").fetchone()[0]
    with pytest.raises(RuleError) as caught:
        games.act(db, 1, "coup", game.id, action, version=game.version)
    assert caught.value.rule == rule
    assert db.execute("SELECT count(*) FROM game_actions").fetchone()[0] == before
    return caught.value


# Setup from the registry (C1–C4) -----------------------------------------------------------


def test_C1_C2_table_seats_registry_players_in_order_with_their_names(db, seats):
    a, b, c = seats[2], seats[0], seats[1]
    game = service.create(db, 1, [a, b, c], variant="inquisitor")
    assert game.row["player_ids"] == [a, b, c]
    assert game.row["setup"] == {"players": [str(a), str(b), str(c)], "variant": "inquisitor",
                                 "one_coin_start": False}
    assert game.row["title"] == "Vera, Anna, Boris"
    assert [p.id for p in game.state.players] == [str(a), str(b), str(c)]
    assert game.state.turn == str(a) and game.state.court == 9
    assert service.names(db, game) == {str(a): "Vera", str(b): "Anna", str(c): "Boris"}


@pytest.mark.parametrize(("count", "copies", "court"),
                         [(2, 3, 3), (3, 3, 9), (6, 3, 3), (7, 4, 6), (8, 4, 4)])
def test_C1_C3_copies_follow_the_player_count(db, seats, count, copies, court):
    game = service.create(db, 1, seats[:count])
    assert (game.state.copies, game.state.court) == (copies, court)
    assert game.state.out_of_game == (8 if count == 2 else 0)


@pytest.mark.parametrize(("player_ids", "kwargs", "rule"), [
    ([1], {}, "C1"),                                  # one player
    (list(range(1, 10)), {}, "C1"),                   # nine players
    ([1, 1, 2], {}, "C1"),                            # seated twice
    ([1, 999], {}, "C1"),                             # not in the registry
    ("1,2", {}, "C1"),                                # not a list of ids
    ([1, 2, 3], {"variant": "both"}, "C1"),
    ([1, 2, 3], {"first": 4}, "C4"),
    ([1, 2, 3], {"one_coin_start": True}, "C3"),      # 1 coin: two players only
    ([1, 2], {"one_coin_start": "yes"}, "C3"),
])
def test_C1_C3_C4_bad_setups_are_refused_and_nothing_is_stored(db, seats, player_ids, kwargs,
                                                               rule):
    with pytest.raises(RuleError) as caught:
        service.create(db, 1, player_ids, **kwargs)
    assert caught.value.rule == rule
    assert db["games"].count == 0 and db["game_players"].count == 0


def test_C3_two_players_with_the_one_coin_rule(db, seats):
    game = service.create(db, 1, seats[:2], first=seats[1], one_coin_start=True)
    assert game.state.turn == str(seats[1])
    assert coins(game) == [2, 1]
    assert (game.state.court, game.state.out_of_game) == (3, 8)
    assert game.state.supply == TOTAL_COINS - 3


def test_stored_setup_is_validated_on_replay(db):
    for setup in ({"players": ["1", "2"], "extra": 1}, {"players": "12"}, [],
                  {"players": ["1", "2"], "one_coin_start": 1}):
        with pytest.raises(RuleError):
            service.start(setup)


# The readings of coup.md, played through the stored game ----------------------------------


def test_readings_bluff_refunds_but_a_block_keeps_the_coins(db, seats):
    a, b, c = seats[:3]
    game = service.create(db, 1, [a, b, c])
    game = play(db, game, D(a, "tax"), C(None), D(b, "income"), D(c, "income"))
    # A bluffs the Assassin and is caught: the 3 coins come back.
    game = play(db, game, D(a, "assassinate", b), C(b))
    assert coins(game)[0] == 2
    game = play(db, game, R(a, "captain", False))
    assert coins(game)[0] == 5 and influence(game) == [1, 2, 2]
    game = play(db, game, D(b, "income"), D(c, "income"))
    # Now B blocks with the Countess: the 3 coins stay paid (C8).
    game = play(db, game, D(a, "assassinate", b), C(None), B(b, "countess"), C(None))
    assert coins(game)[0] == 2 and influence(game) == [1, 2, 2]
    assert game.state.turn == str(b)


def test_readings_target_who_challenged_and_lost_may_still_block(db, seats):
    a, b, c = seats[:3]
    game = service.create(db, 1, [a, b, c])
    game = play(db, game, D(a, "steal", b), C(b), R(a, "captain", True), L(b, "duchess"))
    q = coup.awaiting(game.state)
    assert (q.kind, q.players) == ("block", (str(b),))
    game = play(db, game, B(b, "captain"), C(None))
    assert coins(game) == [2, 2, 2] and influence(game) == [2, 1, 2]


def test_readings_order_claim_then_block_then_block_challenge_then_action(db, seats):
    a, b, c = seats[:3]
    game = service.create(db, 1, [a, b, c])
    game = play(db, game, D(a, "steal", b))
    steps = [coup.awaiting(game.state).kind]
    for action in (C(None), B(b, "ambassador"), C(c)):
        game = play(db, game, action)
        steps.append(coup.awaiting(game.state).kind)
    assert steps == ["challenge", "block", "challenge", "show_or_turn_up"]
    # C (the third player) challenged the block; B bluffed: the block fails, A steals.
    game = play(db, game, R(b, "countess", False))
    assert coins(game) == [4, 0, 2] and influence(game) == [2, 1, 2]


def test_readings_two_influences_lost_in_one_turn(db, seats):
    a, b, c = seats[:3]
    game = service.create(db, 1, [a, b, c])
    game = play(db, game, D(a, "tax"), C(None), D(b, "income"), D(c, "income"))
    game = play(db, game, D(a, "assassinate", b), C(None), B(b, "countess"), C(a),
                R(b, "duchess", False))
    assert coup.awaiting(game.state).reason == "assassination"
    game = play(db, game, L(b, "captain"))
    assert influence(game) == [2, 0, 2] and not game.state.players[1].alive
    assert coins(game)[1] == 0  # C9: B's coins went back to the supply
    assert sum(coins(game)) + game.state.supply == TOTAL_COINS


def test_readings_card_counting_refuses_a_fourth_duchess(db, seats):
    a, b, c = seats[:3]
    game = service.create(db, 1, [a, b, c])
    game = play(db, game, D(a, "tax"), C(b), R(a, "duchess", False),
                D(b, "tax"), C(c), R(b, "duchess", False),
                D(c, "tax"), C(a), R(c, "duchess", False),
                D(a, "tax"), C(b))
    q = coup.awaiting(game.state)
    assert q.kind == "show_or_turn_up" and not q.can_show
    assert "duchess" not in q.characters
    refused(db, game, R(a, "duchess", True), "C1")
    refused(db, game, R(a, "duchess", False), "C1")
    game = play(db, game, R(a, "assassin", False))
    assert game.state.winner is None and influence(game) == [0, 1, 1]


# Storage: the passport is untouched, undo, replay, speed ----------------------------------


def test_coins_belong_to_the_table_not_the_passport(db, seats):
    a, b, c = seats[:3]
    before = list(db.execute("SELECT * FROM players").fetchall())
    events = db["events"].count
    game = service.create(db, 1, [a, b, c])
    play(db, game, D(a, "tax"), C(None), D(b, "foreign_aid"), B(None),
         D(c, "steal", a), C(None), B(None))
    assert list(db.execute("SELECT * FROM players").fetchall()) == before
    assert db["events"].count == events


def test_undo_and_replay_from_another_connection(db, seats, app):
    from referee import store
    a, b, c = seats[:3]
    game = service.create(db, 1, [a, b, c])
    game = play(db, game, D(a, "tax"), C(b), R(a, "duchess", True))
    game = games.undo(db, 2, "coup", game.id, version=game.version)
    assert coup.awaiting(game.state).kind == "show_or_turn_up"
    other = store.connect(app.config["DATABASE"])
    try:
        again = service.load(other, game.id)
        assert coup.state_to_dict(again.state) == coup.state_to_dict(game.state)
        assert again.version == 4 and len(again.history) == 4 and len(again.actions) == 2
    finally:
        other.close()
    assert service.load(db, 999) is None


def random_game(db, player_ids: list[int], seed: int, variant: str = "ambassador"):
    """Play random legal one-tap answers until the game ends; yields every table."""
    rnd = random.Random(seed)
    game = service.create(db, 1, player_ids, variant=variant)
    yield game
    while not service.finished(game.state):
        action = rnd.choice(coup.options(game.state))
        game = games.act(db, 1, "coup", game.id, coup.action_to_dict(action), version=game.version)
        yield game


@pytest.mark.parametrize(("count", "seed", "variant"),
                         [(3, 1, "ambassador"), (5, 2, "inquisitor"), (8, 3, "ambassador")])
def test_random_stored_games_keep_the_invariants_and_end_with_one_winner(db, seats, count,
                                                                         seed, variant):
    for game in random_game(db, seats[:count], seed, variant):
        state = game.state
        assert all(p.coins >= 0 for p in state.players)
        assert sum(p.coins for p in state.players) + state.supply == TOTAL_COINS
        assert all(0 <= p.influence <= 2 for p in state.players)
        assert all(state.face_up_count(ch) <= state.copies for ch in state.in_play)
        # C9: never a question about a hidden card: only what is said or turned up.
        assert coup.awaiting(state).kind in {"declare", "challenge", "show_or_turn_up",
                                             "block", "lose_influence", "examine", "over"}
    assert [p.alive for p in state.players].count(True) == 1
    assert game.row["status"] == "finished"
    replayed = service.load(db, game.id)
    assert replayed.state == state


def test_a_long_table_replays_quickly(db, seats):
    *_, game = random_game(db, seats[:8], 11, "inquisitor")
    started = time.perf_counter()
    loaded = service.load(db, game.id)
    elapsed = time.perf_counter() - started
    assert loaded.state == game.state and len(loaded.actions) > 40
    assert elapsed < 0.5, elapsed  # generous; typically a few ms per hundred steps
