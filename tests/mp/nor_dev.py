"""A NOR flash in a bytearray, for littlefs under MicroPython's unix port: 4 KB blocks, a
program only clears bits, an erase sets a block to 0xFF, as the Pico's flash behaves for the
journal (tests/mp/flash_journal.py, which cuts its power; tests/mp/kept_flash.py)."""

from shared_rules import prng

BLOCK = 4096


class PowerCut(Exception):
    pass


class NorDev:
    """NOR flash in a bytearray; `left` operations until the power goes (None: never)."""

    def __init__(self, data, rnd=None, bits=False):
        self.data = data
        # bits: a cut leaves the bits its program or erase was changing half done (each old or new
        # at random, over the whole operation), as real NOR may, not a clean prefix
        self.bits = bits
        self.left = None
        self.rnd = rnd
        self.programs = self.erases = 0
        self.kind = None
        self.dead = False

    def _cut(self, kind):
        """Count an operation; True when the power goes during it."""
        if kind == "program":
            self.programs += 1
        else:
            self.erases += 1
        if self.left is None:
            return False
        self.left -= 1
        if self.left > 0:
            return False
        self.kind, self.dead = kind, True
        return True

    def readblocks(self, block, buf, off=0):
        a = block * BLOCK + off
        if not self.dead:
            try:
                buf[:] = memoryview(self.data)[a:a + len(buf)]
                return
            except MemoryError:  # below
                pass
        # littlefs's finalisers (a file a failed write left open) run with the heap locked: no
        # slice object then. A real flash's readblocks is C and allocates nothing.
        i = 0
        while i < len(buf):
            buf[i] = self.data[a + i]
            i += 1

    def writeblocks(self, block, buf, off=None):
        if off is None:
            for i in range(len(buf) // BLOCK):
                self.ioctl(6, block + i)
            off = 0
        if self.dead:  # after the cut nothing reaches the flash (finalisers, umount)
            return
        a = block * BLOCK + off
        n = len(buf)
        cut = self._cut("program")
        d = self.data
        if cut and self.bits:  # the part programs 256-byte pages in turn: the pages before the
            # one it is in are whole, those after it untouched, and in that one each bit being
            # cleared is cleared or not
            cut_at, self.rnd = prng.draw(self.rnd, n)
            first = cut_at - (a + cut_at) % 256
            for i in range(first if first > 0 else 0):
                d[a + i] &= buf[i]
            i = first if first > 0 else 0
            while i < n and (i == 0 or (a + i) % 256):
                keep, self.rnd = prng.draw(self.rnd, 256)  # of the bits being cleared, these stay set
                d[a + i] = (d[a + i] & buf[i]) | (d[a + i] & ~buf[i] & keep)
                i += 1
            raise PowerCut()
        if cut:
            n, self.rnd = prng.draw(self.rnd, n)
        for i in range(n):
            d[a + i] &= buf[i]
        if cut:
            raise PowerCut()

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // BLOCK
        if op == 5:
            return BLOCK
        if op == 6 and not self.dead:
            cut = self._cut("erase")
            a = arg * BLOCK
            n = BLOCK
            if cut:
                n, self.rnd = prng.draw(self.rnd, BLOCK)
            self.data[a:a + n] = b"\xff" * n
            if cut:
                raise PowerCut()
            return 0
        return 0
