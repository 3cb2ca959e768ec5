"""A player's sheet and the bounds every change must keep (D1–D4, D10).

The store applies these to the row it has just read inside its write transaction, so
a change is checked against the newest values, never against a stale screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.rules import N_, RuleError

ACTIVE, HEAVY_WOUND, DEAD = "active", "heavy_wound", "dead"
STATUSES = (ACTIVE, HEAVY_WOUND, DEAD)
# The stats a referee taps up and down, in screen order.
COUNTERS = ("hp", "chance", "cartridges", "level")
LEVEL_MIN, LEVEL_MAX = 1, 10
# Not a rule of any game: the most a passport holds and shows, the same for a new
# player, an import, a tap and the API (a tap past it is refused, never cut).
CARTRIDGES_MAX = 999


@dataclass(frozen=True)
class Sheet:
    """The numbers on a passport that play changes."""

    hp: int
    hp_max: int
    chance: int
    chance_max: int
    cartridges: int
    level: int
    status: str = ACTIVE

    def values(self) -> dict[str, Any]:
        """The fields by name (a flat copy: ``dataclasses.asdict`` recurses, and costs a
        twentieth of a tap)."""
        return dict(self.__dict__)

    def bounds_error(self) -> RuleError | None:
        """The first bound this sheet breaks, as a refusal, or None."""
        if self.hp_max < 1:
            return RuleError(None, N_("Max HP must be at least 1."))
        if not 0 <= self.hp <= self.hp_max:
            return RuleError(
                "D10",
                N_("HP must stay between 0 and the maximum %(max)s; it would be %(value)s."),
                max=self.hp_max, value=self.hp,
            )
        if self.chance_max < 0:
            return RuleError(None, N_("Max chance tokens cannot be negative."))
        if not 0 <= self.chance <= self.chance_max:
            return RuleError(
                "D8",
                N_("Chance tokens must stay between 0 and the maximum %(max)s; "
                   "they would be %(value)s."),
                max=self.chance_max, value=self.chance,
            )
        if self.cartridges < 0:
            return RuleError(
                "D4",
                N_("Cartridges cannot go below 0; they would be %(value)s."),
                value=self.cartridges,
            )
        if self.cartridges > CARTRIDGES_MAX:
            return RuleError(
                None,
                N_("A passport holds at most %(max)s cartridges; they would be %(value)s. "
                   "Give fewer."),
                max=CARTRIDGES_MAX, value=self.cartridges,
            )
        if not LEVEL_MIN <= self.level <= LEVEL_MAX:
            return RuleError(
                None,
                N_("Level must stay between 1 and 10; it would be %(value)s."),
                value=self.level,
            )
        if self.status not in STATUSES:
            return RuleError(None, N_("Unknown status."))
        return None


def _int(name: str, value: object) -> int:
    # bool is an int in Python; a JSON true must not count as +1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(None, N_("%(field)s must be a whole number."), field=name)
    return value


def adjust(sheet: Sheet, deltas: Mapping[str, object]) -> Sheet:
    """Add each delta to its stat; all of them apply, or none (bounds checked after)."""
    unknown = sorted(set(deltas) - set(COUNTERS) - {"hp_max", "chance_max"})
    if unknown:
        raise RuleError(None, N_("Unknown stat: %(field)s."), field=", ".join(unknown))
    values = {name: getattr(sheet, name) + _int(name, d) for name, d in deltas.items()}
    return _settle(sheet, values)


def set_exact(sheet: Sheet, values: Mapping[str, object]) -> Sheet:
    """Set stats to exact values, as a referee types them in."""
    unknown = sorted(set(values) - set(COUNTERS) - {"hp_max", "chance_max"})
    if unknown:
        raise RuleError(None, N_("Unknown stat: %(field)s."), field=", ".join(unknown))
    return adjust(sheet, {name: _int(name, v) - getattr(sheet, name) for name, v in values.items()})


def _settle(sheet: Sheet, values: dict[str, Any]) -> Sheet:
    if sheet.status == DEAD and any(values[k] != getattr(sheet, k) for k in values):
        raise RuleError(
            None,
            N_("This character is dead. Undo the death in the history to change their stats."),
        )
    new = replace(sheet, **values)
    error = new.bounds_error()
    if error:
        raise error
    return replace(new, status=derive_status(sheet.status, new.hp))


def derive_status(before: str, hp: int) -> str:
    """D10: 0 HP is a heavy wound; HP given back to a heavily wounded player heals them."""
    if before == DEAD:
        return DEAD
    if hp == 0:
        return HEAVY_WOUND
    return ACTIVE


def heal(sheet: Sheet) -> Sheet:
    """A heavily wounded player is healed: up to 1 HP and back in play (D10 reading)."""
    if sheet.status != HEAVY_WOUND:
        raise RuleError(None, N_("Only a heavily wounded character can be healed."))
    return replace(sheet, hp=max(sheet.hp, 1), status=ACTIVE)


def kill(sheet: Sheet) -> Sheet:
    """The referee marks the character dead (the event's bleed-out rule, D10 reading)."""
    if sheet.status == DEAD:
        raise RuleError(None, N_("This character is already dead."))
    return replace(sheet, hp=0, status=DEAD)


def revert(sheet: Sheet, changes: dict[str, dict[str, Any]]) -> Sheet:
    """Undo one event's changes on the current sheet.

    Counters move back by the event's delta, so later taps by other referees survive.
    The status goes back only if nothing has changed it since; otherwise it follows HP.
    """
    values: dict[str, Any] = {}
    for name, change in changes.items():
        if name in COUNTERS or name in ("hp_max", "chance_max"):
            before, after = int(change["before"]), int(change["after"])
            values[name] = getattr(sheet, name) - (after - before)
    new = replace(sheet, **values)
    status = changes.get("status")
    if status and sheet.status == status["after"]:
        new = replace(new, status=str(status["before"]))
    if new.status != DEAD:
        new = replace(new, status=derive_status(new.status, new.hp))
    error = new.bounds_error()
    if error:
        raise error
    return new


NUMBERS = (*COUNTERS, "hp_max", "chance_max")
_CLAMP: dict[str, tuple[int, str | int | None]] = {"hp": (0, "hp_max"), "chance": (0, "chance_max"),
          "cartridges": (0, CARTRIDGES_MAX),
          "level": (LEVEL_MIN, LEVEL_MAX), "hp_max": (1, None), "chance_max": (0, None)}


def _clamped(values: dict[str, int]) -> dict[str, int]:
    out = dict(values)
    for name in ("hp_max", "chance_max", "cartridges", "level", "hp", "chance"):
        low, high = _CLAMP[name]
        top = out[high] if isinstance(high, str) else high
        out[name] = max(low, out[name] if top is None else min(out[name], top))
    return out


def rebase(sheet: Sheet, changes: dict[str, dict[str, Any]], kind: str,
           force: bool = False) -> Sheet:
    """A change recorded against another sheet, replayed on this one (merging stations).

    Taps, game effects and undos are deltas, so changes made apart add up; a value the
    referee typed (``set``) is that value again; a death and a heal are their rule
    again. A result that breaks a bound raises the bound's RuleError (the merge holds it
    as a conflict); ``force`` (a referee's "apply anyway") clamps to the bounds instead.
    """
    if kind == "death":
        return sheet if force and sheet.status == DEAD else kill(sheet)
    if kind == "heal" and not (force and sheet.status != HEAVY_WOUND):
        return heal(sheet)
    numbers = {k: (int(c["before"]), int(c["after"])) for k, c in changes.items()
               if k in NUMBERS}
    if kind == "set":
        values = {k: after for k, (_, after) in numbers.items()}
    else:
        values = {k: getattr(sheet, k) + after - before for k, (before, after) in numbers.items()}
    base = sheet
    status = changes.get("status") or {}
    if status.get("before") == DEAD and status.get("after") != DEAD:  # an undone death
        if sheet.status != DEAD and not force:
            raise RuleError(None, N_("This character is no longer dead; the death was "
                                     "already undone or healed elsewhere."))
        base = replace(sheet, status=ACTIVE)
    if force:
        if base.status == DEAD:
            return base
        full = _clamped({k: values.get(k, getattr(base, k)) for k in NUMBERS})
        values = {k: v for k, v in full.items() if v != getattr(base, k) or k in values}
    return _settle(base, {k: values[k] for k in values})
