"""The live table: play whole games in the terminal as a person would (see `session.Table`)."""
from .screen import Screen
from .session import Quit, Table

__all__ = ["Screen", "Table", "Quit"]
