"""The raw flash log (firmware/journal/flash.py) on littlefs over a NOR-like RAM device, with power cuts.

    micropython flash_journal.py ACTIONS CUTS SEED

ACTIONS is a game as journal_writer.py reads it (a header line, then one action per line).
The device behaves as the Pico's flash does for the journal: 4 KB blocks, a program only
clears bits (NOR), an erase sets a block to 0xFF. littlefs (os.VfsLfs2, 256-byte programs as
the Pico's _boot.py mounts it) and the journal's reservations share it, the journal
programming its lines through the same device (LfsStore), as on the chip through rp2.Flash().

First the whole game is journalled, the board's way: each entry appended, then tidy() (the
work Table.idle() does after the LEDs show it); the device counts its programs and erases.
Then, CUTS times, the game again from a fresh filesystem, and at a random operation (drawn
with the core's PRNG from SEED) the power goes: a program lands in part (a prefix of its
bytes), an erase in part (a prefix of its block back to 0xFF), and nothing after. The board
reboots on the bytes the flash held: mount, Journal.resume(); the resumed count must be the
acknowledged entries or one more (the one in flight), with its digest; then the game is
played to its end (moving past any torn line) and resumed once more, every entry checked.

One line per cut: "cut K op W/TOTAL KIND acked A resumed C cut B snap S ok" (or "... FAIL:
why"), then "cuts=N failed=F torn=T moved=M programs=P erases=E" (torn: resumes that dropped a
torn line; moved: ... that went on in another reservation). MicroPython only.
"""

import json
import os
import sys

from journal_cuts import goes_on, play
from nor_dev import BLOCK, NorDev

from firmware.journal import Journal, NoGame
from firmware.journal.store import LfsStore
from shared_rules import engine, prng

BLOCKS = 96  # 384 KB
MOUNT = "/flash"
FOLDER = MOUNT + "/chancery"
FLASH = bytearray(BLOCK * BLOCKS)
REBOOT = bytearray(BLOCK * BLOCKS)


def mount(dev):
    try:
        os.umount(MOUNT)
    except OSError:
        pass
    os.mount(os.VfsLfs2(dev, progsize=256), MOUNT)


def journal(dev):
    return Journal(FOLDER, 16, LfsStore(FOLDER, dev))


def fresh(actions, dev, digests, acked, left=None):
    os.VfsLfs2.mkfs(dev, progsize=256)
    mount(dev)
    dev.programs = dev.erases = 0
    dev.left = left
    f = open(actions)
    header = json.loads(f.readline())
    f.close()
    j = journal(dev)
    j.start(header)
    acked[0] = 0

    def ack(n):
        acked[0] = n + 1

    state = engine.new_match(header["game"], header["settings"], header["seed"])["state"]
    return play(actions, j, state, 0, digests, ack, upkeep=True)


def one_cut(actions, k, at, total, rnd, digests, stats, bits=False):
    acked = [-1]
    dev = NorDev(FLASH, rnd, bits)
    try:
        fresh(actions, dev, digests, acked, at)
        return "cut %d op %d/%d FAIL: the power cut never came" % (k, at, total)
    except Exception:  # PowerCut, or what littlefs made of it
        if not dev.dead:
            raise
    REBOOT[:] = FLASH
    dev2 = NorDev(REBOOT)
    mount(dev2)
    j = journal(dev2)
    where = "cut %d op %d/%d %s acked %d" % (k, at, total, dev.kind, acked[0])
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
    moved = j.flash.cur is not j.flash.end[0]
    stats[0] += j.cut > 0
    stats[1] += moved
    return goes_on(actions, j, state, count, digests, lambda: journal(dev2), where, untorn=True)


def main(argv):
    actions, cuts, seed = argv[0], int(argv[1]), int(argv[2])
    bits = len(argv) > 3 and argv[3] == "bits"  # a cut's program leaves its bits half done
    digests = []
    dev = NorDev(FLASH)
    fresh(actions, dev, digests, [0])
    total = dev.programs + dev.erases
    programs, erases = dev.programs, dev.erases
    rnd = prng.seed_state(seed)
    failed = 0
    stats = [0, 0]
    for k in range(cuts):
        at, rnd = prng.draw(rnd, total)
        line = one_cut(actions, k, at + 1, total, prng.seed_state(seed * 7919 + k + 1), digests, stats, bits)
        if not line.endswith(" ok"):
            failed += 1
        sys.stdout.write(line + "\n")
    sys.stdout.write("cuts=%d failed=%d torn=%d moved=%d programs=%d erases=%d\n" % (
        cuts, failed, stats[0], stats[1], programs, erases))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
