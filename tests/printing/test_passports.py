"""Passports and the page geometry, checked the way a phone and a print shop see them:
rasterised with pypdfium2, QR codes read back with zxing-cpp, text extracted."""

from __future__ import annotations

import itertools
import random
import secrets
from datetime import date

import pypdfium2 as pdfium
import pytest
import qrcode
import zxingcpp
from qrcode.constants import ERROR_CORRECT_M

from referee.printing import CARD, PASSPORT, passport_url, passports_pdf
from referee.printing.layout import MARK_GAP, MARK_LENGTH, MM_TO_PT
from referee.printing.passports import QR_SIZE, qr_box
from referee.printing.readback import page_images, page_sizes_pt, page_texts, qr_urls_per_page
from referee.qr import penalty, qr_rows
from referee.rules import RuleError

BASE = "http://192.168.1.10:8080"
A4_PT = (595.28, 841.89)


def make_players(count: int, **extra) -> list[dict]:
    suits = "SHDC"
    return [{"id": i + 1, "character": f"Персонаж {i + 1}", "player": f"Player {i + 1}",
             "hp_max": 3 + i % 3, "chance_max": i % 4, "cartridges": i % 7,
             "suit": suits[i % 4], "level": 1, "passport_token": secrets.token_urlsafe(24),
             **extra} for i in range(count)]


def words(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------------ QR read-back

@pytest.mark.parametrize(("count", "per_page"), [(10, [10]), (12, [10, 2])])
def test_every_qr_code_reads_back_to_exactly_its_players_url(count, per_page):
    players = make_players(count)
    pdf = passports_pdf(players, BASE, "Осенний бал")
    found = qr_urls_per_page(pdf)
    assert [len(page) for page in found] == per_page
    expected = [f"{BASE}/p/{p['passport_token']}" for p in players]
    # reading order on the sheet is the players' order, and no code is repeated
    assert [url for page in found for url in page] == expected


def test_the_qr_code_is_large_enough_with_error_correction_m():
    pdf = passports_pdf(make_players(1), BASE, "E")
    dpi = 200
    (code,) = zxingcpp.read_barcodes(page_images(pdf, dpi)[0].convert("L"))
    assert code.ec_level in ("M", "Q", "H")
    width_mm = (code.position.top_right.x - code.position.top_left.x) / dpi * 25.4
    assert QR_SIZE >= 20 and width_mm == pytest.approx(QR_SIZE, abs=0.5)


def test_passport_url_joins_base_and_token():
    assert passport_url("http://h:8080/", "abc") == "http://h:8080/p/abc"
    assert passport_url("https://event.example/ref", "abc") == "https://event.example/ref/p/abc"


def test_a_reissued_passport_prints_its_new_token():
    (player,) = make_players(1)
    old = qr_urls_per_page(passports_pdf([player], BASE, "E"))
    player = {**player, "passport_token": secrets.token_urlsafe(24)}
    new = qr_urls_per_page(passports_pdf([player], BASE, "E"))
    assert new == [[f"{BASE}/p/{player['passport_token']}"]] != old


def _naive_penalty(rows: list[str]) -> int:
    """ISO/IEC 18004 mask penalty, written out plainly (the quiet zone counts as light)."""
    n, grid = len(rows), [[int(c) for c in r] for r in rows]
    lines = grid + [[grid[i][j] for i in range(n)] for j in range(n)]
    score = 0
    for line in lines:
        run = 1
        for i in range(1, n + 1):
            if i < n and line[i] == line[i - 1]:
                run += 1
                continue
            score += run - 2 if run >= 5 else 0
            run = 1
        padded = [0] * 4 + line + [0] * 4
        for i in range(4, n + 4 - 6):
            if padded[i:i + 7] == [1, 0, 1, 1, 1, 0, 1] and (
                    padded[i - 4:i] == [0] * 4 or padded[i + 7:i + 11] == [0] * 4):
                score += 40
    score += 3 * sum(grid[i][j] == grid[i][j + 1] == grid[i + 1][j] == grid[i + 1][j + 1]
                     for i in range(n - 1) for j in range(n - 1))
    dark = sum(map(sum, grid))
    return score + 10 * (abs(dark * 2 - n * n) * 10 // (n * n))


def test_the_fast_mask_penalty_equals_the_plain_one():
    rng = random.Random(4)
    for _ in range(120):
        n, share = rng.choice([21, 25, 29, 33, 37]), rng.random()
        rows = ["".join("1" if rng.random() < share else "0" for _ in range(n))
                for _ in range(n)]
        assert penalty(rows) == _naive_penalty(rows)


def test_qr_rows_is_the_qrcode_symbol_with_the_lowest_penalty_mask():
    rng = random.Random(7)
    for _ in range(12):
        url = f"{BASE}/p/" + "".join(rng.choice("abcdefXYZ0123_-") for _ in range(32))
        symbols = []
        for mask in range(8):
            code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=mask)
            code.add_data(url)
            code.make(fit=True)
            rows = ["".join("1" if m else "0" for m in row) for row in code.modules]
            symbols.append((_naive_penalty(rows), mask, rows))
        assert qr_rows(url) == min(symbols)[2]


# -------------------------------------------------------------------------- geometry

def test_pages_are_a4_in_points():
    pdf = passports_pdf(make_players(12), BASE, "E")
    assert page_sizes_pt(pdf) == [pytest.approx(A4_PT, abs=0.01)] * 2


@pytest.mark.parametrize(("grid", "size_mm", "cells"), [
    (PASSPORT, (85.6, 54.0), (2, 5)), (CARD, (63.0, 88.0), (3, 3))])
def test_grid_items_have_their_size_in_points_and_sit_centred(grid, size_mm, cells):
    xs, ys = grid.cut_lines()
    assert (grid.cols, grid.rows) == cells
    for a, b in itertools.pairwise(xs):
        assert (b - a) * MM_TO_PT == pytest.approx(size_mm[0] * 72 / 25.4)
    for a, b in itertools.pairwise(ys):
        assert (b - a) * MM_TO_PT == pytest.approx(size_mm[1] * 72 / 25.4)
    assert xs[0] == pytest.approx(210 - xs[-1]) and ys[0] == pytest.approx(297 - ys[-1])
    assert grid.slot(grid.per_page + 1) == grid.slot(1)


def test_crop_marks_lie_in_the_margins_on_the_cut_lines():
    for grid in (PASSPORT, CARD):
        xs, ys = grid.cut_lines()
        for x1, y1, x2, y2 in grid.crop_marks():
            assert x1 == x2 in xs or y1 == y2 in ys
            # never inside the block of items
            inside_x = xs[0] < max(x1, x2) and min(x1, x2) < xs[-1]
            inside_y = ys[0] < max(y1, y2) and min(y1, y2) < ys[-1]
            assert not (inside_x and inside_y)
            assert min(x1, x2) > 0 and max(x1, x2) < 210 and 0 < min(y1, y2) < 297


def _dark_runs(values: list[int]) -> list[float]:
    """Centres (in pixels) of runs of dark pixels."""
    centres, start = [], None
    for i, v in enumerate(values + [255]):
        if v < 128 and start is None:
            start = i
        elif v >= 128 and start is not None:
            centres.append((start + i - 1) / 2)
            start = None
    return centres


def test_printed_crop_marks_sit_on_every_cut_and_stop_short_of_the_items():
    dpi = 200
    px = dpi / 25.4
    image = page_images(passports_pdf(make_players(10), BASE, "E"), dpi)[0].convert("L")
    xs, ys = PASSPORT.cut_lines()
    top, left = ys[0], xs[0]
    in_top_margin = round((top - MARK_GAP - MARK_LENGTH / 2) * px)
    row = [image.getpixel((i, in_top_margin)) for i in range(image.width)]
    assert [c / px for c in _dark_runs(row)] == pytest.approx(xs, abs=0.2)
    in_left_margin = round((left - MARK_GAP - MARK_LENGTH / 2) * px)
    column = [image.getpixel((in_left_margin, j)) for j in range(image.height)]
    assert [c / px for c in _dark_runs(column)] == pytest.approx(ys, abs=0.2)
    # between a mark and the item, and just inside the item, the paper stays white
    for x in xs:
        for y in (top - MARK_GAP / 2, top + 0.5):
            assert image.getpixel((round(x * px), round(y * px))) > 200


# --------------------------------------------------------------------------- the text

def test_cyrillic_and_latin_text_can_be_extracted():
    players = make_players(2)
    players[0].update(character="Капитан Вера Соколова", player="Анна")
    players[1].update(character="Corporal Hale", player="Tom")
    text = words(page_texts(passports_pdf(players, BASE, "Осенний бал · Autumn ball"))[0])
    for expected in ("Капитан Вера Соколова", "Анна", "Corporal Hale", "Осенний бал",
                     "Autumn ball", "Шанс", "Chance", "Патроны", "черви", "hearts"):
        assert expected in text


def test_names_with_markup_and_quotes_print_literally():
    players = make_players(1)
    players[0].update(character='<b>Барон</b> "фон" Штерн', player="**Алексей** & <i>'Лёша'</i>")
    text = words(page_texts(passports_pdf(players, BASE, "E <u>1</u>"))[0])
    assert '<b>Барон</b> "фон" Штерн' in text
    assert "**Алексей** & <i>'Лёша'</i>" in text
    assert "E <u>1</u>" in text


def test_the_stats_and_the_suit_are_printed():
    (player,) = make_players(1, hp_max=7, chance_max=3, cartridges=12, suit="D")
    text = page_texts(passports_pdf([player], BASE, "E", lang="en"))[0]
    tokens = text.split()
    assert {"7", "3", "12", "♦", "diamonds", "№", "1"} <= set(tokens)
    assert "Шанс" not in text and "Chance" in text
    russian = page_texts(passports_pdf([player], BASE, "E", lang="ru"))[0]
    assert "Шанс" in russian and "Chance" not in russian and "бубны" in russian


def _char_boxes_mm(pdf: bytes, page_index: int = 0) -> list[tuple[str, float, float, float,
                                                                    float]]:
    document = pdfium.PdfDocument(pdf)
    page = document[page_index]
    height = page.get_height()
    textpage = page.get_textpage()
    boxes = []
    for i in range(textpage.count_chars()):
        char = textpage.get_text_range(i, 1)
        if char.strip():
            left, bottom, right, top = textpage.get_charbox(i)
            boxes.append((char, left / MM_TO_PT, (height - top) / MM_TO_PT,
                          right / MM_TO_PT, (height - bottom) / MM_TO_PT))
    textpage.close()
    document.close()
    return boxes


@pytest.mark.parametrize(("character", "person"), [
    ("Великая княжна " + "Анастасия-Николаевна-Романова " * 12, "W" * 200),
    ("Сверхдлинноеимябезединогопробела" * 6, "Иван"),
])
def test_a_very_long_name_never_leaves_its_passport(character, person):
    (player,) = make_players(1, character=character, player=person)
    boxes = _char_boxes_mm(passports_pdf([player], BASE, "Событие " * 30))
    assert len(boxes) > 60
    x, y = PASSPORT.slot(0)
    for char, left, top, right, bottom in boxes:
        assert x + 2 <= left and right <= x + PASSPORT.width - 2, char
        assert y + 2 <= top and bottom <= y + PASSPORT.height - 2, char
    # nothing strays into the QR code and its quiet zone either
    qx, qy, _size = qr_box(x, y)
    assert not [b for b in boxes if b[3] > qx - 3 and b[4] > qy - 3]


# ---------------------------------------------------------------------- the interface

def test_progress_is_reported_after_every_passport():
    calls = []
    passports_pdf(make_players(12), BASE, "E", progress=lambda done, total: calls.append(
        (done, total)))
    assert calls == [(i, 12) for i in range(1, 13)]


def test_nothing_to_print_and_unknown_languages_are_refused():
    with pytest.raises(ValueError, match="no players"):
        passports_pdf([], BASE, "E")
    with pytest.raises(ValueError, match="lang"):
        passports_pdf(make_players(1), BASE, "E", lang="de")
    with pytest.raises(ValueError, match="player 1 has no passport token"):
        passports_pdf(make_players(1, passport_token=""), BASE, "E")
    with pytest.raises(RuleError) as caught:
        passports_pdf(make_players(1, suit="roses"), BASE, "E")
    assert caught.value.rule == "D3"


@pytest.mark.parametrize(("lang", "line"), [
    ("both", "Начальные значения · Starting values · 01.12.2026"),
    ("en", "Starting values, printed 01.12.2026"),
    ("ru", "Начальные значения, печать 01.12.2026"),
])
def test_the_numbers_are_labelled_starting_values_with_the_print_date(lang, line):
    pdf = passports_pdf(make_players(2), BASE, "E", lang=lang, printed=date(2026, 12, 1))
    assert words(page_texts(pdf)[0]).count(line) == 2


def test_the_print_date_is_today_by_default():
    text = words(page_texts(passports_pdf(make_players(1), BASE, "E", lang="en"))[0])
    assert f"Starting values, printed {date.today():%d.%m.%Y}" in text
