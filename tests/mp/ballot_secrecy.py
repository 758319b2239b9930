"""A sealed ballot on the board's table controller, run twice with one seat's hidden choice changed.

    micropython tests/mp/ballot_secrecy.py FOLDER LAYOUT

Both runs: the host opens a ballot over the link (three seats, three options),
seat 0 votes on its pad (run A: up, the first option; run B: down, the third),
presses again, seat 1 votes; that is "before". Then seat 2 votes, the last
voter, and the board reveals by itself: "after". For each run and each moment,
one line of CRC-32s: every frame the board sent, every screen its display
showed, the journal's bytes (what a log export holds), the state's digest, the
public view and the LED frame rendered from it, and whether the private ballot
box is on flash. The test compares run A's lines with run B's (equal before,
different after) and CPython's with MicroPython's.
"""

import json
import os
import sys

from firmware.journal import Journal
from firmware.table import Table
from shared_rules import canon, engine, render, wire

OPEN = {"type": "ballot_open", "question": "Exile the Duke?", "options": ["Aye", "Nay", "Abstain"]}


def _crc(value):
    return canon.digest(value)


def _files(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        if name != "ballot.json":  # the private box: on the board's flash, in no frame or export
            with open(folder + "/" + name, "rb") as f:
                out[name] = canon.crc32_hex(f.read().decode())
    return out


def _moment(name, table, sent, screens, folder, layout):
    view = engine.game_module(table.game).view(table.state, None)
    frame = bytearray(render.frame_size(layout))
    render.render(view, layout, frame)
    box = "ballot.json" in os.listdir(folder)
    return "%s frames=%s screens=%s journal=%s state=%s view=%s leds=%s box=%s" % (
        name, _crc(sent), _crc(screens), _crc(_files(folder)), canon.digest(table.state), _crc(view),
        canon.crc32_hex("".join(["%02x" % b for b in frame])), "yes" if box else "no")


def run(folder, hidden, layout):
    os.mkdir(folder)
    sent = []
    screens = []
    table = Table(Journal(folder), lambda kind, body: sent.append([kind, body]), lambda n: b"\x33" * n,
                  "chancellors", {"players": 3}, "ballot").boot()
    table.frame(0, wire.HELLO, {"proto": 1})
    table.frame(1, wire.ACT, {"move": OPEN, "seat": None})
    screens.append(table.key(0, hidden)[0])
    screens.append(table.key(0, "select")[0])  # again: voted already, whatever it chose
    screens.append(table.key(1, "up")[0])
    out = [_moment("before", table, sent, screens, folder, layout)]
    screens.append(table.key(2, "select")[0])  # the last voter: the board reveals
    out.append(_moment("after", table, sent, screens, folder, layout))
    result = table.state["ballot"]["result"]
    out.append("revealed %s counts %s" % (canon.encode(result["choices"]), canon.encode(result["counts"])))
    return out


def main(argv):
    folder, layout_path = argv[0], argv[1]
    with open(layout_path) as f:
        layout = json.load(f)
    for tag, key in (("A", "up"), ("B", "down")):
        for line in run(folder + "/" + tag, key, layout):
            print(tag + " " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
