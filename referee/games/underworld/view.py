"""What the castle-game screen shows, computed from the folded game (no Flask routes here).

Everything the referee may tap is asked of the engine first: a button is offered only
for an action ``apply`` accepts now, and an inventory card the rules forbid is shown with
the engine's reason (U10) instead of a button.
"""

from __future__ import annotations

from collections import Counter

from flask_babel import gettext, ngettext

from referee.games import service as games
from referee.games.underworld import rules as uw
from referee.games.underworld import service
from referee.games.underworld.record import card_name, card_text, record, refusal  # noqa: F401
from referee.games.underworld.rules.play import FIGHTING, may_prepare, sides
from referee.games.underworld.rules.state import MAX_LEVEL
from referee.rules import RuleError

KIND_ORDER = ("monster", "item", "skill", "event")


def attempt(state: uw.State, action: object) -> tuple[uw.State | None, RuleError | None]:
    """The state after ``action``, or the refusal."""
    try:
        return uw.apply(state, action), None
    except RuleError as err:
        return None, err


class Screen:
    """The data behind one render of a castle game."""

    def __init__(self, game: games.Game, names: dict[str, str]) -> None:
        self.game = game
        self.table: service.Table = game.state
        self.state: uw.State = self.table.state
        self.names = names
        self.cards = {c.code: c for c in self.state.cards}
        self.awaiting = uw.awaiting(self.state)
        self.legal = uw.legal_actions(self.state)

    # names ------------------------------------------------------------------------------

    def name(self, pid: str) -> str:
        return self.names.get(pid, pid)

    def card(self, code: str) -> object:
        return self.cards.get(code)

    def label(self, code: str) -> str:
        """``Gate Troll (M07)``."""
        return f"{card_name(self.card(code))} ({code})" if code else "—"

    def value(self, code: str) -> str:
        """What a card adds, as printed: ``+2``, ``5`` for a monster."""
        card = self.card(code)
        if isinstance(card, uw.Monster):
            return str(card.strength)
        if isinstance(card, uw.Item | uw.Skill):
            return f"{card.bonus:+d}"
        return ""

    def legal_of(self, kind: str) -> list:
        return [a for a in self.legal if a.kind == kind]

    # the turn ---------------------------------------------------------------------------

    def headline(self) -> str:
        s, aw = self.state, self.awaiting
        who = self.name(aw.player)
        if s.phase == "draw":
            return gettext("Step %(step)s: draw the top castle card and show it (U5).",
                           step=s.step)
        if s.phase == "step_over":
            if aw.may_step_again and self.legal_of("draw"):
                return gettext("Step 1 is over: %(player)s may step into the castle again "
                               "or end the turn (U6).", player=who)
            if not s.may_step and self.event_ended_steps():
                return gettext("The event ended the steps: no second step this turn (U6); "
                               "end the turn.")
            if not s.may_step:
                return gettext("No further step after a lost fight (U6): end the turn.")
            if s.step >= 2:
                return gettext("Two steps taken: end the turn (U6).")
            return gettext("The step is over: end the turn.")
        if s.phase == "fight":
            return gettext("Fight the monster (U7): play cards, accept help, then confirm "
                           "the fight.")
        if s.phase == "event":
            return gettext("Read the event aloud and follow it, then end it (U5).")
        if s.phase == "challenge":
            return gettext("Challenge between players (U13): the defender may play cards "
                           "before the scores are compared.")
        if s.phase == "class_change":
            return gettext("Two fights won in a row (U9): draw a class card or keep the "
                           "class.")
        if s.phase == "cleanup":
            return ngettext("End of the turn (U15): discard %(count)s card to keep 4.",
                            "End of the turn (U15): discard %(count)s cards to keep 4.",
                            aw.discard, count=aw.discard)
        if s.phase == "playoff":
            return gettext("Play-off (U17): %(player)s challenges another level-10 player "
                           "instead of stepping into the castle.", player=who)
        return gettext("%(player)s wins the game!", player=self.name(s.winner))

    def event_ended_steps(self) -> bool:
        """U6: whether an event, not a lost fight, ended this turn's steps."""
        table, turn = self.table, self.state.turn
        while table.previous is not None and table.state.turn == turn:
            if isinstance(table.action, uw.EventNoSecondStep):
                return True
            table = table.previous
        return False

    def allowed_now(self) -> list[str]:
        """"What is allowed now", one line per kind of action, with who takes it."""
        labels = {
            "draw": gettext("draw a castle card"), "play": gettext("play a card"),
            "offer_help": gettext("offer help"), "answer_help": gettext("answer a help offer"),
            "summon": gettext("summon a monster"), "power_up": gettext("power up"),
            "fight": gettext("confirm the fight"), "challenge": gettext("challenge"),
            "event_level": gettext("change a level (event)"),
            "event_done": gettext("end the event"),
            "change_class": gettext("draw a class card"),
            "keep_class": gettext("keep the class"), "end_turn": gettext("end the turn"),
            "discard": gettext("discard"), "trade": gettext("trade cards"),
            "adjust_monster": gettext("change the monster's score"),
            "event_discard": gettext("discard a card (event)"),
            "event_give": gettext("give a card (event)"),
            "event_draw": gettext("draw one more card (event)"),
            "event_no_second_step": gettext("no second step (event)"),
        }
        who: dict[str, list[str]] = {}
        for option in uw.allowed(self.state):
            people = who.setdefault(option.action, [])
            if option.player and self.name(option.player) not in people:
                people.append(self.name(option.player))
        return [f"{labels.get(kind, kind)}" + (f" ({', '.join(people)})" if people else "")
                for kind, people in who.items()]

    def banners(self) -> list[str]:
        s = self.state
        if s.phase == "over":
            return []
        tens = [p.id for p in s.players if p.level == MAX_LEVEL]
        if s.playoff:
            return [gettext("Play-off (U17): %(players)s are at level 10; on their turn each "
                            "challenges another until one is left.",
                            players=", ".join(self.name(p) for p in tens))]
        return [gettext("%(player)s reached level 10! They win when their next turn begins "
                        "unless another player reaches level 10 before then (U16).",
                        player=self.name(p)) for p in tens]

    # seats --------------------------------------------------------------------------------

    def seats(self) -> list[dict]:
        s = self.state
        out = []
        for index, p in enumerate(s.players):
            klass = self.card(p.class_card) if p.class_card else None
            out.append({
                "id": p.id, "name": self.name(p.id), "player": p, "level": p.level,
                "active": index == s.active, "klass": klass,
                "registry_id": self.table.seats[index],
                "fighting": bool(s.encounter) and p.id in sides(s.encounter),
            })
        return out

    # the fight ----------------------------------------------------------------------------

    def _line_label(self, line: uw.Line) -> str:
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

    def _side(self, side: uw.Side, is_monster: bool) -> dict:
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
        bd = uw.fight_breakdown(s)
        if bd is None or s.phase not in FIGHTING:
            return None
        enc = s.encounter
        after, err = attempt(s, uw.Fight())
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

    def level_changes(self, before: uw.State, after: uw.State) -> list[dict]:
        was = {p.id: p.level for p in before.players}
        return [{"name": self.name(p.id), "before": was[p.id], "after": p.level}
                for p in after.players if p.level != was[p.id]]

    def help_form(self) -> dict | None:
        """U11: who may still offer help, and the rewards each side may promise."""
        s = self.state
        if s.phase not in FIGHTING or not self.legal_of("offer_help"):
            return None
        enc = s.encounter
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
            # played in a row without opening it again (issue 11, point 3).
            playable = any(e["plays"] or e["summons"] for e in entries) or bool(
                power and not power["refusal"])
            out.append({"id": p.id, "name": self.name(p.id), "entries": entries,
                        "power": power, "summon_met": self._summon_met(p),
                        "playable": playable})
        return out

    def _entry(self, p: uw.Player, code: str) -> dict:
        s, card = self.state, self.card(code)
        entry = {"code": code, "card": card, "count": p.inventory.count(code), "plays": [],
                 "summons": [], "refusal": None, "hint": None}
        if isinstance(card, uw.Item | uw.Skill):
            olds = [""] + [old for old in dict.fromkeys(p.play_area)
                           if isinstance(card, uw.Item)
                           and getattr(self.card(old), "item_type", None) == card.item_type]
            first_error = None
            for old in olds:
                after, err = attempt(s, uw.PlayCard(p.id, code, old))
                if after is not None:
                    entry["plays"].append({"replaces": old,
                                           "old": self.label(old) if old else ""})
                elif first_error is None:
                    first_error = err
            if not entry["plays"] and first_error is not None:
                entry["refusal"] = refusal(first_error, self.names)
        elif isinstance(card, uw.Monster):
            entry["summons"] = [{"skill": a.skill, "label": self.label(a.skill)}
                                for a in self.legal_of("summon")
                                if a.player == p.id and a.monster == code]
            if not entry["summons"]:
                entry["hint"], entry["refusal"] = self._monster_hint(p, card)
        return entry

    def _monster_hint(self, p: uw.Player, card: uw.Monster) -> tuple[str | None, str | None]:
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
        _, err = attempt(self.state, uw.Summon(p.id, skills[0], card.code))
        return None, refusal(err, self.names) if err else None

    def _power(self, p: uw.Player) -> dict | None:
        klass = self.card(p.class_card) if p.class_card else None
        if not isinstance(klass, uw.ClassCard) or not klass.ability_cost or p.ability_used:
            return None
        refused = None
        if len(p.inventory) < klass.ability_cost:
            _, err = attempt(self.state, uw.PowerUp(p.id, tuple(p.inventory)))
            refused = refusal(err, self.names) if err else None
        return {"klass": klass, "cost": klass.ability_cost, "bonus": klass.ability_bonus,
                "cards": [(i, code) for i, code in enumerate(p.inventory)],
                "refusal": refused}

    def _summon_met(self, p: uw.Player) -> list[dict]:
        """U12: hypnotise the monster just met."""
        return [{"skill": a.skill, "label": self.label(a.skill)}
                for a in self.legal_of("summon") if a.player == p.id and not a.monster]

    # the other panels ---------------------------------------------------------------------

    def draw_options(self, query: str = "") -> list[dict]:
        """The castle cards that can be drawn now, grouped by kind, filtered by code or name."""
        s = self.state
        codes = {a.code for a in self.legal_of("draw") + self.legal_of("event_draw")}
        if not codes:
            return []
        pool = Counter(s.castle or s.discard)
        found = {c.code for c in service.find_cards(
            (self.cards[code] for code in sorted(codes)), query)}
        groups = []
        for kind in KIND_ORDER:
            items = [{"code": code, "card": self.cards[code], "left": pool[code],
                      "value": self.value(code)}
                     for code in sorted(found) if self.cards[code].kind == kind]
            if items:
                groups.append({"kind": kind, "cards": items})
        return groups

    def challenges(self) -> list[tuple[str, str, str, str]]:
        return [(a.challenger, self.name(a.challenger), a.defender, self.name(a.defender))
                for a in self.legal_of("challenge")]

    def event_form(self) -> dict | None:
        """U5: what an event may do to cards and steps: each card a player holds (the
        active player first; in play or in the inventory), who may receive one, and whether
        the second step can still be cancelled."""
        s = self.state
        if s.phase != "event":
            return None
        order = s.players[s.active:] + s.players[:s.active]
        held = []
        for p in order:
            options = [{"value": f"{p.id}|{code}|play", "label": self.label(code),
                        "in_play": True} for code in dict.fromkeys(p.play_area)]
            options += [{"value": f"{p.id}|{code}|", "label": self.label(code),
                         "in_play": False} for code in dict.fromkeys(p.inventory)]
            if options:
                held.append({"id": p.id, "name": self.name(p.id), "cards": options})
        nxt = s.players[(s.active + 1) % len(s.players)].id
        return {"held": held,
                "receivers": [(p.id, self.name(p.id), p.id == nxt) for p in s.players],
                "no_step": bool(self.legal_of("event_no_second_step")),
                "steps_over": not s.may_step}

    def class_options(self) -> list[object]:
        return [self.cards[a.code] for a in self.legal_of("change_class")]

    def trade_form(self) -> list[dict] | None:
        holders = [p for p in self.state.players if p.inventory]
        if len(holders) < 2 or self.state.phase == "over":
            return None
        return [{"id": p.id, "name": self.name(p.id),
                 "cards": [(f"{p.id}:{code}", self.label(code)) for code in p.inventory]}
                for p in holders]

    def cleanup(self) -> list[tuple[int, str]]:
        if self.state.phase != "cleanup":
            return []
        return list(enumerate(self.state.players[self.state.active].inventory))

    def record(self, limit: int | None = None) -> list[dict]:
        return record(self.table, self.game.history, self.names, self.label, limit)


def player_of(state: uw.State, pid: str) -> uw.Player:
    return next(p for p in state.players if p.id == pid)
