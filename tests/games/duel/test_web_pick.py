"""The duel pickers list everyone, and mark who may not duel now and why (D4);
picking such a player gives the D4 refusal and changes nothing."""

from __future__ import annotations

import re

import pytest

from referee.games.duel import service as duels
from referee.players import service
from referee.store import players as rows
from tests.conftest import post


def make(db, name: str, **stats) -> dict:
    row = service.create(db, None, {"character": name, "hp_max": 3, "chance_max": 1,
                                    "cartridges": 2, "suit": "S"})
    if stats:
        service.set_exact(db, None, row["id"], stats)
    return rows.get(db, row["id"])


@pytest.fixture
def field(db, player):
    """Captain A may duel; the others may not, each for another reason, or is busy."""
    out = {"ok": player, "dry": make(db, "Dry Dmitri", cartridges=0),
           "wounded": make(db, "Wounded Willa", hp=0),
           "dead": make(db, "Dead Denis"), "busy": make(db, "Busy Boris"),
           "partner": make(db, "Partner Pavel")}
    service.kill(db, None, out["dead"]["id"])
    out["dead"] = rows.get(db, out["dead"]["id"])
    out["duel"] = duels.start(db, None, out["busy"]["id"], out["partner"]["id"])
    return out


def counts(db) -> tuple:
    return tuple(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                 for t in ("events", "games", "game_actions"))


def row_of(html: str, player_id: int) -> str:
    """One candidate's row in the picker, as HTML."""
    found = re.search(rf'<a class="row player-row[^"]*" href="[^"]*" data-player="{player_id}">'
                      r".*?</a>", html, re.DOTALL)
    assert found, player_id
    return found.group(0)


def marks_in(row: str) -> list[str]:
    return [m.strip() for m in re.findall(r'<span class="why-not[^"]*">([^<]*)</span>', row)]


@pytest.mark.parametrize(("language", "words"), [
    ("en", {"dry": "Cannot duel (D4): no cartridge",
            "wounded": "Cannot duel (D4): heavily wounded",
            "dead": "Cannot duel (D4): dead",
            "busy": "Already in Duel 1, not finished yet.",
            "refusal": "D4: Dry Dmitri has no cartridge: each duelist pays one cartridge"}),
    ("ru", {"dry": "Дуэль невозможна (D4): нет патронов",
            "wounded": "Дуэль невозможна (D4): тяжёлое ранение",
            "dead": "Дуэль невозможна (D4): мёртв(а)",
            "busy": "Уже играет: Дуэль №1 ещё не окончена.",
            "refusal": "D4: У игрока Dry Dmitri нет патронов"}),
])
def test_D4_pickers_mark_who_cannot_duel_and_why_and_picking_them_changes_nothing(
        referee, db, field, language, words):
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    html = referee.get("/duels/new").get_data(as_text=True)
    # Everyone is listed; those who may not duel say why, in words.
    for key in ("ok", "dry", "wounded", "dead", "busy", "partner"):
        assert f'data-player="{field[key]["id"]}"' in html, key
    assert marks_in(row_of(html, field["ok"]["id"])) == []
    for key in ("dry", "wounded", "dead"):
        row = row_of(html, field[key]["id"])
        assert marks_in(row) == [words[key]], key
        assert "player-row status-" in row and " cannot" in row.split(">", 1)[0]
    # one in an unfinished duel is told, not refused: the engine lets them start (D4)
    busy = row_of(html, field["busy"]["id"])
    assert marks_in(busy) == [words["busy"]] and " cannot" not in busy.split(">", 1)[0]
    # The same marks in the search's fragment.
    fragment = referee.get("/duels/new?q=dry", headers={
        "HX-Request": "true", "HX-Target": "duel-pick"}).get_data(as_text=True)
    assert marks_in(row_of(fragment, field["dry"]["id"])) == [words["dry"]]

    # Picking one gives the D4 refusal; the slot stays empty and nothing is stored.
    before = counts(db), rows.get(db, field["dry"]["id"])
    a = field["ok"]["id"]
    html = referee.get(f"/duels/new?a={a}&b={field['dry']['id']}").get_data(as_text=True)
    assert re.search(r'<p class="alert" role="alert">' + re.escape(words["refusal"]), html)
    assert f'<input type="hidden" name="b" value="{field["dry"]["id"]}">' not in html
    assert 'id="duel-pick"' in html  # still picking duelist B
    assert "Start the duel" not in html and "Начать дуэль" not in html
    # and a pick the slot already held is kept: A stays
    assert f'<input type="hidden" name="a" value="{a}">' in html
    assert counts(db) == before[0] and rows.get(db, field["dry"]["id"]) == before[1]


def test_D4_the_sheet_says_why_a_player_cannot_duel(referee, db, field):
    sheet = referee.get(f"/players/{field['wounded']['id']}").get_data(as_text=True)
    assert '<p class="why-not">Cannot duel (D4): heavily wounded</p>' in sheet
    fine = referee.get(f"/players/{field['ok']['id']}").get_data(as_text=True)
    assert 'class="why-not"' not in fine
    # the button stays: it leads to the picker, which refuses with the full sentence
    start = referee.get(f"/duels/new?join={field['wounded']['id']}", follow_redirects=True)
    assert "D4: Wounded Willa cannot fight" in start.get_data(as_text=True)


def test_D4_a_refused_start_still_422_and_changes_nothing(referee, db, field):
    before = counts(db)
    response = post(referee, "/duels", {"a": field["ok"]["id"], "b": field["dead"]["id"]})
    assert response.status_code == 422
    assert "D4: Dead Denis cannot fight" in response.get_data(as_text=True)
    assert counts(db) == before
