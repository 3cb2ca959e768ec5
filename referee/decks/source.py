"""Reading a deck file: TOML in, plain tables out, and every complaint pinned to a line.

``tomllib`` reports the line of a syntax error but not where a parsed value came from, so
semantic errors are placed by scanning the raw text: the Nth ``[[cards]]`` header is the
Nth card, and a key's line is found inside that card's block.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

from referee.rules import N_, RuleError

_CARD_HEADER = re.compile(r"^\s*\[\[\s*cards\s*\]\]\s*(#.*)?$")
_ANY_HEADER = re.compile(r"^\s*\[")
_DECK_HEADER = re.compile(r"^\s*\[\s*deck\s*\]\s*(#.*)?$")
_BACK_HEADER = re.compile(r"^\s*\[\s*deck\s*\.\s*back\s*\]\s*(#.*)?$")
_TOML_LINE = re.compile(r"\s*\(at line (\d+), column \d+\)|\s*\(at end of document\)")


class DeckError(ValueError):
    """A deck file that cannot be used: ``path``, ``line`` (1-based) and ``parts``.

    Each part is a ``RuleError``: an English sentence marked with ``N_`` and its params
    (rule None), or an engine's refusal as it was raised (its rule id kept), so the web
    can show it in the organizer's language. ``str()`` reads like a compiler message,
    ``printables/decks/x.toml:12: card M07: …``, so an organizer can jump straight to
    the line; the CLI prints it in English.
    """

    def __init__(self, path: Path | str | None, line: int | None,
                 message: str | RuleError, *more: RuleError, **params: object) -> None:
        if isinstance(message, RuleError):
            if params:
                raise TypeError("params belong to a message, not to a RuleError")
            first = message
        else:
            first = RuleError(None, message, **params)
        self.path = Path(path) if path is not None else None
        self.line = line
        self.parts: tuple[RuleError, ...] = (first, *more)
        super().__init__(str(self))

    @property
    def message(self) -> str:
        """What is wrong, in English."""
        return " ".join(str(part) for part in self.parts)

    def describe(self, say: Callable[[RuleError], str] = str) -> str:
        """``where:line: what``, each part put into words by ``say`` (the web passes
        ``rule_message`` for the user's language)."""
        where = shown_path(self.path) if self.path is not None else "deck"
        what = " ".join(say(part) for part in self.parts)
        return f"{where}:{self.line}: {what}" if self.line else f"{where}: {what}"

    def __str__(self) -> str:
        return self.describe()


def shown_path(path: Path) -> str:
    """The path relative to the working folder when it lies inside it (shorter messages)."""
    try:
        return os.path.relpath(path) if Path.cwd() in path.resolve().parents else str(path)
    except (OSError, ValueError):
        return str(path)


class Locator:
    """Line numbers of the deck table, the cards and their keys in one file's text."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.cards = [n for n, line in enumerate(self.lines, 1) if _CARD_HEADER.match(line)]
        self.deck = next((n for n, line in enumerate(self.lines, 1)
                          if _DECK_HEADER.match(line)), 1)
        self.back = next((n for n, line in enumerate(self.lines, 1)
                          if _BACK_HEADER.match(line)), None)

    def _key(self, start: int, key: str) -> int | None:
        name = re.escape(key)
        pattern = re.compile(rf"""^\s*(?:{name}|"{name}"|'{name}')\s*=""")
        for n in range(start + 1, len(self.lines) + 1):
            line = self.lines[n - 1]
            if _ANY_HEADER.match(line):
                return None
            if pattern.match(line):
                return n
        return None

    def card(self, index: int, key: str | None = None) -> int:
        """The line of card ``index`` (0-based), or of its ``key`` when that is written."""
        if index >= len(self.cards):
            # cards written as an inline array: the best we can do is the array's line
            return self._key(0, "cards") or self.deck
        start = self.cards[index]
        return (self._key(start, key) if key else None) or start

    def top_key(self, key: str) -> int:
        """The line where a top-level key or table is written (1 if not found)."""
        pattern = re.compile(rf"^\s*(?:\[+\s*)?[\"']?{re.escape(key)}\b")
        return next((n for n, line in enumerate(self.lines, 1) if pattern.match(line)), 1)

    def deck_key(self, key: str | None = None) -> int:
        """The line of the ``[deck]`` table, or of one of its keys."""
        if key and key.startswith("back.") and self.back:
            return self._key(self.back, key.removeprefix("back.")) or self.back
        if key:
            return self._key(self.deck, key.split(".")[0]) or self.deck
        return self.deck


def read_bytes(path: Path) -> bytes:
    """The file's bytes; a file that cannot be read becomes a DeckError."""
    try:
        return path.read_bytes()
    except OSError as err:
        raise DeckError(path, None, N_("cannot read the file: %(reason)s"),
                        reason=err.strerror or str(err)) from None


def read(path: Path, raw: bytes | None = None) -> tuple[dict, Locator]:
    """Parse one file (or ``raw``, its bytes as read already); a syntax error becomes a
    DeckError carrying tomllib's line."""
    if raw is None:
        raw = read_bytes(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise DeckError(path, line, N_("the file must be saved as UTF-8 text")) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        found = _TOML_LINE.search(message)
        line = int(found.group(1)) if found and found.group(1) \
            else max(1, len(text.splitlines()))
        # tomllib words its complaint in English only; the frame around it is translated
        plain = _TOML_LINE.sub("", message).strip()
        if plain:
            raise DeckError(path, line, N_("TOML syntax: %(detail)s"), detail=plain) from None
        raise DeckError(path, line, N_("TOML syntax: not valid TOML")) from None
    return data, Locator(text)
