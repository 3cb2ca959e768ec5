"""Card faces (63 × 88 mm) for playing cards, castle and class cards, Coup cards, and the
card back. Every face shows the card's short code, which the referee taps on the phone.

Each ``draw_*`` takes the card's top-left corner in mm; all drawing stays inside the
frame, ``INSET`` mm from the cut.
"""

from __future__ import annotations

from referee.decks import Back, CoupCard, PlayingCard
from referee.printing import labels
from referee.printing.layout import CARD
from referee.printing.pdf import is_dark, mix, rgb, text_box

W, H = CARD.width, CARD.height
INSET = 3.0
BLACK = (0, 0, 0)
RED = (200, 16, 46)
GREY = (105, 105, 105)
WHITE = (255, 255, 255)

CASTLE_COLOURS = {"monster": (128, 32, 32), "item": (34, 72, 122), "skill": (92, 44, 120),
                  "event": (36, 102, 82), "class": (150, 108, 20)}
COUP_COLOURS = {"duchess": (104, 40, 128), "assassin": (45, 45, 45), "captain": (30, 84, 150),
                "ambassador": (36, 118, 70), "inquisitor": (18, 104, 118),
                "countess": (170, 38, 52)}


def frame(pdf, x: float, y: float, colour=(60, 60, 60), fill=None, width: float = 0.35) -> None:
    """The rounded frame every face is drawn in (a slightly crooked cut leaves it whole)."""
    pdf.set_draw_color(*colour)
    pdf.set_line_width(width)
    if fill is not None:
        pdf.set_fill_color(*fill)
    pdf.rect(x + INSET, y + INSET, W - 2 * INSET, H - 2 * INSET,
             style="DF" if fill is not None else "D", round_corners=True, corner_radius=3)


def code_tag(pdf, code: str, x: float, y: float, colour=GREY, align: str = "C") -> None:
    """The short code at the bottom of the card."""
    text_box(pdf, code, x + INSET + 2, y + H - INSET - 4.6, W - 2 * INSET - 4, 3.6, size=7,
             min_size=5, style="B", align=align, colour=colour, max_lines=1)


def two_names(pdf, ru: str, en: str, x: float, y: float, w: float, h: float, lang: str,
              colour=BLACK, second=GREY, size: float = 12, align: str = "C") -> None:
    """The card's name: Russian large and English small below (or one of them)."""
    first, other = {"ru": (ru, ""), "en": (en, "")}.get(lang, (ru, en))
    if not other:
        text_box(pdf, first, x, y, w, h, size=size, min_size=6, style="B", align=align,
                 valign="M", colour=colour, max_lines=2)
        return
    small = h * 0.3
    text_box(pdf, first, x, y, w, h - small, size=size, min_size=6, style="B", align=align,
             valign="B", colour=colour, max_lines=2)
    text_box(pdf, other, x, y + h - small, w, small, size=min(8.0, size * 0.7), min_size=5,
             align=align, colour=second, max_lines=1)


def texts(ru: str, en: str, lang: str, ink=BLACK, second=GREY) -> list[tuple[str, tuple]]:
    """A card text in the chosen language(s): Russian in ``ink``, then English in grey."""
    if lang == "ru":
        return [(ru, ink)]
    if lang == "en":
        return [(en, ink)]
    return [(ru, ink), (en, second)]


# ---------------------------------------------------------------- playing cards (D1–D3)

def _corner(pdf, card: PlayingCard, x: float, y: float, colour) -> None:
    text_box(pdf, card.card.rank, x + INSET + 1, y + INSET + 1.2, 10, 6, size=15, style="B",
             align="C", colour=colour, max_lines=1)
    text_box(pdf, card.symbol, x + INSET + 1, y + INSET + 7, 10, 6, size=14, align="C",
             colour=colour, max_lines=1)


def draw_playing(pdf, card: PlayingCard, x: float, y: float, lang: str = "both") -> None:
    """Rank and suit in two opposite corners, a big rank and pip in the middle."""
    colour = RED if card.card.suit in "HD" else BLACK
    frame(pdf, x, y)
    _corner(pdf, card, x, y, colour)
    # the opposite corner is the same block turned half round the card's centre
    with pdf.rotation(180, x + W / 2, y + H / 2):
        _corner(pdf, card, x, y, colour)
    text_box(pdf, card.card.rank, x + 10, y + 16, W - 20, 18, size=44, style="B", align="C",
             valign="M", colour=colour, max_lines=1)
    text_box(pdf, card.symbol, x + 10, y + 35, W - 20, 26, size=80, align="C", valign="M",
             colour=colour, max_lines=1)
    names = texts(card.name_ru, card.name_en, lang, ink=GREY)
    text_box(pdf, names, x + 12, y + 62, W - 24, 9, size=7.5, min_size=5, align="C",
             colour=GREY, max_lines=2)
    code_tag(pdf, card.code, x, y, align="L")


# ------------------------------------------------------- castle and class cards (U3, U14)

def _band(pdf, x: float, y: float, colour, height: float) -> None:
    pdf.set_fill_color(*colour)
    pdf.rect(x + INSET, y + INSET, W - 2 * INSET, height, style="F", round_corners=True,
             corner_radius=3)
    # square off the band's lower corners, which sit inside the frame
    pdf.rect(x + INSET, y + INSET + height - 3, W - 2 * INSET, 3, style="F")


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("−" + str(-value) if value < 0 else "0")


def _big_number(pdf, value: str, label: str, x: float, y: float, colour, cy: float,
                r: float) -> None:
    cx, cy = x + W / 2, y + cy
    pdf.set_fill_color(*mix(colour, 0.82))
    pdf.set_draw_color(*colour)
    pdf.set_line_width(0.6)
    pdf.circle(cx, cy, r, style="DF")
    text_box(pdf, value, cx - r * 0.8, cy - r, 1.6 * r, 2 * r, size=r * 2.9, min_size=12,
             style="B", align="C", valign="M", colour=colour, max_lines=1)
    text_box(pdf, label, x + 6, cy + r + 1, W - 12, 3.6, size=7, min_size=5, align="C",
             colour=GREY, max_lines=1)


def _castle_tags(card, lang: str) -> list[str]:
    tags = []
    if card.kind == "item":
        tags.append(labels.item_type(card.item_type, lang))
    if getattr(card, "summoning", False):
        tags.append(labels.word("summoning", lang))
    if getattr(card, "magic", False):
        tags.append("✦ " + labels.word("magic", lang))
    duration = getattr(card, "duration", None)
    if duration:
        tags.append(labels.word(duration, lang))
    if getattr(card, "challenge", False):
        tags.append("⚔ " + labels.word("challenge", lang))
    if card.kind == "class":
        if card.two_weapons:
            tags.append(labels.word("two_weapons", lang))
        if card.ability_cost:
            template = labels.word("ability", lang, "\n")
            tags.append(template % {"cost": card.ability_cost, "bonus": card.ability_bonus})
    return tags


def draw_castle(pdf, card, x: float, y: float, lang: str = "both") -> None:
    """An Underworld card: type, name, strength or bonus, item type and flags, text."""
    colour = CASTLE_COLOURS[card.kind]
    frame(pdf, x, y, colour=colour, width=0.6)
    _band(pdf, x, y, colour, 8)
    text_box(pdf, labels.word(card.kind, lang).upper(), x + INSET + 2, y + INSET + 0.5,
             W - 2 * INSET - 4, 7, size=8, min_size=5, style="B", align="C", valign="M",
             colour=WHITE, max_lines=1)
    two_names(pdf, card.name_ru, card.name_en, x + 6, y + 12.5, W - 12, 16, lang)
    top = y + 31
    if card.kind == "monster":
        # a monster has nothing but its strength (U3): make it big, mid-card
        _big_number(pdf, str(card.strength), labels.word("strength", lang), x, y, colour,
                    cy=50, r=14)
    elif card.kind in ("item", "skill"):
        _big_number(pdf, _signed(card.bonus), labels.word("bonus", lang), x, y, colour,
                    cy=42, r=10)
        top = y + 58
    tags = _castle_tags(card, lang)
    if tags:
        used = text_box(pdf, "\n".join(tags), x + 6, top, W - 12, 12, size=7.5, min_size=5,
                        style="B", align="C", colour=colour)
        top += used + 1.5
    body = texts(getattr(card, "text_ru", ""), getattr(card, "text_en", ""), lang)
    if any(part.strip() for part, _ in body):
        text_box(pdf, body, x + 6.5, top, W - 13, y + H - INSET - 5.5 - top, size=9,
                 min_size=5, align="C", leading=1.25)
    code_tag(pdf, card.code, x, y, colour=colour)


# ------------------------------------------------------------------------- Coup (C1, C5)

def draw_coup(pdf, card: CoupCard, x: float, y: float, lang: str = "both") -> None:
    """A Coup character (name, power, what it blocks) or the player aid."""
    colour = COUP_COLOURS.get(card.character, (70, 70, 70))
    frame(pdf, x, y, colour=colour, width=0.6)
    _band(pdf, x, y, colour, 15)
    two_names(pdf, card.name_ru, card.name_en, x + 6, y + INSET + 0.5, W - 12, 14, lang,
              colour=WHITE, second=mix(colour, 0.7), size=15)
    if card.role == "aid":
        text_box(pdf, texts(card.text_ru, card.text_en, lang), x + 4.8, y + 19.5, W - 9.6,
                 H - 19.5 - INSET - 5.5, size=7.5, min_size=4.5, align="L", leading=1.12)
        code_tag(pdf, card.code, x, y, colour=colour)
        return
    cx, cy, r = x + W / 2, y + 27.5, 7.5
    pdf.set_fill_color(*mix(colour, 0.85))
    pdf.set_draw_color(*colour)
    pdf.set_line_width(0.6)
    pdf.circle(cx, cy, r, style="DF")
    initial = (card.name_en if lang == "en" else card.name_ru)[:1]
    text_box(pdf, initial, cx - r, cy - r, 2 * r, 2 * r, size=24, style="B", align="C",
             valign="M", colour=colour, max_lines=1)
    top = y + 36.5
    for key, ru, en, room in (("power", card.power_ru, card.power_en, 28),
                              ("blocks", card.blocks_ru, card.blocks_en, 14)):
        text_box(pdf, labels.word(key, lang), x + 6, top, W - 12, 4, size=7, min_size=5,
                 style="B", align="C", colour=colour, max_lines=1)
        text_box(pdf, texts(ru, en, lang), x + 6, top + 4.2, W - 12, room - 4.5, size=8,
                 min_size=5, align="C", leading=1.2)
        top += room
    code_tag(pdf, card.code, x, y, colour=colour)


# -------------------------------------------------------------------------------- backs

def draw_back(pdf, back: Back, x: float, y: float) -> None:
    """The deck's back: its colour, a double frame, a diamond and the back text."""
    colour = rgb(back.colour)
    ink = WHITE if is_dark(colour) else BLACK
    frame(pdf, x, y, colour=colour, fill=colour)
    pdf.set_draw_color(*mix(colour, 0.45))
    pdf.set_line_width(0.5)
    pdf.rect(x + INSET + 2.5, y + INSET + 2.5, W - 2 * INSET - 5, H - 2 * INSET - 5,
             round_corners=True, corner_radius=2)
    cx, cy = x + W / 2, y + H / 2
    pdf.set_line_width(0.7)
    pdf.polygon([(cx, cy - 30), (cx + 21, cy), (cx, cy + 30), (cx - 21, cy)])
    pdf.set_line_width(0.35)
    pdf.polygon([(cx, cy - 26), (cx + 18, cy), (cx, cy + 26), (cx - 18, cy)])
    text_box(pdf, back.text, cx - 16, cy - 12, 32, 24, size=13, min_size=5, style="B",
             align="C", valign="M", colour=ink)
