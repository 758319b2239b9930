"""A table's clients, as the board layer composes them (firmware/boot.py), for tests that drive a
table directly: the host's link (firmware/link.py's Link) and the pads' and the table's keys
(firmware/controls.py's Controls)."""

import weakref

from firmware.controls import Controls
from firmware.link import Link

_CONTROLS = weakref.WeakKeyDictionary()


def controls(table):
    """The table's Controls: made the first time a test asks, the same one after."""
    c = _CONTROLS.get(table)
    if c is None:
        c = _CONTROLS[table] = Controls(table)
    return c


def linked(table, sent):
    """(table, its Link) whose frames are appended to `sent` as [kind, body]; a press it takes
    goes to the table's controls."""
    return table, Link(table, lambda kind, body: sent.append([kind, body]), controls(table))


def welcome(table):
    """The welcome a host's link would send for `table` now."""
    return Link(table, None).welcome()
