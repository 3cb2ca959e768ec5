"""What the Berserk-style battle screen shows: the squads, each creature's properties
with their history, the strike panel with both outcomes (B5–B11), and the record.

The routes in :mod:`referee.web.berserk` parse forms and write; this module only reads.
"""

from __future__ import annotations

from typing import Any

from flask import request
from flask_babel import get_locale, gettext
from sqlite_utils import Database

from referee.games.berserk import registered, rules, service, squads
from referee.games.berserk.rules import Strike
from referee.games.service import Game
from referee.rules import N_, RuleError
from referee.store import players
from referee.web.context import get_db
from referee.web.i18n import rule_message

# The short list of changes a referee reads off a card (B6, B9), in the order shown.
MOD_OPS = ("lives", "set_lives", "set_strike", "set_cost", "set_movement", "set_base", "halve",
           "gain", "become", "lose")
HALVABLE = ("lives", "strike", "cost", "movement")
PROPS = ("cost", "elite", "lives", "movement", "strike", "elements")
DICE = tuple(range(1, 7))
RECORD_SHOWN = 40  # the newest steps; the whole record is a tap away
NO_ROLL = "none"  # an open target that cannot answer does not roll (B11)

BAD_MODIFIER = N_("A modifier is a whole number such as -1 or 2, not %(value)s.")
PICK_SIDES = N_("Choose the attacker and its target.")
PICK_TARGET = N_("Choose the target.")
PICK_DIE = N_("Enter the attacker's die.")
PICK_DEFENCE = N_("Enter the target's die.")  # B11: it is open and answers


def card_name(card: rules.Card) -> str:
    """A card's printed name in the screen's language."""
    return card.name_ru if str(get_locale()) == "ru" else card.name_en


def card_text(card: rules.Card) -> str:
    """A card's ability text in the screen's language (the other one if only it exists)."""
    if str(get_locale()) == "ru":
        return card.text_ru or card.text_en
    return card.text_en or card.text_ru


OP_LABELS = {
    "lives": N_("+/− lives"),
    "set_lives": N_("Lives become"),
    "set_strike": N_("Strike becomes X-Y-Z"),
    "set_cost": N_("Cost becomes"),
    "set_movement": N_("Movement becomes"),
    "set_base": N_("Lives, movement, strike become"),
    "halve": N_("Halve"),
    "gain": N_("Gains an element"),
    "become": N_("Becomes an element"),
    "lose": N_("Loses an element"),
}


WORDS = {"elements": rules.ELEMENT_NAMES, "levels": rules.LEVEL_NAMES,
         "ops": rules.OP_NAMES, "props": rules.PROPERTY_NAMES, "op_labels": OP_LABELS,
         "settings": service.SETTING_LABELS, "groups": service.SETTING_GROUPS,
         "published": rules.settings_to_dict(rules.PUBLISHED),
         "sort_elements": rules.sorted_elements}


def words() -> dict:
    """The engine's names of elements, levels, changes and properties (untranslated)."""
    return WORDS


def mod_dict(mod: dict | rules.Modification) -> dict:
    """A modification as a dict (its ``op`` tells the templates what it is)."""
    return mod if isinstance(mod, dict) else rules.mod_to_dict(mod)


def player_panel(db: Database, player_id: int) -> dict:
    """For the player sheet: their registered deck (B14), squads and battles."""
    return {"deck": registered.of_player(db, player_id),
            "squads": squads.listing(db, player_id)[:10],
            "battles": service.listing(db, player_id)[:10]}


def localized(err: RuleError) -> str:
    """A refusal in the user's words; a setting's key becomes its label."""
    label = service.SETTING_LABELS.get(str(err.params.get("setting")))
    if label:
        err = RuleError(err.rule, err.message, **{**err.params, "setting": gettext(label)})
    return rule_message(err)


def number(raw: str | None, default: int = 0) -> int:
    """A die or modifier as typed (−2, +1, blank = default); RuleError otherwise (B11)."""
    text = (raw or "").strip().replace("−", "-").replace("+", "")
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise RuleError("B11", BAD_MODIFIER, value=text[:20]) from None


# The strike panel (B11) ----------------------------------------------------------------


def strike_of(picks: dict, state: rules.Battle, lower: bool = False) -> Strike:
    """The Strike the form describes; RuleError naming what is still missing."""
    if not picks["attacker"] or not picks["target"]:
        raise RuleError("B11", PICK_SIDES)
    if not picks["a_die"]:
        raise RuleError("B11", PICK_DIE)
    d_die = None if picks["d_die"] in ("", NO_ROLL) else number(picks["d_die"])
    target = next((c for c in state.creatures if c.id == picks["target"]), None)
    if target is not None and (target.tapped or target.card.strike is None):
        d_die = None  # B11: such a target does not roll; a die left in the form is moot
    return Strike(attacker=picks["attacker"], target=picks["target"],
                  attacker_die=number(picks["a_die"]), defender_die=d_die, lower=lower,
                  attacker_die_mod=number(picks["a_mod"]),
                  defender_die_mod=number(picks["d_mod"]),
                  strike_mod=number(picks["s_mod"]), answer_mod=number(picks["n_mod"]))


def fresh_picks(state: rules.Battle, last: str | None) -> dict:
    """A fresh strike panel: the next attacker already chosen (its only target too), so
    the usual strike is the target, two dice and Confirm; a tap changes either."""
    picks = {k: "" for k in ("attacker", "target", "a_die", "d_die", "a_mod", "d_mod",
                             "s_mod", "n_mod")}
    attacker = rules.next_attacker(state, last)
    if attacker:
        picks["attacker"] = attacker
        targets = rules.targets(state, attacker)
        if len(targets) == 1:
            picks["target"] = targets[0]
    return picks


def turned(state: rules.Battle, attacker: str, target: str,
           last_of: dict[str, str]) -> str:
    """The attacker once a creature of the attacker's own side is tapped as the target:
    the other side strikes it, with its next attacker (after its own latest striker,
    ``last_of``), so a strike of either side is the target, two dice and Confirm (issue
    22); the attacker as it was when that side has none."""
    ids = {c.id for c in state.creatures}
    if not attacker or target not in ids:
        return attacker
    side = rules.creature(state, attacker).owner
    if rules.creature(state, target).owner != side:
        return attacker
    other = other_side(side)
    return rules.next_attacker(state, last_of.get(other), side=other) or attacker


def other_side(side: str) -> str:
    """The side that is not ``side``."""
    return next(p for p in rules.PLAYERS if p != side)


def strike_view(state: rules.Battle, picks: dict | None, last: str | None = None,
                last_of: dict[str, str] | None = None) -> dict:
    """The strike panel: who may strike whom, which dice are awaited, both outcomes.
    Without ``picks`` (a fresh panel) the attacker after ``last`` is chosen; ``last_of``:
    each side's latest striker, for the other side's turn to strike back."""
    picks = picks or fresh_picks(state, last)
    last_of = last_of or {}
    ids = {c.id for c in state.creatures}
    attacker = picks["attacker"] if picks["attacker"] in rules.attackers(state) else ""
    attacker = turned(state, attacker, picks["target"], last_of)
    targets = rules.targets(state, attacker) if attacker else ()
    target = picks["target"] if picks["target"] in targets else ""
    picks = {**picks, "attacker": attacker, "target": target}
    t = rules.creature(state, target) if target in ids else None
    # B11: a tapped target does not roll; an artifact has no strike to answer with. Until
    # the target is chosen its die is offered, so the dice do not move when it is.
    rolls = t is None or (t.open and t.card.strike is not None)
    if t is not None and not rolls:
        picks["d_die"] = ""
    able = rules.attackers(state)
    side = rules.creature(state, attacker).owner if attacker else None
    own = tuple(i for i in able if side is None or rules.creature(state, i).owner == side)
    # The attacker's own side, a tap away as targets of the other side's next attacker.
    other = other_side(side) if side else None
    turn = tuple(c.id for c in rules.living(state, side)) if other and \
        rules.next_attacker(state, last_of.get(other), side=other) else ()
    out: dict[str, Any] = {
        "picks": picks, "attackers": able, "targets": targets, "turn": turn, "own": own,
        "target_rolls": rolls, "outcomes": (), "awaiting": None, "error": None,
        "modifiers": any(picks[k] not in ("", "0") for k in ("a_mod", "d_mod", "s_mod", "n_mod"))}
    if not attacker or not target:
        out["awaiting"] = gettext(PICK_TARGET if attacker else PICK_SIDES)
    elif not picks["a_die"]:
        out["awaiting"] = gettext(PICK_DIE)
    elif rolls and not picks["d_die"]:
        out["awaiting"] = gettext(PICK_DEFENCE)
    else:
        try:
            out["outcomes"] = service.outcomes(state, strike_of(picks, state))
        except RuleError as err:
            out["error"] = localized(err)
    a = rules.creature(state, attacker) if attacker else None
    out["sides"] = {"attacker": a, "target": t}
    if a is not None and t is not None:
        out["deaths"] = [{"target": t.wounds + o.wounds_to_target >= t.props.lives,
                          "attacker": a.wounds + o.wounds_to_attacker >= a.props.lives}
                         for o in out["outcomes"]]
    return out


# The whole screen ---------------------------------------------------------------------


def undone_now(game: Game, rec: service.Record) -> service.Entry | None:
    """The step the battle's latest row took back, when that row is an undo (the result
    an undo shows at the top of the screen)."""
    latest = game.history[-1] if game.history else None
    if not latest or not latest["undoes"]:
        return None
    return next((e for e in rec.entries if e.undone_by and e.undone_by["id"] == latest["id"]),
                None)


def creature_view(c: rules.Creature) -> dict:
    """One creature: current properties, what changed since print, each one's history."""
    props = c.props
    printed = rules.printed(c.card)
    history = {p: rules.explain(c.card, c.mods, p) for p in PROPS}
    return {
        "c": c, "props": props, "card": c.card,
        "lives_left": max(0, props.lives - c.wounds),
        "changed": {p for p in PROPS if props.get(p) != printed.get(p)},
        "history": history,
        "modified": any(len(steps) > 1 for steps in history.values()),
        "sources": sorted({m.source for m in c.mods if m.source}),
    }


def screen(game: Game, *, picks: dict | None = None, open_id: str | None = None,
           error: str | None = None, notice: str | None = None,
           wounds: str | None = None) -> dict:
    """Everything the battle templates need; ``wounds``: the open creature's wounds as
    typed, when they were refused (so the field shows them again, not 1)."""
    rec = service.record(game)
    state = rec.state
    setup = game.row["setup"]
    db = get_db()
    sides = {}
    for i, key in enumerate(service.SIDES):
        player_id = game.row["player_ids"][i] if i < len(game.row["player_ids"]) else None
        creatures = [creature_view(c) for c in state.creatures if c.owner == key]
        sides[key] = {"key": key, "player": players.get(db, player_id) if player_id else None,
                      "squad": setup[key], "creatures": creatures,
                      "alive": sum(1 for v in creatures if not v["c"].dead)}
    names = {c.id: c for c in state.creatures}
    live = rec.live
    entries = list(reversed(rec.entries))
    whole_record = request.args.get("record") == "all"
    strikers = [e.action.attacker for e in live if isinstance(e.action, Strike)]
    last_striker = strikers[-1] if strikers else None
    last_of = {rules.creature(state, a).owner: a for a in strikers}  # each side's latest
    return {
        "g": game, "state": state, "sides": sides, "names": names,
        "winner": rules.winner(state),
        "strike": strike_view(state, picks, last_striker, last_of),
        "entries": entries if whole_record else entries[:RECORD_SHOWN],
        "record_total": len(entries), "last": live[-1] if live else None,
        "undone": undone_now(game, rec),
        "settings_changed": service.changed_settings(state.settings),
        "open_id": open_id, "error": error, "notice": notice, "wounds_typed": wounds,
        "mod_ops": MOD_OPS, "halvable": HALVABLE, "elements": rules.ELEMENTS,
        "dice": DICE, "no_roll": NO_ROLL,
    }
