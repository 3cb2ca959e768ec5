"""The coin game's deck kind: a card is a coin with its two faces' names."""

from __future__ import annotations

from dataclasses import dataclass

from referee.decks.kinds import Problem
from referee.printing.pdf import text_box


@dataclass(frozen=True)
class CoinCard:
    code: str
    name_en: str
    name_ru: str


def card(code: str, fields: dict) -> CoinCard:
    names = {k: fields.get(k) for k in ("name_en", "name_ru")}
    for key, value in names.items():
        if not isinstance(value, str) or not value.strip():
            raise Problem("card %(code)s: %(key)s is missing; add it", key, code=code, key=key)
    return CoinCard(code, **names)


def face(pdf, card: CoinCard, x: float, y: float, lang: str) -> None:
    text_box(pdf, f"{card.name_en} / {card.name_ru}", x + 5, y + 5, 50, 10, size=12)
