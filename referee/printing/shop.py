"""Deck files for print-on-demand shops: one card a page, at the trim size plus the bleed
on every side, fronts and backs alternating in one PDF.

The shops' rules this follows: The Game Crafter and DriveThruCards take 1/8 in (3.175 mm)
of bleed on each side and want nothing important within 1/8 in of the trim;
MakePlayingCards about 3 mm; Squib's defaults are the same 1/8 in. Each card's background
runs to the page edge (a cut a little off leaves no white rim), and the face is drawn as on
the home sheets, whose frame and everything in it stay 3 mm inside the trim (the safe
zone). A 63 × 88 mm card is a 69.35 × 94.35 mm page with the default bleed.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.decks import Deck, load_deck
from referee.printing import labels
from referee.printing.faces import INSET, draw_back
from referee.printing.layout import CARD
from referee.printing.pdf import new_pdf, rgb
from referee.printing.sheets import face

BLEED = 3.175  # mm: 1/8 in, The Game Crafter's, DriveThruCards' and Squib's
MAX_BLEED = 10.0
SAFE = INSET  # mm inside the trim: every face keeps its frame and text within it
FACE_PAPER = (255, 255, 255)  # the faces are drawn on white, to the page edge


def page_size(bleed: float = BLEED) -> tuple[float, float]:
    """A card's page: the trim plus the bleed on each side (mm)."""
    return CARD.width + 2 * bleed, CARD.height + 2 * bleed


def shop_pdf(deck: Deck | str, bleed: float = BLEED, lang: str = "both",
             progress: Callable[[int, int], None] | None = None) -> bytes:
    """Every card of the deck (copies repeated), each a face page then its back page."""
    if isinstance(deck, str):
        deck = load_deck(deck)
    if lang not in labels.LANGS:
        raise ValueError(f"lang must be one of {', '.join(labels.LANGS)}")
    if not 0 <= bleed <= MAX_BLEED:
        raise ValueError(f"the bleed is 0 to {MAX_BLEED:g} mm")
    width, height = page_size(bleed)
    draw = face(deck.kind)
    back = rgb(deck.back.colour)
    cards = deck.printed()
    pdf = new_pdf(f"{deck.title_ru} / {deck.title_en}", (width, height))
    def page(paper: tuple[int, int, int]) -> None:
        pdf.add_page()
        pdf.set_fill_color(*paper)
        pdf.rect(0, 0, width, height, style="F")  # the background to the page edge

    for done, entry in enumerate(cards, start=1):
        page(FACE_PAPER)
        draw(pdf, entry.card, bleed, bleed, lang)
        page(back)
        draw_back(pdf, deck.back, bleed, bleed)
        if progress:
            progress(done, len(cards))
    return bytes(pdf.output())
