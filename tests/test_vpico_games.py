"""The games end to end on the chip: `chancery deploy` onto a fresh virtual Pico (stock RPI_PICO
MicroPython 1.28 on rp2040js), then games played as a table plays them, on the board's GPIO
or over its USB serial, with every entry checked (tests/chip_player.py): the decoded strip
against render() of the public view, the decoded display against the firmware's own screen
for each key, the host's logbook against the board's journal.

One deploy serves the module (a fresh flash takes about 15 s on the emulator); each test
starts its game over the link as the host's mirror does. Skips only when no UF2 is found.
"""

import os
import subprocess
import sys

import pytest
from chip_checks import expected_frame, flash_journal, logbook_entries, pin_map
from chip_player import ChipPlayer, ChipTable
from conftest import needs_uf2
from menu_player import play_by_presses

from chancery.vpico import VirtualPico
from shared_rules import engine

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mp"))

pytestmark = needs_uf2

CHANCERY = os.path.join(os.path.dirname(sys.executable), "chancery")
# Chancellors for four seats, to a target of 1: the game ends at the first problem solved, the
# shortest whole game at that seat count (6 or 7 actions, about 150 presses)
FIRST = ["--game", "chancellors", "--set", "players=4", "--set", "target=1"]


class Deployed:
    def __init__(self, vp, run, table, first_frame):
        self.vp, self.run, self.table, self.first_frame = vp, run, table, first_frame


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """A virtual Pico on a fresh flash, `chancery deploy`ed (the real command on its port),
    then booted into the firmware with the host's link open."""
    folder = tmp_path_factory.mktemp("chip-games")
    with VirtualPico(flash=str(folder / "flash.img"), pace="free") as vp:
        run = subprocess.run([CHANCERY, "deploy", "--port", vp.port] + FIRST, capture_output=True, text=True,
                             timeout=600)
        assert run.returncode == 0, run.stdout + run.stderr
        reset = vp.resets[-1] if vp.resets else 0
        first = vp.wait_frame(after_ns=reset, timeout=120)
        table = ChipTable(vp, str(folder))
        try:
            yield Deployed(vp, run, table, first)
        finally:
            table.close()


def test_deploy_copies_verifies_and_the_board_starts_its_first_game(deployed):
    out = deployed.run.stdout
    assert "micropython 1.28.0" in out and ".mpy v6.3, rp2" in out, out
    assert "verified: " in out and "reset: the board starts the firmware" in out, out
    assert deployed.vp.resets, "deploy did not reset the board into the firmware"
    welcome = deployed.table.link.mirror.welcome
    assert welcome["game"] == "chancellors" and welcome["settings"]["target"] == 1
    match = engine.new_match("chancellors", welcome["settings"], welcome["seed"])
    assert match["start"] == welcome["start"]
    view = engine.game_module("chancellors").view(match["state"], None)
    assert deployed.first_frame.data == expected_frame("chancellors", view, pin_map())


def test_a_whole_four_seat_chancellors_game_by_gpio(deployed, tmp_path):
    table = deployed.table
    if table.link.mirror.match["entries"] or table.game != "chancellors":
        table.new_game("chancellors", {"players": 4, "target": 1})
    presses, types = play_by_presses(table.link, 5, player=lambda link, pad: ChipPlayer(table, pad))
    state = table.state
    assert state["step"] == "over" and state["settings"]["players"] == 4
    assert {"roll", "pass"} <= types and ("reveal" in types or "assign" in types), types
    assert table.checked == len(table.link.mirror.match["entries"])
    # the whole journal on the flash, as littlefs holds it, is the logbook's
    image = deployed.vp.save_flash()
    assert flash_journal(image, str(tmp_path / "journal")) == logbook_entries(table.logbook, table.link.game_id)
