"""Fuzz the board's link: random and mutated frames into the firmware's game controller.

    micropython board_fuzz.py FOLDER [--cases N] [--seed S]

The cases are wire_fuzz's (valid frames of every kind with random bodies,
then bit flips, truncations, splices, forged fields, random bytes, overlong
lines), drawn from shared_rules.prng so both interpreters build the same
bytes. They go, in random chunks, through a wire.Reader into firmware.table's
Table, exactly as the simulated board's link loop hands them on: whatever
comes, the board must answer and go on. Presses are left out of the pool (a
lucky run of valid presses could complete a legal action through the menus,
which is a change of state the board is right to make); acts carry random
moves, which the rules refuse.

At the end the game's state, its entry count and the journal on flash must be
what they were before the first case. Prints the count of each answer kind
and code, and a CRC of them in order, which the test compares between the
interpreters. Exit status 1 on a crash, a change of state, or a case that
left the reader stuck.
"""

import binascii
import sys

import wire_fuzz  # noqa: I001  (a sibling runner: tests/mp is on the path)

from firmware.journal import Journal
from firmware.link import Link
from firmware.table import Table
from shared_rules import canon, wire


def run(folder, cases, seed, say):
    counts = {}
    crc = [0]

    def send(kind, body):
        # encode as the board would (through the streaming writer), keep only the outcome
        wire.write(0, kind, body, _nothing)
        key = kind + ":" + body["code"] if kind == wire.ERROR else kind
        counts[key] = counts.get(key, 0) + 1
        crc[0] = binascii.crc32(key.encode(), crc[0])

    table = Table(Journal(folder), lambda n: b"\x5a" * n, "chancellors", {"players": 3}, "fuzz").boot()
    host = Link(table, send)
    table.act({"type": "roll"})  # a game under way
    before = (table.count, canon.digest(table.state), _journal(folder))
    r = wire_fuzz.Rand(seed)
    names = [k[0] for k in wire.kinds() if k[0] != wire.PRESS]
    pool = [wire_fuzz.base_frame(r, names[i % len(names)]) for i in range(wire_fuzz.POOL)]
    reader = wire.Reader()
    stuck = 0
    for _ in range(cases):
        data, _expect, _want = wire_fuzz.mutate(r, pool)
        for item in wire_fuzz.feed(reader, r, data + b"\n", 8192 if len(data) > wire.MAX_FRAME else 96):
            if isinstance(item, wire.FrameError):
                host.bad_line(item)
            elif item[1] != wire.PRESS:
                host.frame(item[0], item[1], item[2])
        if not reader.idle():
            stuck += 1
    after = (table.count, canon.digest(table.state), _journal(folder))
    for key in sorted(counts):
        say("%s %d" % (key, counts[key]))
    changed = after != before
    say("cases %d stuck %d changed %d crc %08x" % (cases, stuck, 1 if changed else 0, crc[0] & 0xFFFFFFFF))
    return 1 if stuck or changed else 0


def _nothing(piece):
    pass


def _journal(folder):
    f = open(folder + "/game.jsonl", "rb")
    try:
        return binascii.crc32(f.read())
    finally:
        f.close()


def main(argv):
    cases, seed = 10000, 1
    folder = argv[0]
    i = 1
    while i + 1 < len(argv):
        if argv[i] == "--cases":
            cases = int(argv[i + 1])
        elif argv[i] == "--seed":
            seed = int(argv[i + 1])
        i += 2
    return run(folder, cases, seed, _say)


def _say(text):
    sys.stdout.write(text + "\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
