"""The PDF canvas: A4 in millimetres, the shipped DejaVu font, and text that always fits.

User text (names, card texts) is only ever written with ``FPDF.text``, which draws the
characters as they are: no markdown, no HTML, so ``<b>`` or ``**`` print literally. Every
box shrinks its text, then wraps it, then (at the smallest size) cuts it with an ellipsis,
so nothing ever runs off a card.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from fpdf import FPDF

from referee import assets

FONTS_DIR = assets.folder("printables") / "fonts"
FONT = "dejavu"
PT = 25.4 / 72  # millimetres per typographic point
ELLIPSIS = "…"
_AFTER_HYPHEN = re.compile(r"(?<=-)(?=[^-])")

Colour = tuple[int, int, int]
Parts = str | Sequence[tuple[str, Colour]]


class Canvas(FPDF):
    """An A4 page set in millimetres with the shipped fonts (Cyrillic and Latin)."""

    def __init__(self, title: str, page: tuple[float, float] | str = "A4") -> None:
        super().__init__(orientation="P", unit="mm", format=page)
        self.set_auto_page_break(False)
        self.set_margin(0)
        self.add_font(FONT, "", FONTS_DIR / "DejaVuSans.ttf")
        self.add_font(FONT, "B", FONTS_DIR / "DejaVuSans-Bold.ttf")
        self.set_title(title)
        self.set_creator("Referee")
        self.set_font(FONT, "", 10)
        # labels and names repeat on every passport and card: each box is measured once
        self.fits: dict[tuple, tuple[float, list[tuple[str, Colour, float]]]] = {}

    def raw(self, operators: str) -> None:
        """Append PDF drawing operators to the page.

        fpdf2 has no public call for this; one string of ``re`` operators is ~30× faster
        than a ``rect()`` call per QR module, which keeps 1,000 passports in seconds.
        """
        self._out(operators)


def new_pdf(title: str, page: tuple[float, float] | str = "A4") -> Canvas:
    """An empty document in millimetres (A4, or pages of ``page`` mm) with the fonts."""
    return Canvas(title, page)


def rgb(colour: str) -> tuple[int, int, int]:
    """``"#1f3a7a"`` → (31, 58, 122)."""
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def is_dark(colour: tuple[int, int, int]) -> bool:
    """Whether white text reads better than black on this colour."""
    r, g, b = colour
    return 0.299 * r + 0.587 * g + 0.114 * b < 150


def mix(colour: tuple[int, int, int], white: float) -> tuple[int, int, int]:
    """The colour lightened towards white by the fraction ``white`` (a tint)."""
    return tuple(round(c + (255 - c) * white) for c in colour)  # type: ignore[return-value]


def _break_word(pdf: FPDF, word: str, width: float) -> list[str]:
    pieces, current = [], ""
    for char in word:
        if current and pdf.get_string_width(current + char) > width:
            pieces.append(current)
            current = char
        else:
            current += char
    return pieces + [current] if current else pieces


def _units(paragraph: str) -> list[tuple[str, bool]]:
    """Wrap units: words, and the parts of a hyphenated word (a line may end after its
    hyphen); the flag says whether a space comes before the unit."""
    units: list[tuple[str, bool]] = []
    for word in paragraph.split():
        parts = _AFTER_HYPHEN.split(word)
        units.extend((part, i == 0) for i, part in enumerate(parts))
    return units


def wrap(pdf: FPDF, text: str, width: float, limit: int = 0) -> tuple[list[str], bool]:
    """Greedy word wrap in the current font: the lines, and whether a word longer than a
    line had to be split between letters. With a ``limit``, wrapping stops once that many
    lines are made: the text does not fit, and the lines made so far stay as they are."""
    lines: list[str] = []
    split = False
    for paragraph in text.split("\n"):
        current = ""
        for unit, spaced in _units(paragraph):
            if limit and len(lines) >= limit:
                return lines, split
            joined = f"{current} {unit}" if spaced and current else current + unit
            if pdf.get_string_width(joined) <= width:
                current = joined
                continue
            if current:
                lines.append(current)
            if pdf.get_string_width(unit) <= width:
                current = unit
                continue
            split = True
            pieces = _break_word(pdf, unit, width)
            lines.extend(pieces[:-1])
            current = pieces[-1]
        lines.append(current)
    return lines, split


def _cut(pdf: FPDF, line: str, width: float) -> str:
    while line and pdf.get_string_width(line + ELLIPSIS) > width:
        line = line[:-1]
    return line.rstrip() + ELLIPSIS


def _parts(text: Parts, colour: Colour) -> list[tuple[str, Colour]]:
    if isinstance(text, str):
        return [(text, colour)]
    return [(part, ink) for part, ink in text if part.strip()]


def fit(pdf: FPDF, parts: list[tuple[str, Colour]], width: float, height: float, size: float,
        min_size: float, style: str = "", leading: float = 1.2, max_lines: int = 0
        ) -> tuple[float, list[tuple[str, Colour]]]:
    """The largest size (from ``size`` down to ``min_size``, in 0.5 pt steps) at which
    the parts wrap into the box, and their lines with their colours; at ``min_size`` the
    lines that do not fit are cut with an ellipsis."""
    current = size
    while True:
        pdf.set_font(FONT, style, current)
        room = max(1, int(height / (current * PT * leading) + 1e-6))
        if max_lines:
            room = min(room, max_lines)
        lines: list[tuple[str, Any]] = []
        split = False
        for part, ink in parts:
            # One line more than the room is enough to know the text does not fit: a long
            # text is not wrapped to its end at every size on the way down.
            need = room + 1 - len(lines)
            if need <= 0:
                break
            part_lines, part_split = wrap(pdf, part, width, limit=need)
            lines.extend((line, ink) for line in part_lines)
            split = split or part_split
        # splitting a word between letters is the last resort, after shrinking
        if len(lines) <= room and (not split or current - 0.5 < min_size):
            return current, lines
        if current - 0.5 < min_size:
            kept = lines[:room]
            kept[-1] = (_cut(pdf, kept[-1][0], width), kept[-1][1])
            return current, kept
        current -= 0.5


def text_box(pdf: FPDF, text: Parts, x: float, y: float, w: float, h: float, *, size: float,
             min_size: float = 5.0, style: str = "", align: str = "L", valign: str = "T",
             colour: Colour = (0, 0, 0), leading: float = 1.2, max_lines: int = 0) -> float:
    """Write ``text`` inside the box (x, y, w, h) in mm; returns the height it took.

    ``text`` is one string, or (string, colour) parts set at one size one after the
    other (a Russian text in black with its English in grey).
    """
    parts = _parts(text, colour)
    if not any(part.strip() for part, _ in parts):
        return 0.0
    key = (tuple(parts), round(w, 3), round(h, 3), size, min_size, style, leading, max_lines)
    cache = pdf.fits if isinstance(pdf, Canvas) else {}
    if key not in cache:
        used, lines = fit(pdf, parts, w, h, size, min_size, style, leading, max_lines)
        cache[key] = used, [(line, ink, pdf.get_string_width(line)) for line, ink in lines]
    used_size, measured = cache[key]
    pdf.set_font(FONT, style, used_size)
    line_h = used_size * PT * leading
    total = line_h * len(measured)
    top = y + {"T": 0.0, "M": (h - total) / 2, "B": h - total}[valign]
    # the baseline sits where the glyphs of one line look centred in their line box
    first = top + (line_h - used_size * PT) / 2 + used_size * PT * 0.8
    for i, (line, ink, line_w) in enumerate(measured):
        lx = x + {"L": 0.0, "C": (w - line_w) / 2, "R": w - line_w}[align]
        pdf.set_text_color(*ink)
        pdf.text(lx, first + i * line_h, line)
    return total
