"""The Games hub lists the games the app referees and the tables in progress."""

from __future__ import annotations


def test_games_hub_lists_duels_and_running_tables(referee, db):
    html = referee.get("/games").get_data(as_text=True)
    assert "/duels" in html and "Card duels from the table cards" in html
    db.execute("INSERT INTO games (kind, title, setup, status, version, created_at, updated_at)"
               " VALUES ('nosuch', 'Table 3', '{}', 'in_progress', 0, 't', '2026-11-30T20:15')")
    html = referee.get("/games").get_data(as_text=True)
    assert "#1 Table 3" in html  # a kind with no screen yet is listed, without a link


def test_games_hub_needs_a_referee(client):
    assert client.get("/games").status_code == 302


def test_nav_has_games_and_settings_in_russian(organizer):
    organizer.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    html = organizer.get("/games").get_data(as_text=True)
    nav = html.split('<nav class="nav">')[1].split("</nav>")[0]
    assert "Игроки" in nav and "Игры" in nav and "Лента" in nav
    assert 'aria-label="Настройки"' in nav
