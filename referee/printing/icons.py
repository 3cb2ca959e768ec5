"""B8 element icons drawn with vector shapes (no image files, crisp at any size).

Steppe — sun, Forest — tree, Mountains — peaks, Swamps — moss hummocks, Darkness — skull,
Fire — flame, Neutral — shield and crossed weapons. Each icon fits the circle of radius
``r`` around (cx, cy), on a light badge.
"""

from __future__ import annotations

import math

from referee.games.berserk.rules import ELEMENT_LOOK, NEUTRAL
from referee.printing.pdf import rgb

WHITE = (255, 255, 255)


def colour(element: str) -> tuple[int, int, int]:
    """The element's printed colour (B8), from the Berserk engine's table."""
    return rgb(ELEMENT_LOOK[element].hex)


def _fill(pdf, c) -> None:
    pdf.set_fill_color(*c)
    pdf.set_draw_color(*c)


def _sun(pdf, cx, cy, r) -> None:
    ink, rim = colour("steppe"), (196, 120, 0)
    pdf.set_draw_color(*rim)
    pdf.set_line_width(r * 0.13)
    for i in range(8):
        a = i * math.pi / 4
        pdf.line(cx + math.cos(a) * r * 0.58, cy + math.sin(a) * r * 0.58,
                 cx + math.cos(a) * r * 0.95, cy + math.sin(a) * r * 0.95)
    pdf.set_fill_color(*ink)
    pdf.set_line_width(r * 0.08)
    pdf.circle(cx, cy, r * 0.42, style="DF")


def _tree(pdf, cx, cy, r) -> None:
    _fill(pdf, (110, 70, 30))
    pdf.rect(cx - r * 0.1, cy + r * 0.45, r * 0.2, r * 0.45, style="F")
    _fill(pdf, colour("forest"))
    for top, base, half in ((-0.95, -0.05, 0.45), (-0.6, 0.3, 0.62), (-0.25, 0.55, 0.8)):
        pdf.polygon([(cx, cy + top * r), (cx - half * r, cy + base * r),
                     (cx + half * r, cy + base * r)], style="F")


def _peaks(pdf, cx, cy, r) -> None:
    ink = colour("mountains")
    base = cy + r * 0.7
    for px, h, half in ((-0.35, 1.35, 0.6), (0.35, 1.0, 0.5)):
        _fill(pdf, ink)
        top = (cx + px * r, base - h * r)
        pdf.polygon([top, (top[0] - half * r, base), (top[0] + half * r, base)], style="F")
        # snow cap: the top quarter of the peak, in white
        _fill(pdf, WHITE)
        k = 0.3
        pdf.polygon([top, (top[0] - half * r * k, top[1] + h * r * k),
                     (top[0] + half * r * k, top[1] + h * r * k)], style="F")


def _half_disc(cx, cy, rx, ry, steps=14) -> list[tuple[float, float]]:
    return [(cx + rx * math.cos(math.pi + math.pi * i / steps),
             cy + ry * math.sin(math.pi + math.pi * i / steps)) for i in range(steps + 1)]


def _hummocks(pdf, cx, cy, r) -> None:
    ink = colour("swamps")
    base = cy + r * 0.45
    _fill(pdf, (120, 150, 90))
    pdf.rect(cx - r * 0.95, base, r * 1.9, r * 0.14, style="F")
    _fill(pdf, ink)
    for hx, rx, ry in ((-0.5, 0.42, 0.55), (0.45, 0.45, 0.7), (0.0, 0.38, 0.9)):
        pdf.polygon(_half_disc(cx + hx * r, base, rx * r, ry * r), style="F")
    _fill(pdf, (140, 175, 100))  # moss tufts
    for hx in (-0.55, 0.05, 0.5):
        pdf.circle(cx + hx * r, base - r * 0.28, r * 0.08, style="F")


def _skull(pdf, cx, cy, r) -> None:
    ink = colour("darkness")
    _fill(pdf, ink)
    pdf.circle(cx, cy - r * 0.18, r * 0.68, style="F")
    pdf.rect(cx - r * 0.4, cy + r * 0.25, r * 0.8, r * 0.55, style="F", round_corners=True,
             corner_radius=r * 0.12)
    _fill(pdf, WHITE)
    for ex in (-0.28, 0.28):
        pdf.circle(cx + ex * r, cy - r * 0.12, r * 0.17, style="F")
    pdf.polygon([(cx, cy + r * 0.12), (cx - r * 0.09, cy + r * 0.32),
                 (cx + r * 0.09, cy + r * 0.32)], style="F")
    pdf.set_line_width(r * 0.06)
    for tx in (-0.2, 0.0, 0.2):
        pdf.line(cx + tx * r, cy + r * 0.52, cx + tx * r, cy + r * 0.8)


def _drop(cx, cy, r, lean=0.0, steps=28) -> list[tuple[float, float]]:
    # a teardrop: pointed at the top (bent by ``lean``), round at the bottom
    points = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        height = (1 + math.cos(t)) / 2  # 1 at the tip, 0 at the bottom
        points.append((cx + r * 0.75 * math.sin(t) * math.sin(t / 2) + lean * r * height ** 2,
                       cy - r * math.cos(t)))
    return points


def _flame(pdf, cx, cy, r) -> None:
    _fill(pdf, colour("fire"))
    pdf.polygon(_drop(cx, cy + r * 0.05, r * 0.95, lean=0.15), style="F")
    _fill(pdf, (255, 214, 64))
    pdf.polygon(_drop(cx, cy + r * 0.38, r * 0.5, lean=0.1), style="F")


def _shield(pdf, cx, cy, r) -> None:
    ink = colour(NEUTRAL)
    dark = (110, 80, 50)
    pdf.set_draw_color(*dark)
    pdf.set_line_width(r * 0.12)
    for sign in (-1, 1):  # crossed weapons behind the shield
        pdf.line(cx - sign * r * 0.85, cy - r * 0.85, cx + sign * r * 0.85, cy + r * 0.85)
        pdf.line(cx - sign * r * 0.75, cy - r * 0.5, cx - sign * r * 0.5, cy - r * 0.75)
    pdf.set_fill_color(*ink)
    pdf.set_line_width(r * 0.08)
    w, top = r * 0.55, cy - r * 0.6
    pdf.polygon([(cx - w, top), (cx + w, top), (cx + w, cy + r * 0.05), (cx, cy + r * 0.75),
                 (cx - w, cy + r * 0.05)], style="DF")
    pdf.line(cx, top + r * 0.1, cx, cy + r * 0.6)


ICONS = {"steppe": _sun, "forest": _tree, "mountains": _peaks, "swamps": _hummocks,
         "darkness": _skull, "fire": _flame, NEUTRAL: _shield}


def draw_icon(pdf, element: str, cx: float, cy: float, r: float) -> None:
    """The element's icon on a white badge with a rim in the element's colour."""
    pdf.set_fill_color(*WHITE)
    pdf.set_draw_color(*colour(element))
    pdf.set_line_width(r * 0.1)
    pdf.circle(cx, cy, r, style="DF")
    ICONS[element](pdf, cx, cy, r * 0.72)
