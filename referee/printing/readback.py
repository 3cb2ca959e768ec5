"""Reading printed PDFs back, as a phone or a print shop would: rasterise the pages and
decode every QR code, or extract the text.

For tests and for checking a PDF by hand; needs pypdfium2 and zxing-cpp (test extras),
which are imported only when a function here is called.
"""

from __future__ import annotations

from referee.printing.layout import MM_TO_PT


def page_images(pdf: bytes, dpi: int = 150, pages: list[int] | None = None) -> list:
    """PIL images of the pages (all, or the given 0-based ones)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        wanted = range(len(document)) if pages is None else pages
        return [document[i].render(scale=dpi / 72).to_pil() for i in wanted]
    finally:
        document.close()


def qr_urls_per_page(pdf: bytes, dpi: int = 200) -> list[list[str]]:
    """The text of every QR code on each page, in reading order (top to bottom, left to
    right), one list per page."""
    import zxingcpp

    found = []
    for image in page_images(pdf, dpi):
        codes = zxingcpp.read_barcodes(
            image.convert("L"), formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode))
        placed = sorted(codes, key=lambda c: (round(c.position.top_left.y / (dpi / 2)),
                                              c.position.top_left.x))
        found.append([c.text for c in placed])
    return found


def page_texts(pdf: bytes) -> list[str]:
    """The extractable text of each page (what a reader copies or searches)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        out = []
        for page in document:
            text = page.get_textpage()
            out.append(text.get_text_range())
            text.close()
        return out
    finally:
        document.close()


def page_sizes_pt(pdf: bytes) -> list[tuple[float, float]]:
    """(width, height) of each page in points."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        return [tuple(page.get_size()) for page in document]
    finally:
        document.close()


def mm(points: float) -> float:
    """Points to millimetres."""
    return points / MM_TO_PT
