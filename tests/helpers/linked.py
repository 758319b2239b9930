"""A table and a host's link on it, as the board layer composes them (firmware/link.py's Link, a
client of firmware/table.py), for tests that speak frames to a table directly."""

from firmware.link import Link


def linked(table, sent):
    """(table, its Link) whose frames are appended to `sent` as [kind, body]."""
    return table, Link(table, lambda kind, body: sent.append([kind, body]))


def welcome(table):
    """The welcome a host's link would send for `table` now."""
    return Link(table, None).welcome()
