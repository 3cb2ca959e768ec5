"""Player passports: credit-card size, ten to an A4 page, each with its QR code.

The QR code holds the passport URL, ``<base_url>/p/<passport_token>``: a reissued
passport has a new token, so printing it again prints the new code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import date

from referee.printing import labels
from referee.printing.layout import PASSPORT, draw_crop_marks
from referee.printing.links import passport_url
from referee.printing.pdf import new_pdf, text_box
from referee.printing.qr import draw_qr
from referee.qr import qr_rows
from referee.rules.cards import SUIT_SYMBOLS, parse_suit

Progress = Callable[[int, int], None]

PAD = 4.0  # mm from the cut to anything printed (the QR code's quiet zone: 4 modules)
QR_SIZE = 25.0  # mm: above the 20 mm a phone needs from arm's length
COLUMN = 48.5  # mm of the left column (names and stats), clear of the QR quiet zone
RED = (200, 16, 46)
GREY = (110, 110, 110)


def qr_box(x: float, y: float) -> tuple[float, float, float]:
    """(left, top, size) of the QR code on a passport whose corner is at (x, y)."""
    return (x + PASSPORT.width - PAD - QR_SIZE, y + PASSPORT.height - PAD - QR_SIZE, QR_SIZE)


def _stat(pdf, x: float, y: float, w: float, h: float, key: str, value: object,
          lang: str) -> None:
    pdf.set_draw_color(170)
    pdf.set_line_width(0.25)
    pdf.rect(x, y, w, h, round_corners=True, corner_radius=1.5)
    label_h = text_box(pdf, "\n".join(labels.words(key, lang)), x + 0.8, y + 1, w - 1.6, 5.5,
                       size=5.5, min_size=4, align="C", colour=GREY, leading=1.1)
    text_box(pdf, str(value), x + 0.5, y + 1 + label_h, w - 1, h - 1.5 - label_h, size=22,
             min_size=8, style="B", align="C", valign="M", max_lines=1)


def starting_line(printed: date, lang: str) -> str:
    """The line over the numbers: they are the starting values, as of the print date, so a
    paper passport does not pass for the live sheet later."""
    day = printed.strftime("%d.%m.%Y")
    if lang == "both":
        return f"{labels.word('starting', lang)} · {day}"
    return f"{labels.word('starting', lang)}, {labels.word('printed', lang)} {day}"


def draw_passport(pdf, player: Mapping, url: str, event_name: str, x: float, y: float,
                  lang: str = "both", printed: date | None = None) -> None:
    """One passport with its top-left corner at (x, y) mm."""
    # a faint frame shows a crooked cut; it stays outside the QR code's quiet zone
    pdf.set_draw_color(215)
    pdf.set_line_width(0.2)
    pdf.rect(x + 1.0, y + 1.0, PASSPORT.width - 2.0, PASSPORT.height - 2.0,
             round_corners=True, corner_radius=2.5)
    left, top = x + PAD, y + PAD
    number = f"№ {player.get('id', '')}" if player.get("id") is not None else ""
    if number:
        text_box(pdf, number, left, top, COLUMN, 4, size=6.5, align="R", colour=GREY,
                 max_lines=1)
    pdf.set_font("dejavu", "", 6.5)
    number_w = pdf.get_string_width(number) + 2 if number else 0
    text_box(pdf, event_name, left, top, COLUMN - number_w, 4, size=6.5, min_size=4.5,
             colour=GREY, max_lines=1)
    text_box(pdf, str(player.get("character", "")), left, top + 4.5, COLUMN, 11.5, size=13,
             min_size=7, style="B", max_lines=3, valign="M")
    person = str(player.get("player") or "")
    if person:
        text_box(pdf, f"{labels.word('player', lang, ' / ')}: {person}", left, top + 16.5,
                 COLUMN, 4, size=7.5, min_size=5, max_lines=1)
    gap = 2.0
    box_w = (COLUMN - 2 * gap) / 3
    stats_top = y + PASSPORT.height - PAD - 22
    text_box(pdf, starting_line(printed or date.today(), lang), left, stats_top - 3.2,
             COLUMN, 3, size=5.5, min_size=4, colour=GREY, max_lines=1)
    for i, (key, field) in enumerate((("hp", "hp_max"), ("chance", "chance_max"),
                                      ("cartridges", "cartridges"))):
        _stat(pdf, left + i * (box_w + gap), stats_top, box_w, 22, key, player.get(field, ""),
              lang)
    suit = parse_suit(player.get("suit", ""))
    qx, qy, size = qr_box(x, y)
    text_box(pdf, SUIT_SYMBOLS[suit], qx, top - 1, size, 13, size=34, min_size=20,
             align="C", valign="M", colour=RED if suit in "HD" else (0, 0, 0), max_lines=1)
    text_box(pdf, labels.word(suit, lang), qx - 1, top + 12.5, size + 2, 4, size=6.5,
             min_size=4.5, align="C", colour=GREY, max_lines=1)
    draw_qr(pdf, qr_rows(url), qx, qy, size)


def passports_pdf(players: Iterable[Mapping], base_url: str, event_name: str,
                  progress: Progress | None = None, lang: str = "both",
                  printed: date | None = None) -> bytes:
    """A4 pages of passports, ten a page (2 × 5) with crop marks; returns the PDF bytes.

    Each player is a ``players`` row: ``id, character, player, hp_max, chance_max,
    cartridges, suit, passport_token, level``. ``progress(done, total)`` is called after
    each passport; ``printed`` (today by default) is the date printed over the numbers.
    ValueError for no players or a player without a token; RuleError
    (D3) for a suit that cannot be read.
    """
    players = list(players)
    if not players:
        raise ValueError("no players to print: choose at least one")
    if lang not in labels.LANGS:
        raise ValueError(f"lang must be one of {', '.join(labels.LANGS)}")
    event_name = str(event_name or "")
    for player in players:
        if not player.get("passport_token"):
            raise ValueError(f"player {player.get('id', '?')} has no passport token")
    pdf = new_pdf(f"{event_name}: passports" if event_name else "Passports")
    total = len(players)
    for index, player in enumerate(players):
        if index % PASSPORT.per_page == 0:
            pdf.add_page()
            draw_crop_marks(pdf, PASSPORT)
        x, y = PASSPORT.slot(index)
        url = passport_url(base_url, str(player["passport_token"]))
        draw_passport(pdf, player, url, event_name, x, y, lang, printed or date.today())
        if progress:
            progress(index + 1, total)
    return bytes(pdf.output())
