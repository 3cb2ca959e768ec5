"""The underworld game's screen, its fight and preparing panels: the score board of the
pending fight and what confirming it does (U7, U8), help offers (U11), and the cards each
player may play, power up with or summon now (U10, U12, U14).

Every button is asked of the engine first; a card the rules forbid shows the engine's
reason instead.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from referee.games.service import Game
from referee.games.underworld import rules, service
from referee.games.underworld.record import card_name, refusal
from referee.games.underworld.rules.play import FIGHTING, may_prepare, sides
from referee.games.underworld.rules.state import player_of
from referee.rules import RuleError


def attempt(state: rules.State, action: object) -> tuple[rules.State | None, RuleError | None]:
    """The state after ``action``, or the refusal."""
    try:
        return rules.apply(state, action), None
    except RuleError as err:
        return None, err


class Panels:
    """The game as the screen names it, and its fight and preparing panels (the rest of
    the screen is :class:`~referee.games.underworld.view.Screen`)."""

    def __init__(self, game: Game, names: dict[str, str]) -> None:
        self.game = game
        self.table = game.state_as(service.Table)
        self.state: rules.State = self.table.state
        self.names = names
        self.cards = {c.code: c for c in self.state.cards}
        self.awaiting = rules.awaiting(self.state)
        self.legal = rules.legal_actions(self.state)

    # names ------------------------------------------------------------------------------

    def name(self, pid: str) -> str:
        return self.names.get(pid, pid)

    def card(self, code: str) -> rules.Card | None:
        return self.cards.get(code)

    def label(self, code: str) -> str:
        """``Gate Troll (M07)``."""
        return f"{card_name(self.card(code))} ({code})" if code else "—"

    def value(self, code: str) -> str:
        """What a card adds, as printed: ``+2``, ``5`` for a monster."""
        card = self.card(code)
        if isinstance(card, rules.Monster):
            return str(card.strength)
        if isinstance(card, rules.Item | rules.Skill):
            return f"{card.bonus:+d}"
        return ""

    def legal_of(self, kind: str) -> list:
        return [a for a in self.legal if a.kind == kind]

    # the fight ----------------------------------------------------------------------------

    def _line_label(self, line: rules.Line) -> str:
        if line.source == "level":
            return gettext("Level")
        if line.source == "strength":
            return gettext("Strength")
        if line.source == "ability":
            return gettext("%(ability)s, powered", ability=card_name(self.card(line.code)))
        if line.source == "ally":
            return gettext("%(monster)s, summoned ally", monster=card_name(self.card(line.code)))
        if line.source == "modifier":
            return (gettext("Modifier: %(card)s", card=card_name(self.card(line.code)))
                    if line.code else gettext("Modifier"))
        return card_name(self.card(line.code))

    def _side(self, side: rules.Side, is_monster: bool) -> dict:
        groups: list[dict] = []
        for line in side.lines:
            owner = line.player
            if not groups or groups[-1]["player"] != owner:
                helper = bool(owner) and owner != side.who
                groups.append({"player": owner, "helper": helper, "lines": [],
                               "title": self.name(owner) if owner else ""})
            groups[-1]["lines"].append({"label": self._line_label(line), "code": line.code,
                                        "value": line.value, "source": line.source})
        title = card_name(self.card(side.who)) if is_monster else self.name(side.who)
        return {"who": side.who, "title": title, "total": side.total, "groups": groups,
                "monster": is_monster}

    def fight(self) -> dict | None:
        """The score board of the pending fight, and what confirming it does (U7, U8)."""
        s = self.state
        bd, enc = rules.fight_breakdown(s), s.encounter
        if bd is None or enc is None or s.phase not in FIGHTING:  # one is None: both are
            return None
        after, err = attempt(s, rules.Fight())
        changes = self.level_changes(s, after) if after else []
        # U11: on a win the side's accepted helpers take their promised cards
        winning = (enc.fighter if bd.outcome == "win"
                   else enc.defender if bd.outcome == "loss" else "")
        rewards = [gettext("%(card)s goes to %(helper)s as the reward.",
                           card=self.label(o.reward), helper=self.name(o.helper))
                   for o in enc.offers if o.accepted and winning and o.fighter == winning]
        pending = {side.who: side for side in bd.pending}
        offers = []
        for offer in enc.offers:
            would = pending.get(offer.helper)
            offers.append({"offer": offer, "helper": self.name(offer.helper),
                           "fighter": self.name(offer.fighter),
                           "reward": self.label(offer.reward),
                           "adds": would.total if would else None})
        return {
            "monster": enc.monster, "fighter": self._side(bd.fighter, False),
            "opponent": self._side(bd.opponent, bool(enc.monster)),
            "outcome": bd.outcome, "changes": changes, "rewards": rewards,
            "error": refusal(err, self.names) if err else None, "offers": offers,
            "from_event": enc.from_event, "defender": enc.defender,
        }

    def level_changes(self, before: rules.State, after: rules.State) -> list[dict]:
        was = {p.id: p.level for p in before.players}
        return [{"name": self.name(p.id), "before": was[p.id], "after": p.level}
                for p in after.players if p.level != was[p.id]]

    def help_form(self) -> dict | None:
        """U11: who may still offer help, and the rewards each side may promise."""
        s = self.state
        enc = s.encounter
        if enc is None or s.phase not in FIGHTING or not self.legal_of("offer_help"):
            return None
        asked = {o.helper for o in enc.offers}
        helpers = [p.id for p in s.players if p.id not in sides(enc) and p.id not in asked]
        rewards = []
        for side in sides(enc):
            p = player_of(s, side)
            for code in dict.fromkeys(p.inventory + p.play_area):
                rewards.append({"value": f"{side}|{code}", "side": self.name(side),
                                "label": self.label(code)})
        return {"helpers": [(h, self.name(h)) for h in helpers], "rewards": rewards,
                "two_sides": len(sides(enc)) > 1}

    # preparing: play, power up, summon --------------------------------------------------------

    def preparers(self) -> list[dict]:
        """U10/U12/U14 for every player who may play cards now."""
        s = self.state
        out = []
        for p in s.players:
            if not may_prepare(s, p.id):
                continue
            entries = []
            for code in dict.fromkeys(p.inventory):
                entries.append(self._entry(p, code))
            power = self._power(p)
            # Shown open while something in it can be played, so that two cards are
            # played in a row without opening it again.
            playable = any(e["plays"] or e["summons"] for e in entries) or bool(
                power and not power["refusal"])
            out.append({"id": p.id, "name": self.name(p.id), "entries": entries,
                        "power": power, "summon_met": self._summon_met(p),
                        "playable": playable})
        return out

    def _entry(self, p: rules.Player, code: str) -> dict:
        s, card = self.state, self.card(code)
        entry: dict[str, Any] = {"code": code, "card": card, "count": p.inventory.count(code),
                                 "plays": [], "summons": [], "refusal": None, "hint": None}
        if isinstance(card, rules.Item | rules.Skill):
            olds = [""] + [old for old in dict.fromkeys(p.play_area)
                           if isinstance(card, rules.Item)
                           and getattr(self.card(old), "item_type", None) == card.item_type]
            first_error = None
            for old in olds:
                after, err = attempt(s, rules.PlayCard(p.id, code, old))
                if after is not None:
                    entry["plays"].append({"replaces": old,
                                           "old": self.label(old) if old else ""})
                elif first_error is None:
                    first_error = err
            if not entry["plays"] and first_error is not None:
                entry["refusal"] = refusal(first_error, self.names)
        elif isinstance(card, rules.Monster):
            entry["summons"] = [{"skill": a.skill, "label": self.label(a.skill)}
                                for a in self.legal_of("summon")
                                if a.player == p.id and a.monster == code]
            if not entry["summons"]:
                entry["hint"], entry["refusal"] = self._monster_hint(p, card)
        return entry

    def _monster_hint(self, p: rules.Player, card: rules.Monster) -> tuple[str | None, str | None]:
        """U12: what a monster card held in the inventory is for, when it cannot be
        summoned now; and the engine's reason when a fight is pending but it may not."""
        skills = [c for c in dict.fromkeys(p.play_area + p.inventory)
                  if getattr(self.card(c), "summoning", False)]
        name = self.name(p.id)
        if not skills:
            return gettext("Monster card (U12): a Summoning card brings it into a fight "
                           "%(player)s fights or helps in, adding its strength %(strength)s; "
                           "%(player)s holds no Summoning card now.",
                           player=name, strength=card.strength), None
        if self.state.phase not in FIGHTING:
            return gettext("Monster card (U12): in a fight %(player)s fights or helps in, "
                           "%(skill)s brings it in, adding its strength %(strength)s.",
                           player=name, skill=self.label(skills[0]),
                           strength=card.strength), None
        _, err = attempt(self.state, rules.Summon(p.id, skills[0], card.code))
        return None, refusal(err, self.names) if err else None

    def _power(self, p: rules.Player) -> dict | None:
        klass = self.card(p.class_card) if p.class_card else None
        if not isinstance(klass, rules.ClassCard) or not klass.ability_cost or p.ability_used:
            return None
        refused = None
        if len(p.inventory) < klass.ability_cost:
            _, err = attempt(self.state, rules.PowerUp(p.id, tuple(p.inventory)))
            refused = refusal(err, self.names) if err else None
        return {"klass": klass, "cost": klass.ability_cost, "bonus": klass.ability_bonus,
                "cards": [(i, code) for i, code in enumerate(p.inventory)],
                "refusal": refused}

    def _summon_met(self, p: rules.Player) -> list[dict]:
        """U12: hypnotise the monster just met."""
        return [{"skill": a.skill, "label": self.label(a.skill)}
                for a in self.legal_of("summon") if a.player == p.id and not a.monster]

