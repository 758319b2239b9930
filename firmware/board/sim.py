"""The simulated board: the firmware under the MicroPython unix port.

The link is stdin/stdout, as USB CDC serial is on a real board; the host
(chancery sim) puts a pseudo-terminal there. There are no physical buttons:
the host's virtual presses arrive as `press` frames and go through the same
menus. The journal lives in a folder of the host's file system (--data).
"""

import asyncio
import gc
import os
import select
import sys

from shared_rules import prng
from shared_rules.compat import const

_CHUNK = const(256)


class Hardware:
    def __init__(self, opts):
        self._data = opts["data"]
        self._seq = 0
        self.host = None  # the host's link, from its first byte (host_link())
        # the table's keys and menus (firmware/controls.py's Controls): firmware/boot.py sets them once
        # the table is up; a test's options may give its own
        self.controls = opts.get("controls")
        # a fixed --seed makes the board's own dice repeatable (tests); otherwise os.urandom
        self._fixed = None if opts.get("seed") is None else prng.seed_state(opts["seed"])
        self._out = select.poll()
        self._out.register(sys.stdout, select.POLLOUT)
        # frames for the host, held from an entry's showing (or a scan's keys: mpboard.py) until the
        # input that made it is answered, then written (flush()): not from deep inside it, where
        # wire's recursive encoder ran a Pico's short C stack out (a host's press that made an
        # entry: the press, the menu, the act, the entry shown, its screen sent)
        self._held = None  # type: list | None

    def board_id(self):
        return "sim"

    def entropy(self, n):
        if self._fixed is None:
            return os.urandom(n)
        out = bytearray(n)
        for i in range(n):
            v, self._fixed = prng.draw(self._fixed, 256)
            out[i] = v
        return bytes(out)

    def data_dir(self):
        return self._data

    def send(self, kind, body):
        """One frame to the host; dropped, never waited for, when nobody reads the link
        (the board keeps playing unplugged; the host fetches what it missed)."""
        if self._held is not None:
            self._held.append((kind, body))
            return
        from shared_rules import wire  # loaded by the link's first byte (link()): not before a host

        seq = self._seq
        self._seq = wire.next_seq(seq)
        if not self._out.poll(0):
            return
        wire.write(seq, kind, body, sys.stdout.write)

    def flush(self):
        """Write the frames held while an input was answered, in order. One that cannot be written
        (too long, say) is said on the console and dropped: the host fetches what it missed."""
        held, self._held = self._held, None
        for item in held or ():
            try:
                self.send(item[0], item[1])
            except ValueError as e:  # wire.FrameError
                print("chancery: a %s frame not sent: %s" % (item[0], e))

    def host_link(self, table):
        return host_link(self, table)

    def listening(self):
        return listening(self)

    def put_screen(self, table, lines):
        """Lines of the board's own (the smart dice's) for the display, and a listening host."""
        self.tell_screen(table, lines)

    def tell_screen(self, table, lines):
        """The display's lines to the host, if one listens (a hello came, so wire is loaded)."""
        if self.listening():
            from shared_rules import wire

            self.send(wire.DISPLAY, {"lines": lines})

    async def link(self, table):
        # Not asyncio.StreamReader: its read(n) waits for all n bytes, and a frame is
        # shorter; readline() would grow a buffer for a runaway line. Poll, then take
        # what has arrived a byte at a time into one preallocated chunk.
        src = sys.stdin.buffer
        poller = select.poll()
        poller.register(src, select.POLLIN)
        reader = None  # made with the first byte, as the link is: a board on its own has none
        chunk = bytearray(_CHUNK)
        view = memoryview(chunk)
        while True:
            if self.working():  # the board's own work first: a frame's answer (a ping's) says it is idle
                await asyncio.sleep_ms(1)
                continue
            n = 0
            while n < _CHUNK and poller.poll(0):
                if not src.readinto(view[n:n + 1]):
                    return  # the other side is gone for good
                n += 1
            if n == 0:
                await asyncio.sleep_ms(2)
                continue
            if reader is None:
                from shared_rules import wire

                reader = wire.Reader()
            link = self.host_link(table)
            for item in reader.feed(view[:n]):
                answer(link, item)
                item = None
                self.flush()  # the frames an entry it made held (mpboard's _entry)
                self.show(table)
                self.settle(table)  # between frames: the snapshot if due, then a tidy heap for the next step

    async def inputs(self, table):
        table.idle()  # as after every input: the first awaited press is computed now
        while True:  # no pins to scan: presses come from the host
            await asyncio.sleep_ms(1000)

    def working(self):
        """Whether the board has work under way that a host's frame waits for (mpboard.py's upkeep
        in pieces); none here."""
        return False

    def settle(self, table):
        """After an input is answered and shown: the table's upkeep (Table.idle), here at once (a
        board with buttons takes its parts between presses: mpboard.py)."""
        table.idle()

    def show(self, table):
        table.changed = False
        c = self.controls
        if c.screen_due:  # no display here: the host's mirror shows it
            c.screen_due = False
            if self.listening():  # status() only for a host to hear
                self.tell_screen(table, c.status())


def host_link(hw, table):
    """The host's link (firmware/link.py's Link, a client of the table) of the board `hw` (its
    `host`, and its send()), made at the first byte a host sends (firmware/__init__.py): a board
    played on its own has none."""
    if hw.host is None:
        from firmware.link import Link

        hw.host = Link(table, hw.send, hw.controls)
    return hw.host


def listening(hw):
    """A host has said hello to the board `hw`: frames go to it."""
    return hw.host is not None and hw.host.listening


def fault(table):
    """The display's lines for a board fault (out of memory in an input): Table.fault's, which lets
    the input go and reloads the game from its journal; the bare words if even that runs short."""
    gc.collect()
    try:
        return table.fault()
    except MemoryError:
        gc.collect()
        return ["Board fault:", "out of memory"]


def answer(link, item):
    """Hand one frame (or a bad line) to the host's link (firmware/link.py). Whatever goes wrong is
    an answer to the host, never a dead board; out of memory, the answer may be dropped."""
    from shared_rules import wire

    seq = item.seq if isinstance(item, wire.FrameError) else item[0]
    try:
        if isinstance(item, wire.FrameError):
            link.bad_line(item)
        else:
            link.frame(item[0], item[1], item[2])
        return
    except MemoryError:  # a board fault, not a rules answer: the table lets the input go and reloads
        item = None
        lines = fault(link.table)
        err = wire.FrameError("no_memory", "board fault: the board ran out of memory; it let that input go and "
                              "reloaded the game from its journal (nothing entered is lost): try it again", seq)
        if link.listening:
            try:
                link.send(wire.DISPLAY, {"lines": lines})
            except MemoryError:
                gc.collect()
    except Exception as e:
        err = wire.FrameError("internal", "%s: %s" % (type(e).__name__, e), seq)
    try:
        link.bad_line(err)
    except MemoryError:
        gc.collect()

