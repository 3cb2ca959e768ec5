"""Card sheets: every deck prints with its codes, faces carry what their kind needs, and
back pages mirror for long-edge duplex."""

from __future__ import annotations

import dataclasses

import pypdfium2 as pdfium
import pytest
from PIL import ImageChops

from referee.decks import Back, deck_names, load_deck, load_file
from referee.games.berserk.rules import ELEMENT_LOOK
from referee.printing import CARD, deck_pdf
from referee.printing.faces import INSET
from referee.printing.icons import colour
from referee.printing.readback import page_images, page_sizes_pt, page_texts

A4_PT = (595.28, 841.89)
DPI = 100
PX = DPI / 25.4


def one_page(deck, codes: list[str]):
    """The deck cut down to the given cards, one copy each (at most one page)."""
    cards = tuple(dataclasses.replace(deck.card(code), copies=1) for code in codes)
    return dataclasses.replace(deck, cards=cards)


def words(text: str) -> str:
    # pdfium reads a hyphen that ends a line as U+FFFE (a soft hyphen); it is printed "-"
    return " ".join(text.replace("\ufffe", "-").split())


@pytest.mark.parametrize("name", deck_names())
def test_every_deck_prints_every_card_with_its_code(name):
    deck = load_deck(name)
    pdf = deck_pdf(deck)
    printed = deck.printed()
    pages = page_texts(pdf)
    assert len(pages) == -(-len(printed) // 9)
    assert page_sizes_pt(pdf) == [pytest.approx(A4_PT, abs=0.01)] * len(pages)
    for number, text in enumerate(pages):
        on_page = printed[number * 9:number * 9 + 9]
        tokens = text.split()
        for entry in on_page:
            assert entry.code in tokens, (name, entry.code)
        # the card's own name, in Russian and English
        for entry in on_page:
            assert words(entry.name_ru) in words(text) or deck.kind == "playing"


def test_faces_carry_what_their_kind_needs():
    castle = words(page_texts(deck_pdf(one_page(load_deck("castle-sample"),
                                                ["M07", "I05", "S03", "E02"])))[0])
    for expected in ("ЧУДОВИЩЕ · MONSTER", "Привратный тролль", "Gate Troll", "5",
                     "Сила · Strength", "ПРЕДМЕТ · ITEM", "+3", "оружие · weapon",
                     "Магия · Magic", "Призыв · Summoning", "Разовое · Once",
                     "Вызов · Challenge", "Вызовите на бой любого другого игрока."):
        assert expected in castle
    coup = words(page_texts(deck_pdf(one_page(load_deck("coup"), ["CA", "AID"])))[0])
    for expected in ("Капитан", "Captain", "Действие · Power", "Блокирует · Blocks",
                     "Кражу.", "Stealing.", "Памятка", "Player aid", "Доход: +1."):
        assert expected in coup
    berserk = words(page_texts(deck_pdf(one_page(load_deck("berserk-sample"),
                                                 ["B06", "B16", "B17"])))[0])
    for expected in ("Громовой орёл", "Полёт/Flying", "2-3-3", "Жизни/Lives",
                     "Элитная/Elite", "Горы/Mountains", "X", "Артефакт/Artifact"):
        assert expected in berserk


def test_one_language_only_when_asked():
    deck = one_page(load_deck("coup"), ["DU"])
    russian = page_texts(deck_pdf(deck, lang="ru"))[0]
    english = page_texts(deck_pdf(deck, lang="en"))[0]
    assert "Герцогиня" in russian and "Duchess" not in russian
    assert "Duchess" in english and "Герцогиня" not in english


def pixels(image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return list(zip(data[0::3], data[1::3], data[2::3], strict=True))


def _red_pixels(image, box) -> int:
    crop = image.crop(tuple(round(v * PX) for v in box))
    return sum(1 for r, g, b in pixels(crop) if r > 150 and g < 90 and b < 110)


def test_D3_hearts_and_diamonds_are_red_spades_and_clubs_black():
    deck = one_page(load_deck("table36"), ["QH", "QS", "7D", "7C"])
    image = page_images(deck_pdf(deck), DPI)[0]
    reds = []
    for index in range(4):
        x, y = CARD.slot(index)
        reds.append(_red_pixels(image, (x, y, x + CARD.width, y + CARD.height)))
    assert reds[0] > 300 and reds[2] > 300 and reds[1] == 0 and reds[3] == 0


def test_B8_each_element_prints_in_its_colour():
    deck = load_deck("berserk-sample")
    single = {}
    for entry in deck.cards:
        elements = [str(e) for e in entry.card.elements] or ["neutral"]
        if len(elements) == 1:
            single.setdefault(elements[0], entry.code)
    assert sorted(single) == sorted(ELEMENT_LOOK)
    codes = list(single.values())
    image = page_images(deck_pdf(one_page(deck, codes)), DPI)[0].convert("RGB")
    for index, element in enumerate(single):
        x, y = CARD.slot(index)
        # the frame's left strip, beside the white panel, halfway down
        sample = image.getpixel((round((x + INSET + 1.2) * PX), round((y + CARD.height / 2)
                                                                       * PX)))
        assert sample == pytest.approx(colour(element), abs=6), element


# ----------------------------------------------------------------------- duplex backs

def test_back_slots_mirror_the_columns():
    assert CARD.back_slot(0) == CARD.slot(2)
    assert CARD.back_slot(2) == CARD.slot(0)
    assert CARD.back_slot(4) == CARD.slot(4)
    assert CARD.back_slot(5) == CARD.slot(3)
    x, y = CARD.back_slot(0, (1.5, -0.5))
    assert (x, y) == pytest.approx((CARD.slot(2)[0] + 1.5, CARD.slot(2)[1] - 0.5))


def _coloured_box(image, rgb) -> tuple[float, float, float, float] | None:
    """Bounding box in mm of the pixels of exactly this colour, or None if there are none."""
    # Per channel 255 where it equals the colour, then the darkest of the three: white
    # only where all match. Pillow does it in C; a Python loop takes seconds a page.
    channels = [channel.point(lambda v, want=want: 255 if v == want else 0)
                for channel, want in zip(image.convert("RGB").split(), rgb, strict=True)]
    box = ImageChops.darker(ImageChops.darker(channels[0], channels[1]), channels[2]).getbbox()
    return None if box is None else tuple(v / PX for v in box)


@pytest.mark.parametrize("offset", [(0.0, 0.0), (4.0, -2.0)])
def test_the_back_of_the_first_card_lands_in_the_last_column(offset):
    deck = one_page(load_deck("table36"), ["AS"])
    deck = dataclasses.replace(deck, back=Back("#00c000", "Рубашка"))
    pdf = deck_pdf(deck, backs=True, duplex_offset=offset)
    face, back = page_images(pdf, DPI)
    assert _coloured_box(face, (0, 192, 0)) is None
    left, top, right, bottom = _coloured_box(back, (0, 192, 0))
    x, y = CARD.slot(2)  # column 0 on the face side → column 2 on the back page
    expected = (x + INSET + offset[0], y + INSET + offset[1],
                x + CARD.width - INSET + offset[0], y + CARD.height - INSET + offset[1])
    assert (left, top, right, bottom) == pytest.approx(expected, abs=0.5)
    assert "Рубашка" in page_texts(pdf)[1]


def test_backs_follow_each_face_page():
    deck = load_deck("classes-sample")  # 13 cards: 9 + 4
    pdf = deck_pdf(deck, backs=True)
    texts = page_texts(pdf)
    assert len(texts) == 4
    assert texts[1].count("Классы") == 9 and texts[3].count("Классы") == 4
    assert "C01" in texts[0] and "C01" not in texts[1]


def test_progress_and_bad_offsets():
    calls = []
    deck_pdf("coup", progress=lambda done, total: calls.append((done, total)))
    assert calls == [(i, 27) for i in range(1, 28)]
    with pytest.raises(ValueError, match="duplex_offset"):
        deck_pdf("coup", backs=True, duplex_offset=(25, 0))
    with pytest.raises(ValueError, match="duplex_offset"):
        deck_pdf("coup", backs=True, duplex_offset="left")


def test_long_names_and_markup_stay_literal_and_inside_the_card(tmp_path):
    path = tmp_path / "odd.toml"
    path.write_text(
        '[deck]\nname = "odd"\nkind = "class"\ntitle_en = "Odd"\ntitle_ru = "Странные"\n\n'
        + "".join(f'[[cards]]\ncode = "C{i:02d}"\nname_en = "<b>Bold</b> \\"Quoted\\" {i}"\n'
                  f'name_ru = "{"Длинноеимя" * (i + 1)}"\ntext_en = "{"word " * 40 * i}"\n'
                  f'text_ru = "{"слово " * 40 * i}"\n\n' for i in range(13)),
        encoding="utf-8")
    pdf = deck_pdf(load_file(path))
    text = words(page_texts(pdf)[0])
    assert '<b>Bold</b> "Quoted" 0' in text
    document = pdfium.PdfDocument(pdf)
    page = document[0]
    textpage = page.get_textpage()
    height = page.get_height()
    slots = [CARD.slot(i) for i in range(9)]
    for i in range(textpage.count_chars()):
        if not textpage.get_text_range(i, 1).strip():
            continue
        left, bottom, right, top = (v / 72 * 25.4 for v in textpage.get_charbox(i))
        top, bottom = height / 72 * 25.4 - top, height / 72 * 25.4 - bottom
        cx, cy = (left + right) / 2, (top + bottom) / 2
        x, y = next((sx, sy) for sx, sy in slots
                    if sx <= cx < sx + CARD.width and sy <= cy < sy + CARD.height)
        assert x + INSET <= left and right <= x + CARD.width - INSET
        assert y + INSET <= top and bottom <= y + CARD.height - INSET
    textpage.close()
    document.close()
