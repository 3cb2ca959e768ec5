"""Pure game rules: state in, action in, new state out.

Nothing under this package may import Flask, sqlite, the store or the web layer, read
the clock or draw random numbers. Chance (cards, dice) arrives as data.
"""

from __future__ import annotations

import re


def N_(message: str) -> str:
    """Mark a message for translation without translating it here (Babel keyword)."""
    return message


class RuleError(Exception):
    """An action the rules forbid.

    ``rule`` is the stable id from ``shared/rules/*.md`` (e.g. ``"D7"``), or None for a
    plain bound such as "level 1–10" that no game rule names. ``message`` is
    an English sentence marked with ``N_`` whose ``%(name)s`` placeholders are filled
    from ``params``; the web layer translates it into the user's language first.
    """

    def __init__(self, rule: str | None, message: str, **params: object) -> None:
        self.rule = rule
        self.message = message
        self.params = params
        super().__init__(f"{rule}: {self.text}" if rule else self.text)

    @property
    def text(self) -> str:
        """The English sentence with its placeholders filled."""
        return self.message % self.params if self.params else self.message


_WHOLE = re.compile(r"[+-]?[0-9]{1,18}")


def whole(text: object, signed: bool = False) -> int | None:
    """``text`` as a whole number if it is one in plain digits (at most 18, so it fits
    SQLite), with a sign only when ``signed``; else None. ``str.isdigit`` is not enough:
    it takes "²" and "٣", which int() then refuses."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    if not _WHOLE.fullmatch(text) or (not signed and text[0] in "+-"):
        return None
    return int(text)


def whole_arg(text: object) -> int:
    """``whole(text, signed=True)`` for a request's ``.get(name, type=whole_arg)``: a value
    that is not one raises ValueError, so the lookup gives its default (None) instead of
    an int too large for SQLite."""
    number = whole(text, signed=True)
    if number is None:
        raise ValueError("not a whole number that fits")
    return number
