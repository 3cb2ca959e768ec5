"""Print-ready PDFs, A4 in millimetres (fpdf2): player passports and card sheets.

- ``passports_pdf(players, base_url, event_name, progress=None, lang="both")``: ten
  credit-card passports a page, each with the QR code of ``passport_url(base_url, token)``.
- ``deck_pdf(deck, backs=False, duplex_offset=(0, 0), progress=None, lang="both")``:
  63 × 88 mm cards, 3 × 3 a page, crop marks, optional mirrored back pages.
- ``CARD`` and ``PASSPORT``: the page grids (item sizes, positions, crop marks), so the
  layout can be checked and reused.

Text is set in DejaVu Sans, shipped in ``printables/fonts`` and embedded in every PDF.
``readback`` reads the PDFs back (QR codes, text) for tests; it needs the test tools
pypdfium2 and zxing-cpp.
"""

from referee.printing.layout import CARD, PASSPORT, Grid
from referee.printing.links import passport_url

__all__ = ["CARD", "PASSPORT", "Grid", "deck_pdf", "passport_url", "passports_pdf"]


def __getattr__(name: str):
    """The PDF makers load fpdf2 on first use, not with the app (a faster start)."""
    if name == "passports_pdf":
        from referee.printing.passports import passports_pdf

        return passports_pdf
    if name == "deck_pdf":
        from referee.printing.sheets import deck_pdf

        return deck_pdf
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
