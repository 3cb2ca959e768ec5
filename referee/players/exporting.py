"""Exporting players to CSV: the import's columns first, so a file can seed the next
event, then the live values and each passport's link."""

from __future__ import annotations

import csv
import io

from sqlite_utils import Database

from referee.players import importing
from referee.printing.links import passport_url
from referee.store import players

LIVE = ("id", "hp", "chance", "status", "duel_deck", "passport_url")
COLUMNS = importing.COLUMNS + LIVE


def _cell(value: object) -> object:
    # A cell starting with "=", "+", "-" or "@" is a formula to a spreadsheet:
    # "=HYPERLINK(…)" typed as a character's name must stay text when an organizer opens
    # the file; the import takes the guard off again (importing.FORMULA).
    if isinstance(value, str) and value.startswith(importing.FORMULA):
        return "'" + value
    return "" if value is None else value


def players_csv(db: Database, base_url: str) -> str:
    """Every player, by character name; UTF-8 with a BOM so spreadsheets read Cyrillic."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for row in players.search(db, "", limit=1_000_000):
        record = {key: row[key] for key in COLUMNS if key in row}
        record["passport_url"] = passport_url(base_url, row["passport_token"])
        writer.writerow({key: _cell(value) for key, value in record.items()})
    return "\ufeff" + out.getvalue()
