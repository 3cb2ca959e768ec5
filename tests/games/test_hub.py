"""The Games hub lists the games the app referees and the tables in progress."""

from __future__ import annotations

from referee.games.coup import service as coup
from referee.games.duel import service as duels
from referee.players import service as player_service


def test_games_hub_lists_every_kind_and_the_running_tables_with_their_links(referee, db):
    html = referee.get("/games").get_data(as_text=True)
    assert "/duels" in html and "Card duels from the table cards" in html
    for title in ("Duels", "Coup tables", "Underworld castle games", "Berserk battles"):
        assert title in html
    seats = [player_service.create(db, None, {"character": name, "hp_max": 3,
                                              "chance_max": 1, "cartridges": 2,
                                              "suit": "H"})["id"] for name in ("A", "B")]
    coup.create(db, None, seats, title="Table 3")
    duel = duels.start(db, None, *seats)
    html = referee.get("/games").get_data(as_text=True)
    running = html.split("In progress")[1]
    assert 'Coup table 1 <span class="muted">Table 3</span>' in running
    assert 'href="/coup/1"' in running
    # Numbered within each kind, so the first duel is Duel 1 too.
    assert "Duel 1" in running and f'href="/duels/{duel.id}"' in running


def test_games_hub_needs_a_referee(client):
    assert client.get("/games").status_code == 302


def test_nav_has_games_and_settings_in_russian(organizer):
    organizer.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    html = organizer.get("/games").get_data(as_text=True)
    nav = html.split('<nav class="nav">')[1].split("</nav>")[0]
    assert "Игроки" in nav and "Игры" in nav and "Лента" in nav
    assert 'aria-label="Настройки"' in nav


def test_game_lists_show_older_games_a_page_at_a_time(referee, db, monkeypatch):
    """A list of games is never cut silently: "Older" goes on from the last."""
    import re

    from referee.games.coup import service as coup
    from referee.players import service as players
    from referee.web import screens
    monkeypatch.setattr(screens, "PAGE", 2)
    seats = [players.create(db, None, {"character": f"P{n}", "hp_max": 3, "chance_max": 1,
                                       "cartridges": 3, "suit": "H"})["id"] for n in range(3)]
    made = [coup.create(db, None, seats).id for _ in range(5)]
    shown, url = [], "/coup"
    while url:
        html = referee.get(url).get_data(as_text=True)
        shown += [int(n) for n in re.findall(r'href="/coup/(\d+)"', html)]
        older = re.search(r'<a class="btn" href="([^"]+)">Older', html)
        url = older.group(1).replace("&amp;", "&") if older else None
    assert sorted(set(shown), reverse=True) == sorted(made, reverse=True)
    assert len(shown) == len(set(shown))
