"""What to print: the players' passports with the event's settings, or a deck file."""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database

from referee.rules import N_, RuleError
from referee.store import players, settings

Progress = Callable[[int, int], None]
LANGS = ("both", "ru", "en")


def chosen_players(db: Database, ids: list[int] | None) -> list[dict]:
    """All players, or the chosen ones in the order given; an unknown id is refused."""
    if not ids:
        return players.search(db, "", limit=100_000)
    return [players.existing(db, player_id) for player_id in ids]


def passports(db: Database, base_url: str, ids: list[int] | None = None,
              lang: str = "both", progress: Progress | None = None) -> bytes:
    """The passports PDF; each QR code carries the player's current token."""
    from referee.printing import passports_pdf

    chosen = chosen_players(db, ids)
    if not chosen:
        raise RuleError(None, N_("There are no players to print yet."))
    return passports_pdf(chosen, base_url, settings.get(db, "event_name"),
                         progress=progress, lang=lang)


def deck(name: str, backs: bool = False, offset: tuple[float, float] = (0.0, 0.0),
         lang: str = "both", progress: Progress | None = None) -> bytes:
    """A deck's card sheets, with mirrored backs if asked."""
    from referee.printing import deck_pdf

    for value in offset:
        if not -10 <= value <= 10:
            raise RuleError(None, N_("The duplex offset must be between -10 and 10 mm."))
    return deck_pdf(name, backs=backs, duplex_offset=offset, progress=progress, lang=lang)


BAD_BLEED = N_("The bleed is between 0 and 10 mm (print shops ask for about 3).")


def shop_deck(name: str, bleed: float, lang: str = "both",
              progress: Progress | None = None) -> bytes:
    """A deck for a print shop: one card a page with its bleed, fronts and backs in turn."""
    from referee.printing.shop import MAX_BLEED, shop_pdf

    if not 0 <= bleed <= MAX_BLEED:
        raise RuleError(None, BAD_BLEED)
    return shop_pdf(name, bleed=bleed, lang=lang, progress=progress)
