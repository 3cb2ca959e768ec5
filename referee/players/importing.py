"""Importing players from a CSV file: every row checked first, then all or nothing."""

from __future__ import annotations

import csv
import io

from sqlite_utils import Database

from referee.players import service as players
from referee.rules import N_, RuleError

COLUMNS = ("character", "player", "hp_max", "chance_max", "cartridges", "suit", "level", "notes")
REQUIRED = ("character", "hp_max", "chance_max", "cartridges", "suit")
MAX_ROWS = 5000

TEMPLATE_ROWS = [
    {"character": "Captain Vera", "player": "Anna", "hp_max": 3, "chance_max": 2,
     "cartridges": 3, "suit": "H", "level": 1, "notes": ""},
    {"character": "Штабс-капитан Орлов", "player": "Иван", "hp_max": 4, "chance_max": 1,
     "cartridges": 2, "suit": "♣", "level": 2, "notes": "medic"},
]


def template() -> str:
    """The CSV template organizers download: the header and two example rows."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(TEMPLATE_ROWS)
    return out.getvalue()


def decode(data: bytes) -> str:
    """UTF-8 (with or without a BOM), else Windows-1251 as Russian spreadsheets save it."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1251", errors="replace")


def parse(text: str) -> tuple[list[dict], list[tuple[int, RuleError]]]:
    """Cleaned players and every error, each with its line number in the file."""
    if not text.strip():
        return [], [(1, RuleError(None, N_("The file is empty: start from the template.")))]
    first = text.splitlines()[0]
    # Spreadsheets in Russian locales save with semicolons.
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    header = [(h or "").strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        return [], [(1, RuleError(None, N_("Missing columns: %(columns)s. Start from the "
                                          "template."), columns=", ".join(missing)))]
    reader.fieldnames = header
    cleaned, errors = [], []
    for row in reader:
        line = reader.line_num
        if len(cleaned) + len(errors) >= MAX_ROWS:
            errors.append((line, RuleError(None, N_("Too many rows: import at most %(n)s at "
                                                    "a time."), n=MAX_ROWS)))
            break
        if not any((v or "").strip() for k, v in row.items() if k):
            continue
        data = {k: (v or "").strip() for k, v in row.items() if k in COLUMNS}
        try:
            cleaned.append(players.clean(data))
        except RuleError as err:
            errors.append((line, err))
    if not cleaned and not errors:
        errors.append((1, RuleError(None, N_("The file has no players below the header."))))
    return cleaned, errors


def import_players(db: Database, referee_id: int | None, data: bytes
                   ) -> tuple[list[dict], list[tuple[int, RuleError]]]:
    """Import every row, or none if any row is wrong (then the errors come back)."""
    cleaned, errors = parse(decode(data))
    if errors:
        return [], errors
    return players.create_many(db, referee_id, cleaned, kind="import"), []
