"""The finished games kept on a Pico's raw flash log, on MicroPython's littlefs (issue 17, part 2).

    micropython tests/mp/kept_flash.py BLOCKS

A NOR-like RAM device (tests/mp/nor_dev.py) of BLOCKS 4 KB blocks, littlefs on it at /flash, the journal's
reservations programmed through it (firmware/journal/store.py's LfsStore, as rp2.Flash() on a Pico): a table
plays a roll a game and starts new games until the board refuses one (flash_full, on the
real filesystem's statvfs), boots again, then a host's pulls and acks (firmware/kept.py) take every kept
game, and a new game starts again. Prints one JSON line of what happened.
"""

import json
import os
import sys

from nor_dev import BLOCK, NorDev

from firmware.journal import Journal
from firmware.journal.store import LfsStore
from firmware.link import Link
from firmware.table import Table


def main(blocks):
    dev = NorDev(bytearray(b"\xff" * (blocks * BLOCK)))
    os.VfsLfs2.mkfs(dev, progsize=256)
    os.mount(os.VfsLfs2(dev, progsize=256), "/flash")
    sent = []
    table = Table(Journal("/flash", 16, LfsStore("/flash", dev)), os.urandom, "chancellors", {"players": 3}).boot()
    host = Link(table, lambda kind, body: sent.append((kind, body)))
    new = {"seat": None, "move": {"type": "new_game", "game": "chancellors", "settings": {"players": 3}}}
    out = {"started": 0, "headers": []}
    while out["started"] < 40:
        table.act({"type": "roll"})
        out["headers"].append(table.header["start"])
        del sent[:]
        host.frame(1, "act", new)
        table.idle()
        kind, body = sent[-1]
        if kind == "error":
            out["refused"] = [body["code"], body["detail"]]
            break
        out["started"] += 1
    # the board switched off and on: its boot maps the reservations again, and its upkeep removes
    # what no game holds, never a kept game
    table = Table(Journal("/flash", 16, LfsStore("/flash", dev)), os.urandom, "chancellors", {"players": 3}).boot()
    host = Link(table, lambda kind, body: sent.append((kind, body)))
    while table.journal.tidy():
        pass
    pulled = []
    while True:
        del sent[:]
        host.frame(2, "pull", {"id": None, "i": 0, "j": 50})
        head = sent[0][1]
        if head["id"] is None:
            break
        pulled.append([head["head"]["start"], len([k for k, b in sent if k == "old"]), head["left"]])
        del sent[:]
        host.frame(3, "ack", {"id": head["id"]})
        assert sent[-1][0] == "ok", sent
    out["pulled"] = pulled
    del sent[:]
    host.frame(4, "act", new)
    out["after"] = sent[-1][0]
    out["files"] = sorted(n for n in os.listdir("/flash"))
    print(json.dumps(out))


main(int(sys.argv[1]))
