"""The raw flash log's reservations as plain files (firmware/journal/store.py): for CPython's
tests, and any port that keeps files but has no block device under them.

Each reservation is one file of erased (0xFF) bytes, programmed as NOR flash is: a program only
clears bits. A Pico never uses it (it programs its reservations through rp2.Flash(): LfsStore),
and nothing a board imports imports it.
"""

import os

from firmware.journal.store import FF, PAGE, PAGES, Store


class FileRegion:
    """A reservation kept in a plain file, programmed as NOR flash is (bits only cleared)."""

    def __init__(self, path, pages):
        self.path, self.pages = path, pages

    def read(self, page, buf):
        with open(self.path, "rb") as f:
            f.seek(page * PAGE)
            f.readinto(buf)

    def run(self, page):
        return self.pages - page

    def program(self, page, buf):
        with open(self.path, "r+b") as f:
            f.seek(page * PAGE)
            new = bytearray(f.read(len(buf)))
            for i in range(len(buf)):
                new[i] &= buf[i]
            f.seek(page * PAGE)
            f.write(new)
            f.flush()
            if hasattr(os, "fsync"):
                os.fsync(f.fileno())


class FileStore(Store):
    """Reservations as plain files of erased bytes in `folder`."""

    def size(self):
        return self.blocks * PAGES * PAGE

    def piece(self, f, i):
        """Block i of a new reservation's file, a generator: a step after each 4 pages."""
        for p in range(PAGES):
            f.write(FF)
            if p % 4 == 3 or p == PAGES - 1:
                yield

    def regions(self, seqs, fresh=False):
        """{seq: its region, or None when the file is not a whole reservation}."""
        out = {}
        for seq in seqs:
            try:
                ok = os.stat(self.path(seq))[6] == self.size()
            except OSError:
                ok = False
            out[seq] = FileRegion(self.path(seq), self.blocks * PAGES) if ok else None
        return out
