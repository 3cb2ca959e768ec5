"""Sample Underworld decks for the Underworld rule tests (the shipped deck files come later),
and small helpers shared by ``test_rules_underworld*.py``."""

from __future__ import annotations

from referee.games.underworld.rules import (
    ClassCard,
    Event,
    Item,
    Monster,
    Skill,
    State,
    apply,
    new_game,
)


def monster(code: str, strength: int) -> Monster:
    return Monster(code, f"Monster {strength}", f"Монстр {strength}", strength)


SWORD = Item("I01", "Sword", "Меч", "weapon", 2)
AXE = Item("I02", "Axe", "Топор", "weapon", 3)
ARMOUR = Item("I03", "Armour", "Доспехи", "armour", 1)
MAIL = Item("I04", "Chain mail", "Кольчуга", "armour", 2)
STAFF = Item("I05", "Magic staff", "Волшебный посох", "weapon", 3, magic=True)
POTION = Item("I06", "Potion", "Зелье", "potion", 2, duration="immediate")
CLOAK = Item("I07", "Cloak", "Плащ", "cloak", 1, duration="round")
HEAVY_BLOW = Skill("S01", "Heavy blow", "Тяжёлый удар", 2)
SLEEP = Skill("S02", "Sleep", "Сон", 3, duration="immediate")
SUMMONING = Skill("S03", "Summoning", "Призыв", 0, duration="immediate",
                  summoning=True)
FIREBALL = Skill("S04", "Fireball", "Огненный шар", 4, magic=True)
RIOT = Event("E01", "People's uprising", "Народное восстание",
             "Fight another player.", "Сразитесь с другим игроком.", challenge=True)
PLAGUE = Event("E02", "Plague", "Чума", "Everyone loses a level.", "Все теряют уровень.")

WARRIOR = ClassCard("C01", "Warrior", "Воин", two_weapons=True)
CLERIC = ClassCard("C02", "Cleric", "Клирик", magic=True)
WITCH = ClassCard("C03", "Witch", "Ведьма", magic=True)
VAMPIRE = ClassCard("C04", "Vampire", "Вампир", ability_cost=2, ability_bonus=3)
WEREWOLF = ClassCard("C05", "Werewolf", "Оборотень", ability_cost=2, ability_bonus=4)
MASTER = ClassCard("C06", "Master", "Мастер", ability_cost=2, ability_bonus=2)
DARK_KNIGHT = ClassCard("C07", "Dark knight", "Тёмный рыцарь", ability_cost=1,
                        ability_bonus=2)
DARK_MAGE = ClassCard("C08", "Dark mage", "Тёмный маг", magic=True, ability_cost=2,
                      ability_bonus=3)
CLASSES = [WARRIOR, CLERIC, WITCH, VAMPIRE, WEREWOLF, MASTER, DARK_KNIGHT, DARK_MAGE,
           ClassCard("C09", "Thief", "Вор"), ClassCard("C10", "Elf", "Эльф"),
           ClassCard("C11", "Dwarf", "Гном"), ClassCard("C12", "Paladin", "Паладин"),
           ClassCard("C13", "Archer", "Лучник")]

MONSTERS = {s: monster(f"M{s:02d}", s) for s in range(1, 13)}
SPECIALS = [SWORD, AXE, ARMOUR, MAIL, STAFF, POTION, CLOAK, HEAVY_BLOW, SLEEP, SUMMONING,
            FIREBALL, RIOT, PLAGUE]


def small_castle() -> list:
    """A small castle deck: two of every special card, monsters of strength 1-12 (two
    each) and a heap of weak ones to deal from."""
    return SPECIALS * 2 + list(MONSTERS.values()) * 2 + [MONSTERS[1]] * 22


def full_castle() -> list:
    """A deck within U2: 34 monsters, 28 items, 10 skills, 15 events (87 cards)."""
    monsters = [MONSTERS[1 + i % 12] for i in range(34)]
    items = [SWORD, AXE, ARMOUR, MAIL, STAFF, POTION, CLOAK] * 4
    skills = [HEAVY_BLOW, SLEEP, SUMMONING, FIREBALL] * 2 + [HEAVY_BLOW, SUMMONING]
    events = [RIOT] * 8 + [PLAGUE] * 7
    return monsters + items + skills + events


FILLER = ("M01", "M01", "M01", "M01")


def game(hands: dict | None = None, levels: dict | None = None, players=("A", "B", "C"),
         classes=None) -> State:
    """A small game: every player holds four weak monsters unless ``hands`` says other."""
    hands = {pid: list(FILLER) for pid in players} | (hands or {})
    return new_game(list(players), small_castle(), classes or CLASSES, hands, levels,
                    check_decks=False)


def run(state: State, *actions) -> State:
    for action in actions:
        state = apply(state, action)
    return state


def player(state: State, pid: str):
    return next(p for p in state.players if p.id == pid)


def with_class(state: State, pid: str, code: str) -> State:
    """Test setup only: seat a player in a class without two won fights."""
    from dataclasses import replace
    players = tuple(replace(p, class_card=code) if p.id == pid else p for p in state.players)
    return replace(state, players=players, class_deck=tuple(c for c in state.class_deck
                                                            if c != code))
