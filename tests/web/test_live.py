"""Screens stay true while open: each asks /live/… with its mark; an
unchanged screen costs a bodiless 304, a changed one learns who changed it and when."""

from __future__ import annotations

import re

from referee.players import service
from tests.conftest import sign_in


def mark_of(page: str) -> tuple[str, str]:
    """The address a screen asks and the mark it shows (data-live, data-live-etag)."""
    found = re.search(r'data-live="([^"]+)" data-live-etag="&#34;([^&]*)&#34;"', page)
    assert found, "the screen carries no live mark"
    return found.group(1), f'"{found.group(2)}"'


def test_an_unchanged_sheet_answers_304_without_a_body(referee, player):
    url, etag = mark_of(referee.get(f"/players/{player['id']}").get_data(as_text=True))
    assert url == f"/live/players/{player['id']}"
    response = referee.get(url, headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert response.get_data() == b""
    assert response.headers["ETag"] == etag


def test_another_referees_change_moves_the_mark_and_names_them(referee, player, db):
    url, etag = mark_of(referee.get(f"/players/{player['id']}").get_data(as_text=True))
    service.adjust(db, 2, player["id"], {"hp": -1})  # "org", on another phone
    response = referee.get(url, headers={"If-None-Match": etag})
    assert response.status_code == 200
    change = response.get_json()
    assert change["etag"] != etag and change["by"] == "org" and change["mine"] is False
    assert response.headers["ETag"] == change["etag"]
    # The page now shows the new mark, and asking with it is a 304 again.
    fresh = mark_of(referee.get(f"/players/{player['id']}").get_data(as_text=True))[1]
    assert fresh == change["etag"]
    assert referee.get(url, headers={"If-None-Match": fresh}).status_code == 304


def test_a_referees_own_change_is_marked_as_theirs(referee, player, db):
    url, etag = mark_of(referee.get(f"/players/{player['id']}").get_data(as_text=True))
    service.adjust(db, 1, player["id"], {"chance": -1})  # "ref" itself, by the API
    assert referee.get(url, headers={"If-None-Match": etag}).get_json()["mine"] is True


def test_the_list_and_the_feed_move_with_any_event_and_any_game_step(referee, player, db):
    for page in ("/", "/events"):
        url, etag = mark_of(referee.get(page).get_data(as_text=True))
        assert url == "/live/events"
        assert referee.get(url, headers={"If-None-Match": etag}).status_code == 304
    service.adjust(db, 2, player["id"], {"level": 1})
    assert referee.get("/live/events", headers={"If-None-Match": etag}).status_code == 200


def test_a_passport_page_asks_without_signing_in_and_never_names_the_referee(client, player,
                                                                            db):
    page = client.get(f"/p/{player['passport_token']}").get_data(as_text=True)
    url, etag = mark_of(page)
    assert url == f"/p/{player['passport_token']}/live"
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    service.adjust(db, 2, player["id"], {"hp": -1})
    change = client.get(url, headers={"If-None-Match": etag}).get_json()
    assert change["by"] is None and change["at"]


def test_only_referees_ask_about_sheets_and_unknown_things_are_404(client, referee, player):
    assert referee.get("/live/players/999999").status_code == 404
    assert referee.get("/live/games/duel/999").status_code == 404
    assert referee.get("/live/games/chess/1").status_code == 404
    assert client.get("/p/" + "x" * 30 + "/live").status_code == 404
    anonymous = client.application.test_client()
    assert anonymous.get(f"/live/players/{player['id']}").status_code == 401
    assert anonymous.get("/live/events").status_code == 401


def test_a_game_screen_moves_with_its_version(referee, db, player):
    other = service.create(db, None, {"character": "B", "hp_max": 3, "chance_max": 1,
                                      "cartridges": 2, "suit": "S"})
    from referee.games.duel import service as duels

    duel = duels.start(db, 1, player["id"], other["id"])
    url, etag = mark_of(referee.get(f"/duels/{duel.id}").get_data(as_text=True))
    assert url == f"/live/games/duel/{duel.id}"
    assert referee.get(url, headers={"If-None-Match": etag}).status_code == 304
    duels.undo(db, 2, duel.id, None)
    change = referee.get(url, headers={"If-None-Match": etag}).get_json()
    assert change["by"] == "org"


def test_signed_in_again_as_another_referee_the_question_follows_the_session(client, player,
                                                                           db):
    sign_in(client, "org", "org-password")
    url, etag = mark_of(client.get(f"/players/{player['id']}").get_data(as_text=True))
    service.adjust(db, 2, player["id"], {"hp": -1})
    assert client.get(url, headers={"If-None-Match": etag}).get_json()["mine"] is True


def test_a_tap_on_a_screen_that_was_behind_says_what_it_applied_to(referee, player, db):
    from tests.conftest import post

    page = referee.get(f"/players/{player['id']}").get_data(as_text=True)
    seen = re.search(r'name="seen" value="(\d+)"', page).group(1)
    service.adjust(db, 2, player["id"], {"hp": -1}, "stray arrow")  # org, elsewhere
    answer = post(referee, f"/players/{player['id']}/adjust", {"hp": "-1", "seen": seen},
                  htmx=True).get_data(as_text=True)
    notice = re.search(r'<div class="notice warn floating stale-tap".*?</div>', answer, re.DOTALL)
    assert notice, "the tap's answer does not say the screen was behind"
    assert "HP 3 → 2" in notice.group(0) and "org" in notice.group(0)
    assert db.execute("SELECT hp FROM players WHERE id = ?", [player["id"]]).fetchone()[0] == 1
    # A tap on a screen that was up to date says nothing of the kind.
    seen = re.search(r'name="seen" value="(\d+)"', answer).group(1)
    again = post(referee, f"/players/{player['id']}/adjust", {"hp": "1", "seen": seen},
                 htmx=True).get_data(as_text=True)
    assert "stale-tap" not in again
