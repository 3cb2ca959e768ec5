"""Stations: each device a full copy of the event, merged with the others through Syncthing."""
