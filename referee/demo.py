"""The demo event: referees (demo / demo among them), a dozen players with history and
one finished duel."""

from __future__ import annotations

from sqlite_utils import Database

from referee.accounts.service import add_referee
from referee.games.duel.rules import Play, Round
from referee.games.duel.service import record, start
from referee.players import service
from referee.store import referees, settings, write

REFEREES = [("demo", "demo", True), ("anna", "anna", False), ("boris", "boris", False)]

# character, player, hp_max, chance_max, cartridges, suit, level
PLAYERS = [
    ("Капитан Вера Соколова", "Анна", 3, 2, 3, "H", 3),
    ("Штабс-ротмистр Орлов", "Иван", 4, 1, 2, "C", 2),
    ("Доктор Лемке", "Мария", 2, 3, 1, "D", 1),
    ("Атаманша Дуся", "Ольга", 5, 1, 5, "S", 4),
    ("Corporal Hale", "Tom", 3, 2, 4, "S", 2),
    ("Сестра милосердия Ксения", "Ксения", 2, 2, 0, "H", 1),
    ("Поручик Ржевский", "Дмитрий", 3, 1, 6, "D", 5),
    ("Madame Renard", "Claire", 3, 3, 2, "C", 6),
    ("Контрабандист Жук", "Павел", 3, 0, 3, "S", 2),
    ("Комиссар Платонов", "Сергей", 4, 2, 2, "H", 7),
    ("Барон фон Штерн", "Алексей", 3, 1, 1, "C", 3),
    ("Цыганка Рада", "Елена", 2, 3, 2, "D", 1),
]


def load(db: Database) -> int:
    """Create the demo accounts and players; returns how many players were created."""
    for name, password, organizer in REFEREES:
        if referees.by_name(db, name) is None:
            add_referee(db, name, password, organizer, by=None, demo=True)
    if db["players"].count:
        return 0
    with write(db):
        settings.put(db, "event_name", "Demo: Осенний бал")
        settings.put(db, "death_minutes", "15")
    demo, anna = (referees.by_name(db, name) for name in ("demo", "anna"))
    assert demo is not None and anna is not None  # made by the demo's accounts above
    demo, anna = demo["id"], anna["id"]
    rows = service.create_many(db, demo, [
        {"character": c, "player": p, "hp_max": hp, "chance_max": ch, "cartridges": ca,
         "suit": s, "level": lv} for c, p, hp, ch, ca, s, lv in PLAYERS
    ])
    ids = [r["id"] for r in rows]
    # Some history, so the feed and the sheets are not empty.
    service.adjust(db, anna, ids[0], {"hp": -1}, "дуэль с Орловым")
    service.adjust(db, anna, ids[1], {"cartridges": -1, "chance": -1}, "перестрелка у моста")
    service.adjust(db, demo, ids[2], {"hp": -2}, "засада")  # heavily wounded: the clock runs
    service.adjust(db, demo, ids[4], {"level": 1}, "квест выполнен")
    service.adjust(db, anna, ids[8], {"hp": -3}, "расстрел")
    service.kill(db, anna, ids[8], "истёк кровью")
    service.set_exact(db, demo, ids[6], {"cartridges": 4}, "обыск")
    _duel(db, anna, ids[9], ids[10])
    return len(rows)


def _duel(db: Database, referee_id: int, a_id: int, b_id: int) -> None:
    """A finished duel, so the duel list and both sheets show a record (D4–D14)."""
    duel_id = start(db, referee_id, a_id, b_id).id
    # A wins 2–1: a token spent in vain in round 2, then the Queen of hearts over a 7
    # beats 10 + 1; A's chance comes back to the maximum (D13).
    for a, b in ((Play("10S"), Play("8D")),
                 (Play("9S", tokens=1), Play("KD")),
                 (Play("7C", hand="QH"), Play("10D", tokens=1))):
        record(db, referee_id, duel_id, Round(a, b))
