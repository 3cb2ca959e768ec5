"""The Coup screens through the Flask test client: what the referee sees, what is stored."""

from __future__ import annotations

import html
import json
import random
import re

import pytest

from referee.games import service as games
from referee.games.coup import rules as coup
from referee.games.coup import service
from referee.players import service as player_service
from tests.conftest import post

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Ilya"]


@pytest.fixture
def seats(db):
    return [player_service.create(db, None, {
        "character": name, "player": f"P{i}", "hp_max": 3, "chance_max": 1,
        "cartridges": 2, "suit": "C",
    })["id"] for i, name in enumerate(NAMES)]


@pytest.fixture
def table(db, seats):
    """Anna, Boris and Vera at an Ambassador table, Anna to play."""
    return service.create(db, 1, seats[:3])


def buttons(page: str) -> list[dict]:
    """Every one-tap answer on the screen: the action each button would record."""
    return [json.loads(html.unescape(v)) for v in
            re.findall(r'<button[^>]*name="action" value="([^"]+)"', page)]


def declared(page: str) -> set[tuple]:
    return {(b["action"], b["target"]) for b in buttons(page) if b["type"] == "declare"}


def target_links(page: str) -> set[str]:
    return set(re.findall(r'data-action="(\w+)"\s+hx-get', page))


def tap(client, game, action: dict, version=None, htmx=False):
    version = game.version if version is None else version
    return post(client, f"/coup/{game.id}/act",
                {"action": json.dumps(action), "version": str(version)}, htmx=htmx)


def D(player, action, target=None):
    return {"type": "declare", "player": str(player), "action": action,
            "target": str(target) if target is not None else None}


def play(db, game, *actions):
    for action in actions:
        game = games.act(db, 1, "coup", game.id, action)
    return game


NOBODY = {"type": "challenge", "challenger": None}
NO_BLOCK = {"type": "block", "blocker": None, "character": None}


# Seating a table ------------------------------------------------------------------------


def test_C1_new_table_seats_players_in_tapped_order(referee, seats):
    a, b, c = seats[:3]
    page = referee.get(f"/coup/new?seat={c}&seat={a}").get_data(as_text=True)
    order = re.findall(r'<li class="row" data-seat="(\d+)"', page)
    assert order == [str(c), str(a)]
    # Adding Boris keeps the order; the candidate list no longer offers the seated.
    assert f'href="/coup/new?seat={c}&amp;seat={a}&amp;seat={b}"' in page
    assert f'data-pick="{a}"' not in page and f'data-pick="{b}"' in page
    # Moving Anna up and removing Vera are plain links.
    assert f'href="/coup/new?seat={a}&amp;seat={c}"' in page
    assert f'href="/coup/new?seat={a}"' in page


@pytest.mark.parametrize(("count", "text"), [
    (2, "Two players (C3): 3 copies of each of the five characters, 15 cards."),
    (3, "3 players (C1): 3 copies of each of the five characters, 15 cards."),
    (7, "7 players (C1): 4 copies of each of the five characters, 20 cards."),
])
def test_C1_C3_setup_shows_the_copies_for_the_player_count(referee, seats, count, text):
    query = "&".join(f"seat={s}" for s in seats[:count])
    page = referee.get(f"/coup/new?{query}").get_data(as_text=True)
    assert text in page
    assert ('name="one_coin_start"' in page) == (count == 2)  # C3: a 2-player setting
    assert 'value="ambassador" checked' in page and 'value="inquisitor"' in page


def test_C1_create_stores_the_table_and_opens_it(referee, db, seats):
    a, b = seats[:2]
    response = post(referee, "/coup", {"seat": [b, a], "variant": "inquisitor",
                                       "first": str(a), "one_coin_start": "1"})
    assert response.status_code == 303
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    row = db["games"].get(game_id)
    assert json.loads(row["setup"]) == {"players": [str(b), str(a)], "variant": "inquisitor",
                                        "one_coin_start": True, "first": str(a)}
    assert row["kind"] == "coup" and row["title"] == "Boris, Anna"
    page = referee.get(f"/coup/{game_id}").get_data(as_text=True)
    assert "Deal (C3)" in page and "Anna's turn (1 coin): which action?" in page


def test_C1_a_refused_setup_is_422_and_stores_nothing(referee, db, seats):
    response = post(referee, "/coup", {"seat": [seats[0]]})
    assert response.status_code == 422
    assert "C1: Coup is for 2 to 8 players, not 1." in response.get_data(as_text=True)
    assert db["games"].count == 0


# One screen per turn, only legal answers -----------------------------------------------


def test_C4_C5_declare_offers_only_affordable_legal_actions(referee, db, table, seats):
    a, b, c = seats[:3]
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert declared(page) == {("income", None), ("foreign_aid", None), ("tax", None),
                              ("exchange", None)}
    assert target_links(page) == {"steal"}  # no Coup (7) nor Assassin (3) at 2 coins
    table = play(db, table, D(a, "tax"), NOBODY, D(b, "income"), D(c, "income"))
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert target_links(page) == {"steal", "assassinate"}


def test_C5_inquisitor_table_offers_both_inquisitor_powers(referee, db, seats):
    game = service.create(db, 1, seats[:3], variant="inquisitor")
    page = referee.get(f"/coup/{game.id}").get_data(as_text=True)
    assert ("inquisitor_exchange", None) in declared(page)
    assert ("exchange", None) not in declared(page)
    assert target_links(page) == {"steal", "examine"}
    a, b = seats[:2]
    game = play(db, game, D(a, "examine", b), NOBODY)
    page = referee.get(f"/coup/{game.id}").get_data(as_text=True)
    assert "Nobody tells the app what it was." in page
    assert [x["swap"] for x in buttons(page)] == [False, True]
    response = tap(referee, game, buttons(page)[1])
    assert response.status_code == 303
    game = service.load(db, game.id)
    assert game.state.turn == str(seats[1]) and game.state.court == 9
    assert "Anna makes Boris shuffle the examined card into the Court" in \
        referee.get(f"/coup/{game.id}").get_data(as_text=True)


def test_C4_targets_are_chosen_by_tapping_a_living_player(referee, db, table, seats):
    a, b, c = seats[:3]
    page = referee.get(f"/coup/{table.id}?act=steal").get_data(as_text=True)
    seat_buttons = re.findall(r'<button class="seat target"[^>]*data-seat="(\d+)"', page)
    assert seat_buttons == [str(b), str(c)]
    assert declared(page) == {("steal", str(b)), ("steal", str(c))}
    response = tap(referee, table, D(a, "steal", c), htmx=True)
    assert response.status_code == 200
    assert "Anyone challenges?" in response.get_data(as_text=True)
    # An action that is not legal now just shows the usual choice.
    page = referee.get(f"/coup/{table.id}?act=coup").get_data(as_text=True)
    assert "seat target" not in page


def test_C6_ten_coins_only_coup_targets_are_offered(referee, db, table, seats):
    a, b, c = seats[:3]
    table = play(db, table,
                 D(a, "tax"), NOBODY, D(b, "income"), D(c, "income"),
                 D(a, "tax"), NOBODY, D(b, "income"), D(c, "income"),
                 D(a, "foreign_aid"), NO_BLOCK, D(b, "income"), D(c, "income"))
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert "Anna must launch a coup (C6)" in page
    assert declared(page) == {("coup", str(b)), ("coup", str(c))}
    assert target_links(page) == set()
    response = tap(referee, table, D(a, "tax"))
    assert response.status_code == 422
    assert "C6: Anna starts the turn with 10 coins and must launch a coup." in \
        response.get_data(as_text=True)


def test_C7_C8_questions_in_order_with_one_tap_answers(referee, db, table, seats):
    a, b, c = seats[:3]
    table = play(db, table, D(a, "steal", b))
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert "Anyone challenges?" in page and "Anna claims the Captain" in page
    assert [x["challenger"] for x in buttons(page)] == [None, str(b), str(c)]
    table = play(db, table, NOBODY)
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert "Anyone blocks?" in page
    # C8: only the target blocks a steal, claiming the Captain or the Ambassador.
    assert [(x["blocker"], x["character"]) for x in buttons(page)] == [
        (None, None), (str(b), "captain"), (str(b), "ambassador")]
    table = play(db, table, {"type": "block", "blocker": str(b), "character": "ambassador"})
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert "Boris blocks Steal (Captain) of Anna, claiming the Ambassador." in page
    table = play(db, table, {"type": "challenge", "challenger": str(c)})
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert "Did Boris show the Ambassador?" in page
    answers = buttons(page)
    assert answers[0] == {"type": "reveal", "player": str(b), "character": "ambassador",
                          "shown": True}
    assert {x["character"] for x in answers[1:]} == {"duchess", "assassin", "captain",
                                                     "ambassador", "countess"}
    response = tap(referee, table, answers[0])
    assert response.status_code == 303
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert "Which card does Vera turn face up?" in page
    assert "Vera lost the challenge" in page


def test_C8_foreign_aid_any_player_blocks_with_the_duchess(referee, db, table, seats):
    a, b, c = seats[:3]
    table = play(db, table, D(a, "foreign_aid"))
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert "Blocked first by (claiming the Duchess):" in page
    assert [(x["blocker"], x["character"]) for x in buttons(page)] == [
        (None, None), (str(b), "duchess"), (str(c), "duchess")]


def test_C9_the_loser_chooses_among_cards_still_possible(referee, db, table, seats):
    a, b = seats[:2]
    table = play(db, table, D(a, "tax"), {"type": "challenge", "challenger": str(b)},
                 {"type": "reveal", "player": str(a), "character": "duchess", "shown": True})
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    # C1: one Duchess was shown, so only two may still be turned up: all five are offered.
    assert [x["player"] for x in buttons(page)] == [str(b)] * 5
    tap(referee, table, {"type": "lose_influence", "player": str(b), "character": "countess"})
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert '<span class="dead-card" title="face up">Countess</span>' in page
    assert "Countess 1/3" in page


def test_C10_the_winner_is_shown_and_nothing_more_is_asked(referee, db, seats):
    a, b = seats[:2]
    game = service.create(db, 1, [a, b])
    game = play(db, game, D(a, "tax"), {"type": "challenge", "challenger": str(b)},
                {"type": "reveal", "player": str(a), "character": "captain", "shown": False},
                D(b, "tax"), {"type": "challenge", "challenger": str(a)},
                {"type": "reveal", "player": str(b), "character": "duchess", "shown": True},
                {"type": "lose_influence", "player": str(a), "character": "countess"})
    page = referee.get(f"/coup/{game.id}").get_data(as_text=True)
    assert "Boris wins the game (C10)." in page and buttons(page) == []
    assert db["games"].get(game.id)["status"] == "finished"


# Writes: refusals, stale screens, undo, htmx --------------------------------------------


def test_C4_refusal_is_422_with_names_and_nothing_changes(referee, db, table, seats):
    response = tap(referee, table, D(seats[1], "income"), htmx=True)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "C4: It is the turn of Anna, not of Boris." in page
    assert 'id="coup-' in page  # the fresh table comes back with the sentence
    assert db["game_actions"].count == 0
    response = post(referee, f"/coup/{table.id}/act", {"action": "not json", "version": "0"})
    assert response.status_code == 422 and db["game_actions"].count == 0


def test_stale_screen_is_409_with_the_fresh_table(referee, db, table, seats):
    tap(referee, table, D(seats[0], "income"))
    response = tap(referee, table, D(seats[0], "income"), version=0, htmx=True)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Someone else recorded a step at this table first" in page
    assert 'data-version="1"' in page and db["game_actions"].count == 1


def test_undo_takes_back_the_latest_step_with_confirmation(referee, db, table, seats):
    tap(referee, table, D(seats[0], "tax"))
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert 'hx-confirm="Undo the latest step (Anna: Tax (Duchess))?"' in page
    response = post(referee, f"/coup/{table.id}/undo", {"version": "1"}, htmx=True)
    assert response.status_code == 200
    assert "Anna's turn (2 coins): which action?" in response.get_data(as_text=True)
    rows = list(db.execute("SELECT action, undoes FROM game_actions ORDER BY seq"))
    assert [r[1] is not None for r in rows] == [False, True]
    response = post(referee, f"/coup/{table.id}/undo", {"version": "2"})
    assert response.status_code == 422 and "Nothing to undo" in response.get_data(as_text=True)


def test_plain_post_redirects_and_the_table_survives_a_reload(referee, client, db, table,
                                                              seats, app):
    response = tap(referee, table, D(seats[0], "foreign_aid"))
    assert response.status_code == 303 and response.headers["Location"] == f"/coup/{table.id}"
    other = app.test_client()
    other.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    from tests.conftest import sign_in
    sign_in(other, "org", "org-password")
    page = other.get(f"/coup/{table.id}").get_data(as_text=True)
    assert "Anyone blocks?" in page and 'data-version="1"' in page


def test_unknown_table_is_404(referee, db):
    assert referee.get("/coup/999").status_code == 404
    assert post(referee, "/coup/999/act", {"action": "{}"}).status_code == 404


# What the screens show --------------------------------------------------------------


def test_panel_shows_coins_influence_face_up_cards_and_the_log(referee, db, table, seats):
    a, b = seats[:2]
    table = play(db, table, D(a, "tax"), {"type": "challenge", "challenger": str(b)},
                 {"type": "reveal", "player": str(a), "character": "duchess", "shown": True},
                 {"type": "lose_influence", "player": str(b), "character": "captain"})
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    seats_html = re.findall(r'data-seat="\d+">(.*?)</(?:div|button)>', page, re.DOTALL)
    assert "<b>5</b>" in seats_html[0] and "●●" in seats_html[0]
    assert "<b>2</b>" in seats_html[1] and "●○" in seats_html[1] and "Captain" in seats_html[1]
    assert "Supply: 45 coins" in page and "Court: 9 cards" in page
    log = re.findall(r'<li><span class="rule">(C\d+)</span> (.*?)</li>', page)
    assert log[0] == ("C4", "Anna gains 3 coins.")
    assert ("C7", "Boris challenges Anna.") in log


def test_names_are_escaped(referee, db):
    evil = player_service.create(db, None, {"character": '<b>Evil</b> "Q"', "hp_max": 1,
                                            "chance_max": 0, "cartridges": 0, "suit": "S"})
    other = player_service.create(db, None, {"character": "Plain", "hp_max": 1,
                                             "chance_max": 0, "cartridges": 0, "suit": "S"})
    game = service.create(db, 1, [evil["id"], other["id"]])
    game = play(db, game, D(evil["id"], "steal", other["id"]))
    page = referee.get(f"/coup/{game.id}").get_data(as_text=True)
    assert "<b>Evil</b>" not in page
    assert "&lt;b&gt;Evil&lt;/b&gt; &#34;Q&#34; claims the Captain" in page
    assert "&lt;b&gt;Evil&lt;/b&gt; &#34;Q&#34; claims the Captain to steal from Plain." in page
    new = referee.get(f"/coup/new?seat={evil['id']}").get_data(as_text=True)
    assert "<b>Evil</b>" not in new


def test_russian_screen_and_log(referee, db, table, seats):
    a, b, _c = seats[:3]
    table = play(db, table, D(a, "steal", b), NOBODY)
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = referee.get(f"/coup/{table.id}").get_data(as_text=True)
    assert "Кто-нибудь блокирует?" in page and "Никто не блокирует" in page
    assert "Капитан" in page and "Посол" in page
    assert "Никто не оспаривает." in page  # the engine's log line, in Russian
    assert "Anyone" not in page


def test_C9_random_game_screens_ask_only_what_the_table_shows(referee, db, seats):
    """Every screen of a random game offers exactly the engine's legal answers, and no
    field but the tapped answer: the app never asks for a hidden card."""
    rnd = random.Random(7)
    game = service.create(db, 1, seats[:4], variant="inquisitor")
    for _ in range(400):
        if game.state.winner is not None:
            break
        page = referee.get(f"/coup/{game.id}").get_data(as_text=True)
        section = page.split('<section class="coup panel"', 1)[1].split("</section>", 1)[0]
        fields = set(re.findall(r'<(?:input|select|textarea)[^>]*name="(\w+)"', section))
        assert fields <= {"csrf_token", "version"}
        offered = buttons(section)
        q = coup.awaiting(game.state)
        if q.kind == "declare" and not offered:
            act = rnd.choice(sorted(target_links(section)))
            offered = buttons(referee.get(f"/coup/{game.id}?act={act}").get_data(as_text=True))
        legal = [coup.action_to_dict(o) for o in coup.options(game.state)]
        assert all(o in legal for o in offered)
        if q.kind != "declare":
            assert sorted(map(json.dumps, offered)) == sorted(map(json.dumps, legal))
        response = tap(referee, game, rnd.choice(offered))
        assert response.status_code == 303
        game = service.load(db, game.id)
    assert game.state.winner is not None


def test_index_lists_tables_and_filters_by_player(referee, db, seats):
    first = service.create(db, 1, seats[:3], title="Salon")
    service.create(db, 1, seats[3:5])
    page = referee.get("/coup").get_data(as_text=True)
    assert f"Coup table {first.id} · Salon" in page and "Gleb, Dina" in page
    page = referee.get(f"/coup?player={seats[0]}").get_data(as_text=True)
    assert "Salon" in page and "Gleb, Dina" not in page
    assert "Coup tables of Anna" in page


def test_games_hub_and_player_sheet_link_the_tables(referee, db, table, seats):
    hub = referee.get("/games").get_data(as_text=True)
    assert 'href="/coup"' in hub and f'href="/coup/{table.id}"' in hub
    sheet = referee.get(f"/players/{seats[0]}").get_data(as_text=True)
    assert 'id="coup-tables"' in sheet and f'href="/coup/{table.id}"' in sheet
    assert f'href="/coup/new?seat={seats[0]}"' in sheet


def test_pages_need_a_referee(client, table):
    assert client.get("/coup").status_code == 302
    assert client.get(f"/coup/{table.id}").status_code == 302
    assert client.get("/coup/new").status_code == 302
