"""Finding a card of a deck by what a referee types: its code, forgiving case, look-alike
Cyrillic letters and leading zeros ("m7", "М07" are M07), or a part of its name in either
language. Shared by the card searches of the games (the castle's drawn card, a Berserk
squad's or registered deck's card)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol, TypeVar

# Capital Cyrillic letters a printed code's Latin letter looks like, as casefolded text: a
# referee on a Russian keyboard types "М07" for M07. Codes are ASCII, names are not, so
# only the code side of a search is folded.
LOOKALIKE = str.maketrans("авекмнорстхіѕј", "abekmhopctxisj")
_CODE_KEY = re.compile(r"^([a-z]+)[\s._-]*(\d+)$")


class Named(Protocol):
    """A card as searched: read only, so frozen cards (the engines' own) are Named too."""

    @property
    def code(self) -> str: ...

    @property
    def name_en(self) -> str: ...

    @property
    def name_ru(self) -> str: ...


C = TypeVar("C", bound=Named)


def code_key(text: str) -> tuple[str, int] | None:
    """``("m", 7)`` for ``M07``, ``m7``, ``m 007`` or ``М07`` (Cyrillic М); None for text
    that is not letters then a number."""
    found = _CODE_KEY.match(text.strip().casefold().translate(LOOKALIKE))
    return (found[1], int(found[2])) if found else None


def same_code(code: str, text: str) -> bool:
    """Whether ``text`` names the card ``code``, forgiving case, look-alike Cyrillic
    letters and leading zeros ("m7" is M07)."""
    typed = text.strip().casefold()
    return code.casefold() == typed.translate(LOOKALIKE) or (
        code_key(typed) is not None and code_key(typed) == code_key(code))


def distinct(cards: Iterable[C]) -> list[C]:
    """One card per code, in order."""
    seen: dict[str, C] = {}
    for card in cards:
        seen.setdefault(card.code, card)
    return list(seen.values())


def find_cards(cards: Iterable[C], text: str) -> list[C]:
    """Cards whose code starts with ``text`` or is ``text`` with the zeros left out ("m7"
    finds M07), or whose name (either language) holds it; case does not matter."""
    needle = text.strip().casefold()
    if not needle:
        return distinct(cards)
    prefix = needle.translate(LOOKALIKE)
    return [c for c in distinct(cards) if c.code.casefold().startswith(prefix)
            or same_code(c.code, needle)
            or needle in c.name_en.casefold() or needle in c.name_ru.casefold()]


def the_card(cards: Iterable[C], text: str) -> tuple[C | None, list[C]]:
    """The one card ``text`` finds, and every card it finds: a code typed in full finds
    its card alone ("B1" is B01 even where B10–B19 start with it). Blank text finds none."""
    if not text.strip():
        return None, []
    found = find_cards(cards, text)
    exact = [c for c in found if same_code(c.code, text)]
    if len(exact) == 1:
        return exact[0], found
    return (found[0] if len(found) == 1 else None), found
