"""Importing a JoinRPG project: its CSV, its XLSX, or the JSON an organizer saved
from its API, read into characters; the organizer's mapping of JoinRPG's fields to ours;
then a plan (players to add, changes to players imported before, characters left out)
that is applied all at once or not at all.

The JSON file shape (one object)::

    {"fields": [{"ProjectFieldId": 11, "FieldName": "Хиты"}, ...],
     "characters": [{"CharacterId": 7, "CharacterName": "Орлов", "IsActive": true,
                     "BusyStatus": "HasPlayer",
                     "Fields": [{"ProjectFieldId": 11, "Value": "4", "DisplayString": "4"}],
                     "PlayerInfo": {"PlayerDisplayName": "Иван"}}, ...]}

``fields`` is the ``Fields`` list of ``/x-game-api/{project}/metadata/fields`` (the whole
answer, an object with ``Fields``, is taken too); ``characters`` the ``CharacterInfo``
documents of ``/characters/{id}``. Contact details are never read into a player.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from dataclasses import dataclass, field

from sqlite_utils import Database

from referee.players import service
from referee.players.importing import BINARY, NOT_CSV, unguarded
from referee.rules import N_, RuleError
from referee.rules.text import refusal, storable
from referee.store import settings, write

MAPPING_KEY = "joinrpg_mapping"  # the last mapping applied, remembered for the next import
OURS = ("hp_max", "chance_max", "cartridges", "suit", "level", "notes")
# The names a JoinRPG field is suggested by, lower case, Russian and English.
SUGGEST = {
    "hp_max": ("хиты", "хп", "hp", "хиты (максимум)", "hit points", "hits", "здоровье"),
    "chance_max": ("шанс", "жетоны шанса", "шансы", "chance", "chance tokens"),
    "cartridges": ("патроны", "cartridges", "ammo", "пули"),
    "suit": ("масть", "suit"),
    "level": ("уровень", "level"),
    "notes": ("заметки", "примечания", "notes"),
}
# Columns of the character list that are not project fields; «Игрок.*» and contacts
# are never offered for mapping, so an e-mail cannot end up in notes.
CHARACTER, BUSY, PLAYER = "персонаж", "занят?", "игрок"
NOT_FIELDS = {CHARACTER, BUSY, PLAYER, "группы", "входит в группы", "ответственный мастер",
              "вк", "телеграм", "телефон", "email", "e-mail", "skype", "livejournal"}
YES = {"да", "yes", "true", "1", "занят", "+"}
CHARACTER_URL = re.compile(r"/character/(\d+)")
XLSX_MAGIC = b"PK\x03\x04"

NOT_JOINRPG = N_("This is not a JoinRPG character list: it has no «Персонаж» column. "
                 "Export the character list from JoinRPG again.")
NOT_JSON = N_("This JSON file is not a saved JoinRPG project: it must be an object with "
              "\"fields\" and \"characters\" (see the README).")


@dataclass
class Character:
    ref: str  # the line in the file, or "character <id>" in JSON
    id: str
    name: str
    player: str
    in_game: bool
    values: dict[str, str]


@dataclass
class Export:
    fields: list[str]
    characters: list[Character]


@dataclass
class Plan:
    new: list[dict] = field(default_factory=list)
    changes: list[tuple[dict, dict]] = field(default_factory=list)  # (player, {f: (b, a)})
    left_out: int = 0
    unchanged: int = 0
    errors: list[tuple[str, RuleError]] = field(default_factory=list)


def kind_of(data: bytes) -> str:
    """The format by content: "xlsx" (a zip), "json" (starts with { or [), else "csv"."""
    if data.startswith(XLSX_MAGIC):
        return "xlsx"
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"["):
        return "json"
    return "csv"


def is_joinrpg(data: bytes) -> bool:
    """Whether a file is JoinRPG's rather than our CSV template (its header has «Персонаж»)."""
    if kind_of(data) != "csv":
        return True
    first = data[:4096].decode("utf-8", "ignore").lstrip("\ufeff").split("\n", 1)[0]
    return CHARACTER in first.lower()


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def _table(header: list[str], body: list[tuple[int, list[str]]]) -> Export:
    names = [h.strip() for h in header]
    low = [h.lower() for h in names]
    if CHARACTER not in low:
        raise RuleError(None, NOT_JOINRPG)
    name_at = low.index(CHARACTER)
    url_at = next((i for i, h in enumerate(low) if h == CHARACTER and i != name_at), None)
    fields = [n for n, h in zip(names, low, strict=True)
              if n and h not in NOT_FIELDS and not h.startswith(PLAYER + ".")]
    characters = []
    for line, cells in body:
        cells = [unguarded(_text(c)) for c in cells] + [""] * (len(names) - len(cells))
        if not any(cells):
            continue
        url = cells[url_at] if url_at is not None else ""
        found = CHARACTER_URL.search(url)
        player = cells[low.index(PLAYER)] if PLAYER in low else ""
        busy = cells[low.index(BUSY)].lower() in YES if BUSY in low else bool(player)
        characters.append(Character(
            ref=str(line), id=found.group(1) if found else "",
            name=cells[name_at], player=player, in_game=busy and bool(player),
            values={n: cells[i] for i, n in enumerate(names) if n in fields}))
    return Export(fields, characters)


def _csv(data: bytes) -> Export:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RuleError(None, N_("This file is not UTF-8: export it from JoinRPG "
                                 "again.")) from None
    if "\x00" in text:
        raise RuleError(None, BINARY)
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, [])
        body = [(reader.line_num, row) for row in reader]
    except csv.Error:
        raise RuleError(None, NOT_CSV) from None
    return _table(header, body)


def _xlsx(data: bytes) -> Export:
    from openpyxl import load_workbook

    try:
        sheet = load_workbook(io.BytesIO(data), read_only=True, data_only=True).worksheets[0]
        rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, IndexError):
        raise RuleError(None, N_("This Excel file cannot be read: save it from JoinRPG "
                                 "again.")) from None
    if not rows:
        raise RuleError(None, NOT_JOINRPG)
    return _table([_text(h) for h in rows[0]], list(enumerate(rows[1:], start=2)))


def _json(data: bytes) -> Export:
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        raise RuleError(None, NOT_JSON) from None
    meta = doc.get("fields") if isinstance(doc, dict) else None
    if isinstance(meta, dict):  # the whole /metadata/fields answer
        meta = meta.get("Fields")
    chars = doc.get("characters") if isinstance(doc, dict) else None
    if not isinstance(meta, list) or not isinstance(chars, list) or not all(
            isinstance(m, dict) for m in meta) or not all(isinstance(c, dict) for c in chars):
        raise RuleError(None, NOT_JSON)
    names = {str(m.get("ProjectFieldId")): _text(m.get("FieldName")) for m in meta}
    characters = []
    for doc_char in chars:
        cid = _text(doc_char.get("CharacterId"))
        info = doc_char.get("PlayerInfo") or {}
        player = _text(info.get("PlayerDisplayName")) if isinstance(info, dict) else ""
        values = {}
        listed = doc_char.get("Fields")
        for f in listed if isinstance(listed, list) else []:
            if isinstance(f, dict) and str(f.get("ProjectFieldId")) in names:
                shown = f.get("DisplayString")
                values[names[str(f["ProjectFieldId"])]] = _text(
                    f.get("Value") if shown in (None, "") else shown)
        busy = doc_char.get("BusyStatus", "HasPlayer") in ("HasPlayer", None)
        characters.append(Character(
            ref=f"character {cid}" if cid else "?", id=cid,
            name=_text(doc_char.get("CharacterName")), player=player,
            in_game=bool(player) and busy and doc_char.get("IsActive", True) is not False,
            values=values))
    return Export([n for n in names.values() if n], characters)


def read(data: bytes) -> Export:
    """The characters of a JoinRPG file, whichever of the three it is (RuleError if none)."""
    return {"xlsx": _xlsx, "json": _json, "csv": _csv}[kind_of(data)](data)


def suggest(fields: list[str]) -> dict[str, str]:
    """Our field -> the JoinRPG field whose name says it (Russian or English)."""
    out = {}
    for ours, words in SUGGEST.items():
        hit = next((f for f in fields if f.strip().lower() in words), None)
        if hit:
            out[ours] = hit
    return out


def mapping_for(db: Database, export: Export, given: dict[str, str]) -> dict[str, str]:
    """The suggestions, then the mapping remembered from the last import (where the file
    has those fields), then the organizer's own choices."""
    try:
        kept = json.loads(settings.get(db, MAPPING_KEY) or "{}")
    except ValueError:
        kept = {}
    kept = {k: v for k, v in kept.items() if k in OURS and v in export.fields}
    return {**suggest(export.fields), **kept, **given}


def check_mapping(export: Export, mapping: dict[str, str]) -> None:
    """A RuleError for a mapping that names a field we or the file do not have."""
    for ours, theirs in mapping.items():
        if ours not in OURS:
            raise RuleError(None, N_("%(name)s is not one of our fields (%(ours)s)."),
                            name=ours, ours=", ".join(OURS))
        if theirs not in export.fields:
            raise RuleError(None, N_("There is no field «%(name)s» in this file."), name=theirs)


def plan(db: Database, export: Export, mapping: dict[str, str],
         include_all: bool = False) -> Plan:
    """What an import would do: new players, changes to known ones, and every bad row."""
    out = Plan()
    known = {r["joinrpg_id"]: r for r in db.query(
        "SELECT * FROM players WHERE joinrpg_id IS NOT NULL")}
    seen: set[str] = set()
    for char in export.characters:
        if not char.in_game and not include_all:
            out.left_out += 1
            continue
        data = {"character": char.name, "player": char.player,
                **{ours: char.values.get(theirs, "") for ours, theirs in mapping.items()}}
        broken = next((k for k, v in data.items() if not storable(v)), None)
        try:
            if broken is not None:
                raise refusal(broken)
            if not char.id or char.id in seen:
                raise RuleError(None, N_("The character has no JoinRPG id (the second "
                                         "«Персонаж» column, its URL)."))
            seen.add(char.id)
            row = known.get(char.id)
            if row is None:
                out.new.append({**service.clean(data), "joinrpg_id": char.id})
                continue
            # A known character: names and maximums only; live values are the game's.
            fields = service.clean({k: v for k, v in data.items()
                                    if k in ("character", "player", "hp_max", "chance_max")
                                    and v != ""}, partial=True)
        except RuleError as err:
            out.errors.append((char.ref, err))
            continue
        changed = {k: (row[k], v) for k, v in fields.items() if row[k] != v}
        if changed:
            out.changes.append((row, changed))
        else:
            out.unchanged += 1
    return out


def apply(db: Database, referee_id: int | None, todo: Plan,
          mapping: dict[str, str] | None = None) -> list[dict]:
    """Add the new players and record each change as an edit event, all in one write;
    the mapping is remembered for the next import."""
    if todo.errors:
        raise RuleError(None, N_("Nothing was imported: correct the rows listed."))
    with write(db):
        if mapping is not None:
            settings.put(db, MAPPING_KEY, json.dumps(mapping, ensure_ascii=False,
                                                           sort_keys=True))
        created = service.create_in_write(db, referee_id, todo.new, kind="import")
        for row, changed in todo.changes:
            service.edit_in_write(db, referee_id, row["id"],
                                  {k: after for k, (_, after) in changed.items()},
                                  reason="JoinRPG")
    return created
