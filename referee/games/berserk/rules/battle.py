"""A battle between two squads in play: state, actions and ``apply``.

Creatures (and artifacts) have stable instance ids, "a1", "a2", … for the first player
and "b1", … for the second, in squad order. Each carries its printed card, its
modifications in order (B6, B9), its wounds (B10) and whether it is tapped (B11).
There are no turns here: the referee enters what happened at the table, in order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from referee.games.berserk.rules.cards import Card, FormatError, Kind
from referee.games.berserk.rules.mods import Modification, Properties, check_mod, effective
from referee.games.berserk.rules.settings import PUBLISHED, Settings
from referee.games.berserk.rules.squad import check_squad
from referee.games.berserk.rules.strike import StrikeOutcome, is_dead, options, resolve
from referee.rules import N_, RuleError

PLAYERS = ("a", "b")
WOUND_LIMIT = 99
UNKNOWN_ACTION = N_("Unknown action; enter a modification, an end of effects, a strike, "
                    "wounds, a tap or an untap.")


@dataclass(frozen=True)
class Creature:
    """One card in play. ``dead`` follows from wounds and current lives (B10)."""

    id: str
    owner: str
    card: Card
    mods: tuple[Modification, ...] = ()
    wounds: int = 0
    tapped: bool = False

    @property
    def props(self) -> Properties:
        return effective(self.card, self.mods)

    @property
    def dead(self) -> bool:
        return is_dead(self.wounds, self.props.lives)

    @property
    def open(self) -> bool:
        return not self.tapped


@dataclass(frozen=True)
class Battle:
    """The whole battle. ``last_strike`` is what the latest action did if it was a strike."""

    creatures: tuple[Creature, ...]
    settings: Settings = PUBLISHED
    last_strike: StrikeOutcome | None = None


@dataclass(frozen=True)
class _OnCreature:
    """An action on one living creature (every action but a strike): ``creature`` is its
    id, "a1", "b2", …"""

    creature: str


@dataclass(frozen=True)
class Modify(_OnCreature):
    """An effect changes a creature's properties or elements (B6, B9)."""

    modification: Modification


@dataclass(frozen=True)
class EndEffects(_OnCreature):
    """The effects one source put on a creature end (B7: only that very source's)."""

    source: str


@dataclass(frozen=True)
class Strike:
    """A simple strike as rolled at the table (B11).

    ``defender_die`` is None when the target does not roll (tapped, an artifact, or it
    cannot answer). ``lower`` is the stronger side's choice to lower both strikes.
    """

    attacker: str
    target: str
    attacker_die: int
    defender_die: int | None = None
    lower: bool = False
    attacker_die_mod: int = 0
    defender_die_mod: int = 0
    strike_mod: int = 0
    answer_mod: int = 0


@dataclass(frozen=True)
class Wound(_OnCreature):
    """Wounds from anything but a simple strike, e.g. a card's ability (B10)."""

    amount: int


@dataclass(frozen=True)
class Tap(_OnCreature):
    """The creature is tapped (turned), e.g. by an effect (B11)."""


@dataclass(frozen=True)
class Untap(_OnCreature):
    """The creature is open again (B11)."""


Action = Modify | EndEffects | Strike | Wound | Tap | Untap


def start(squad_a: Iterable[Card], squad_b: Iterable[Card], settings: Settings = PUBLISHED,
          check: bool = True) -> Battle:
    """Put both squads in play; ``check`` refuses a squad breaking B12–B14 first."""
    squads = (tuple(squad_a), tuple(squad_b))
    if not isinstance(settings, Settings):
        raise FormatError("settings must be a Settings")
    for owner, squad in zip(PLAYERS, squads, strict=True):
        if any(not isinstance(card, Card) for card in squad):
            raise FormatError(f"squad {owner} must hold cards only")
        if check:
            check_squad(squad, settings, first_player=owner == "a")
    return Battle(
        creatures=tuple(Creature(f"{owner}{i}", owner, card)
                        for owner, squad in zip(PLAYERS, squads, strict=True)
                        for i, card in enumerate(squad, start=1)),
        settings=settings,
    )


def replay(squad_a: Iterable[Card], squad_b: Iterable[Card], actions: Iterable[Action],
           settings: Settings = PUBLISHED, check: bool = True) -> Battle:
    """Start a battle and fold ``actions`` into it: how a stored battle is rebuilt."""
    state = start(squad_a, squad_b, settings, check)
    for action in actions:
        state = apply(state, action)
    return state


def creature(state: Battle, creature_id: object) -> Creature:
    """The creature with this instance id (B7: the id means this very card)."""
    for c in state.creatures:
        if c.id == creature_id:
            return c
    raise RuleError("B7", N_("There is no creature %(creature)s in this battle; pick one of "
                             "%(ids)s."), creature=str(creature_id)[:20],
                    ids=", ".join(c.id for c in state.creatures))


def _living(state: Battle, creature_id: object) -> Creature:
    c = creature(state, creature_id)
    if c.dead:
        raise RuleError("B10", N_("%(creature)s is dead; choose a living creature."),
                        creature=c.id)
    return c


def living(state: Battle, owner: str | None = None) -> tuple[Creature, ...]:
    """Creatures still alive, of one side or of both."""
    return tuple(c for c in state.creatures
                 if not c.dead and (owner is None or c.owner == owner))


def winner(state: Battle) -> str | None:
    """The side left with living creatures when the other has none; "draw" when neither
    has; None while both fight on. (A reading: the rules page names no victory.)"""
    alive = {owner: bool(living(state, owner)) for owner in PLAYERS}
    if all(alive.values()):
        return None
    if not any(alive.values()):
        return "draw"
    return "a" if alive["a"] else "b"


def can_strike(state: Battle, c: Creature) -> bool:
    """B11: a living creature with a strike; open, if striking taps (setting)."""
    return (not c.dead and c.card.kind is Kind.CREATURE
            and (c.open or not state.settings.strike_taps_attacker))


def attackers(state: Battle) -> tuple[str, ...]:
    """Ids of creatures that may strike now."""
    return tuple(c.id for c in state.creatures if can_strike(state, c))


def targets(state: Battle, attacker_id: str) -> tuple[str, ...]:
    """Ids a creature may strike: living cards of the other side."""
    a = creature(state, attacker_id)
    return tuple(c.id for c in living(state) if c.owner != a.owner)


def next_attacker(state: Battle, last: str | None = None,
                  side: str | None = None) -> str | None:
    """The attacker a strike panel offers first, after ``last`` (the latest strike's
    attacker; None before the first strike): a legal default the referee may change.

    A side strikes with its creatures one after another, each strike tapping the attacker
    (B11), so the side of ``last`` goes on with its next creature in squad order; once it
    has none left, the other side's first. The first player (side a, B12) starts. Where the
    event's setting leaves strikers open, the same side goes on with the creatures after
    ``last`` only, so the sides still take their turns.

    ``side``: that side's next attacker (``last`` then that side's latest striker, if
    any); None when it has none that can strike."""
    able = [c for c in state.creatures if c.id in attackers(state) and targets(state, c.id)]
    if not able:
        return None
    ids = [c.id for c in state.creatures]
    if last in ids and side is not None and creature(state, last).owner != side:
        last = None
    chosen = side if side is not None else (
        creature(state, last).owner if last in ids else PLAYERS[0])
    after = ids.index(last) if last in ids else -1
    own = [c for c in able if c.owner == chosen]
    later = [c for c in own if ids.index(c.id) > after]
    if not later and (state.settings.strike_taps_attacker or side is not None):
        later = own  # B11: a still open creature before ``last`` has not struck yet
    if later or side is not None:
        return later[0].id if later else None
    others = [c for c in able if c.owner != chosen]
    return (others or able)[0].id


def allowed(state: Battle) -> dict[str, tuple[str, ...]]:
    """For each creature id, the action types it may take part in now (as acting side
    for "strike"); a dead creature takes none."""
    result = {}
    for c in state.creatures:
        kinds: list[str] = []
        if not c.dead:
            kinds += ["modify", "wound"]
            if any(m.source for m in c.mods):
                kinds.append("end_effects")
            if can_strike(state, c) and targets(state, c.id):
                kinds.append("strike")
            kinds.append("untap" if c.tapped else "tap")
        result[c.id] = tuple(kinds)
    return result


def preview(state: Battle, action: Strike) -> tuple[StrikeOutcome, ...]:
    """What a strike would do: as rolled and, in an exchange, lowered (``lower`` ignored)."""
    a, t = _strike_sides(state, action)
    assert a.props.strike is not None  # B5: a creature's strike is printed on it
    return options(action.attacker_die, action.defender_die, t.open, a.props.strike,
                   t.props.strike, attacker_die_mod=action.attacker_die_mod,
                   defender_die_mod=action.defender_die_mod, strike_mod=action.strike_mod,
                   answer_mod=action.answer_mod, settings=state.settings)


def _strike_sides(state: Battle, action: Strike) -> tuple[Creature, Creature]:
    a = _living(state, action.attacker)
    if a.card.kind is not Kind.CREATURE:
        raise RuleError("B5", N_("%(creature)s is an artifact and cannot strike; choose a "
                                 "creature as the attacker."), creature=a.id)
    if a.tapped and state.settings.strike_taps_attacker:
        raise RuleError("B11", N_("%(creature)s is tapped and cannot strike; untap it first "
                                  "or choose an open creature."), creature=a.id)
    t = _living(state, action.target)
    if t.owner == a.owner:
        raise RuleError("B11", N_("%(creature)s cannot strike a card of its own side; "
                                  "choose one of %(ids)s."),
                        creature=a.id, ids=", ".join(targets(state, a.id)) or "-")
    return a, t


def _put(state: Battle, *changed: Creature, last: StrikeOutcome | None = None) -> Battle:
    by_id = {c.id: c for c in changed}
    return replace(state, creatures=tuple(by_id.get(c.id, c) for c in state.creatures),
                   last_strike=last)


def apply(state: Battle, action: object) -> Battle:
    """The battle after ``action``; RuleError if the rules forbid it."""
    if isinstance(action, Strike):
        a, t = _strike_sides(state, action)
        assert a.props.strike is not None  # B5: a creature's strike is printed on it
        out = resolve(action.attacker_die, action.defender_die, t.open, a.props.strike,
                      t.props.strike, lower=action.lower,
                      attacker_die_mod=action.attacker_die_mod,
                      defender_die_mod=action.defender_die_mod,
                      strike_mod=action.strike_mod, answer_mod=action.answer_mod,
                      settings=state.settings)
        # B10: both sides take their wounds together; either or both may die.
        a = replace(a, wounds=a.wounds + out.wounds_to_attacker,
                    tapped=a.tapped or state.settings.strike_taps_attacker)
        t = replace(t, wounds=t.wounds + out.wounds_to_target)
        return _put(state, a, t, last=out)
    if not isinstance(action, _OnCreature):
        raise RuleError("B7", UNKNOWN_ACTION)
    c = _living(state, action.creature)
    if isinstance(action, Modify):
        check_mod(c.card, action.modification)
        # B10: lowering lives below the wounds kills at once; `dead` follows by itself.
        return _put(state, replace(c, mods=(*c.mods, action.modification)))
    if isinstance(action, EndEffects):
        return _put(state, _end_effects(c, action))
    if isinstance(action, Wound):
        n = action.amount
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= WOUND_LIMIT:
            raise RuleError("B10", N_("Wounds must be a whole number from 1 to %(limit)s, "
                                      "not %(value)s."), limit=WOUND_LIMIT, value=str(n)[:20])
        return _put(state, replace(c, wounds=c.wounds + n))
    if isinstance(action, Tap):
        if c.tapped:
            raise RuleError("B11", N_("%(creature)s is already tapped; untap it or choose "
                                      "another creature."), creature=c.id)
        return _put(state, replace(c, tapped=True))
    if isinstance(action, Untap):
        if not c.tapped:
            raise RuleError("B11", N_("%(creature)s is already open; tap it or choose "
                                      "another creature."), creature=c.id)
        return _put(state, replace(c, tapped=False))
    raise RuleError("B7", UNKNOWN_ACTION)


def _end_effects(c: Creature, action: EndEffects) -> Creature:
    sources = sorted({m.source for m in c.mods if m.source})
    if not isinstance(action.source, str) or action.source not in sources:
        if not sources:
            raise RuleError("B7", N_("%(creature)s has no effects with a named source to "
                                     "end."), creature=c.id)
        raise RuleError("B7", N_("%(creature)s has no effects from %(source)s; pick one "
                                 "of %(sources)s."), creature=c.id,
                        source=str(action.source)[:20], sources=", ".join(sources))
    # B7: only the effects of this very source end, not those of a same-named card.
    return replace(c, mods=tuple(m for m in c.mods if m.source != action.source))
