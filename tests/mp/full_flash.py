"""A flash that fills in the middle of a game, on MicroPython's littlefs (issue 44, part 4).

    micropython tests/mp/full_flash.py BLOCKS raw|file
    on the chip: ARGS = ["0", "raw", "chip"], then this file (mpremote exec, then run)

A NOR-like RAM device (tests/mp/nor_dev.py) of BLOCKS 4 KB blocks, littlefs on it at /flash, or on
the chip the board's own flash (rp2.Flash(), the flash model's timings and littlefs as the
firmware mounted it) with the table's folder /full, and the table on one of the two journals: the raw flash log (reservations programmed through the
device, as rp2.Flash() on a Pico) or the file journal (game.jsonl, as on an ESP32-S3). Two games
are played and kept (a roll and its undo, over and over: lines that fill the flash), a third is
started, and another file then takes the flash's room. The third game goes on, each act sent as
the host's frame and each followed by the board's idle time, until the flash refuses an entry.
Then the host pulls and acknowledges the kept games, and the same act is sent again. Prints one
JSON line of what happened (the last line: the firmware may print its upkeep's failures).
"""

import json
import os
import sys

from firmware.journal import Journal
from firmware.journal.store import LfsStore
from firmware.link import Link
from firmware.table import Table
from shared_rules import canon

ROLL = {"seat": None, "move": {"type": "roll"}}
UNDO = {"seat": None, "move": {"type": "undo"}}
NEW = {"seat": None, "move": {"type": "new_game", "game": "chancellors", "settings": {"players": 3}}}


FOLDER = "/flash"


def journal(dev, raw):
    return Journal(FOLDER, 16, LfsStore(FOLDER, dev) if raw else False)


def send(link, sent, kind, body):
    del sent[:]
    link.frame(1, kind, body)
    link.table.idle()
    return sent[-1]


def fill(size):
    """Another file takes every byte littlefs gives it, `size` bytes a write."""
    piece = b"\x00" * size
    with open(FOLDER + "/filler.bin", "wb") as f:
        while True:
            try:
                f.write(piece)
                f.flush()
            except OSError as e:
                if e.args[0] != 28:
                    raise
                return


def board(blocks, chip):
    """The flash device the journal programs, with littlefs mounted on it."""
    global FOLDER
    if chip:  # the board's own flash, littlefs mounted at / by the firmware's _boot.py
        import rp2

        FOLDER = "/full"
        os.mkdir(FOLDER)
        return rp2.Flash()
    from nor_dev import BLOCK, NorDev

    dev = NorDev(bytearray(b"\xff" * (blocks * BLOCK)))
    os.VfsLfs2.mkfs(dev, progsize=256)
    os.mount(os.VfsLfs2(dev, progsize=256), FOLDER)
    return dev


def main(blocks, raw, chip=False):
    dev = board(blocks, chip)
    sent = []
    table = Table(journal(dev, raw), os.urandom, "chancellors",
                  {"players": 3}).boot()
    host = Link(table, lambda kind, body: sent.append((kind, body)))
    out = {}
    for _ in range(2):
        for _ in range(20):
            assert send(host, sent, "act", ROLL)[0] == "ok", sent
            assert send(host, sent, "act", UNDO)[0] == "ok", sent
        assert send(host, sent, "act", ROLL)[0] == "ok", sent
        assert send(host, sent, "act", NEW)[0] == "ok", sent
    fill(4096 if chip else 512)  # on the chip a synced append to a file erases a block
    st = os.statvfs(FOLDER)
    out["statvfs"] = [st[0], st[2], st[3], st[4]]
    out["room"] = table.journal.room()
    move, acts, answer = UNDO, 0, None
    while acts < 2000:
        move = UNDO if move is ROLL else ROLL
        before = (table.count, canon.digest(table.state), table.journal.last)
        answer = send(host, sent, "act", move)
        if answer[0] != "ok":
            break
        acts += 1
    out["acts"] = acts
    out["refused"] = [answer[0], answer[1].get("code"), answer[1].get("detail")]
    out["unchanged"] = (table.count, canon.digest(table.state), table.journal.last) == before
    # the board switched off and on: the game resumes where the refusal left it
    table = Table(journal(dev, raw), os.urandom, "chancellors",
                  {"players": 3}).boot()
    host = Link(table, lambda kind, body: sent.append((kind, body)))
    out["resumed"] = (table.count, canon.digest(table.state), table.journal.last) == before
    pulled = 0
    while True:
        del sent[:]
        host.frame(2, "pull", {"id": None, "i": 0, "j": 0})
        head = sent[0][1]
        if head["id"] is None:
            break
        assert send(host, sent, "ack", {"id": head["id"]})[0] == "ok", sent
        pulled += 1
    out["pulled"] = pulled
    out["again"] = send(host, sent, "act", move)[0]
    out["count"] = [before[0], table.count, move["move"]["type"]]
    print(json.dumps(out))


ARGS = globals().get("ARGS") or sys.argv[1:]  # a port without sys.argv (the chip's) is given ARGS
main(int(ARGS[0]), ARGS[1] == "raw", ARGS[2:] == ["chip"])
