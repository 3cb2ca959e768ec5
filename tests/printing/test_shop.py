"""Deck files for print shops, read back from the PDF: one card a page
at the trim plus the bleed, fronts and backs in turn, the background to the page edge,
and every letter inside the safe zone (3 mm inside the trim)."""

from __future__ import annotations

import subprocess
import sys

import pypdfium2
import pytest

from referee.decks import load_deck
from referee.printing.layout import MM_TO_PT
from referee.printing.pdf import rgb
from referee.printing.readback import page_images, page_sizes_pt
from referee.printing.shop import BLEED, SAFE, shop_pdf


def letters_mm(pdf: bytes, page: int) -> list[tuple[float, float, float, float]]:
    """Each character's box on a page, in mm from the page's top-left corner."""
    doc = pypdfium2.PdfDocument(pdf)
    try:
        height = doc[page].get_size()[1]
        text = doc[page].get_textpage()
        boxes = []
        for i in range(text.count_chars()):
            if text.get_text_range(i, 1).strip():
                left, bottom, right, top = text.get_charbox(i)
                boxes.append((left / MM_TO_PT, (height - top) / MM_TO_PT,
                              right / MM_TO_PT, (height - bottom) / MM_TO_PT))
        return boxes
    finally:
        doc.close()


@pytest.mark.parametrize("name", ["coup", "castle-sample", "berserk-sample"])
def test_one_card_a_page_with_its_bleed_fronts_and_backs_in_turn(name):
    deck = load_deck(name)
    pdf = shop_pdf(deck)
    sizes = page_sizes_pt(pdf)
    assert len(sizes) == 2 * len(deck.printed())
    width, height = 63 + 2 * BLEED, 88 + 2 * BLEED  # 69.35 × 94.35 mm
    assert {(round(w / MM_TO_PT, 2), round(h / MM_TO_PT, 2)) for w, h in sizes} == {
        (round(width, 2), round(height, 2))}
    # Every letter of every face stays inside the safe zone: 3 mm inside the trim.
    low_x, high_x = BLEED + SAFE, width - BLEED - SAFE
    low_y, high_y = BLEED + SAFE, height - BLEED - SAFE
    assert letters_mm(pdf, 0), "the first face has no text to check"
    for page in range(0, len(sizes), 2):
        for left, top, right, bottom in letters_mm(pdf, page):
            assert low_x - 0.05 <= left and right <= high_x + 0.05, (page, left, right)
            assert low_y - 0.05 <= top and bottom <= high_y + 0.05, (page, top, bottom)


def test_the_background_runs_to_the_page_edge():
    deck = load_deck("coup")
    face, back = page_images(shop_pdf(deck), 72, pages=[0, 1])
    colour = rgb(deck.back.colour)
    w, h = back.size
    for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (w // 2, 1)):
        assert all(abs(a - b) <= 3 for a, b in zip(back.getpixel((x, y))[:3], colour, strict=True))
        assert face.getpixel((x, y))[:3] == (255, 255, 255)


def test_another_bleed_and_the_command():
    pdf = shop_pdf("coup", bleed=5)
    (w, h), *_ = page_sizes_pt(pdf)
    assert (round(w / MM_TO_PT, 2), round(h / MM_TO_PT, 2)) == (73.0, 98.0)
    with pytest.raises(ValueError, match="bleed"):
        shop_pdf("coup", bleed=25)


def test_the_command_and_the_print_page_make_it(tmp_path, organizer):
    out = tmp_path / "coup.pdf"
    done = subprocess.run([sys.executable, "-m", "referee", "print", "deck", "coup",
                           "--print-shop", "--bleed", "3", "-o", str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    (w, h), *_ = page_sizes_pt(out.read_bytes())
    assert (round(w / MM_TO_PT, 2), round(h / MM_TO_PT, 2)) == (69.0, 94.0)
    page = organizer.get("/print/deck.pdf?name=coup&shop=1&bleed=3.175")
    assert page.status_code == 200 and page.mimetype == "application/pdf"
    assert len(page_sizes_pt(page.data)) == 2 * len(load_deck("coup").printed())
    refused = organizer.get("/print/deck.pdf?name=coup&shop=1&bleed=40",
                            headers={"Accept-Language": "ru"})
    assert refused.status_code == 422
    assert "Вылеты" in refused.get_data(as_text=True)
