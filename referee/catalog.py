"""The Russian catalog: find every translatable string, check it, compile it.

Every .po file in translations/ru/LC_MESSAGES is one part of the catalog (messages.po
for the app, one file per game engine); they compile together into messages.mo, which
Flask-Babel loads. Run `python -m referee.catalog` after changing strings: it lists
what lacks Russian and recompiles.
"""

from __future__ import annotations

import io
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
RU = PACKAGE / "translations" / "ru" / "LC_MESSAGES"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "N_": None}
METHODS = [("**.py", "python"), ("**.html", "jinja2")]


def extract() -> dict[str, list[str]]:
    """Every msgid in the code and templates, with where it was found."""
    found: dict[str, list[str]] = {}
    for folder in (PACKAGE, ROOT / "templates"):
        if not folder.exists():
            continue
        for filename, lineno, message, _comments, _ctx in extract_from_dir(
            str(folder), METHODS, keywords=KEYWORDS,
            options_map={"**.html": {"extensions": "jinja2.ext.do"}},
        ):
            ids = message if isinstance(message, tuple) else (message,)
            for msgid in ids[:1]:
                if msgid:
                    found.setdefault(msgid, []).append(f"{folder.name}/{filename}:{lineno}")
    return found


def load() -> Catalog:
    """All Russian parts merged into one catalog."""
    # Fixed dates keep the compiled file byte-for-byte reproducible.
    fixed = datetime(2026, 1, 1, tzinfo=UTC)
    merged = Catalog(locale="ru", domain="messages", project="Referee",
                     creation_date=fixed, revision_date=fixed)
    for path in sorted(RU.glob("*.po")):
        with path.open("rb") as f:
            part = read_po(f, locale="ru")
        for message in part:
            text = message.string
            if message.id and (any(text) if isinstance(text, list | tuple) else text):
                merged.add(message.id, message.string)
    return merged


def compiled() -> bytes:
    """The .mo bytes the merged catalog compiles to."""
    out = io.BytesIO()
    write_mo(out, load())
    return out.getvalue()


def missing() -> dict[str, list[str]]:
    """Strings in the code with no Russian translation."""
    catalog = load()
    return {msgid: where for msgid, where in extract().items()
            if not ((message := catalog.get(msgid)) and message.string)}


def main() -> int:
    """List untranslated strings and recompile messages.mo."""
    gaps = missing()
    for msgid, where in sorted(gaps.items()):
        print(f"{where[0]}: {msgid!r}")
    (RU / "messages.mo").write_bytes(compiled())
    print(f"{len(gaps)} untranslated; wrote {RU / 'messages.mo'}", file=sys.stderr)
    return 1 if gaps else 0


if __name__ == "__main__":
    raise SystemExit(main())
