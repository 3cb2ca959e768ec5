"""The published-rules numbers of B11–B14, as settings an event may change.

The defaults are the published values. An organizer's choice is stored as a dict
(``settings_to_dict``) and read back with ``settings_from_dict``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from referee.games.berserk.rules.cards import FormatError


@dataclass(frozen=True)
class Settings:
    """Numbers the strike and squad rules use; defaults follow the published rules."""

    # B11: on a target that does not roll, A >= tapped_medium_from is medium, A >=
    # tapped_strong_from strong, anything lower weak.
    tapped_medium_from: int = 4
    tapped_strong_from: int = 6
    # B11: on a tie (Δ 0) an attacker's roll of at least this lets the target answer weak.
    tie_answer_from: int = 5
    # B11 (reading): a creature that strikes taps; so it must be open to strike.
    strike_taps_attacker: bool = True
    # B12: crystals of the first and of the second player.
    first_gold: int = 24
    first_silver: int = 22
    second_gold: int = 25
    second_silver: int = 23
    # B13: gold lost for each different element beyond the first.
    element_penalty: int = 1
    # B14: all flyers of a squad together, and the deck limits.
    flyer_cost_limit: int = 15
    deck_min: int = 30
    deck_max: int = 50
    max_copies: int = 3
    max_unique_copies: int = 1

    def crystals(self, first_player: bool) -> tuple[int, int]:
        """B12: (gold, silver) for the first or the second player."""
        if first_player:
            return self.first_gold, self.first_silver
        return self.second_gold, self.second_silver


PUBLISHED = Settings()


def settings_to_dict(settings: Settings) -> dict[str, Any]:
    """All settings as a flat JSON-friendly dict."""
    return asdict(settings)


def settings_from_dict(d: Any) -> Settings:
    """Read settings; missing keys keep the published value. ValueError names a bad key."""
    if not isinstance(d, dict):
        raise FormatError("settings must be a table of numbers")
    known = {f.name: f for f in fields(Settings)}
    unknown = sorted(set(d) - set(known))
    if unknown:
        raise FormatError(f"unknown setting(s): {', '.join(map(repr, unknown))}")
    for key, value in d.items():
        if known[key].type == "bool":
            if not isinstance(value, bool):
                raise FormatError(f"setting {key!r} must be true or false, got {value!r}")
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise FormatError(f"setting {key!r} must be a whole number >= 0, got {value!r}")
    settings = Settings(**d)
    if settings.deck_min > settings.deck_max:
        raise FormatError("setting 'deck_min' must not exceed 'deck_max'")
    if settings.tapped_medium_from > settings.tapped_strong_from:
        raise FormatError("setting 'tapped_medium_from' must not exceed 'tapped_strong_from'")
    return settings
