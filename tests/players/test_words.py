"""What the feed, the histories and the undo say, in English and Russian."""

from __future__ import annotations

import re

import pytest

from referee.players import service
from tests.conftest import post


def russian(client):
    """The same browser, asking for Russian from now on."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    return client


def text_of(html: str) -> str:
    """The page's words without its tags, spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- 7. Undo says whose change it is ------------------------------------------------

def test_undo_of_another_referees_change_asks_first_and_does_nothing(referee, db, player):
    tap = service.adjust(db, 2, player["id"], {"hp": -1})  # by "org"
    at = db.execute("SELECT at FROM events WHERE id = ?", [tap["event_id"]]).fetchone()[0]
    response = post(referee, f"/events/{tap['event_id']}/undo", {"back": "card"}, htmx=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert f"This is org&#39;s change (at {at[11:16]}): undo it?" in html
    assert 'name="confirm" value="1"' in html and "Yes, undo it" in html
    assert db["players"].get(player["id"])["hp"] == 2  # nothing undone yet
    assert db.execute("SELECT count(*) FROM events WHERE kind='undo'").fetchone()[0] == 0
    done = post(referee, f"/events/{tap['event_id']}/undo", {"back": "card", "confirm": "1"},
                htmx=True)
    assert done.status_code == 200
    assert db["players"].get(player["id"])["hp"] == 3


def test_the_question_is_in_russian_and_on_the_plain_sheet_too(referee, db, player):
    tap = service.adjust(db, 2, player["id"], {"hp": -1})
    response = post(russian(referee), f"/events/{tap['event_id']}/undo", {"back": "card"})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Это изменение мастера org" in html and "Да, отменить" in html
    assert db["players"].get(player["id"])["hp"] == 2


def test_own_change_undoes_at_once(referee, db, player):
    tap = service.adjust(db, 1, player["id"], {"hp": -1})  # by "ref" itself
    response = post(referee, f"/events/{tap['event_id']}/undo", {"back": "card"}, htmx=True)
    assert response.status_code == 200
    assert "undo it?" not in response.get_data(as_text=True)
    assert db["players"].get(player["id"])["hp"] == 3


def test_the_feed_asks_too_and_confirms_back_to_the_feed(referee, db, player):
    tap = service.adjust(db, 2, player["id"], {"cartridges": -1})
    response = post(referee, f"/events/{tap['event_id']}/undo", {"back": "feed"}, htmx=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    feed = html[html.index('id="feed"'):]
    assert "org&#39;s change" in feed and 'name="back" value="feed"' in feed
    assert db["players"].get(player["id"])["cartridges"] == 2
    done = post(referee, f"/events/{tap['event_id']}/undo", {"back": "feed", "confirm": "1"})
    assert done.status_code == 303
    assert db["players"].get(player["id"])["cartridges"] == 3


def test_a_change_by_the_app_asks_too(referee, db, player):
    tap = service.adjust(db, None, player["id"], {"hp": -1})
    response = post(referee, f"/events/{tap['event_id']}/undo", {"back": "card"}, htmx=True)
    assert response.status_code == 422
    assert "This change was made by the app" in response.get_data(as_text=True)


def test_the_api_undo_does_not_ask(api, db, player):
    tap = service.adjust(db, 2, player["id"], {"hp": -1})
    response = api("post", f"/api/v1/events/{tap['event_id']}/undo", json={})
    assert response.status_code == 200
    assert db["players"].get(player["id"])["hp"] == 3


# --- 6. Changes read as words ---------------------------------------------------------

def test_a_creation_reads_as_label_and_value_not_dashes(referee, db, player):
    feed = text_of(referee.get("/events").get_data(as_text=True))
    assert "created" in feed
    assert "Character Captain A" in feed and "Cartridges 3" in feed and "Max HP 3" in feed
    assert "—" not in feed and "→" not in feed
    sheet = text_of(referee.get(f"/players/{player['id']}").get_data(as_text=True))
    assert "Cartridges 3" in sheet and "— →" not in sheet


def test_a_creation_in_russian(referee, db, player):
    feed = text_of(russian(referee).get("/events").get_data(as_text=True))
    assert "Патроны 3" in feed and "— →" not in feed


def test_a_tap_reads_before_and_after(referee, db, player):
    service.adjust(db, 1, player["id"], {"cartridges": -1})
    feed = text_of(referee.get("/events").get_data(as_text=True))
    assert "Cartridges 3 → 2" in feed


def test_account_events_read_as_sentences(organizer, db):
    post(organizer, "/referees", {"name": "Vera", "password": "long enough password",
                                  "organizer": "1"})
    vera = db.execute("SELECT id FROM referees WHERE name = 'Vera'").fetchone()[0]
    feed = text_of(organizer.get("/events").get_data(as_text=True))
    assert "New account: Vera, organizer" in feed
    assert "✗" not in feed and "✓" not in feed and "— →" not in feed
    from referee.accounts.service import reset_password, set_active
    set_active(db, vera, False, 2)
    reset_password(db, vera, "another long password", 2)
    feed = text_of(organizer.get("/events").get_data(as_text=True))
    assert "Vera's account switched off" in feed and "Vera's password reset" in feed
    ru = text_of(russian(organizer).get("/events").get_data(as_text=True))
    assert "Новая учётная запись: Vera, организатор" in ru
    assert "Учётная запись Vera отключена" in ru and "Пароль Vera сброшен" in ru


def test_settings_events_name_the_setting(organizer, db):
    post(organizer, "/settings", {"event_name": "Бал", "death_minutes": "10",
                                  "public_url": ""})
    feed = text_of(organizer.get("/events").get_data(as_text=True))
    assert "Event name" in feed and "Minutes to death" in feed
    assert "event_name" not in feed and "death_minutes" not in feed
    ru = text_of(russian(organizer).get("/events").get_data(as_text=True))
    assert "Название игры" in ru and "Минут до смерти" in ru


# --- 8. Plurals are right in both languages -----------------------------------------------

@pytest.mark.parametrize(("lang", "n", "text"), [
    ("en", 1, "1 card"), ("en", 2, "2 cards"), ("en", 5, "5 cards"),
    ("ru", 1, "1 карта"), ("ru", 2, "2 карты"), ("ru", 5, "5 карт"), ("ru", 11, "11 карт"),
    ("ru", 21, "21 карта"), ("ru", 24, "24 карты"),
])
def test_card_counts_as_the_squad_and_deck_lists_show_them(app, lang, n, text):
    from flask import render_template_string
    with app.test_request_context(headers={"Accept-Language": lang}):
        shown = render_template_string(
            '{{ ngettext("%(num)s card", "%(num)s cards", n) }}', n=n)
    assert shown == text


def test_coup_income_gains_one_coin_in_both_languages(referee, db):
    from referee.games import service as games
    from referee.games.coup import service as coup
    a, b = (service.create(db, None, {"character": name, "hp_max": 3, "chance_max": 1,
                                      "cartridges": 1, "suit": "C"})["id"]
            for name in ("Anna", "Boris"))
    game = coup.create(db, 1, [a, b])
    game = games.act(db, 1, "coup", game.id, {"type": "declare", "player": str(a),
                                                "action": "income", "target": None})
    page = text_of(referee.get(f"/coup/{game.id}").get_data(as_text=True))
    assert "Anna gains 1 coin." in page and "1 coins" not in page
    assert "Boris's turn (2 coins)" in page
    ru = text_of(russian(referee).get(f"/coup/{game.id}").get_data(as_text=True))
    assert "Anna получает 1 монету." in ru
    assert "Двор: " in ru and "Казна: " in ru


def test_castle_inventory_counts_its_cards(referee, db):
    from tests.games.underworld.test_service import FILLER, FILLER_B, seat, start
    game = start(db, [seat(db, "Anna"), seat(db, "Boris")], [FILLER, FILLER_B])
    page = text_of(referee.get(f"/underworld/{game.id}").get_data(as_text=True))
    assert "Inventory: 4 cards" in page
    ru = text_of(russian(referee).get(f"/underworld/{game.id}").get_data(as_text=True))
    assert "Инвентарь: 4 карты" in ru


@pytest.mark.parametrize(("lang", "count", "text"), [
    ("en", 1, "U15: Discard exactly 1 card so that 4 stay in the inventory; 0 were named."),
    ("en", 2, "U15: Discard exactly 2 cards so that 4 stay in the inventory; 0 were named."),
    ("ru", 1, "U15: Сбросьте ровно 1 карту, чтобы в инвентаре осталось 4; названо: 0."),
    ("ru", 5, "U15: Сбросьте ровно 5 карт, чтобы в инвентаре осталось 4; названо: 0."),
])
def test_a_refusal_counts_in_the_readers_language(app, lang, count, text):
    from referee.rules import RuleError
    from referee.web.i18n import rule_message
    err = RuleError("U15", "Discard exactly %(count)s cards so that 4 stay in the "
                    "inventory; %(named)s were named.", count=count, named=0)
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert rule_message(err) == text
    assert err.text.startswith(f"Discard exactly {count} cards")  # the API keeps its English
