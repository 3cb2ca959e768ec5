"""CSV import: every error listed by line, and all rows or none."""

from __future__ import annotations

import io
import re

import pytest

from referee.players import importing
from tests.conftest import post

GOOD = ("character,player,hp_max,chance_max,cartridges,suit,level,notes\r\n"
        "Vera,Anna,3,2,3,H,1,\r\n"
        "Орлов,Иван,4,1,2,♣,2,medic\r\n")


def test_template_round_trips_through_the_importer():
    cleaned, errors = importing.parse(importing.template())
    assert errors == []
    assert [c["character"] for c in cleaned] == ["Captain Vera", "Штабс-капитан Орлов"]
    assert cleaned[1]["suit"] == "C"


def test_good_file_imports_every_row_with_events(db):
    created, errors = importing.import_players(db, 1, GOOD.encode())
    assert errors == []
    assert [r["character"] for r in created] == ["Vera", "Орлов"]
    kinds = [r[0] for r in db.execute("SELECT kind FROM events WHERE player_id IS NOT NULL")]
    assert kinds == ["import", "import"]


def test_every_bad_row_is_listed_and_nothing_is_imported(db):
    text = ("character,player,hp_max,chance_max,cartridges,suit\n"
            "Good,,3,1,1,S\n"
            ",,3,1,1,S\n"           # line 3: no character
            "Bad hp,,zero,1,1,S\n"  # line 4
            "Bad suit,,3,1,1,Q\n")  # line 5
    created, errors = importing.import_players(db, 1, text.encode())
    assert created == []
    assert [line for line, _ in errors] == [3, 4, 5]
    assert "required" in errors[0][1].text
    assert "whole number" in errors[1][1].text
    assert errors[2][1].rule == "D3"
    assert db["players"].count == 0


def test_semicolons_and_windows_1251_from_russian_spreadsheets(db):
    text = "character;hp_max;chance_max;cartridges;suit\nДоктор Лемке;2;3;1;бубны\n"
    # Not UTF-8: the organizer is asked for the encoding, never guessed at.
    created, errors = importing.import_players(db, 1, text.encode("cp1251"))
    assert created == [] and errors[0][1].message == importing.NOT_UTF8
    assert db["players"].count == 0
    created, errors = importing.import_players(db, 1, text.encode("cp1251"), "cp1251")
    assert errors == []
    assert (created[0]["character"], created[0]["suit"]) == ("Доктор Лемке", "D")


def test_a_latin_1_file_is_not_read_as_russian(db):
    """A Windows-1252 file is refused until its encoding is named; then "José" stays
    "José", never "Josй"."""
    text = "character,hp_max,chance_max,cartridges,suit\nJosé,2,1,1,S\n".encode("cp1252")
    assert importing.import_players(db, 1, text)[1][0][1].message == importing.NOT_UTF8
    created, errors = importing.import_players(db, 1, text, "cp1252")
    assert errors == [] and created[0]["character"] == "José"
    wrong = b"character,hp_max,chance_max,cartridges,suit\nA\x81,2,1,1,S\n"  # no such byte
    assert "cannot be read as Windows-1252" in \
        importing.import_players(db, 1, wrong, "cp1252")[1][0][1].text


@pytest.mark.parametrize(("data", "said", "russian"), [
    (b"character,hp_max\x00,chance_max,cartridges,suit\nA,1\n", "binary data, not text",
     "двоичные данные"),
    (b"character,hp_max,chance_max,cartridges,suit\n" + b"A" * 140_000 + b",1,1,1,S\n",
     "a cell is longer than 131072 characters", "ячейка длиннее 131072 символов"),
], ids=["binary", "huge-cell"])
def test_binary_garbage_or_a_huge_cell_is_refused_with_a_sentence(app, db, data, said,
                                                                  russian):
    from flask_babel import force_locale

    from referee.web.i18n import rule_message

    created, errors = importing.import_players(db, 1, data)
    assert created == [] and "not a CSV file the app can read" in errors[0][1].text
    assert said in errors[0][1].text
    assert db["players"].count == 0
    # in Russian the whole sentence is Russian: no English words of the csv module
    with app.test_request_context(), force_locale("ru"):
        text = rule_message(errors[0][1])
    assert russian in text and not re.search(r"[A-Za-z]{3,}", text.replace("CSV", "")), text


def test_missing_columns_and_empty_files():
    assert "Missing columns: hp_max" in importing.parse("character,chance_max,cartridges,suit\n"
                                                        )[1][0][1].text
    assert importing.parse("")[1][0][1].text.startswith("The file is empty")
    assert "no players" in importing.parse("character,hp_max,chance_max,cartridges,suit\n"
                                           )[1][0][1].text


def test_only_organizers_import(referee, db):
    data = {"file": (io.BytesIO(GOOD.encode()), "p.csv")}
    assert post(referee, "/players/import", data,
                content_type="multipart/form-data").status_code == 403
    assert referee.get("/players/import").status_code == 403
    assert "/players/import" not in referee.get("/").get_data(as_text=True)
    assert db["players"].count == 0


def test_import_page_lists_errors_by_line(organizer, db):
    referee = organizer
    data = {"file": (io.BytesIO(b"character,hp_max,chance_max,cartridges,suit\nX,0,1,1,S\n"),
                     "p.csv")}
    response = post(referee, "/players/import", data, content_type="multipart/form-data")
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Nothing was imported." in html and "Line 2:" in html
    assert db["players"].count == 0
    ok = post(referee, "/players/import", {"file": (io.BytesIO(GOOD.encode()), "p.csv")},
              content_type="multipart/form-data")
    assert ok.status_code == 200 and "2 players imported." in ok.get_data(as_text=True)
    assert db["players"].count == 2


def test_template_download(referee):
    response = referee.get("/players/import/template.csv")
    assert response.mimetype == "text/csv"
    assert response.get_data(as_text=True).startswith("character,player,hp_max")


NUL_CELL = ("character,player,hp_max,chance_max,cartridges,suit,level,notes\r\n"
            "Орлов,Иван,4,1,2,♣,2,medic\r\n"
            "Кощей,Пётр,3,1,1,H,1,Бессмерт\x00ный\r\n")


@pytest.mark.parametrize(("encoding", "chosen"), [("utf-8", ""), ("cp1251", "cp1251")],
                         ids=["utf-8", "windows-1251"])
@pytest.mark.parametrize(("language", "said"), [
    ("en", ("Line 3: Notes contains a character that cannot be stored (NUL or a broken "
            "Unicode surrogate); retype it.")),
    ("ru", ("Строка 3: Заметки: есть символ, который нельзя сохранить (NUL или сломанный "
            "суррогат Юникода); наберите текст заново.")),
], ids=["en", "ru"])
def test_a_nul_in_a_csv_cell_is_named_by_line_and_column_and_nothing_imported(
        organizer, db, encoding, chosen, language, said):
    """Free text too is refused, not stripped, whatever the file's
    encoding (a NUL in the header line still reads as a binary file)."""
    organizer.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    version = db.execute("PRAGMA data_version").fetchone()[0]
    upload = {"file": (io.BytesIO(NUL_CELL.replace("♣", "C").encode(encoding)), "p.csv"),
              "encoding": chosen}
    response = post(organizer, "/players/import", upload, content_type="multipart/form-data")
    assert response.status_code == 422
    shown = re.findall(r"<li>(.*?)</li>", response.get_data(as_text=True))
    assert shown == [said]
    assert db["players"].count == 0
    assert db.execute("PRAGMA data_version").fetchone()[0] == version  # nothing written
    # An encoded surrogate in a UTF-8 file (bytes ED BF BF) never decodes into one: the
    # file is refused as not UTF-8.
    broken = post(organizer, "/players/import",
                  {"file": (io.BytesIO(GOOD.encode() + b"X\xed\xbf\xbf,,3,1,1,S,1,\r\n"),
                            "p.csv")}, content_type="multipart/form-data")
    assert broken.status_code == 422 and db["players"].count == 0
