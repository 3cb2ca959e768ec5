"""Printing from the command line and the organizer's Print page, read back for real."""

from __future__ import annotations

import pytest

from referee import store
from referee.cli import main
from referee.players import service
from referee.printing.readback import page_sizes_pt, page_texts, qr_urls_per_page
from referee.store import settings, write
from referee.web.context import is_loopback


def test_demo_passports_read_back_to_the_right_players(tmp_path, capsys, app, client):
    path = app.config["DATABASE"]
    main(["demo", "--db", path])
    out = tmp_path / "passports.pdf"
    assert main(["print", "passports", "--db", path, "-o", str(out),
                 "--public-url", "http://localhost/"]) == 0
    pdf = out.read_bytes()
    urls = [u for page in qr_urls_per_page(pdf) for u in page]
    db = store.connect(path)
    tokens = {r[0]: r[1] for r in db.execute("SELECT passport_token, character FROM players")}
    assert len(urls) == len(tokens) == 12
    assert sorted(urls) == sorted(f"http://localhost/p/{t}" for t in tokens)
    for url in urls:
        token = url.rsplit("/", 1)[1]
        html = client.get(url.replace("http://localhost", "")).get_data(as_text=True)
        assert tokens[token].replace('"', "&#34;") in html  # that player's own sheet
    assert "Wrote" in capsys.readouterr().out


def test_a_reissued_passport_prints_its_new_token(tmp_path, db, app):
    row = service.create(db, None, {"character": "Лемке", "hp_max": 2, "chance_max": 1,
                                    "cartridges": 1, "suit": "D"})
    new = service.reissue(db, None, row["id"])["passport_token"]
    out = tmp_path / "one.pdf"
    assert main(["print", "passports", "--db", app.config["DATABASE"], "-o", str(out),
                 "--public-url", "http://10.0.0.2:8080", "--player", str(row["id"])]) == 0
    assert qr_urls_per_page(out.read_bytes()) == [[f"http://10.0.0.2:8080/p/{new}"]]


def test_print_passports_refuses_an_unknown_player(tmp_path, app, capsys):
    out = tmp_path / "x.pdf"
    assert main(["print", "passports", "--db", app.config["DATABASE"], "-o", str(out),
                 "--player", "999"]) == 2
    assert "No player 999" in capsys.readouterr().err
    assert not out.exists()


def test_print_deck_with_backs_and_the_deck_list(tmp_path, capsys):
    out = tmp_path / "duel.pdf"
    assert main(["print", "deck", "duel-hearts", "-o", str(out), "--backs"]) == 0
    pdf = out.read_bytes()
    assert len(page_sizes_pt(pdf)) == 2  # nine cards: one face page and its back
    assert "A" in page_texts(pdf)[0]
    assert main(["print", "decks"]) == 0
    listing = capsys.readouterr().out
    for name in ("table36", "duel-spades", "castle-sample", "classes-sample", "coup",
                 "berserk-sample"):
        assert name in listing
    assert main(["print", "deck", "nope", "-o", str(tmp_path / "n.pdf")]) == 2


def test_print_page_is_for_organizers(referee):
    assert referee.get("/print/").status_code == 403
    assert referee.get("/print/passports.pdf").status_code == 403


def test_print_page_downloads_chosen_passports(organizer, db):
    a = service.create(db, None, {"character": '<b>Vera</b> "V"', "hp_max": 3,
                                  "chance_max": 2, "cartridges": 3, "suit": "H"})
    service.create(db, None, {"character": "Орлов", "hp_max": 4, "chance_max": 1,
                              "cartridges": 2, "suit": "C"})
    page = organizer.get("/print/").get_data(as_text=True)
    assert "&lt;b&gt;Vera&lt;/b&gt;" in page and "castle-sample" in page
    response = organizer.get(f"/print/passports.pdf?player={a['id']}&lang=en")
    assert response.mimetype == "application/pdf"
    urls = qr_urls_per_page(response.get_data())
    assert urls == [[f"http://localhost/p/{a['passport_token']}"]]
    assert '<b>Vera</b> "V"' in page_texts(response.get_data())[0]


def test_print_page_deck_and_refusals(organizer):
    response = organizer.get("/print/deck.pdf?name=coup&backs=1&offset_x=0.5&offset_y=-0.5")
    assert response.mimetype == "application/pdf"
    # 27 cards: three face pages, each followed by its back page.
    assert len(page_sizes_pt(response.get_data())) == 6
    bad = organizer.get("/print/deck.pdf?name=nope")
    assert bad.status_code == 422 and "no deck named" in bad.get_data(as_text=True)
    far = organizer.get("/print/deck.pdf?name=coup&backs=1&offset_x=40")
    assert far.status_code == 422
    assert "duplex offset must be between -10 and 10 mm" in far.get_data(as_text=True)


def test_print_page_with_no_players_says_so(organizer):
    response = organizer.get("/print/passports.pdf")
    assert response.status_code == 422
    assert "There are no players to print yet." in response.get_data(as_text=True)


def test_on_the_laptop_itself_passports_use_the_lan_address(app, organizer, db):
    # the organizer browses http://localhost; `referee serve` found the LAN address
    player = service.create(db, None, {"character": "Vera", "hp_max": 3, "chance_max": 2,
                                       "cartridges": 3, "suit": "H"})
    app.config["LAN_URL"] = "http://192.168.1.10:8080"
    page = organizer.get("/print/").get_data(as_text=True)
    assert "The QR codes lead to http://192.168.1.10:8080." in page
    assert 'id="local-base"' not in page
    pdf = organizer.get(f"/print/passports.pdf?player={player['id']}").get_data()
    assert qr_urls_per_page(pdf) == [[f"http://192.168.1.10:8080/p/{player['passport_token']}"]]


def test_a_loopback_address_is_a_warning_with_the_way_out(organizer, db):
    organizer.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = organizer.get("/print/").get_data(as_text=True)
    assert 'id="local-base"' in page and "телефоны его не откроют" in page
    assert 'href="/settings"' in page.split('id="local-base"')[1].split("</p>")[0]
    with write(db):
        settings.put(db, "public_url", "http://10.0.0.5:8080")
    page = organizer.get("/print/").get_data(as_text=True)
    assert 'id="local-base"' not in page and "http://10.0.0.5:8080" in page


@pytest.mark.parametrize(("url", "local"), [
    ("http://localhost/", True), ("http://127.0.0.1:8080", True), ("http://[::1]:80/", True),
    ("http://192.168.1.10:8080", False), ("http://referee.lan", False), ("", False)])
def test_is_loopback(url, local):
    assert is_loopback(url) is local


def test_an_organizer_prints_one_reissued_passport_from_the_sheet(organizer, db):
    player = service.create(db, None, {"character": "Vera", "hp_max": 3, "chance_max": 2,
                                       "cartridges": 3, "suit": "H"})
    fresh = service.reissue(db, None, player["id"])
    sheet = organizer.get(f"/players/{player['id']}").get_data(as_text=True)
    link = sheet.split('id="print-passport" href="')[1].split('"')[0]
    assert link == f"/print/passports.pdf?player={player['id']}"
    pdf = organizer.get(link).get_data()
    assert qr_urls_per_page(pdf) == [[f"http://localhost/p/{fresh['passport_token']}"]]


def test_a_referee_has_no_print_link_on_the_sheet(referee, player):
    sheet = referee.get(f"/players/{player['id']}").get_data(as_text=True)
    assert 'id="passport"' in sheet and 'id="print-passport"' not in sheet
