"""Card sheets: 63 × 88 mm cards, 3 × 3 on an A4 page, crop marks in the margins, and
optional back pages mirrored for long-edge duplex."""

from __future__ import annotations

from collections.abc import Callable

from referee.decks import Deck, load_deck
from referee.games import registry
from referee.games.manifest import resolve
from referee.printing import labels
from referee.printing.faces import draw_back
from referee.printing.layout import CARD, draw_crop_marks
from referee.printing.pdf import new_pdf

Progress = Callable[[int, int], None]
MAX_OFFSET = 20.0  # mm; a printer that is further off needs fixing, not an offset


def face(kind: str) -> Callable:
    """How a card of this deck kind is drawn, as its game's manifest says."""
    return resolve(registry.deck_kinds()[kind].face)


def _offset(value: object) -> tuple[float, float]:
    try:
        dx, dy = (float(v) for v in value)  # type: ignore[attr-defined]  # refused below
    except (TypeError, ValueError):
        raise ValueError("duplex_offset must be two numbers of millimetres (x, y)") from None
    if abs(dx) > MAX_OFFSET or abs(dy) > MAX_OFFSET:
        raise ValueError(f"duplex_offset must stay within ±{MAX_OFFSET:g} mm")
    return dx, dy


def deck_pdf(deck: Deck | str, backs: bool = False,
             duplex_offset: tuple[float, float] = (0.0, 0.0),
             progress: Progress | None = None, lang: str = "both") -> bytes:
    """Every card of the deck (copies repeated) as A4 sheets; returns the PDF bytes.

    With ``backs``, each face page is followed by its back page: the backs of a page's
    cards in mirrored columns, shifted by ``duplex_offset`` (x, y) mm, so that a long-edge
    duplex print puts every back behind its face. ``progress(done, total)`` is called
    after each card.
    """
    if isinstance(deck, str):
        deck = load_deck(deck)
    if lang not in labels.LANGS:
        raise ValueError(f"lang must be one of {', '.join(labels.LANGS)}")
    offset = _offset(duplex_offset)
    draw = face(deck.kind)
    cards = deck.printed()
    total = len(cards)
    pdf = new_pdf(f"{deck.title_ru} / {deck.title_en}")
    for start in range(0, total, CARD.per_page):
        page = cards[start:start + CARD.per_page]
        pdf.add_page()
        draw_crop_marks(pdf, CARD)
        for i, entry in enumerate(page):
            x, y = CARD.slot(i)
            draw(pdf, entry.card, x, y, lang)
            if progress:
                progress(start + i + 1, total)
        if backs:
            # the cut follows the face side, so back pages carry no crop marks
            pdf.add_page()
            for i in range(len(page)):
                x, y = CARD.back_slot(i, offset)
                draw_back(pdf, deck.back, x, y)
    return bytes(pdf.output())
