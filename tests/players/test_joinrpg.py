"""A JoinRPG project comes in from its CSV, its XLSX or its saved API
JSON; the organizer maps its fields to ours; a second import adds the new characters and
applies changed names and maximums as events, never touching live values."""

from __future__ import annotations

import io
import json
import re

import pytest
from openpyxl import Workbook

from referee import store
from referee.cli import main
from referee.players import joinrpg, service
from referee.rules import RuleError
from tests.conftest import post

URL = "https://joinrpg.ru/1234/character/"
HEADER = ["Персонаж", "Персонаж", "Занят?", "Группы", "Входит в группы",
          "Ответственный мастер", "Хиты", "Жетоны шанса", "Патроны", "Масть",
          "Игрок", "Игрок.SurName", "Игрок.Email", "ВК", "Телеграм"]
ROWS = [
    ["Штабс-капитан Орлов", URL + "101", "Да", "Офицеры | Штаб", "Все", "Мастер Оля",
     "4", "1", "2", "♣", "Иван", "Петров", "ivan@example.org", "vk.com/ivan", "@ivan"],
    ["Доктор Лемке", URL + "102", "Да", "Врачи", "Все", "Мастер Оля",
     "2", "3", "1", "бубны", "Анна", "Смирнова", "anna@example.org", "", "@anna"],
    ["Пустая роль", URL + "103", "Нет", "", "Все", "Мастер Оля",
     "3", "1", "1", "S", "", "", "", "", ""],
]
MAP = {"hp_max": "Хиты", "chance_max": "Жетоны шанса", "cartridges": "Патроны",
       "suit": "Масть"}


def joinrpg_csv(rows=ROWS, header=HEADER) -> bytes:
    """As JoinRPG writes it: commas, every non-empty value quoted, UTF-8 without a BOM."""
    def line(cells):
        return ",".join(f'"{c}"' if c != "" else "" for c in cells)
    return ("\r\n".join(line(r) for r in [header, *rows]) + "\r\n").encode("utf-8")


def joinrpg_xlsx(rows=ROWS) -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.append(HEADER)
    for row in rows:  # numbers typed, as JoinRPG's Excel export has them
        sheet.append([int(c) if c.isdigit() else c for c in row])
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def joinrpg_json() -> bytes:
    fields = [{"ProjectFieldId": 11, "FieldName": "Хиты"},
              {"ProjectFieldId": 12, "FieldName": "Шанс"},
              {"ProjectFieldId": 13, "FieldName": "Патроны"},
              {"ProjectFieldId": 14, "FieldName": "Масть"}]

    def character(cid, name, player, hp, busy="HasPlayer", active=True):
        return {"CharacterId": cid, "CharacterName": name, "IsActive": active,
                "BusyStatus": busy,
                "Fields": [{"ProjectFieldId": 11, "Value": str(hp), "DisplayString": str(hp)},
                           {"ProjectFieldId": 12, "Value": "1", "DisplayString": "1"},
                           {"ProjectFieldId": 13, "Value": "2", "DisplayString": "2"},
                           {"ProjectFieldId": 14, "Value": "H", "DisplayString": "H"}],
                "PlayerInfo": player and {"PlayerDisplayName": player, "PlayerId": 5}}
    return json.dumps({"fields": fields, "characters": [
        character(201, "Вера", "Анна", 3), character(202, "NPC", None, 2, busy="Npc"),
        character(203, "Выбыл", "Олег", 2, active=False)]}, ensure_ascii=False).encode()


def test_csv_with_the_duplicate_character_header_is_read_and_contacts_dropped(db):
    data = joinrpg_csv()
    assert not data.startswith(b"\xef\xbb\xbf") and joinrpg.kind_of(data) == "csv"
    export = joinrpg.read(data)
    assert export.fields == ["Хиты", "Жетоны шанса", "Патроны", "Масть"]  # no contacts
    assert joinrpg.suggest(export.fields) == MAP
    todo = joinrpg.plan(db, export, MAP)
    assert todo.errors == [] and todo.left_out == 1  # the vacant role
    joinrpg.apply(db, 1, todo, MAP)
    got = db.query("SELECT * FROM players ORDER BY id")
    got = [(r["character"], r["player"], r["hp_max"], r["chance"], r["suit"],
            r["joinrpg_id"], r["notes"]) for r in got]
    assert got == [("Штабс-капитан Орлов", "Иван", 4, 1, "C", "101", ""),
                   ("Доктор Лемке", "Анна", 2, 3, "D", "102", "")]
    dump = "\n".join(str(r) for t in ("players", "events", "settings")
                     for r in db.query(f"SELECT * FROM {t}"))
    assert "example.org" not in dump and "@ivan" not in dump and "Петров" not in dump


def test_xlsx_with_typed_numbers_is_read_by_its_content(db):
    data = joinrpg_xlsx()
    assert joinrpg.kind_of(data) == "xlsx"
    todo = joinrpg.plan(db, joinrpg.read(data), MAP)
    assert todo.errors == [] and todo.left_out == 1
    assert [(n["character"], n["hp_max"], n["cartridges"], n["joinrpg_id"])
            for n in todo.new] == [("Штабс-капитан Орлов", 4, 2, "101"),
                                   ("Доктор Лемке", 2, 1, "102")]


def test_api_json_leaves_out_npcs_and_inactive_characters(db):
    data = joinrpg_json()
    assert joinrpg.kind_of(data) == "json"
    export = joinrpg.read(data)
    mapping = joinrpg.suggest(export.fields)
    assert mapping == {"hp_max": "Хиты", "chance_max": "Шанс", "cartridges": "Патроны",
                       "suit": "Масть"}
    todo = joinrpg.plan(db, export, mapping)
    assert todo.left_out == 2 and todo.errors == []
    joinrpg.apply(db, 1, todo, mapping)
    assert [(r["character"], r["player"], r["hp_max"], r["joinrpg_id"])
            for r in db.query("SELECT * FROM players")] == [("Вера", "Анна", 3, "201")]


def test_reimport_adds_the_new_and_changes_maximums_but_never_live_values(db):
    joinrpg.apply(db, 1, joinrpg.plan(db, joinrpg.read(joinrpg_csv()), MAP), MAP)
    orlov = next(db.query("SELECT * FROM players WHERE joinrpg_id = '101'"))
    # in play: Orlov is hit and spends a cartridge and a chance
    service.adjust(db, 1, orlov["id"], {"hp": -1, "cartridges": -1, "chance": -1})
    updated = [list(r) for r in ROWS]
    updated[0][0], updated[0][6] = "Полковник Орлов", "6"  # renamed, more HP max
    updated[0][8] = "9"  # cartridges changed in JoinRPG: a live value, left alone
    updated.append(["Новичок", URL + "104", "Да", "", "", "", "3", "1", "1", "S",
                    "Пётр", "", "", "", ""])
    todo = joinrpg.plan(db, joinrpg.read(joinrpg_csv(updated)), MAP)
    assert [n["character"] for n in todo.new] == ["Новичок"]
    assert [(row["joinrpg_id"], changed) for row, changed in todo.changes] == [
        ("101", {"character": ("Штабс-капитан Орлов", "Полковник Орлов"), "hp_max": (4, 6)})]
    assert todo.unchanged == 1 and todo.left_out == 1
    joinrpg.apply(db, 1, todo, MAP)
    after = next(db.query("SELECT * FROM players WHERE joinrpg_id = '101'"))
    assert (after["character"], after["hp_max"]) == ("Полковник Орлов", 6)
    assert (after["hp"], after["cartridges"], after["chance"]) == (3, 1, 0)  # live, kept
    assert db["players"].count == 3
    kinds = [r["kind"] for r in db.query(
        "SELECT kind FROM events WHERE player_id = ? ORDER BY id", [orlov["id"]])]
    assert kinds == ["import", "adjust", "edit"]
    # the same file again changes nothing twice
    again = joinrpg.plan(db, joinrpg.read(joinrpg_csv(updated)), MAP)
    assert again.new == [] and again.changes == [] and again.unchanged == 3


def test_bad_rows_are_listed_by_line_and_nothing_is_imported(db):
    bad = [list(r) for r in ROWS]
    bad[1][6] = "много"  # line 3: HP is not a number
    bad[0][9] = "Q"      # line 2: no such suit
    todo = joinrpg.plan(db, joinrpg.read(joinrpg_csv(bad)), MAP)
    assert [ref for ref, _ in todo.errors] == ["2", "3"]
    assert todo.errors[0][1].rule == "D3"
    assert "whole number" in todo.errors[1][1].text
    with pytest.raises(RuleError, match="Nothing was imported"):
        joinrpg.apply(db, 1, todo, MAP)
    assert db["players"].count == 0


def test_cli_imports_a_joinrpg_file_with_map_and_remembers_it(tmp_path, capsys):
    path = str(tmp_path / "j.db")
    assert main(["init", "--db", path]) == 0
    renamed = [h if h != "Хиты" else "Здоровье персонажа" for h in HEADER]
    file = tmp_path / "characters.txt"  # the name says nothing: the content does
    file.write_bytes(joinrpg_csv(header=renamed))
    assert main(["import-players", str(file), "--db", path, "--map", "hp_max=Нет такого"]) == 2
    assert "Нет такого" in capsys.readouterr().err
    assert main(["import-players", str(file), "--db", path,
                 "--map", 'hp_max="Здоровье персонажа"']) == 0
    out = capsys.readouterr().out
    assert "Imported 2 new players" in out and "1 not in the game left out" in out
    db = store.connect(path)
    assert [r["hp_max"] for r in db.query("SELECT hp_max FROM players ORDER BY id")] == [4, 2]
    # the mapping is remembered: the next import of the same export needs no --map
    assert main(["import-players", str(file), "--db", path]) == 0
    assert "0 new players, 0 changed, 2 unchanged" in capsys.readouterr().out


def test_cli_bad_joinrpg_row_is_refused_by_line(tmp_path, capsys):
    path = str(tmp_path / "j.db")
    assert main(["init", "--db", path]) == 0
    bad = [list(r) for r in ROWS]
    bad[0][6] = "0"
    file = tmp_path / "x.csv"
    file.write_bytes(joinrpg_csv(bad))
    assert main(["import-players", str(file), "--db", path]) == 2
    err = capsys.readouterr().err
    assert f"{file}:2: hp_max must be between 1 and 99." in err and "Nothing was imported" in err
    assert store.connect(path)["players"].count == 0


def test_import_page_shows_the_mapping_step_prefilled_then_imports(organizer, db):
    """Upload a JoinRPG XLSX: selects prefilled with the suggestions and a preview, nothing
    written yet; Import with the same key applies it."""
    page = post(organizer, "/players/import",
                {"file": (io.BytesIO(joinrpg_xlsx()), "export.bin")},
                content_type="multipart/form-data")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and db["players"].count == 0
    selected = dict(re.findall(r'name="map_(\w+)">.*?<option value="([^"]*)" selected',
                               html, re.DOTALL))
    assert selected == MAP
    assert "2 new characters, 0 changed, 0 unchanged; 1 not in the game" in html
    carried = re.search(r'name="joinrpg" value="([^"]+)"', html).group(1)
    key = re.search(r'name="once" value="([^"]+)"', html).group(1)
    form = {"joinrpg": carried, "once": key, "step": "import",
            **{f"map_{k}": v for k, v in MAP.items()}, "map_level": "", "map_notes": ""}
    done = post(organizer, "/players/import", form)
    assert done.status_code == 200 and "2 new, 0 changed" in done.get_data(as_text=True)
    assert sorted(r["joinrpg_id"] for r in db.query("SELECT joinrpg_id FROM players")) == [
        "101", "102"]
    again = post(organizer, "/players/import", form)  # the same key sent twice
    assert again.status_code == 303 and db["players"].count == 2


def test_import_page_lists_a_bad_joinrpg_row_in_russian(organizer, db):
    organizer.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    bad = [list(r) for r in ROWS]
    bad[1][6] = "много"
    page = post(organizer, "/players/import", {"file": (io.BytesIO(joinrpg_csv(bad)), "x")},
                content_type="multipart/form-data")
    assert page.status_code == 422 and db["players"].count == 0
    shown = re.findall(r"<li>(.*?)</li>", page.get_data(as_text=True))
    assert shown and shown[0].startswith("Строка 3: ")


def test_a_broken_file_is_refused_in_a_sentence_never_a_crash(db):
    cases = {b"PK\x03\x04not a workbook":
             "This Excel file cannot be read: save it from JoinRPG again.",
             b"[1, 2]": joinrpg.NOT_JSON,
             json.dumps({"fields": [], "characters": [{"Fields": 5}]}).encode(): None,
             '"Имя","Хиты"\r\n"Вера","3"\r\n'.encode(): joinrpg.NOT_JOINRPG}
    for data, message in cases.items():
        if message is None:  # odd but readable: the character is refused by its id
            todo = joinrpg.plan(db, joinrpg.read(data), {}, include_all=True)
            assert [ref for ref, _ in todo.errors] == ["?"]
            continue
        with pytest.raises(RuleError) as refused:
            joinrpg.read(data)
        assert refused.value.message == message
