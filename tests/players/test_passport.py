"""What a passport says: the page of one that is not found, the printed numbers, the icons
beside a player's numbers."""

from __future__ import annotations

import pytest

from referee.players import service


@pytest.mark.parametrize("token", ["x" * 22, "short", "reissued"])
def test_an_unknown_passport_speaks_to_the_player_not_the_referees(client, db, player, token):
    if token == "reissued":
        token = player["passport_token"]
        service.reissue(db, None, player["id"])
    response = client.get(f"/p/{token}")
    html = response.get_data(as_text=True)
    assert response.status_code == 404
    assert "This passport is not valid" in html
    assert "Show this passport to a referee or the organizers" in html
    assert 'name="password"' not in html and "Back to the players" not in html


def test_the_missing_passport_page_is_in_russian(client, db):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    html = client.get("/p/" + "x" * 22).get_data(as_text=True)
    assert "Паспорт недействителен" in html and "мастеру" in html


def test_the_print_page_says_a_passport_holds_starting_values(organizer):
    page = organizer.get("/print/").get_data(as_text=True)
    assert "A passport shows the starting values and the day it was printed" in page


def test_every_stat_icon_in_the_player_list_has_its_word(referee, player):
    html = referee.get("/").get_data(as_text=True)
    row = html.split(f'data-player="{player["id"]}"')[1].split("</a>")[0]
    for icon, word in (("♥", "HP"), ("✦", "Chance"), ("⁍", "Cartridges")):
        assert f'<span aria-hidden="true">{icon}</span>' in row
        assert f'<span class="mini-word">{word}</span>' in row
