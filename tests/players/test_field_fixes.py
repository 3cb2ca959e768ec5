"""Fixes for the field on the web, without a browser: the sheet's Undo after a game step,
dates as the reader writes them, undo rows in words, notices by kind."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from referee.accounts.service import add_referee
from referee.games.duel import service as duels
from referee.games.duel.rules import Play, Round
from referee.players import service
from referee.store import players
from tests.conftest import post

ROOT = Path(__file__).resolve().parents[2]
# Another day of this year (shown with its day, without the year): 2 December, or, on 2
# December itself, 12 February, its mirror image in "12-02".
_TODAY = datetime.now(UTC).date()
_DAY = date(_TODAY.year, 12, 2) if (_TODAY.month, _TODAY.day) != (12, 2) else \
    date(_TODAY.year, 2, 12)
PAST = f"{_DAY.isoformat()}T06:05:00+00:00"
SHOWN = {"ru": f"{_DAY:%d.%m} 06:05", "en": f"{_DAY.day} {_DAY:%b} 06:05"}


def text_of(html: str) -> str:
    """The page's words, tags taken out and spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def referee_id(db, name: str) -> int:
    return db.execute("SELECT id FROM referees WHERE name = ?", [name]).fetchone()[0]


def made_at(monkeypatch, moment: str, change):
    """Make a change as if at ``moment``: the time it is stored with."""
    with monkeypatch.context() as m:
        m.setattr(service, "now", lambda: moment)
        return change()


# ---- point 2: the sheet's Undo after a game step ----

@pytest.fixture
def after_a_duel(db):
    """B tapped from 3 to 1 HP, then a duel's round left B at 0 HP, heavily wounded (D10)."""
    a = service.create(db, None, {"character": "Captain A", "hp_max": 3, "chance_max": 2,
                                  "cartridges": 3, "suit": "S"})
    b = service.create(db, None, {"character": "Brigadier B", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 2, "suit": "C"})
    service.adjust(db, 1, b["id"], {"hp": -1})
    tap = service.adjust(db, 1, b["id"], {"hp": -1})["event_id"]  # "tap: HP 2 → 1"
    duel = duels.start(db, 1, a["id"], b["id"])
    duels.record(db, 1, duel.id, Round(a=Play("KS"), b=Play("6C")))
    return b, tap, duel


def test_D10_the_sheet_names_the_duel_round_and_offers_no_older_tap(referee, db,
                                                                    after_a_duel):
    b, tap, duel = after_a_duel
    html = referee.get(f"/players/{b['id']}").get_data(as_text=True)
    card = html.split("</section>")[0]
    assert "Latest change: Duel 1, round 1 — undo it in the game." in text_of(card)
    assert f'href="/duels/{duel.id}"' in card
    assert f"/events/{tap}/undo" not in card and "/undo" not in card  # no older tap


def test_D10_a_stale_sheet_undo_of_the_tap_before_a_duel_is_refused(referee, db,
                                                                     after_a_duel):
    b, tap, _ = after_a_duel
    before = players.get(db, b["id"])
    # The card as it was before the duel named the tap; its Undo says it is the sheet's.
    response = post(referee, f"/events/{tap}/undo", {"back": "card", "latest": "1"},
                    htmx=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "This player has changed since" in html and "Duel 1, round 1" in text_of(html)
    after = players.get(db, b["id"])
    assert (after["hp"], after["status"], after["version"]) == (0, "heavy_wound",
                                                                before["version"])
    # A tap after the duel is the latest change again: the sheet's Undo takes it back.
    level = service.adjust(db, 1, b["id"], {"level": 1})["event_id"]
    response = post(referee, f"/events/{level}/undo", {"back": "card", "latest": "1"},
                    htmx=True)
    assert response.status_code == 200 and players.get(db, b["id"])["level"] == 1


def test_D10_the_api_refuses_to_undo_a_duel_event_and_names_the_step(api, db, after_a_duel):
    b, _, _ = after_a_duel
    step = db.execute("SELECT max(id) FROM events WHERE kind = 'duel' AND player_id = ?",
                      [b["id"]]).fetchone()[0]
    response = api("post", f"/api/v1/events/{step}/undo")
    assert response.status_code == 422  # a refusal, as every refusal of the API
    assert response.get_json()["error"] == (
        "A change made by Duel 1, round 1 cannot be undone on its own: undo it in that "
        "game, where Undo takes back the whole step.")
    row = players.get(db, b["id"])
    assert (row["hp"], row["status"]) == (0, "heavy_wound")


# ---- point 3: dates ----

@pytest.mark.parametrize(("language", "value", "shown"), [
    ("ru", "2025-12-02T06:05:00+00:00", "02.12 06:05"),
    ("en", "2025-12-02T06:05:00+00:00", "2 Dec 06:05"),
    ("ru", "2025-03-05T23:59:00+00:00", "23:59"),  # today: the time alone
    ("en", "2024-12-02T06:05:00+00:00", "2 Dec 2024 06:05"),
    ("ru", "2024-12-02T06:05:00+00:00", "02.12.2024 06:05"),
    ("ru", "2025-12-02T06:05:00", "02.12 06:05"),  # stored without a zone: UTC
    ("en", "yesterday", "yesterday"),  # a shape it does not read is shown as stored
    ("en", None, ""),
])
def test_when_writes_the_day_as_the_reader_does(app, language, value, shown):
    from referee.web.i18n import when  # the one filter every list's dates go through

    with app.test_request_context(headers={"Accept-Language": language}):
        assert when(value, at=datetime(2025, 3, 5, 12, 0, tzinfo=UTC)) == shown


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_feed_and_history_show_the_day_unambiguously(referee, db, player, monkeypatch,
                                                          language):
    day = SHOWN[language]
    made_at(monkeypatch, PAST, lambda: service.adjust(db, 1, player["id"], {"hp": -1}))
    headers = {"Accept-Language": language}
    for url in ("/events", f"/players/{player['id']}"):
        html = referee.get(url, headers=headers).get_data(as_text=True)
        assert f'<time datetime="{PAST}">{day}</time>' in html
        assert f"{_DAY:%m-%d}" not in text_of(html)


# ---- point 4: an undo row in words ----

@pytest.mark.parametrize(("language", "words"), [
    ("en", "undid: HP 3 → 2 (anna, {})"), ("ru", "отменено: ХП 3 → 2 (anna, {})")])
def test_an_undo_row_names_what_it_took_back(referee, db, player, monkeypatch, language,
                                            words):
    words = words.format(SHOWN[language])
    add_referee(db, "anna", "anna-password", False, by=None)
    tap = made_at(monkeypatch, PAST, lambda: service.adjust(
        db, referee_id(db, "anna"), player["id"], {"hp": -1}))["event_id"]
    undo = service.undo(db, 1, tap)["event_id"]
    headers = {"Accept-Language": language}
    for url in ("/events", f"/players/{player['id']}"):
        html = referee.get(url, headers=headers).get_data(as_text=True)
        row = html.split(f'id="event-{undo}"')[1].split("</li>")[0]
        assert words in text_of(row).replace(" )", ")")
        assert f"#{tap}" not in row


def test_an_undo_whose_original_is_not_in_the_log_still_reads(app):
    with app.test_request_context(headers={"Accept-Language": "en"}):
        template = app.jinja_env.from_string(
            '{% from "_macros.html" import event_item %}{{ event_item(e) }}')
        html = template.render(e={
            "id": 9, "at": PAST, "kind": "undo", "referee": "ref", "undoes": 45,
            "undone_by": None, "undid": None, "player_id": 1, "reason": "", "note": None,
            "changes": {"hp": {"before": 2, "after": 3}}})
    assert "undid an earlier change" in html and "#45" not in html


# ---- point 5: notices by kind ----

def css_rule(selector: str) -> str:
    css = (ROOT / "static" / "app.css").read_text()
    return re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css).group(1)


def test_a_notice_informs_in_its_own_colour_and_green_is_for_successes():
    assert "--good" not in css_rule(".notice") and "--accent" in css_rule(".notice")
    assert "--good" in css_rule(".notice.success")
    assert "--warn" in css_rule(".notice.warn")
    assert "--good" not in css_rule(".notice.floating")


def notice_classes(html: str) -> list[str]:
    return re.findall(r'<p class="(notice[^"]*)"', html)


def test_saved_settings_say_so_in_a_floating_success(organizer):
    response = post(organizer, "/settings", {"event_name": "Бал", "death_minutes": "0",
                                             "public_url": "", "token_days": "30"})
    html = response.get_data(as_text=True)
    assert notice_classes(html) == ["notice floating success"]
    assert re.search(r"<body[^>]* data-answer[ >]", html)  # a quick second tap is shielded


def test_a_form_sent_twice_says_so_as_information_not_success(referee, db):
    form = {"character": "Vera", "hp_max": "3", "chance_max": "1", "cartridges": "2",
            "suit": "H", "once": "k" * 22}
    post(referee, "/players/new", form)
    again = post(referee, "/players/new", form, follow_redirects=True)
    html = again.get_data(as_text=True)
    assert "already registered" in html
    assert notice_classes(html) == ["notice floating once-notice"]


@pytest.mark.parametrize(("template", "marker", "classes"), [
    ("berserk/_builder.html", "{{ unregistered }}", "notice warn unregistered"),
    ("duel/new.html", "Already in %(duel)s", "notice warn"),
    ("players/import.html", "players imported", "notice floating success"),
    ("accounts/referees.html", "{{ message }}", "notice floating success"),
    ("https/index.html", "HTTPS is on", "notice success"),
])
def test_every_warning_and_success_notice_is_marked_as_such(template, marker, classes):
    source = (ROOT / "templates" / template).read_text()
    line = next(line for line in source.splitlines() if marker in line and "notice" in line)
    assert f'class="{classes}"' in line
