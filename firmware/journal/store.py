"""The raw flash log's reservations (firmware/journal/flash.py says why they exist): their
layout on flash, and the stores that make, find and remove them.

A reservation is a littlefs file resN.bin beside the journal, of BLOCKS blocks written once
as 0xFF bytes behind one marker per block. The marker (MAGIC, the reservation's random nonce,
the block's index, the block count) is written where littlefs puts the start of block i's
data, after the CTZ skip-list pointers (none in block 0, 4*(ctz(i)+1) bytes after: ptrs()),
and one scan of every block's first SCAN bytes finds each reservation's blocks (the nonce
tells a live reservation's blocks from a removed one's, whose markers stay in freed blocks).
Pages 1-15 of each block hold lines; page 0 keeps littlefs's pointers and the marker.

Stores: LfsStore here (rp2: rp2.Flash() under the littlefs that holds the folder; the unix
port's tests: os.VfsLfs2 over a RAM block device), and FileStore (firmware/journal/files.py:
a plain file per reservation, programmed as NOR flash is: the CPython tests). A store gives
size(), piece(f, i) (block i of a new reservation's file) and regions(seqs); a region gives
path, pages, read(page, buf), run(page) and program(page, buf).
"""

import os

from firmware.journal.line import JournalError

PAGE = 256
BLOCK = 4096
PAGES = 15  # pages of lines per block: page 0 holds littlefs's pointers and the marker
BLOCKS = 4  # blocks per reservation: 15,360 bytes of lines, 30-60 entries
MAGIC = b"\xfeCHJRNL\x01"
MARK = 16  # magic, nonce (4), block index (2), blocks (2)
SCAN = 64  # a marker ends within a block's first 64 bytes (block index < 2**11)
FF = b"\xff" * PAGE


def ptrs(i):
    """Bytes of littlefs CTZ skip-list pointers at the start of a file's block i."""
    if i == 0:
        return 0
    n = 1
    while not i & 1:
        i >>= 1
        n += 1
    return 4 * n


class BlockRegion:
    """A reservation's blocks on the block device under littlefs: pages 1-15 of each."""

    def __init__(self, path, dev, blocks):
        self.path, self.dev, self.blocks, self.pages = path, dev, blocks, len(blocks) * PAGES

    def read(self, page, buf):
        self.dev.readblocks(self.blocks[page // PAGES], buf, PAGE * (1 + page % PAGES))

    def run(self, page):
        """Pages from `page` on that one program call reaches (the rest of its block)."""
        return PAGES - page % PAGES

    def program(self, page, buf):
        self.dev.writeblocks(self.blocks[page // PAGES], buf, PAGE * (1 + page % PAGES))


class Store:
    """Reservations as files resN.bin in `folder` (PREFIXN.bin: another log's, as like() makes):
    what the two kinds share (LfsStore below; firmware/journal/files.py's FileStore)."""

    def __init__(self, folder, blocks=BLOCKS, prefix="res"):
        self.folder, self.blocks, self.prefix = folder, blocks, prefix

    def like(self, prefix, blocks):
        """A store of the same kind in the same folder for another log's reservations, PREFIXN.bin
        of `blocks` blocks each (a side file's: firmware/journal/core.py)."""
        return type(self)(self.folder, blocks, prefix)

    def path(self, seq):
        return "%s/%s%d.bin" % (self.folder, self.prefix, seq)

    def seq(self, path):
        """The number of the reservation at `path`."""
        return int(path[len(self.folder) + 1 + len(self.prefix):-4])

    def seqs(self):
        """The reservations' numbers, in order."""
        try:
            names = os.listdir(self.folder)
        except OSError:
            return []
        out, k = [], len(self.prefix)
        for n in names:
            if n.startswith(self.prefix) and n.endswith(".bin") and n[k:-4].isdigit():
                out.append(int(n[k:-4]))
        out.sort()
        return out

    def remove(self, seq):
        try:
            os.remove(self.path(seq))
        except OSError:
            pass

    def make(self, seq):
        """A generator: makes reservation `seq` a part of a block per step (piece()), then the
        file's close, yielding None, then its region. A step runs between two scans of the
        buttons (Table.upkeep): a littlefs block's write as one step took about 60 ms on the
        chip, and a press that ended during it waited for it."""
        path = self.path(seq)
        f = open(path, "wb")
        try:
            for i in range(self.blocks):
                for _ in self.piece(f, i):
                    yield None
        finally:
            f.close()
        yield None
        region = self.regions([seq], True)[seq]
        if region is None:
            self.remove(seq)
            raise JournalError("bad_reservation", path, None, "its blocks were not found after it was written")
        yield region


class LfsStore(Store):
    """Reservations as littlefs files whose blocks are programmed through `dev`, the block
    device littlefs is mounted on (rp2.Flash() on a Pico)."""

    def __init__(self, folder, dev, blocks=BLOCKS, prefix="res"):
        Store.__init__(self, folder, blocks, prefix)
        self.dev = dev
        self.nonce = None  # the reservation being made's
        self.hint = 0  # the block after the last one a fresh reservation's scan found (_scan)

    def like(self, prefix, blocks):
        other = LfsStore(self.folder, self.dev, blocks, prefix)
        other.hint = self.hint  # one allocator for both: littlefs's
        return other

    def size(self):
        n = 0
        for i in range(self.blocks):
            n += BLOCK - ptrs(i)
        return n

    def piece(self, f, i):
        """Block i of a new reservation's file, a generator: a step after each kilobyte."""
        if i == 0:
            self.nonce = os.urandom(4)
        n = self.blocks
        f.write(MAGIC + self.nonce + bytes((i & 255, i >> 8, n & 255, n >> 8)))
        left = BLOCK - ptrs(i) - MARK
        w = 0
        while left > 0:
            k = PAGE if left > PAGE else left
            f.write(FF[:k])
            left -= k
            w += 1
            if w % 4 == 0 or left <= 0:
                yield

    def regions(self, seqs, fresh=False):
        """{seq: its region, or None}: each reservation's blocks found by their markers. `fresh`:
        one just written (make()), whose blocks littlefs took after the last ones found (hint):
        the scan starts there and stops when it has them all (else: every block, a place
        that two blocks claim is damage)."""
        want, out = {}, {}
        for seq in seqs:
            out[seq] = None
            try:
                if os.stat(self.path(seq))[6] != self.size():
                    continue
                with open(self.path(seq), "rb") as f:
                    mark = f.read(MARK)
            except OSError:
                continue
            if mark[:8] == MAGIC and mark[12] == 0 and mark[13] == 0 and mark[14] | mark[15] << 8 == self.blocks:
                want[bytes(mark[8:12])] = (seq, [None] * self.blocks)
        if want:
            self._scan(want, fresh)
        top = -1
        for nonce in want:
            seq, blocks = want[nonce]
            if None not in blocks and -1 not in blocks:
                out[seq] = BlockRegion(self.path(seq), self.dev, blocks)
                if seq > top:  # the newest: littlefs takes the next blocks after its last
                    top, self.hint = seq, blocks[-1] + 1
        return out

    def _scan(self, want, fresh=False):
        """Find each wanted reservation's blocks by their markers: want {nonce: (seq, blocks)}.
        A block's read is about 0.2 ms on the chip: the whole device's, some 60 ms."""
        buf = bytearray(SCAN)
        dev = self.dev
        count = dev.ioctl(4, 0)
        left = 0
        for nonce in want:
            left += len(want[nonce][1])
        start = self.hint % count if fresh else 0
        for n in range(count):
            b = (start + n) % count
            dev.readblocks(b, buf, 0)
            data = bytes(buf)
            k = data.find(MAGIC)
            if k < 0:
                continue
            got = want.get(data[k + 8:k + 12])
            if got is None:
                continue
            i = data[k + 12] | data[k + 13] << 8
            blocks = got[1]
            if i < len(blocks) and k == ptrs(i):
                if blocks[i] is not None:
                    blocks[i] = -1  # two blocks claim one place
                    continue
                blocks[i] = b
                left -= 1
                if fresh and not left:  # littlefs allocates onward: the next reservation's are further on
                    self.hint = b + 1
                    return
