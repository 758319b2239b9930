"""The walk through every game switch on the table's own menu, over a link to a board said hello
to, then 20 random keys in each new game: the games in an Euler circuit of every ordered pair (circuit),
the table's and the seats' buttons pressed as the mirror's keyboard presses them (Table), and the walk
itself (walk). Used on the simulated board (tests/board/test_game_switches.py) and on the emulated chip
(tests/chip/test_vpico_switches.py)."""

import random
import time

from menu_player import cursor

from chancery.board.link import LinkError
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
