"""A QR code's modules (made by :mod:`referee.qr`) drawn as vector rectangles."""

from __future__ import annotations

import re

from referee.printing.pdf import Canvas

_DARK = re.compile(r"1+")


def draw_qr(pdf: Canvas, rows: list[str], x: float, y: float, size: float) -> None:
    """Draw the symbol with its top-left corner at (x, y) mm, ``size`` mm wide.

    One path: every run of dark modules in a row is one rectangle in module units under
    a scaling matrix, and the whole path is filled at once, so rows leave no seams.
    """
    n = len(rows)
    unit = size / n * pdf.k
    ops = [f"q 0 g {unit:.5f} 0 0 {-unit:.5f} {x * pdf.k:.3f} {(pdf.h - y) * pdf.k:.3f} cm"]
    for r, row in enumerate(rows):
        ops.extend(f"{m.start()} {r} {m.end() - m.start()} 1 re" for m in _DARK.finditer(row))
    ops.append("f Q")
    pdf.raw("\n".join(ops))
