"""Berserk-style creature battles: card properties (B1–B9), strikes (B10–B11) and squad
building (B12–B14) and a player's deck (B14), as pure functions over frozen dataclasses.

Start a battle with ``start(squad_a, squad_b, settings)``, fold actions with
``apply(state, action)``; serialize with ``action_to_dict`` / ``action_from_dict`` and
``state_to_dict`` / ``state_from_dict``.
"""

from referee.games.berserk.rules.battle import (
    PLAYERS,
    Action,
    Battle,
    Creature,
    EndEffects,
    Modify,
    Strike,
    Tap,
    Untap,
    Wound,
    allowed,
    apply,
    attackers,
    can_strike,
    creature,
    living,
    next_attacker,
    preview,
    replay,
    start,
    targets,
    winner,
)
from referee.games.berserk.rules.cards import (
    ELEMENT_LOOK,
    ELEMENT_NAMES,
    ELEMENTS,
    NEUTRAL,
    PROPERTY_NAMES,
    Card,
    Element,
    FormatError,
    Kind,
    Locomotion,
    Look,
    SimpleStrike,
    card_from_dict,
    card_to_dict,
    compare_cost,
    fix_x,
    same_cost,
    sorted_elements,
)
from referee.games.berserk.rules.codec import (
    ACTION_TYPES,
    action_from_dict,
    action_to_dict,
    creature_to_dict,
    outcome_to_dict,
    props_to_dict,
    state_from_dict,
    state_to_dict,
)
from referee.games.berserk.rules.deck import (
    DeckSummary,
    check_deck,
    deck_problems,
    deck_summary,
    expand,
    hire_problems,
)
from referee.games.berserk.rules.mods import (
    OP_NAMES,
    AddLives,
    BecomeElement,
    GainElement,
    Halve,
    LoseElement,
    Modification,
    Overwrite,
    Properties,
    Step,
    check_mod,
    effective,
    explain,
    mod_from_dict,
    mod_to_dict,
    printed,
)
from referee.games.berserk.rules.settings import (
    PUBLISHED,
    Settings,
    settings_from_dict,
    settings_to_dict,
)
from referee.games.berserk.rules.squad import (
    SquadSummary,
    add_to_squad,
    check_squad,
    element_penalty,
    squad_problems,
    squad_summary,
)
from referee.games.berserk.rules.strike import (
    LEVEL_NAMES,
    OPEN_TABLE,
    TIE_HIGH,
    Level,
    StrikeOutcome,
    TableRow,
    is_dead,
    levels,
    options,
    resolve,
    strike_table,
    wounds,
)

__all__ = [
    "ACTION_TYPES", "ELEMENTS", "ELEMENT_LOOK", "ELEMENT_NAMES", "LEVEL_NAMES",
    "NEUTRAL", "OPEN_TABLE", "OP_NAMES", "PLAYERS", "PROPERTY_NAMES", "PUBLISHED",
    "TIE_HIGH", "Action", "AddLives", "Battle", "BecomeElement", "Card", "Creature",
    "DeckSummary", "Element", "EndEffects", "FormatError", "GainElement", "Halve",
    "Kind", "Level", "Locomotion", "Look", "LoseElement", "Modification", "Modify",
    "Overwrite", "Properties", "Settings", "SimpleStrike", "SquadSummary", "Step",
    "Strike", "StrikeOutcome", "TableRow", "Tap", "Untap", "Wound", "action_from_dict",
    "action_to_dict", "add_to_squad", "allowed", "apply", "attackers", "can_strike",
    "card_from_dict", "card_to_dict", "check_deck", "check_mod", "check_squad",
    "compare_cost", "creature", "creature_to_dict", "deck_problems", "deck_summary",
    "effective", "element_penalty", "expand", "explain", "fix_x", "hire_problems",
    "is_dead", "levels", "living", "mod_from_dict", "mod_to_dict", "next_attacker", "options",
    "outcome_to_dict", "preview", "printed", "props_to_dict", "replay", "resolve",
    "same_cost", "settings_from_dict", "settings_to_dict", "sorted_elements",
    "squad_problems", "squad_summary", "start", "state_from_dict", "state_to_dict",
    "strike_table", "targets", "winner", "wounds",
]
