"""What the duel's screens and its API both say: the stale notices."""

from __future__ import annotations

from referee.rules import N_

STALE_ROUND = N_("Someone else already recorded this round; the screen now shows the duel "
                 "as it stands.")
STALE_OTHER = N_("Someone else changed this duel first; the screen now shows it as it "
                 "stands.")
