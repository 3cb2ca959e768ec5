"""The Berserk-style card face: B1 base properties and B8 element colours and icons.

Top: the cost on a gold (elite) or silver (ordinary) crystal, the element badges. Middle:
name, type line, text, on a white panel. Bottom: lives, movement or flight, strike X-Y-Z.
"""

from __future__ import annotations

import math

from referee.games.berserk.rules import NEUTRAL, Card, Locomotion, sorted_elements
from referee.printing import labels
from referee.printing.faces import GREY, INSET, WHITE, H, W, code_tag, frame, texts, two_names
from referee.printing.icons import colour, draw_icon
from referee.printing.pdf import is_dark, mix, text_box

GOLD = (212, 172, 48)
SILVER = (190, 194, 200)
PANEL_TOP = 17.0
PANEL_BOTTOM = 66.5


def elements_of(card: Card) -> list[str]:
    """The card's elements in printed order, or Neutral."""
    return [str(e) for e in sorted_elements(card.elements)] or [NEUTRAL]


def _background(pdf, elements: list[str], x: float, y: float) -> None:
    # B8: the frame takes the element's colour; several elements share it in stripes
    first = colour(elements[0])
    frame(pdf, x, y, colour=mix(first, 0.0), fill=first, width=0.4)
    stripe = (W - 2 * INSET - 6) / len(elements)
    for i, element in enumerate(elements[1:], start=1):
        pdf.set_fill_color(*colour(element))
        left = x + INSET + 3 + i * stripe
        right = x + W - INSET - 3 if i == len(elements) - 1 else left + stripe
        pdf.rect(left, y + INSET, right - left, H - 2 * INSET, style="F")


def _crystal(pdf, card: Card, x: float, y: float) -> None:
    """B2: the cost on a gold crystal with a star (elite) or a silver one (ordinary)."""
    cx, cy, r = x + INSET + 7.5, y + INSET + 7, 5.6
    pdf.set_fill_color(*(GOLD if card.elite else SILVER))
    pdf.set_draw_color(60)
    pdf.set_line_width(0.35)
    pdf.polygon([(cx + r * math.cos(math.pi / 3 * i), cy + r * math.sin(math.pi / 3 * i))
                 for i in range(6)], style="DF")
    value = "X" if card.variable_cost else str(card.cost)
    text_box(pdf, value, cx - r, cy - r, 2 * r, 2 * r, size=15, min_size=8, style="B",
             align="C", valign="M", colour=(20, 20, 20), max_lines=1)
    if card.elite:
        pdf.set_fill_color(255, 244, 170)
        pdf.set_draw_color(120, 90, 0)
        pdf.set_line_width(0.2)
        pdf.star(cx + r * 0.9, cy - r * 0.9, 0.9, 2.1, 5, rotate_degrees=-90, style="DF")


# a wing: the leading edge rises to the tip, four feathers hang from the trailing edge
_WING = [(-0.9, 0.1), (-0.6, -0.35), (-0.1, -0.55), (0.5, -0.62), (1.0, -0.82), (0.85, -0.38),
         (0.55, -0.3), (0.5, 0.0), (0.2, -0.04), (0.1, 0.3), (-0.2, 0.2), (-0.35, 0.52),
         (-0.6, 0.35)]


def _wing(pdf, cx: float, cy: float, size: float) -> None:
    """B4: the flight symbol, a wing."""
    pdf.set_fill_color(40, 40, 40)
    pdf.polygon([(cx + px * size, cy + py * size) for px, py in _WING], style="F")


def _stat(pdf, x: float, y: float, w: float, label: str, value: str) -> None:
    pdf.set_fill_color(*WHITE)
    pdf.set_draw_color(70)
    pdf.set_line_width(0.3)
    pdf.rect(x, y, w, 10.5, style="DF", round_corners=True, corner_radius=1.5)
    text_box(pdf, label, x + 0.6, y + 0.5, w - 1.2, 3.2, size=5.5, min_size=3.5, align="C",
             colour=GREY, max_lines=1)
    if value == "flying":
        _wing(pdf, x + w / 2, y + 6.8, 3.2)
        return
    text_box(pdf, value, x + 0.6, y + 3.6, w - 1.2, 6.4, size=13, min_size=6, style="B",
             align="C", valign="M", max_lines=1)


def _type_line(card: Card, elements: list[str], lang: str) -> str:
    parts = [labels.word(str(card.kind), lang, "/"),
             labels.word("elite" if card.elite else "ordinary", lang, "/")]
    if card.unique:
        parts.append(labels.word("unique", lang, "/"))
    parts.append(", ".join(labels.word(e, lang, "/") for e in elements))
    return " · ".join(parts)


def draw_berserk(pdf, card: Card, x: float, y: float, lang: str = "both") -> None:
    """One Berserk-style card with its top-left corner at (x, y) mm."""
    elements = elements_of(card)
    _background(pdf, elements, x, y)
    _crystal(pdf, card, x, y)
    badge_r = 4.2
    for i, element in enumerate(reversed(elements)):
        draw_icon(pdf, element, x + W - INSET - 2.5 - badge_r - i * (2 * badge_r + 1.2),
                  y + INSET + 7, badge_r)
    pdf.set_fill_color(*WHITE)
    pdf.set_draw_color(70)
    pdf.set_line_width(0.3)
    panel_x, panel_w = x + INSET + 2.5, W - 2 * INSET - 5
    pdf.rect(panel_x, y + PANEL_TOP, panel_w, PANEL_BOTTOM - PANEL_TOP, style="DF",
             round_corners=True, corner_radius=2)
    two_names(pdf, card.name_ru, card.name_en, panel_x + 2, y + PANEL_TOP + 1, panel_w - 4,
              13, lang, size=11)
    used = text_box(pdf, _type_line(card, elements, lang), panel_x + 2, y + PANEL_TOP + 14.5,
                    panel_w - 4, 7, size=6, min_size=4.5, align="C", colour=GREY)
    body = texts(card.text_ru, card.text_en, lang)
    top = y + PANEL_TOP + 15.5 + used
    if any(part.strip() for part, _ in body):
        text_box(pdf, body, panel_x + 2.5, top, panel_w - 5, y + PANEL_BOTTOM - 1.5 - top,
                 size=8, min_size=4.5, align="C", leading=1.2)
    else:
        # an empty panel carries the element's icon, faint, so the card is known at a glance
        with pdf.local_context(fill_opacity=0.18, stroke_opacity=0.18):
            draw_icon(pdf, elements[0], x + W / 2, (top + y + PANEL_BOTTOM) / 2, 10)
    stats = [(labels.word("lives", lang, "/"), str(card.lives))]
    if card.is_creature:
        if card.locomotion is Locomotion.GROUND:
            stats.append((labels.word("movement", lang, "/"), str(card.movement)))
        else:
            stats.append((labels.word(str(card.locomotion), lang, "/"),
                          "flying" if card.locomotion is Locomotion.FLYING else "∞"))
        stats.append((labels.word("strike", lang, "/"), str(card.strike)))
    gap = 1.5
    box_w = (panel_w - gap * 2) / 3
    for i, (label, value) in enumerate(stats):
        _stat(pdf, panel_x + i * (box_w + gap), y + PANEL_BOTTOM + 1.2, box_w, label, value)
    ink = WHITE if is_dark(colour(elements[0])) else (20, 20, 20)
    code_tag(pdf, card.code, x, y, colour=ink)
