"""Where things go on an A4 sheet, in millimetres: the grid of cards or passports, the
mirrored grid of their backs, and the crop marks.

Items touch each other (one cut between two neighbours), the grid is centred on the page,
and crop marks sit in the margins only, on the prolongation of every cut line, so no mark
is ever printed on an item.
"""

from __future__ import annotations

from dataclasses import dataclass

A4 = (210.0, 297.0)
MM_TO_PT = 72 / 25.4
MARK_GAP = 2.0  # mm between an item's edge and its crop mark (a slightly off cut hides it)
MARK_LENGTH = 4.0  # mm; marks stay clear of a printer's unprintable edge


@dataclass(frozen=True)
class Grid:
    """``cols`` × ``rows`` items of ``width`` × ``height`` mm, centred on the page."""

    width: float
    height: float
    cols: int
    rows: int
    page: tuple[float, float] = A4

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def left(self) -> float:
        return (self.page[0] - self.cols * self.width) / 2

    @property
    def top(self) -> float:
        return (self.page[1] - self.rows * self.height) / 2

    def cell(self, index: int) -> tuple[int, int]:
        """(row, column) of the index-th item on a page, row by row."""
        return divmod(index % self.per_page, self.cols)

    def slot(self, index: int) -> tuple[float, float]:
        """Top-left corner of the index-th item on its face page."""
        row, col = self.cell(index)
        return self.left + col * self.width, self.top + row * self.height

    def back_slot(self, index: int, offset: tuple[float, float] = (0.0, 0.0)
                  ) -> tuple[float, float]:
        """Top-left corner of the back of the index-th item on the back page.

        Long-edge duplex turns the sheet over its vertical axis, so a face in column c
        has its back in column ``cols - 1 - c``; ``offset`` (mm, x right and y down as
        seen on the back page) corrects a printer that shifts the back side.
        """
        row, col = self.cell(index)
        mirrored = self.cols - 1 - col
        return (self.left + mirrored * self.width + offset[0],
                self.top + row * self.height + offset[1])

    def cut_lines(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The x of every vertical cut and the y of every horizontal cut."""
        xs = tuple(self.left + i * self.width for i in range(self.cols + 1))
        ys = tuple(self.top + j * self.height for j in range(self.rows + 1))
        return xs, ys

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Line segments (x1, y1, x2, y2): short marks in the margins on every cut line."""
        xs, ys = self.cut_lines()
        top, bottom = ys[0], ys[-1]
        left, right = xs[0], xs[-1]
        marks = []
        for x in xs:
            marks.append((x, top - MARK_GAP - MARK_LENGTH, x, top - MARK_GAP))
            marks.append((x, bottom + MARK_GAP, x, bottom + MARK_GAP + MARK_LENGTH))
        for y in ys:
            marks.append((left - MARK_GAP - MARK_LENGTH, y, left - MARK_GAP, y))
            marks.append((right + MARK_GAP, y, right + MARK_GAP + MARK_LENGTH, y))
        return marks

    def pages(self, count: int) -> int:
        return max(1, -(-count // self.per_page))


CARD = Grid(63.0, 88.0, 3, 3)
PASSPORT = Grid(85.6, 54.0, 2, 5)


def draw_crop_marks(pdf, grid: Grid) -> None:
    """Hairline marks (0.2 mm, black) on the current page."""
    pdf.set_draw_color(0)
    pdf.set_line_width(0.2)
    for x1, y1, x2, y2 in grid.crop_marks():
        pdf.line(x1, y1, x2, y2)
