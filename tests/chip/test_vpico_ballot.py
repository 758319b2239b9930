"""The sealed ballot's secrecy on the chip (issue 44, part 1): tests/mp/ballot_secrecy.py run on the
virtual Pico by the deployed firmware, its journal the raw log programmed into the chip's flash
model, its LEDs rendered through the board's own copy of the layout. Before the last voter (after
an undo of a cast, a host's reconnect and a GET of every entry) every frame, screen, journal
byte, digest, view and LED frame is the same in two runs that differ only in the hidden choices;
after the reveal they differ; and the lines are CPython's but for the journal's bytes (the chip's
raw log is reservation files of programmed flash, the unix port's a file of lines). Skips only
when no UF2 is found.
"""

import os

import paths
import pytest
from ballot_runs import REVEALED, by_run, lines
from chip_repl import mpremote
from conftest import needs_uf2

from chancery.vpico import VirtualPico, image

pytestmark = needs_uf2

ROOT = paths.ROOT


@pytest.mark.parametrize("game", ["kings_dilemma", "the_council"])
def test_on_the_chip_nothing_shows_a_hidden_choice_before_the_reveal(tmp_path, game):
    """(Fails, as the unix port's test does, with a tally or the box's choices in any channel.)"""
    flash = str(tmp_path / "flash.img")
    image.deployed_image(flash)
    with VirtualPico(flash=flash, pace="free") as vp:
        mpremote(vp.port, "rm", ":main.py")  # the runner is the board's table
        # the board's layout: in its ROMFS image (a firmware with the partition), else on its filesystem
        said = mpremote(vp.port, "exec", "import os\nos.mkdir('/secrecy')\nLAYOUT = '/rom/hardware/layouts/%s.json'\n"
                        "try:\n    os.stat(LAYOUT)\nexcept OSError:\n    LAYOUT = LAYOUT[4:]\n"
                        "ARGS = ['/secrecy', LAYOUT, %r]" % (game, game),
                        "run", os.path.join(ROOT, "tests", "mp", "ballot_secrecy.py"), timeout=1200)
    out = [line for line in said.splitlines() if line[:2] in ("A ", "B ")]
    runs = by_run(out)
    assert runs["A"][0].startswith("before ") and runs["A"][0] == runs["B"][0], said
    assert "box=yes" in runs["A"][0]
    assert runs["A"][1] != runs["B"][1] and "box=no" in runs["A"][1]
    assert (runs["A"][2], runs["B"][2]) == REVEALED[game]
    assert [_but_journal(line) for line in out] == [_but_journal(line) for line in lines(tmp_path / "cpython", game)]


def _but_journal(line):
    return " ".join(w for w in line.split(" ") if not w.startswith("journal="))
