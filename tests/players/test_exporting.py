"""Exporting players to CSV: re-importable, live values, passport links, formulas inert."""

from __future__ import annotations

import csv
import io

from referee import store
from referee.cli import main
from referee.players import importing, service
from referee.players.exporting import players_csv
from referee.store.db import fetch


def read(text: str) -> list[dict]:
    assert text.startswith("\ufeff")  # spreadsheets then read Cyrillic as UTF-8
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


def test_the_export_holds_live_values_and_passport_links(db, player):
    service.adjust(db, None, player["id"], {"hp": -1, "cartridges": 2})
    [row] = read(players_csv(db, "http://192.168.1.10:8080/"))
    assert (row["character"], row["hp"], row["hp_max"], row["cartridges"], row["status"]) == \
        ("Captain A", "2", "3", "5", "active")
    assert row["passport_url"] == f"http://192.168.1.10:8080/p/{player['passport_token']}"
    assert row["duel_deck"] == "6H,7H,8H,9H,10H,JH,QH,KH,AH"


def test_an_export_seeds_the_next_event(db, tmp_path):
    service.create(db, None, {"character": "Штабс-капитан Орлов", "player": "Иван",
                              "hp_max": 4, "chance_max": 1, "cartridges": 2, "suit": "C",
                              "level": 3, "notes": "medic"})
    fresh = store.init(tmp_path / "next.db")
    created, errors = importing.import_players(
        fresh, None, players_csv(db, "http://x").encode("utf-8"))
    assert errors == [] and len(created) == 1
    row = fresh["players"].get(created[0]["id"])
    assert (row["character"], row["player"], row["hp_max"], row["suit"], row["level"],
            row["notes"]) == ("Штабс-капитан Орлов", "Иван", 4, "C", 3, "medic")


def test_names_that_look_like_formulas_stay_text(db):
    service.create(db, None, {"character": '=HYPERLINK("http://x","<b>a</b>")',
                              "player": "@me", "hp_max": 2, "chance_max": 1,
                              "cartridges": 1, "suit": "S"})
    [row] = read(players_csv(db, "http://x"))
    assert row["character"] == '\'=HYPERLINK("http://x","<b>a</b>")'
    assert row["player"] == "'@me"


def test_organizers_download_it_and_referees_do_not(organizer, db, player):
    page = organizer.get("/players/import").get_data(as_text=True)
    assert 'id="export-csv" href="/players/export.csv"' in page
    response = organizer.get("/players/export.csv")
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    [row] = read(response.get_data(as_text=True))
    assert row["passport_url"] == f"http://localhost/p/{player['passport_token']}"


def test_a_referee_cannot_export(referee, player):
    assert referee.get("/players/export.csv").status_code == 403


def test_export_then_import_gives_back_exactly_what_was_exported(db, tmp_path):
    """Names starting with = + - @ (kept from spreadsheets as formulas) come back as
    written, without a leading '."""
    names = ['=HYPERLINK("http://x")', "+7 999", "-Минус", "@me", "'quoted", "''two",
             "plain", '<b>"Ёж"</b>']
    for name in names:
        service.create(db, None, {"character": name, "player": name, "hp_max": 2,
                                  "chance_max": 1, "cartridges": 999, "suit": "S",
                                  "notes": name})
    fresh = store.init(tmp_path / "again.db")
    created, errors = importing.import_players(fresh, None,
                                               players_csv(db, "http://x").encode())
    assert errors == [] and len(created) == len(names)
    columns = "character, player, notes, cartridges"
    assert fetch(fresh, f"SELECT {columns} FROM players ORDER BY character") == \
        fetch(db, f"SELECT {columns} FROM players ORDER BY character")


def test_the_command_line_export(tmp_path, capsys):
    path = str(tmp_path / "demo.db")
    main(["demo", "--db", path])
    out = tmp_path / "players.csv"
    assert main(["export-players", str(out), "--db", path,
                 "--public-url", "http://10.0.0.2:8080"]) == 0
    rows = read(out.read_text(encoding="utf-8"))
    assert len(rows) == 12 and "Exported 12 players" in capsys.readouterr().out
    assert all(r["passport_url"].startswith("http://10.0.0.2:8080/p/") for r in rows)
    assert {r["status"] for r in rows} == {"active", "heavy_wound", "dead"}
