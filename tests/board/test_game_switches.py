"""Every game switch on the simulated board, in both directions, through the table's own menu, then
20 keys in the new game: the board never runs out of memory in play (`chancery sim`'s heap:
chancery.board.simboard.HEAP), and the board boots into each game from its journal too.

The walk covers every ordered pair of games once (an Euler circuit of the complete graph on the
games), the board stopped and started again half-way, as a table that quits the mirror and comes
back does. The same walk on the emulated chip: tests/chip/test_vpico_switches.py.
"""

import contextlib
import random
import time

from menu_player import cursor

from chancery.board.link import Link, LinkError
from chancery.board.simboard import HEAP, SimBoard
from firmware.pads import PAD_BUTTONS, TABLE, TABLE_BUTTONS
from shared_rules import games, wire

WAIT = 20.0


def circuit(names):
    """The games in an order whose consecutive pairs are every ordered pair of two games, once each."""
    left = {a: [b for b in names if b != a] for a in names}
    stack, out = [names[0]], []
    while stack:
        a = stack[-1]
        if left[a]:
            stack.append(left[a].pop(0))
        else:
            out.append(stack.pop())
    return out[::-1]


class Table:
    """The table's and the seats' buttons pressed over the link, as the mirror's keyboard presses them."""

    def __init__(self, link):
        self.link = link
        self.faults = []

    def key(self, pad, button, hold="short"):
        names = TABLE_BUTTONS if pad == TABLE else PAD_BUTTONS
        seq = self.link.send(wire.PRESS, {"pad": pad, "key": names.index(button), "hold": hold})
        deadline = time.monotonic() + WAIT
        while seq not in self.link.answers:  # not link.press: a switch's answer is followed by a welcome, no entry
            if time.monotonic() > deadline:
                raise LinkError("no answer to the press %s %s %s" % (pad, button, hold))
            self.link.poll(0.05)
        kind, body = self.link.answers.pop(seq)
        self.last = (kind, body)
        self.link.poll(0.02)
        screen = self.link.display or []
        if kind == wire.ERROR or " ".join(screen).lower().find("memory") >= 0:
            self.faults.append((pad, button, kind, body, screen))
        return screen

    def menu_pick(self, wanted, limit=80):
        """Turn the knob until the cursor is on `wanted`, then push."""
        screen = self.link.display or []
        for _ in range(limit):
            if cursor(screen) == wanted:
                return self.key(TABLE, "push")
            screen = self.key(TABLE, "right")
        raise AssertionError("%r not on the menu: %r" % (wanted, screen))

    def switch(self, game):
        """new_game -> the game -> its settings as they are -> confirm, on the table's controls."""
        for _ in range(12):  # out of whatever screen is open, to the table's menu
            screen = self.key(TABLE, "back")
            if screen[:1] == ["table action?"]:
                break
            if not screen[:1] or not screen[0].startswith("table"):  # the game's screen: push opens the menu
                screen = self.key(TABLE, "push")
                if screen[:1] == ["table action?"]:
                    break
        self.menu_pick("new_game")
        self.menu_pick(game)
        screen = self.link.display or []
        for _ in range(40):  # the game, then every setting as it is ("(default)" first), then the confirm
            sends = screen[:1] == ["table new_game?"] and screen[1:2] != ["game:"]  # the settings' confirm
            screen = self.key(TABLE, "push")
            deadline = time.monotonic() + (WAIT if sends else 0)
            while True:  # a board that restarts for the new game says its welcome after the answer
                if self.link.mirror.welcome["game"] == game:
                    return
                if time.monotonic() >= deadline:
                    break
                self.link.poll(0.05)
        raise AssertionError("the board did not switch to %s: %r" % (game, self.link.display))

    def twenty_keys(self, rnd):
        for _ in range(20):
            pad = rnd.choice([TABLE, 0, 1, 2])
            names = TABLE_BUTTONS if pad == TABLE else PAD_BUTTONS
            self.key(pad, rnd.choice(names), rnd.choice(["short", "short", "long"]))


def _board(tmp_path, micropython, firmware_build, heap=HEAP):
    return SimBoard(data_dir=str(tmp_path / "flash"), game="chancellors", players=3, heap=heap,
                    micropython=micropython, code_path=[firmware_build])


def walk(session):
    """Play the circuit on the board `session()` opens (a context manager giving (a Link said hello
    to, the board's stderr as text or None), on the same flash each time): the first half of the
    circuit, then the board stopped and started again, then the rest. Returns (the circuit, the
    games the board played in turn, the faults the keys met, what the board said on stderr)."""
    order = circuit(list(games.GAMES))
    rnd = random.Random(5)
    played, faults, stderr = [], [], ""
    half = len(order) // 2
    for part in (order[:half + 1], order[half:]):
        with session() as (link, said):
            try:
                table = Table(link)
                if link.mirror.welcome["game"] != part[0]:
                    table.switch(part[0])
                for game in part[1:]:
                    table.switch(game)
                    played.append(link.mirror.welcome["game"])
                    table.twenty_keys(rnd)
            except LinkError as e:
                raise AssertionError("%s: %s" % (e, (said() or "")[-2000:]))
            faults += table.faults
            stderr += said() or ""
    return order, played, faults, stderr


# The firmware as main.py runs it, but the first key that comes while a new game's settings are open on
# the table's menu (a switch half done) runs out of memory, as a heap too small for it would.
SHORT_IN_A_SWITCH = """
from firmware import table as t
real = t.Table.pressed
def pressed(self, pad, name):
    if self.setup is not None and not t.__dict__.get("ran_out"):
        t.ran_out = True
        raise MemoryError("memory allocation failed")
    return real(self, pad, name)
t.Table.pressed = pressed
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
