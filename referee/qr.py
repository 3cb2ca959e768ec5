"""The one QR code maker: for printed passports, the web pages, and the terminal.

Every QR code of the app is made here (nothing else imports ``qrcode``): rows of modules
for the PDF passports (:mod:`referee.printing.qr` draws them), SVG for a page, block
characters for ``referee serve``'s terminal.

Printed passports: error correction M, the best mask.
The ``qrcode`` library picks the mask the standard asks for by building the symbol eight
times, ~10 ms a code on a slow machine: 10 s for 1,000 passports before a line is drawn.
A mask only flips the data modules and rewrites the format bits, and both depend on the
version alone, never on the data. So the symbol is built once with mask 0, each other
mask is one XOR with a pattern cached per version, and the ISO/IEC 18004 penalty, scored
with bitwise operations on all rows and columns at once, picks the winner (~1.5 ms).
"""

from __future__ import annotations

import functools
import io
import re
from functools import cache

import qrcode
import qrcode.image.svg
from qrcode.constants import ERROR_CORRECT_L, ERROR_CORRECT_M

_DARK = re.compile(r"1+")
_PAD = 4  # light modules written on either side of every line (the quiet zone)


def _build(data: str, mask: int, version: int | None = None) -> qrcode.QRCode:
    code = qrcode.QRCode(version=version, error_correction=ERROR_CORRECT_M, border=0,
                         mask_pattern=mask)
    code.add_data(data)
    code.make(fit=version is None)
    return code


def _lines(modules: list[list[bool | None]]) -> list[str]:
    """Rows then columns as '0'/'1' strings."""
    rows = ["".join("1" if m else "0" for m in row) for row in modules]
    return rows + ["".join(col) for col in zip(*rows, strict=True)]


def _pack(lines: list[str]) -> int:
    """All lines in one integer, each with four light modules on either side, so one
    bitwise operation scores every row and column of a symbol at once."""
    pad = "0" * _PAD
    return int("".join(f"{pad}{line}{pad}" for line in lines), 2)


@cache
def _masks(n: int) -> tuple[int, int, int]:
    """For an n × n symbol: line width, neighbours-in-a-line mask (all 2n lines), and the
    same for the rows that have a row below them."""
    width = n + 2 * _PAD
    pair = ((1 << (n - 1)) - 1) << _PAD
    every = sum(pair << (slot * width) for slot in range(2 * n))
    rows = sum(pair << (slot * width) for slot in range(n - 1))
    return width, every, rows


def _score(packed: int, n: int) -> int:
    width, every, row_pairs = _masks(n)
    light = ~packed
    # N1: five or more alike in a line score 3, +1 for each more; a run of L modules
    # holds L-4 windows of five, and each run has one window at its end.
    alike = ~(packed ^ (packed >> 1)) & every
    five = alike & (alike >> 1) & (alike >> 2) & (alike >> 3)
    score = five.bit_count() + 2 * (five & ~(five >> 1)).bit_count()
    # N3: 1:1:3:1:1 (a palindrome, so direction does not matter) beside 4 light modules
    core = (packed & (light >> 1) & (packed >> 2) & (packed >> 3) & (packed >> 4)
            & (light >> 5) & (packed >> 6))
    quiet = light & (light >> 1) & (light >> 2) & (light >> 3)
    score += 40 * (core & ((quiet << 4) | (quiet >> 7))).bit_count()
    # N2: 3 for every 2×2 block of one colour (rows only: columns see the same blocks)
    rows = packed >> (n * width)
    down = ~(rows ^ (rows >> width))
    score += 3 * (down & (down >> 1) & ~(rows ^ (rows >> 1)) & row_pairs).bit_count()
    # N4: 10 for every 5 % the dark share is away from half
    dark = rows.bit_count()
    return score + 10 * (abs(dark * 2 - n * n) * 10 // (n * n))


def penalty(rows: list[str]) -> int:
    """ISO/IEC 18004 mask penalty N1 + N2 + N3 + N4 of a symbol given as '0'/'1' rows
    (scored as ZXing does: the quiet zone counts as light)."""
    return _score(_pack(rows + ["".join(col) for col in zip(*rows, strict=True)]), len(rows))


@cache
def _flips(version: int) -> tuple[int, ...]:
    """For each mask k, the packed modules that differ from mask 0 (same for any data)."""
    base = _pack(_lines(_build("", 0, version).modules))
    return tuple(_pack(_lines(_build("", k, version).modules)) ^ base for k in range(8))


def qr_rows(data: str) -> list[str]:
    """The symbol (no quiet zone) as rows of '0'/'1', '1' dark, with the best mask."""
    code = _build(data, 0)
    n = code.modules_count
    base = _pack(_lines(code.modules))
    # ties go to the lower mask number, as in the standard's order
    best = min((_score(base ^ flips, n), k, base ^ flips)
               for k, flips in enumerate(_flips(code.version)))[2]
    width = n + 2 * _PAD
    bits = format(best >> (n * width), f"0{n * width}b")
    return [bits[r * width + _PAD:r * width + _PAD + n] for r in range(n)]


@functools.lru_cache(maxsize=2048)
def qr_svg(data: str) -> bytes:
    """A QR code as SVG, error correction M so a creased passport still scans.

    Made once per address and kept (about 5 KB each): drawing one in pure Python is
    most of a sheet's time, and a passport's address changes only when it is reissued."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=2,
                         image_factory=qrcode.image.svg.SvgPathImage)
    code.add_data(data)
    code.make(fit=True)
    out = io.BytesIO()
    code.make_image().save(out)
    return out.getvalue()


def terminal_qr(text: str) -> str:
    """A QR code drawn with block characters, for scanning off the laptop's screen."""
    code = qrcode.QRCode(border=1, error_correction=ERROR_CORRECT_L)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
