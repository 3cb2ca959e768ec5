"""One read of a Coup table for its screen (web.py) and its API answer (api.py) alike:
the game as stored and replayed, and the seats' names from the registry, read once.

Both build what they show from :func:`data`: the seats, the log in words and a refusal
naming players by their characters come from here, each the same for HTML and JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from sqlite_utils import Database

from referee.games.coup import rules, service
from referee.games.service import Game
from referee.rules import RuleError


@dataclass(frozen=True)
class Table:
    """A Coup table as read once: the stored game (its state replayed) and the names."""

    game: Game
    names: dict[str, str]  # engine player id -> the character's name

    @property
    def state(self) -> rules.CoupState:
        return cast(rules.CoupState, self.game.state)

    def lines(self, tr: service.Translate, plurals: bool = False
              ) -> list[tuple[rules.LogEntry, str]]:
        """The table's log, oldest first: each entry and its line with names and
        characters in the reader's language (``plurals``: see service.log_line)."""
        return [(e, service.log_line(e, self.names, tr, plurals=plurals))
                for e in self.state.log]

    def in_words(self, err: RuleError) -> RuleError:
        """A refusal naming the seated players by their characters, not by their ids."""
        return service.named_error(err, self.names)


def data(db: Database, game: Game) -> Table:
    """The table with its seats' names: what both the screen and the API show."""
    return Table(game, service.names(db, game))
