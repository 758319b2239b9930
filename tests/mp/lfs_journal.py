"""The journal on littlefs (os.VfsLfs2) over a RAM block device, with simulated power cuts.

    micropython lfs_journal.py ACTIONS CUTS SEED

ACTIONS is a game as journal_writer.py reads it (a header line, then one action per line).
First the whole game is journalled on a fresh littlefs, counting the block writes. Then,
CUTS times: a fresh littlefs, the game again, and at a random block write (drawn with the
core's PRNG from SEED) the device stops: that write is programmed only in part and
writeblocks raises, as a power cut would end it. The "board" then reboots: a new device
over the bytes the flash held, mounted afresh at /flash, Journal.resume(); the resumed
count must be the acknowledged entries or one more (the one in flight), with the digest
the game had there; then the game is played to its end and resumed once more.

One line per cut: "cut K write W/TOTAL acked A resumed C cut B snap S ok" (or "... FAIL:
why"), then "cuts=N failed=F". MicroPython only (the block device protocol is its own):
readblocks/writeblocks with an offset and ioctl 4 (count), 5 (size), 6 (erase), as the
extended interface of os.AbstractBlockDev that littlefs requires.
"""

import json
import os
import sys

from journal_cuts import goes_on, play

from firmware.journal import Journal, NoGame
from shared_rules import engine, prng

BLOCK = 512
BLOCKS = 256  # 128 KB: a long game's journal is about 40 KB, and littlefs copies on write
MOUNT = "/flash"
# two flash images, allocated once: the one being cut, and the one the board reboots on
FLASH = bytearray(BLOCK * BLOCKS)
REBOOT = bytearray(BLOCK * BLOCKS)


class PowerCut(Exception):
    pass


class RAMBlockDev:
    """Flash in a bytearray; `left` block writes until the power goes (None: never)."""

    def __init__(self, data, rnd=None):
        self.data = data
        self.left = None
        self.rnd = rnd
        self.writes = 0
        self.dead = False  # after the cut nothing reaches the flash (finalisers, umount)

    def readblocks(self, block, buf, off=0):
        a = block * BLOCK + off
        buf[:] = memoryview(self.data)[a:a + len(buf)]

    def writeblocks(self, block, buf, off=None):
        if off is None:  # the simple interface: erase, then program
            for i in range(len(buf) // BLOCK):
                self.ioctl(6, block + i)
            off = 0
        if self.dead:
            return
        a = block * BLOCK + off
        n = len(buf)
        self.writes += 1
        if self.left is not None:
            self.left -= 1
            if self.left <= 0:  # the power goes: a part of this program reaches the flash
                n, self.rnd = prng.draw(self.rnd, n)
                self.data[a:a + n] = memoryview(buf)[:n]
                self.dead = True
                raise PowerCut()
        self.data[a:a + n] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // BLOCK
        if op == 5:
            return BLOCK
        if op == 6 and not self.dead:  # erase: NOR flash reads 0xFF afterwards
            a = arg * BLOCK
            for i in range(a, a + BLOCK):
                self.data[i] = 0xFF
            return 0
        return 0  # 1 init, 2 deinit, 3 sync: nothing to do in RAM


def mount(bdev):
    try:
        os.umount(MOUNT)
    except OSError:
        pass
    os.mount(os.VfsLfs2(bdev), MOUNT)


def fresh(actions, bdev, digests, acked, left=None):
    """mkfs, mount, then (counting block writes from here, the power going after `left`)
    start the game and play it; acked[0] follows the acknowledgements."""
    os.VfsLfs2.mkfs(bdev)
    mount(bdev)
    bdev.writes, bdev.left = 0, left
    f = open(actions)
    header = json.loads(f.readline())
    f.close()
    j = Journal(MOUNT + "/game")
    j.start(header)
    acked[0] = 0

    def ack(n):
        acked[0] = n + 1

    state = engine.new_match(header["game"], header["settings"], header["seed"])["state"]
    return play(actions, j, state, 0, digests, ack)


def one_cut(actions, k, at, total, rnd, digests):
    acked = [-1]  # -1: start() not acknowledged yet
    dev = RAMBlockDev(FLASH, rnd)
    try:
        fresh(actions, dev, digests, acked, at)
        return "cut %d write %d/%d FAIL: the power cut never came" % (k, at, total)
    except Exception:  # PowerCut, or what littlefs made of it (the flash is gone either way)
        if not dev.dead:
            raise
    REBOOT[:] = FLASH
    dev = RAMBlockDev(REBOOT)  # reboot: the flash keeps its bytes, RAM does not
    mount(dev)
    j = Journal(MOUNT + "/game")
    where = "cut %d write %d/%d acked %d" % (k, at, total, acked[0])
    try:
        header, state, count = j.resume()
    except NoGame:
        if acked[0] >= 0:
            return where + " FAIL: no game after start() returned"
        return where + " resumed none ok"
    where += " resumed %d cut %d snap %d" % (count, j.cut, j.snap_at)
    if count < acked[0] or count > acked[0] + 1:
        return where + " FAIL: not the acknowledged entries (or one more)"
    if j.last != (digests[count - 1] if count else header["start"]):
        return where + " FAIL: another state"
    return goes_on(actions, j, state, count, digests, lambda: Journal(MOUNT + "/game"), where)


def main(argv):
    actions, cuts, seed = argv[0], int(argv[1]), int(argv[2])
    digests = []
    dev = RAMBlockDev(FLASH)
    fresh(actions, dev, digests, [0])
    total = dev.writes
    rnd = prng.seed_state(seed)
    failed = 0
    for k in range(cuts):
        at, rnd = prng.draw(rnd, total)
        line = one_cut(actions, k, at + 1, total, prng.seed_state(seed * 7919 + k + 1), digests)
        if not line.endswith(" ok"):
            failed += 1
        sys.stdout.write(line + "\n")
    sys.stdout.write("cuts=%d failed=%d\n" % (cuts, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
