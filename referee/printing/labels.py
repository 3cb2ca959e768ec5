"""Words printed on passports and cards, in Russian and English.

Printed sheets are not served through Flask-Babel (they are made from the command line
too), so the few printed words live here. ``lang`` is ``"ru"``, ``"en"`` or ``"both"``
(Russian above English, for mixed events).
"""

from __future__ import annotations

LANGS = ("ru", "en", "both")

_WORDS: dict[str, tuple[str, str]] = {
    # passports
    "hp": ("Max HP", "Макс. ХП"),
    "chance": ("Chance", "Шанс"),
    "cartridges": ("Cartridges", "Патроны"),
    "player": ("Player", "Игрок"),
    # the numbers on paper are where a character started: the sheet holds the live ones
    "starting": ("Starting values", "Начальные значения"),
    "printed": ("printed", "печать"),
    "S": ("spades", "пики"),
    "H": ("hearts", "черви"),
    "D": ("diamonds", "бубны"),
    "C": ("clubs", "трефы"),
    # castle and class cards (U3, U14)
    "monster": ("Monster", "Чудовище"),
    "item": ("Item", "Предмет"),
    "skill": ("Skill", "Умение"),
    "event": ("Event", "Событие"),
    "class": ("Class", "Класс"),
    "strength": ("Strength", "Сила"),
    "bonus": ("Bonus", "Бонус"),
    "magic": ("Magic", "Магия"),
    "lasting": ("Lasting", "Постоянное"),
    "immediate": ("Once", "Разовое"),
    "round": ("Until your next turn", "До вашего следующего хода"),
    "challenge": ("Challenge", "Вызов"),
    "summoning": ("Summoning", "Призыв"),
    "two_weapons": ("Two weapons", "Два оружия"),
    "ability": ("Ability: discard %(cost)s → +%(bonus)s",
                "Способность: сбросьте %(cost)s → +%(bonus)s"),
    # Coup (C5)
    "power": ("Power", "Действие"),
    "blocks": ("Blocks", "Блокирует"),
    # Berserk (B1–B8)
    "lives": ("Lives", "Жизни"),
    "movement": ("Move", "Движение"),
    "flying": ("Flying", "Полёт"),
    "symbiote": ("Symbiote", "Симбиот"),
    "strike": ("Strike", "Удар"),
    "elite": ("Elite", "Элитная"),
    "ordinary": ("Ordinary", "Рядовая"),
    "creature": ("Creature", "Существо"),
    "artifact": ("Artifact", "Артефакт"),
    "unique": ("Unique", "Уникальная"),
    "steppe": ("Steppe", "Степь"),
    "forest": ("Forest", "Лес"),
    "mountains": ("Mountains", "Горы"),
    "swamps": ("Swamps", "Болота"),
    "darkness": ("Darkness", "Тьма"),
    "fire": ("Fire", "Огонь"),
    "neutral": ("Neutral", "Нейтральная"),
}

# Item types are free words in a deck file; the common ones get a Russian name.
ITEM_TYPES: dict[str, str] = {
    "weapon": "оружие", "armour": "доспех", "armor": "доспех", "helmet": "шлем",
    "shield": "щит", "boots": "сапоги", "potion": "зелье", "ring": "кольцо",
    "amulet": "амулет", "cloak": "плащ", "scroll": "свиток", "gloves": "перчатки",
    "belt": "пояс", "wand": "жезл", "book": "книга",
}


def words(key: str, lang: str) -> list[str]:
    """The label as one line (``ru``/``en``) or two lines, Russian first (``both``)."""
    en, ru = _WORDS[key]
    return {"en": [en], "ru": [ru]}.get(lang, [ru, en])


def word(key: str, lang: str, sep: str = " · ") -> str:
    """The label on one line."""
    return sep.join(words(key, lang))


def item_type(name: str, lang: str, sep: str = " · ") -> str:
    """An item type from a deck file, with its Russian name when it is a common one."""
    ru = ITEM_TYPES.get(name)
    if lang == "en" or ru is None:
        return name
    return ru if lang == "ru" else f"{ru}{sep}{name}"
