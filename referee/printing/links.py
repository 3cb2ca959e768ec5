"""What a passport's QR code holds, without the PDF machinery (fpdf2 loads only when a
PDF is made, so the app starts faster)."""

from __future__ import annotations


def passport_url(base_url: str, token: str) -> str:
    """What the QR code holds: the player's own sheet."""
    return f"{base_url.rstrip('/')}/p/{token}"
