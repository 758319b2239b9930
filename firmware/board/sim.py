"""The simulated board: the firmware under the MicroPython unix port.

The link is stdin/stdout, as USB CDC serial is on a real board; the host
(chancery sim) puts a pseudo-terminal there. There are no physical buttons:
the host's virtual presses arrive as `press` frames and go through the same
menus. The journal lives in a folder of the host's file system (--data).
"""

import asyncio
import os
import select
import sys

from shared_rules import prng, wire

_CHUNK = 256


class Hardware:
    def __init__(self, opts):
        self._data = opts["data"]
        self._seq = 0
        # a fixed --seed makes the board's own dice repeatable (tests); otherwise os.urandom
        self._fixed = None if opts.get("seed") is None else prng.seed_state(opts["seed"])
        self._out = select.poll()
        self._out.register(sys.stdout, select.POLLOUT)

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
        line = wire.encode(self._seq, kind, body)
        self._seq = wire.next_seq(self._seq)
        if not self._out.poll(0):
            return
        sys.stdout.write(line)

    async def link(self, table):
        stream = asyncio.StreamReader(sys.stdin.buffer)
        reader = wire.Reader()
        while True:
            chunk = await stream.read(_CHUNK)
            if not chunk:  # the other side is gone for good (tests end the board this way)
                return
            for item in reader.feed(chunk):
                if isinstance(item, wire.FrameError):
                    table.link_error(item)
                else:
                    try:
                        table.frame(item[0], item[1], item[2])
                    except Exception as e:  # an answer, never a dead board
                        table.link_error(wire.FrameError("internal", "%s: %s" % (type(e).__name__, e)))
                self.show(table)

    async def inputs(self, table):
        while True:  # no pins to scan: presses come from the host
            await asyncio.sleep_ms(1000)

    def show(self, table):
        table.changed = False
