"""Importing players from a CSV file: every row checked first, then all or nothing."""

from __future__ import annotations

import csv
import io

from sqlite_utils import Database

from referee.players import service
from referee.rules import N_, RuleError
from referee.rules.text import refusal, storable

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


# The encodings an organizer may choose for a file that is not UTF-8 (what spreadsheets
# save: Russian, then Western Windows). Never guessed: "José" read as Windows-1251 is
# "Josй", and nothing in the bytes tells the two apart.
ENCODINGS = {"utf-8": "UTF-8", "cp1251": "Windows-1251", "cp1252": "Windows-1252"}
NOT_UTF8 = N_("This file is not UTF-8. Choose the encoding it was saved in "
              "(Windows-1251 for a Russian spreadsheet) and import it again.")
WRONG_ENCODING = N_("This file cannot be read as %(encoding)s: choose another encoding.")
# export.py guards a cell starting with one of these by a leading "'", so a spreadsheet
# keeps it as text; the import takes exactly that "'" away again.
FORMULA = ("=", "+", "-", "@", "\t", "\r", "'")


BINARY = N_("This is not a CSV file the app can read: it holds binary data, not text. "
            "Save the spreadsheet as CSV, or start from the template.")
CELL_TOO_LONG = N_("This is not a CSV file the app can read: a cell is longer than %(n)s "
                   "characters. Shorten it, or start from the template.")
NOT_CSV = N_("This is not a CSV file the app can read: its quotes or lines are broken. "
             "Save the spreadsheet as CSV again, or start from the template.")


def decode(data: bytes, encoding: str | None = None) -> str:
    """The file's text: UTF-8 (with or without a BOM) unless the organizer chose another
    of ENCODINGS; a RuleError saying what to do when it does not read as that."""
    if encoding not in (None, "", *ENCODINGS):
        raise RuleError(None, WRONG_ENCODING, encoding=str(encoding)[:20])
    chosen = encoding or "utf-8"
    try:
        return data.decode("utf-8-sig" if chosen == "utf-8" else chosen)
    except UnicodeDecodeError:
        if not encoding:
            raise RuleError(None, NOT_UTF8) from None
        raise RuleError(None, WRONG_ENCODING, encoding=ENCODINGS[chosen]) from None


def unguarded(value: str) -> str:
    """A cell as the export wrote it, back to the value (see FORMULA)."""
    return value[1:] if value[:1] == "'" and value[1:2] in FORMULA else value


def parse(text: str) -> tuple[list[dict], list[tuple[int, RuleError]]]:
    """Cleaned players and every error, each with its line number in the file."""
    if not text.strip():
        return [], [(1, RuleError(None, N_("The file is empty: start from the template.")))]
    first = text.splitlines()[0]
    # Spreadsheets in Russian locales save with semicolons.
    delimiter = ";" if first.count(";") > first.count(",") else ","
    if "\x00" in first:  # binary, not text (UTF-16 read as UTF-8 has NULs everywhere)
        return [], [(1, RuleError(None, BINARY))]
    try:
        return _rows(text, delimiter)
    except csv.Error as err:
        # the csv module's own words are English and technical: say it in ours
        if "field limit" in str(err):
            return [], [(1, RuleError(None, CELL_TOO_LONG, n=csv.field_size_limit()))]
        return [], [(1, RuleError(None, NOT_CSV))]


def _rows(text: str, delimiter: str) -> tuple[list[dict], list[tuple[int, RuleError]]]:
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    header = [(h or "").strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        return [], [(1, RuleError(None, N_("Missing columns: %(columns)s. Start from the "
                                          "template."), columns=", ".join(missing)))]
    reader.fieldnames = header
    cleaned: list[dict] = []
    errors: list[tuple[int, RuleError]] = []
    for row in reader:
        line = reader.line_num
        if len(cleaned) + len(errors) >= MAX_ROWS:
            errors.append((line, RuleError(None, N_("Too many rows: import at most %(n)s at "
                                                    "a time."), n=MAX_ROWS)))
            break
        if not any((v or "").strip() for k, v in row.items() if k):
            continue
        data = {k: unguarded((v or "").strip()) for k, v in row.items() if k in COLUMNS}
        # A NUL in a cell that would be stored is refused by line and column,
        # never stripped. (A strict decode leaves no lone surrogate: it refuses the file.)
        broken = next((k for k, v in data.items() if not storable(v)), None)
        if broken is not None:
            errors.append((line, refusal(broken)))
            continue
        try:
            cleaned.append(service.clean(data))
        except RuleError as err:
            errors.append((line, err))
    if not cleaned and not errors:
        errors.append((1, RuleError(None, N_("The file has no players below the header."))))
    return cleaned, errors


def import_players(db: Database, referee_id: int | None, data: bytes,
                   encoding: str | None = None
                   ) -> tuple[list[dict], list[tuple[int, RuleError]]]:
    """Import every row, or none if any row is wrong (then the errors come back)."""
    try:
        text = decode(data, encoding)
    except RuleError as err:
        return [], [(1, err)]
    cleaned, errors = parse(text)
    if errors:
        return [], errors
    return service.create_many(db, referee_id, cleaned, kind="import"), []
