"""Every game switch on the simulated board, in both directions, through the table's own menu, then
20 keys in the new game: the board never runs out of memory in play (`chancery sim`'s heap:
chancery.board.simboard.HEAP), and the board boots into each game from its journal too.

The walk covers every ordered pair of games once (an Euler circuit of the complete graph on the
games), the board stopped and started again half-way, as a table that quits the mirror and comes
back does. The same walk on the emulated chip: tests/chip/test_vpico_switches.py.
"""

import contextlib

from switch_walk import WAIT, Table, walk  # tests/helpers/switch_walk.py: the walk, shared with the chip's test

from chancery.board.link import Link
from chancery.board.simboard import HEAP, SimBoard
from firmware.pads import TABLE
from shared_rules import wire


def _board(tmp_path, micropython, firmware_build, heap=HEAP):
    return SimBoard(data_dir=str(tmp_path / "flash"), game="chancellors", players=3, heap=heap,
                    micropython=micropython, code_path=[firmware_build])


# The firmware as main.py runs it, but the first key that comes while a new game's settings are open on
# the table's menu (a switch half done) runs out of memory, as a heap too small for it would.
SHORT_IN_A_SWITCH = """
from firmware import controls as t
real = t.Controls.pressed
def pressed(self, pad, name):
    if self.setup is not None and not t.__dict__.get("ran_out"):
        t.ran_out = True
        raise MemoryError("memory allocation failed")
    return real(self, pad, name)
t.Controls.pressed = pressed
from firmware import main
from firmware.argv import options
main.run(options(%r))
"""


@contextlib.contextmanager
def sim_session(tmp_path, micropython, firmware_build, heap=HEAP, short=False):
    board = _board(tmp_path, micropython, firmware_build, heap)
    if short:
        board.entry = ["-c", SHORT_IN_A_SWITCH % board.args()]
    port = board.open_pty()
    with board:
        link = Link(port)
        link.open()
        board.start()
        try:
            link.hello(wait=WAIT)
            yield link, board.stderr_text
        finally:
            link.close()


def test_every_game_switch_then_twenty_keys_never_runs_out_of_memory(tmp_path, micropython, firmware_build):
    order, played, faults, stderr = walk(lambda: sim_session(tmp_path, micropython, firmware_build))
    assert played == order[1:], (order, played)
    assert not faults, faults[:3]
    assert "MemoryError" not in stderr, stderr[-2000:]


def test_running_out_of_memory_is_a_board_fault_that_the_board_recovers_from(tmp_path, micropython, firmware_build):
    """A key that runs out of memory half-way through a game switch on the table's menu (the
    board's heap made to fail there): it is answered as a board fault in words, the board lets that
    input go and reloads its game from the journal (the entries are all there), and the keys after
    it work. It answered every later key with no_memory until a restart."""
    with sim_session(tmp_path, micropython, firmware_build, short=True) as (link, _said):
        assert link.act({"type": "roll"}, wait=WAIT)[0] == wire.OK
        table = Table(link)
        try:
            table.switch("kings_dilemma")
        except AssertionError:
            pass  # the switch ran out: the board says so and plays on with its game
        faults = [f for f in table.faults if f[3].get("code") == "no_memory"]
        assert faults, "no key ran out of memory in the switch"
        assert faults[0][3]["message"].startswith("board fault: "), faults[0]
        assert "nothing entered is lost" in faults[0][3]["message"]
        table.faults.clear()
        link.hello(wait=WAIT)
        assert link.mirror.welcome["game"] == "chancellors" and link.mirror.welcome["len"] == 1
        for button in ["back", "back", "push", "right", "left", "back"]:
            table.key(TABLE, button)
        table.key(0, "select")
        table.key(0, "up")
        assert not table.faults, table.faults
        assert link.act({"type": "score", "seat": 0, "amount": 3}, wait=WAIT)[0] == wire.OK
