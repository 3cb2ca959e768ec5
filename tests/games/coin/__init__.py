"""A fifth game defined in the tests, to show that adding a game is its folder and one
line in games.registry.GAMES."""
