"""What the underworld game's screen shows, computed from the folded game (no Flask routes
here): the turn, the seats and the panels around them; the fight and the preparing of
cards are in panels.py.

Everything the referee may tap is asked of the engine first: a button is offered only
for an action ``apply`` accepts now, and an inventory card the rules forbid is shown with
the engine's reason (U10) instead of a button.
"""

from __future__ import annotations

from collections import Counter

from flask_babel import gettext, ngettext
from sqlite_utils import Database

from referee.games.service import Game
from referee.games.underworld import rules, service
from referee.games.underworld.panels import Panels
from referee.games.underworld.record import card_name, card_text, record, refusal  # noqa: F401
from referee.games.underworld.rules.play import sides
from referee.games.underworld.rules.state import MAX_LEVEL

KIND_ORDER = ("monster", "item", "skill", "event")


class Screen(Panels):
    """The data behind one render of an underworld game."""

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
            if isinstance(table.action, rules.EventNoSecondStep):
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
        for option in rules.allowed(self.state):
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
                "fighting": s.encounter is not None and p.id in sides(s.encounter),
            })
        return out

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


def data(db: Database, game: Game) -> Screen:
    """One read of a game, its seats' names included, for its screen (web.py) and its API
    answer (api.py) alike."""
    return Screen(game, service.names(db, game.state_as(service.Table).seats))
