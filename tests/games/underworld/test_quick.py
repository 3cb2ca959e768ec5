"""The quick fight screen (U7–U8 from numbers alone) through the Flask test client."""

from __future__ import annotations

from referee.store import players as rows
from tests.conftest import post
from tests.games.underworld.test_service import seat
from tests.games.underworld.test_web import text_of


def test_U7_U8_quick_fight_from_numbers_moves_the_level_and_can_be_undone(referee, db):
    a = seat(db, "Anna", 3)
    html = referee.get(f"/underworld/quick?player={a['id']}").get_data(as_text=True)
    assert 'name="bonuses"' in html and 'name="strength"' in html
    preview = post(referee, "/underworld/quick/preview",
                   {"player": a["id"], "bonuses": "2+1", "strength": "5"}, htmx=True)
    assert "win: level 3 → 4" in text_of(preview) and rows.get(db, a["id"])["level"] == 3
    response = post(referee, "/underworld/quick", {"player": a["id"], "bonuses": "2+1",
                                               "strength": "5", "version": a["version"]})
    assert response.status_code == 303 and rows.get(db, a["id"])["level"] == 4
    page = text_of(referee.get(response.headers["Location"]))
    assert "Anna wins, 6 to 5." in page and "Anna: level 3 → 4" in page
    event = db.execute("SELECT id, kind, reason FROM events WHERE player_id = ? "
                       "ORDER BY id DESC", [a["id"]]).fetchone()
    assert event[1] == "adjust" and event[2] == "Quick fight: 2+1 against strength 5"
    response = post(referee, "/underworld/quick/undo", {"player": a["id"], "event": event[0]})
    assert response.status_code == 303 and rows.get(db, a["id"])["level"] == 3
    assert "The quick fight was undone" in text_of(referee.get(response.headers["Location"]))


def test_U8_quick_fight_refusals_and_a_stale_level(referee, db):
    a = seat(db, "Anna", 1)
    response = post(referee, "/underworld/quick", {"player": a["id"], "bonuses": "two",
                                               "strength": "5"})
    assert response.status_code == 422 and "U7: Bonuses must be whole numbers" in \
        text_of(response)
    response = post(referee, "/underworld/quick", {"player": a["id"], "bonuses": "",
                                               "strength": "7", "version": a["version"]})
    page = text_of(referee.get(response.headers["Location"]))
    assert "The monster wins, 7 to 1." in page and "Anna stays at level 1." in page
    assert "Undo this quick fight" not in page
    response = post(referee, "/underworld/quick", {"player": a["id"], "bonuses": "9",
                                               "strength": "1", "version": a["version"] - 1})
    assert response.status_code == 409 and "Anna's level changed since" in text_of(response)
    assert rows.get(db, a["id"])["level"] == 1


def test_quick_fight_picks_a_player_first(referee, db):
    seat(db, "Anna", 4)
    page = text_of(referee.get("/underworld/quick?q=ann"))
    assert "Who fights?" in page and "Anna" in page and "Level 4" in page
