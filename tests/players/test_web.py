"""The referee's screens through the Flask test client: what the user sees, what is stored."""

from __future__ import annotations

import re

from referee.players import service
from referee.players.passport import qr_svg
from tests.conftest import post


def test_anonymous_visitors_are_sent_to_sign_in(client):
    response = client.get("/")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


def test_wrong_password_is_refused_with_a_message(client):
    response = post(client, "/login", {"name": "ref", "password": "nope"})
    assert response.status_code == 401
    assert "Wrong name or password." in response.get_data(as_text=True)


def test_list_and_active_search(referee, db, player):
    service.create(db, None, {"character": "Штабс-ротмистр Орлов", "player": "Иван",
                              "hp_max": 4, "chance_max": 1, "cartridges": 2, "suit": "C"})
    page = referee.get("/").get_data(as_text=True)
    assert "Captain A" in page and "Штабс-ротмистр Орлов" in page
    # Case-insensitive for Cyrillic too; htmx asks for the list fragment only.
    fragment = referee.get("/?q=иван", headers={"HX-Request": "true",
                                                "HX-Target": "player-list"})
    html = fragment.get_data(as_text=True)
    assert html.startswith('<ul class="rows players" id="player-list">') or \
        'id="player-list"' in html.split("\n")[1]
    assert "Орлов" in html and "Captain A" not in html
    assert "<html" not in html


def test_minus_hp_tap_returns_the_card_and_stores_the_event(referee, db, player):
    response = post(referee, f"/players/{player['id']}/adjust", {"hp": "-1"}, htmx=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert f'id="player-{player["id"]}"' in html
    assert 'data-stat="hp">2<small>/3</small>' in html
    assert db["players"].get(player["id"])["hp"] == 2
    # A screen that names no row it shows (a page from before) gets the whole history.
    assert f'id="history-{player["id"]}" hx-include="#seen-{player["id"]}" hx-swap-oob="true"' \
        in html


def seen_on(client, player_id: int) -> str:
    """The newest history row the sheet shows, as its card sends it with each tap."""
    page = client.get(f"/players/{player_id}").get_data(as_text=True)
    return re.search(rf'id="seen-{player_id}" name="seen" value="(\d*)"', page).group(1)


def rows_in(html: str) -> list[int]:
    """The history rows an answer carries, in order."""
    return [int(n) for n in re.findall(r'<li class="event[^"]*" id="event-(\d+)"', html)]


def test_a_tap_sends_only_its_new_history_row_to_go_on_top(referee, db, player):
    for n in range(10):
        service.adjust(db, 1, player["id"], {"cartridges": 1 if n % 2 else -1})
    seen = seen_on(referee, player["id"])
    response = post(referee, f"/players/{player['id']}/adjust", {"hp": "-1", "seen": seen},
                    htmx=True)
    html = response.get_data(as_text=True)
    tap = db.execute("SELECT max(id) FROM events").fetchone()[0]
    top = html.split(f'<ul hx-swap-oob="afterbegin:#history-{player["id"]}">')[1]
    assert rows_in(html) == [tap] and "HP 3 → 2" in top
    # The card now names the new row, so the next tap sends only what follows it.
    assert f'id="seen-{player["id"]}" name="seen" value="{tap}"' in html
    assert f'action="/events/{tap}/undo"' in html.split("</section>")[0]  # the card's undo
    refused = post(referee, f"/players/{player['id']}/adjust",
                   {"chance": "1", "seen": str(tap)}, htmx=True)
    assert refused.status_code == 422 and rows_in(refused.get_data(as_text=True)) == []


def test_an_undo_puts_its_row_on_top_and_marks_the_undone_row(referee, db, player):
    tap = service.adjust(db, 1, player["id"], {"hp": -1})["event_id"]
    seen = seen_on(referee, player["id"])
    response = post(referee, f"/events/{tap}/undo", {"back": "card", "seen": seen}, htmx=True)
    html = response.get_data(as_text=True)
    undo = db.execute("SELECT max(id) FROM events").fetchone()[0]
    assert rows_in(html) == [undo, tap]
    top = html.split(f'<ul hx-swap-oob="afterbegin:#history-{player["id"]}">')[1]
    row = top.split("</ul>")[0]
    # The undo row names what it took back in words, not by its number.
    assert f'id="event-{undo}"' in row and "undid:" in row and f"#{tap}" not in row
    assert f'<li class="event undone" id="event-{tap}" hx-swap-oob="true">' in html
    marked = html.split(f'id="event-{tap}"')[1].split("</li>")[0]
    assert ">undone<" in marked
    assert f"/events/{tap}/undo" not in html  # neither the row nor the card offers it again


def test_rows_another_referee_added_meanwhile_come_too(referee, db, player):
    earlier = service.adjust(db, 2, player["id"], {"cartridges": -1})["event_id"]
    seen = seen_on(referee, player["id"])
    # Meanwhile, on another phone: a tap, and the undo of the row this screen shows.
    other = service.adjust(db, 2, player["id"], {"chance": -1}, "bribe")["event_id"]
    undo = service.undo(db, 2, earlier)["event_id"]
    response = post(referee, f"/players/{player['id']}/adjust", {"hp": "-1", "seen": seen},
                    htmx=True)
    html = response.get_data(as_text=True)
    mine = db.execute("SELECT max(id) FROM events").fetchone()[0]
    assert rows_in(html) == [mine, undo, other, earlier]
    assert f'<li class="event undone" id="event-{earlier}" hx-swap-oob="true">' in html


def test_the_sheet_carries_the_passport_qr_code_inline(referee, db, player):
    html = referee.get(f"/players/{player['id']}").get_data(as_text=True)
    qr = html.split('<div class="qr" role="img" aria-label="QR code of the passport">')[1]
    expected = qr_svg(f"http://localhost/p/{player['passport_token']}").decode()
    assert qr.startswith(expected.split("?>", 1)[1].strip())
    assert "/qr.svg" not in html and "<?xml" not in html  # no second request for it


def test_plain_form_post_redirects_to_the_sheet(referee, db, player):
    response = post(referee, f"/players/{player['id']}/adjust", {"cartridges": "1"})
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/players/{player['id']}")
    assert db["players"].get(player["id"])["cartridges"] == 4


def test_out_of_bounds_tap_shows_the_rule_and_changes_nothing(referee, db, player):
    count = db["events"].count
    response = post(referee, f"/players/{player['id']}/adjust", {"hp": "1"}, htmx=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "D10: HP must stay between 0 and the maximum 3; it would be 4." in html
    assert 'data-stat="hp">3<small>/3</small>' in html  # the fresh card comes back
    assert db["events"].count == count


def test_refusal_in_russian(referee, db, player):
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    response = post(referee, f"/players/{player['id']}/adjust", {"chance": "1"}, htmx=True)
    assert "D8: Жетонов Шанса должно быть от 0 до максимума 2; получилось бы 3." in \
        response.get_data(as_text=True)


def test_malformed_tap_is_a_clear_400(referee, db, player):
    response = post(referee, f"/players/{player['id']}/adjust", {"hp": "lots"})
    assert response.status_code == 400
    assert db["players"].get(player["id"])["hp"] == 3


def test_set_exact_values(referee, db, player):
    response = post(referee, f"/players/{player['id']}/set",
                    {"hp": "1", "chance": "2", "cartridges": "9", "level": "4", "reason": "fix"},
                    htmx=True)
    assert response.status_code == 200
    row = db["players"].get(player["id"])
    assert (row["hp"], row["chance"], row["cartridges"], row["level"]) == (1, 2, 9, 4)
    event = db.execute("SELECT changes, reason FROM events ORDER BY id DESC LIMIT 1").fetchone()
    assert '"chance"' not in event[0]  # unchanged fields are not in the event
    assert event[1] == "fix"


def test_undo_from_the_card(referee, db, player):
    tap = service.adjust(db, 1, player["id"], {"hp": -1})
    response = post(referee, f"/events/{tap['event_id']}/undo", {"back": "card"}, htmx=True)
    assert response.status_code == 200
    assert db["players"].get(player["id"])["hp"] == 3
    again = post(referee, f"/events/{tap['event_id']}/undo", {"back": "card"}, htmx=True)
    assert again.status_code == 422
    assert "This change was already undone." in again.get_data(as_text=True)


def test_heavy_wound_shows_the_countdown_and_heal(referee, db, player):
    db["settings"].upsert({"key": "death_minutes", "value": "15"}, pk="key")
    service.adjust(db, 1, player["id"], {"hp": -3})
    html = referee.get(f"/players/{player['id']}").get_data(as_text=True)
    assert 'class="countdown' in html and 'data-left="' in html
    assert "Heal" in html and "Mark dead" in html
    post(referee, f"/players/{player['id']}/heal")
    assert db["players"].get(player["id"])["status"] == "active"


def test_D10_the_wounded_player_sees_the_clock_on_the_passport_but_no_buttons(client, db,
                                                                               player):
    db["settings"].upsert({"key": "death_minutes", "value": "15"}, pk="key")
    url = f"/p/{player['passport_token']}"
    assert 'id="passport-wound"' not in client.get(url).get_data(as_text=True)
    service.adjust(db, 1, player["id"], {"hp": -3})
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    html = client.get(url).get_data(as_text=True)
    wound = html.split('id="passport-wound"')[1].split("</div>")[0]
    left = int(wound.split('data-left="')[1].split('"')[0])
    assert 14 * 60 < left <= 15 * 60 and "Тяжело ранен" in wound
    assert "вылечить вас может только мастер" in wound
    assert "/heal" not in html and "/kill" not in html and "csrf_token" not in html
    db["settings"].upsert({"key": "death_minutes", "value": "0"}, pk="key")  # clock off
    wound = client.get(url).get_data(as_text=True).split('id="passport-wound"')[1]
    assert 'class="countdown' not in wound.split("</div>")[0] and "с " in wound


def test_names_with_markup_render_as_text(referee, db):
    row = service.create(db, None, {"character": '<b>Bold</b> "Q" \'s', "player": "<i>x</i>",
                                    "hp_max": 2, "chance_max": 1, "cartridges": 1, "suit": "S"})
    for url in ("/", f"/players/{row['id']}", f"/p/{row['passport_token']}", "/events"):
        html = referee.get(url).get_data(as_text=True)
        assert "<b>Bold</b>" not in html and "<i>x</i>" not in html, url
        assert "&lt;b&gt;Bold&lt;/b&gt;" in html, url


def test_new_player_form(referee, db):
    response = post(referee, "/players/new", {"character": "New", "hp_max": "3",
                                              "chance_max": "1", "cartridges": "2",
                                              "suit": "D", "level": "2"})
    assert response.status_code == 303
    row = db.execute("SELECT character, level, suit FROM players").fetchone()
    assert row == ("New", 2, "D")
    bad = post(referee, "/players/new", {"character": "", "hp_max": "3", "chance_max": "1",
                                         "cartridges": "2", "suit": "D"})
    assert bad.status_code == 422
    assert "Character is required." in bad.get_data(as_text=True)


def test_edit_player_form(referee, db, player):
    response = post(referee, f"/players/{player['id']}/edit",
                    {"character": "Colonel A", "player": "Anna", "hp_max": "4",
                     "chance_max": "2", "suit": "H", "notes": "spy"})
    assert response.status_code == 303
    row = db["players"].get(player["id"])
    assert (row["character"], row["hp_max"], row["hp"], row["notes"]) == ("Colonel A", 4, 3, "spy")


def test_feed_lists_recent_actions_with_undo(referee, db, player):
    tap = service.adjust(db, 1, player["id"], {"cartridges": -1}, "bribe")
    html = referee.get("/events").get_data(as_text=True)
    assert "Captain A" in html and "«bribe»" in html
    assert f"/events/{tap['event_id']}/undo" in html
    response = post(referee, f"/events/{tap['event_id']}/undo", {"back": "feed"})
    assert response.status_code == 303
    assert db["players"].get(player["id"])["cartridges"] == 3


def test_settings_are_for_organizers(referee, db):
    assert referee.get("/settings").status_code == 403


def test_organizer_changes_settings_with_an_event(organizer, db):
    response = post(organizer, "/settings", {"event_name": "Бал", "death_minutes": "10",
                                             "public_url": "http://10.0.0.5:8080"})
    assert response.status_code == 200
    values = {r["key"]: r["value"] for r in db["settings"].rows}
    assert (values["event_name"], values["death_minutes"]) == ("Бал", "10")
    assert db.execute("SELECT kind FROM events ORDER BY id DESC").fetchone()[0] == "settings"
    bad = post(organizer, "/settings", {"event_name": "", "death_minutes": "-3",
                                        "public_url": ""})
    assert bad.status_code == 422
    assert {r["key"]: r["value"] for r in db["settings"].rows}["death_minutes"] == "10"


def test_organizer_manages_referees(organizer, db):
    short = post(organizer, "/referees", {"action": "add", "name": "vera",
                                          "password": "secret"})
    assert short.status_code == 422 and "at least 10 characters" in short.get_data(as_text=True)
    assert db.execute("SELECT count(*) FROM referees WHERE name='vera'").fetchone()[0] == 0
    response = post(organizer, "/referees", {"action": "add", "name": "vera",
                                              "password": "secret-sentence"})
    assert "Referee vera added." in response.get_data(as_text=True)
    vera = db.execute("SELECT id, is_organizer FROM referees WHERE name='vera'").fetchone()
    assert vera[1] == 0
    post(organizer, "/referees", {"action": "disable", "referee_id": str(vera[0])})
    assert db["referees"].get(vera[0])["active"] == 0
    duplicate = post(organizer, "/referees", {"action": "add", "name": "VERA",
                                              "password": "secret-sentence"})
    assert duplicate.status_code == 422


def test_switched_off_referee_loses_the_session(client, organizer, db, app):
    other = app.test_client()
    other.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    from tests.conftest import sign_in
    sign_in(other)
    assert other.get("/").status_code == 200
    ref_id = db.execute("SELECT id FROM referees WHERE name='ref'").fetchone()[0]
    post(organizer, "/referees", {"action": "disable", "referee_id": str(ref_id)})
    assert other.get("/").status_code == 302


def test_language_switch_sets_a_cookie_and_stays_on_site(client):
    response = client.get("/lang/ru?next=/login")
    assert response.status_code == 303 and response.headers["Location"] == "/login"
    assert "Войти" in client.get("/login").get_data(as_text=True)
    evil = client.get("/lang/en?next=//evil.example/")
    assert evil.headers["Location"] == "/"


def test_heavily_wounded_are_listed_first_with_their_clock(referee, db, player):
    db["settings"].upsert({"key": "death_minutes", "value": "10"}, pk="key")
    service.adjust(db, 1, player["id"], {"hp": -3})
    html = referee.get("/").get_data(as_text=True)
    top = html.split('class="panel wounded-list"')[1].split("</section>")[0]
    assert "Captain A" in top
    left = int(top.split('data-left="')[1].split('"')[0])
    assert 590 <= left <= 600
