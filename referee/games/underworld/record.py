"""The record of an underworld game: every step, fight and level change, in the reader's words.

Built from one replay: each live action comes with the table before and after it, so a
fight is written with its scores and every level it moved. Undone actions stay in the
record, struck through, as the action rows stay in the database.
"""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import get_locale, gettext

from referee.decks.search import Named
from referee.games.underworld import rules
from referee.games.underworld.service import Table
from referee.rules import RuleError
from referee.web.i18n import rule_message

Label = Callable[[str], str]



def card_name(card: Named | None) -> str:
    """A card's name in the reader's language."""
    if card is None:
        return "—"
    return card.name_ru if str(get_locale()) == "ru" else card.name_en


def card_text(card: object) -> str:
    if card is None:
        return ""
    return (getattr(card, "text_ru", "") if str(get_locale()) == "ru"
            else getattr(card, "text_en", ""))


def refusal(err: RuleError, names: dict[str, str]) -> str:
    """The engine's refusal in the reader's language, players named, not numbered."""
    params = dict(err.params)
    for key in ("player", "players"):
        if isinstance(value := params.get(key), str):
            params[key] = ", ".join(names.get(p.strip(), p.strip()) for p in value.split(","))
    return rule_message(RuleError(err.rule, err.message, **params))


def _signed(n: object) -> str:
    return f"{n:+d}" if isinstance(n, int) else str(n)


def _name(names: dict[str, str], pid: str) -> str:
    return names.get(pid, pid)


def _fight(action: rules.Fight, before: rules.State, names: dict[str, str], label: Label) -> str:
    bd = rules.fight_breakdown(before)
    enc = before.encounter
    if bd is None or enc is None:
        return gettext("Fight scored.")
    me = _name(names, enc.fighter)
    mine, theirs = bd.fighter.total, bd.opponent.total
    if enc.monster:
        texts = {
            "win": gettext("Fight: %(player)s %(mine)s against %(monster)s %(theirs)s: won "
                           "(U7).", player=me, mine=mine, monster=label(enc.monster),
                           theirs=theirs),
            "loss": gettext("Fight: %(player)s %(mine)s against %(monster)s %(theirs)s: lost "
                            "(U7).", player=me, mine=mine, monster=label(enc.monster),
                            theirs=theirs),
            "draw": gettext("Fight: %(player)s %(mine)s against %(monster)s %(theirs)s: a "
                            "draw (U7).", player=me, mine=mine, monster=label(enc.monster),
                            theirs=theirs)}
        return texts[bd.outcome]
    other = _name(names, enc.defender)
    if bd.outcome == "draw":
        return gettext("Challenge: %(a)s %(mine)s against %(b)s %(theirs)s: a draw (U13).",
                       a=me, b=other, mine=mine, theirs=theirs)
    return gettext("Challenge: %(a)s %(mine)s against %(b)s %(theirs)s: %(winner)s wins "
                   "(U13).", a=me, b=other, mine=mine, theirs=theirs,
                   winner=me if bd.outcome == "win" else other)


def describe(action: object, before: rules.State, after: rules.State | None,
             names: dict[str, str], label: Label) -> str:
    """One action as a sentence, from the state it was taken in (and the one it made,
    when known).

    Long on purpose: one flat branch an action type, in the order of the rules, so each
    sentence sits beside its action; splitting it would scatter them."""
    def who(pid: str) -> str:
        return _name(names, pid)

    active = who(before.players[before.active].id)
    if isinstance(action, rules.Draw):
        card = next((c for c in before.cards if c.code == action.code), None)
        step = (after or before).step
        if isinstance(card, rules.Monster):
            return gettext("Step %(step)s: %(player)s meets %(card)s, strength %(strength)s.",
                           step=step, player=active, card=label(action.code),
                           strength=card.strength)
        if isinstance(card, rules.Event):
            return gettext("Step %(step)s: %(player)s draws the event %(card)s.",
                           step=step, player=active, card=label(action.code))
        return gettext("Step %(step)s: %(player)s draws %(card)s into the inventory.",
                       step=step, player=active, card=label(action.code))
    if isinstance(action, rules.PlayCard):
        if action.replaces:
            return gettext("%(player)s plays %(card)s, replacing %(old)s (discarded, U10).",
                           player=who(action.player), card=label(action.code),
                           old=label(action.replaces))
        return gettext("%(player)s plays %(card)s.", player=who(action.player),
                       card=label(action.code))
    if isinstance(action, rules.OfferHelp):
        return gettext("%(helper)s offers to help %(fighter)s for %(card)s (U11).",
                       helper=who(action.helper), fighter=who(action.fighter),
                       card=label(action.reward))
    if isinstance(action, rules.AnswerHelp):
        offers = before.encounter.offers if before.encounter else ()
        fighter = next((o.fighter for o in offers if o.helper == action.helper), "")
        if action.accept:
            return gettext("%(fighter)s accepts the help of %(helper)s.",
                           fighter=who(fighter), helper=who(action.helper))
        return gettext("%(fighter)s refuses the help of %(helper)s.",
                       fighter=who(fighter), helper=who(action.helper))
    if isinstance(action, rules.Summon):
        if action.monster:
            return gettext("%(player)s summons %(monster)s from the inventory with %(skill)s "
                           "(U12).", player=who(action.player), monster=label(action.monster),
                           skill=label(action.skill))
        met = before.encounter.monster if before.encounter else ""
        return gettext("%(player)s hypnotises %(monster)s with %(skill)s: no fight, no level "
                       "change (U12).", player=who(action.player), monster=label(met),
                       skill=label(action.skill))
    if isinstance(action, rules.PowerUp):
        return gettext("%(player)s powers up the characteristic ability, discarding %(cards)s "
                       "(U14).", player=who(action.player),
                       cards=", ".join(label(c) for c in action.discards))
    if isinstance(action, rules.AdjustMonster):
        amount = _signed(action.amount)
        if action.card:
            return gettext("The monster's score changes by %(amount)s: %(card)s (U7).",
                           amount=amount, card=label(action.card))
        return gettext("The monster's score changes by %(amount)s (U7).", amount=amount)
    if isinstance(action, rules.Fight):
        return _fight(action, before, names, label)
    if isinstance(action, rules.Challenge):
        if before.phase == "playoff":
            return gettext("Play-off: %(a)s challenges %(b)s (U17).",
                           a=who(action.challenger), b=who(action.defender))
        return gettext("%(a)s challenges %(b)s (U13).", a=who(action.challenger),
                       b=who(action.defender))
    if isinstance(action, rules.EventLevel):
        delta = _signed(action.delta)
        return gettext("Event: %(player)s %(delta)s level.", player=who(action.player),
                       delta=delta)
    if isinstance(action, rules.EventDiscard):
        if action.in_play:
            return gettext("Event: %(player)s discards %(card)s from play.",
                           player=who(action.player), card=label(action.code))
        return gettext("Event: %(player)s discards %(card)s from the inventory.",
                       player=who(action.player), card=label(action.code))
    if isinstance(action, rules.EventGive):
        if action.in_play:
            return gettext("Event: %(giver)s gives %(card)s from play to %(receiver)s.",
                           giver=who(action.giver), card=label(action.code),
                           receiver=who(action.receiver))
        return gettext("Event: %(giver)s gives %(card)s to %(receiver)s.",
                       giver=who(action.giver), card=label(action.code),
                       receiver=who(action.receiver))
    if isinstance(action, rules.EventDraw):
        return gettext("Event: %(player)s draws one more card, %(card)s, into the inventory.",
                       player=active, card=label(action.code))
    if isinstance(action, rules.EventNoSecondStep):
        return gettext("Event: %(player)s takes no second step this turn (U6).",
                       player=active)
    if isinstance(action, rules.EventDone):
        return gettext("The event %(card)s is followed and discarded.",
                       card=label(before.event))
    if isinstance(action, rules.ChangeClass):
        return gettext("%(player)s becomes %(card)s (U9).", player=active,
                       card=label(action.code))
    if isinstance(action, rules.KeepClass):
        return gettext("%(player)s keeps the class (U9).", player=active)
    if isinstance(action, rules.EndTurn):
        if after is not None and after.phase == "cleanup":
            return gettext("%(player)s ends the turn and must discard down to 4 (U15).",
                           player=active)
        return gettext("%(player)s ends the turn.", player=active)
    if isinstance(action, rules.Discard):
        return gettext("%(player)s discards %(cards)s (U15).", player=active,
                       cards=", ".join(label(c) for c in action.codes))
    if isinstance(action, rules.Trade):
        return gettext("%(player)s gives %(gives)s to %(partner)s for %(takes)s (U10).",
                       player=who(action.player), partner=who(action.partner),
                       gives=", ".join(label(c) for c in action.gives),
                       takes=", ".join(label(c) for c in action.takes))
    return str(getattr(action, "kind", action))


def _levels(before: rules.State, after: rules.State, names: dict[str, str]) -> list[dict]:
    was = {p.id: p.level for p in before.players}
    return [{"name": _name(names, p.id), "before": was[p.id], "after": p.level}
            for p in after.players if p.level != was[p.id]]


def _parse(row: dict) -> object | None:
    try:
        return rules.action_from_dict(row["action"])
    except RuleError:
        return None


def record(table: Table, history: list[dict], names: dict[str, str], label: Label,
           limit: int | None = None) -> list[dict]:
    """The action rows, newest first (the latest ``limit`` of them): each one's sentence,
    the levels it moved, the turn it began, the winner it made; undone rows are kept and
    marked."""
    steps = table.steps()
    live = zip(steps, steps[1:], strict=False)  # each table with the one it came from
    current = steps[0].state
    cancelled = {r["undoes"] for r in history if r["undoes"]}
    shown = history[-limit:] if limit else history
    # Only the shown rows are put into words, and the rows their undo rows name.
    wanted = {r["id"] for r in shown} | {r["undoes"] for r in shown if r["undoes"]}
    by_id: dict[int, dict] = {}
    out: list[dict] = []
    for row in history:
        entry = {"seq": row["seq"], "at": row["at"], "referee": row.get("referee"),
                 "undone": row["id"] in cancelled, "undo": bool(row["undoes"]), "levels": [],
                 "turn": None, "winner": None, "text": ""}
        by_id[row["id"]] = entry
        if row["id"] in wanted:
            out.append(entry)
        if row["undoes"]:
            target = by_id.get(row["undoes"])
            entry["text"] = gettext("Undo of step %(seq)s: %(text)s",
                                    seq=target["seq"] if target else "?",
                                    text=target["text"] if target else "")
            continue
        if entry["undone"]:
            # Described against the game as it stands at that point of the record (exact
            # when the action was undone straight away, the usual case).
            action, before = _parse(row), current
            if action is None or row["id"] not in wanted:
                continue
            try:
                after = rules.apply(before, action)
            except RuleError:
                after = None
        else:
            previous, step = next(live)
            action, before, after = step.action, previous.state, step.state
            current = after
            if row["id"] not in wanted:
                continue
        entry["text"] = describe(action, before, after, names, label)
        if after is not None:
            entry["levels"] = _levels(before, after, names)
            if after.turn != before.turn and after.phase != "over":
                entry["turn"] = _name(names, after.players[after.active].id)
            if after.winner and not before.winner:
                entry["winner"] = _name(names, after.winner)
    shown_ids = {r["id"] for r in shown}
    return [by_id[r["id"]] for r in history if r["id"] in shown_ids][::-1]
