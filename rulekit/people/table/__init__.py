"""The live table: play whole games in the terminal as a person would (see `session.Table`)."""
from rulekit.people.table.screen import Screen
from rulekit.people.table.session import EndOfInput, Quit, Table

__all__ = ["Screen", "Table", "Quit", "EndOfInput"]
