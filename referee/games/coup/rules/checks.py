"""Coup: checks shared by the turn flow and the queries (who, which card, how many)."""

from __future__ import annotations

from referee.games.coup.rules.model import CHARACTERS, CoupState, Player
from referee.rules import N_, RuleError


def seat(state: CoupState, pid: object) -> Player:
    """The seat of ``pid``, refusing an unknown or malformed id."""
    if isinstance(pid, str):
        for p in state.players:
            if p.id == pid:
                return p
    raise RuleError(
        "C1",
        N_("Unknown player %(player)s; choose one of %(players)s."),
        player=str(pid),
        players=", ".join(p.id for p in state.players),
    )


def living(state: CoupState, pid: object, rule: str) -> Player:
    """The seat of ``pid``, who must still have a face-down card (C9)."""
    p = seat(state, pid)
    if not p.alive:
        raise RuleError(
            rule,
            N_("%(player)s is out of the game; choose a player who still has influence."),
            player=p.id,
        )
    return p


def character_in_play(state: CoupState, character: object) -> str:
    """``character`` as a known character code of this game (C1)."""
    if not isinstance(character, str) or character not in CHARACTERS:
        raise RuleError(
            "C1",
            N_("Unknown character %(character)s; choose one of %(characters)s."),
            character=str(character),
            characters=", ".join(state.in_play),
        )
    if character not in state.in_play:
        # C1: a game uses the Ambassador or the Inquisitor, never both.
        if character == "ambassador":
            raise RuleError(
                "C1",
                N_("The Ambassador is not in this game (it uses the Inquisitor); "
                   "choose a character that is in play."),
            )
        raise RuleError(
            "C1",
            N_("The Inquisitor is not in this game (it uses the Ambassador); "
               "choose a character that is in play."),
        )
    return character


def copies_left(state: CoupState, character: str) -> int:
    """Copies of ``character`` that may still be shown or turned face up (C1).

    A card shown to win a challenge is still counted while its challenger pays: it was
    in the claimant's hand, so the challenger cannot hold it.
    """
    shown = 1 if state.shown == character else 0
    return state.copies - state.face_up_count(character) - shown


def check_copies(state: CoupState, character: str) -> None:
    """Refuse a card the table cannot hold any more (C1 card counting)."""
    if copies_left(state, character) <= 0:
        raise RuleError(
            "C1",
            N_("All %(copies)s copies of this character are already face up or shown, "
               "so this card cannot be it; record the card actually on the table."),
            copies=state.copies,
        )


def need_bool(value: object, field: str) -> bool:
    """A yes/no field of an action, refusing anything but a bool."""
    if not isinstance(value, bool):
        raise RuleError(
            "C4",
            N_("The field %(field)s must be yes or no; send true or false."),
            field=field,
        )
    return value
