"""Referee: a referee's assistant for live-action role-playing events and game tables."""

__version__ = "0.1.0"
