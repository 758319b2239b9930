"""Every game switch on the emulated chip, in both directions, through the table's menu, then 20 keys
in the new game (tests/board/test_game_switches.py's walk, on a Pico; the walk is in
tests/helpers/switch_walk.py): the board restarts into each new game, and never runs out of memory.
The code is where `chancery deploy` puts it for the firmware given (CHANCERY_PICO_UF2: in its ROMFS
partition where it has one). Skips where no firmware is given.
"""

import contextlib

from conftest import needs_uf2
from switch_walk import WAIT, walk

from chancery.board.link import Link
from chancery.vpico import VirtualPico, image

pytestmark = needs_uf2


def test_every_game_switch_on_the_chip_then_twenty_keys_never_runs_out_of_memory(tmp_path):
    flash = str(tmp_path / "flash.img")
    image.deployed_image(flash, first={"game": "chancellors", "settings": {"players": 3}})

    @contextlib.contextmanager
    def session():
        with VirtualPico(flash=flash, pace="free") as vp:
            vp.wait_frame(after_ns=0, timeout=120)
            link = Link(vp.port)
            link.open()
            try:
                link.hello(wait=WAIT)
                yield link, lambda: "".join(str(n) for n in getattr(vp, "noise", []))
            finally:
                link.close()

    order, played, faults, _said = walk(session)
    assert played == order[1:], (order, played)
    assert not faults, faults[:3]
