"""firmware/board/later.py: the quiet moments' pieces on a board with buttons."""

import os

from firmware.board.later import Later
from firmware.journal import Journal
from firmware.table import Table


class Upkeep:
    """An upkeep of three parts: the look-ahead, then (after "still") two of the journal's flash work."""

    def __init__(self):
        self.done = []

    def upkeep(self, collect):
        self.done.append("look")
        yield
        yield "still"
        self.done.append("tidy 1")
        yield
        self.done.append("tidy 2")
        yield


def test_the_journals_flash_work_waits_while_a_button_is_down_and_the_look_ahead_does_not():
    """A hold's long instant or a tap's release that comes during a littlefs block's allocation
    (some 50 ms on the chip) waits for it: the upkeep's parts after its "still" wait until no
    button is down; the look-ahead before it runs while the button is held, as the press's own
    entry is computed then. (Fails with the parts taken whatever the buttons.)"""
    later, table = Later(lambda lines: False), Upkeep()
    later.settle()
    assert later.piece(table, held=True) and table.done == ["look"]
    assert later.piece(table, held=True)  # reaches "still"
    for _ in range(5):
        assert not later.piece(table, held=True)
    assert table.done == ["look"]
    while later.piece(table, held=False):
        pass
    assert table.done == ["look", "tidy 1", "tidy 2"]
    later.settle()  # the next upkeep starts afresh: its look-ahead runs while a button is down
    assert later.piece(table, held=True) and table.done[-1] == "look"


def test_the_tables_snapshot_waits_while_a_button_is_down(tmp_path):
    """The snapshot is a littlefs file written and renamed (tens of ms on the chip): a press whose
    button went down as it was due waits for none of it; the look-ahead runs. (Fails with the
    snapshot before the upkeep's "still".)"""
    t = Table(Journal(str(tmp_path), 1), lambda n: b"\x11" * n, "chancellors", {"players": 3}, "t").boot()
    t.act({"type": "roll"})  # a snapshot due after every entry
    later = Later(lambda lines: False)
    later.settle()
    while later.piece(t, held=True):
        pass
    assert t.snapshot_due and "snap.json" not in os.listdir(str(tmp_path))
    while later.piece(t, held=False):
        pass
    assert not t.snapshot_due and "snap.json" in os.listdir(str(tmp_path))


def test_a_press_begun_while_an_upkeep_waits_past_its_look_ahead_gets_a_look_ahead_of_its_own():
    """The last entry's upkeep has reached its "still" when the next press goes down (a voter's
    hold right after another's cast): the new upkeep's look-ahead runs while that button is held,
    and the journal's work after it waits, once. (Fails with the waiting upkeep kept until the
    buttons are still: the hold's entry was then computed after its long instant.)"""
    later, table = Later(lambda lines: False), Upkeep()
    later.settle()
    while later.piece(table, held=True):
        pass
    assert table.done == ["look"]
    later.settle()  # the next press's down
    assert later.piece(table, held=True) and table.done == ["look", "look"]
    while later.piece(table, held=True):
        pass
    while later.piece(table, held=False):
        pass
    assert table.done == ["look", "look", "tidy 1", "tidy 2"]
