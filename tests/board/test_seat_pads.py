"""A seat's pad enters what its menu offers: the table's actions among them (a seat's pad may roll), entered
as the table's, without the seat (the rules refuse a parameter an action does not take)."""

import pytest
from clients import controls
from menu_player import confirming

from firmware.journal import Journal
from firmware.pads import TABLE
from firmware.table import Table

ROLLING = [("chancellors", {"players": 4}), ("kings_dilemma", {"players": 4})]


@pytest.mark.parametrize("game, settings", ROLLING)
def test_a_seats_pad_rolls_when_its_menu_offers_the_roll(tmp_path, game, settings):
    t = Table(Journal(str(tmp_path)), lambda n: b"\x07" * n, game, settings, "t").boot()
    offered = [s["type"] for s in controls(t).legal(t.state, 0)]
    assert "roll" in offered, "no roll on seat 0's pad at the start of %s: %r" % (game, offered)
    screen, entry = controls(t).pressed(0, "select")  # the pad's menu
    for _ in range(20):
        line = [x for x in screen if x.startswith(">")]
        if line and line[0][2:] == "roll" and not confirming(screen):
            break
        screen, entry = controls(t).pressed(0, "down")
    for _ in range(10):  # pick the roll, each parameter at the cursor, then send
        screen, entry = controls(t).pressed(0, "select")
        if entry is not None:
            break
    assert entry == 0, screen
    move = next(iter(t.journal.entries(0)))["action"]
    assert move["type"] == "roll" and "seat" not in move and move["source"] == "board"


def test_a_menu_parked_for_another_pad_still_goes_back_to_the_first_default_it_skipped(tmp_path):
    """The table's roll skips both its optional parameters (the values, the source) to the confirm, whose
    back opens the first of them. Another pad's key parks the table's menu; opened again, its back still
    opens the first (the parked choices lost how many defaults were skipped: back opened the source)."""
    t = Table(Journal(str(tmp_path)), lambda n: b"\x07" * n, "chancellors",
              {"players": 4}, "t").boot()
    controls(t).pressed(TABLE, "select")  # the table's menu, on the roll
    assert confirming(controls(t).pressed(TABLE, "select")[0])  # the roll, its two defaults skipped
    controls(t).pressed(0, "select")  # seat 0's menu: the table's parked
    assert confirming(controls(t).pressed(TABLE, "back")[0])  # the table's again, where it was
    screen = controls(t).pressed(TABLE, "back")[0]
    assert screen[1].startswith("values"), screen
