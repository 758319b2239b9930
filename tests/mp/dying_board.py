"""The simulated board, stopped dead at a chosen point of one act, for a test to SIGKILL it there.

    micropython -m dying_board POINT N [firmware.main's options]

The firmware runs as `-m firmware.main` would, until its Nth entry of this run (1 the
first); there it says "dying at POINT N" on stderr and freezes, and the test
(tests/board/test_simboard.py) kills it as a power cut would. POINT is where, in that act:

    before   the rules accepted it; the journal has not been written
    torn     the journal's line half written (POSIX keeps the prefix: resume cuts it)
    written  the line on flash; the host has heard nothing
    entry    the entry frame sent, its ok not

A board dying between acts is the plain firmware killed after an ok. MicroPython only
(the unix port), compiled to .mpy as the board's modules are: a few functions, patched
over the journal's (its write, the file it opens) and the simulated board's own.
"""

import sys
import time

from firmware import argv, main
from firmware.board import sim
from firmware.journal import Journal

point, at = sys.argv[1], int(sys.argv[2])
seen = [0, False]  # entries written in this run; the Nth's line is being torn
_write, _open, _send = Journal.write, Journal.open, sim.Hardware.send


def die():
    sys.stderr.write("dying at %s %d\n" % (point, at))
    while True:  # frozen: nothing more reaches the flash or the host until the kill
        time.sleep(1)


def write(self, index, action_text, events_text, digest):
    seen[0] += 1
    mine = seen[0] == at
    if mine and point == "before":
        die()
    seen[1] = mine and point == "torn"
    _write(self, index, action_text, events_text, digest)
    if mine and point == "written":
        die()


class Torn:
    """The game's file, open to append: the torn act's line goes half out, then the power."""

    def __init__(self, f):
        self.f = f

    def write(self, data):
        if seen[1]:  # the line's first piece (or all of it) half out, then the power goes
            self.f.write(memoryview(data)[:len(data) // 2])
            die()
        return self.f.write(data)

    def __getattr__(self, name):  # flush, fileno, close: the file's own
        return getattr(self.f, name)


def open_file(self, path, mode):
    f = _open(self, path, mode)
    return Torn(f) if mode == "ab" else f


def send(self, kind, body):
    if kind == "ok" and seen[0] == at and point == "entry":
        die()
    _send(self, kind, body)


Journal.write = write
Journal.open = open_file
sim.Hardware.send = send
main.run(argv.options(sys.argv[3:]))
