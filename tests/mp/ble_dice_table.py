"""The board's smart dice (firmware/board/ble_dice.py) on a Table, with the fake aioble (tests/fakes/ble/).

    micropython ble_dice_table.py DATA_DIR SCRIPT.json

SCRIPT.json: {"dice": [[address, shell], ...], "script": [[address, what], ...] (see the fake),
"then": [[at, move], ...], "keys": [[at, pad, key], ...]} where each move is acted on the table (a
host's act), and each key pressed on a pad (Controls.pressed), when the script has `at` items left.
Prints "said LINE" for each display, "key PAD KEY menu loaded|let go | LINES" for each key (the
menu's code as the key found it, the screen after it), then "entry JSON" for each log entry, then
"loaded MODULES": the dice's and the board's modules still loaded at the end.
MicroPython-safe.
"""

import asyncio
import json
import os
import sys

import aioble

from firmware.board import ble_dice
from firmware.controls import Controls
from firmware.journal import Journal
from firmware.table import Table


class Hardware:
    """What ble_dice asks of a board: show(), send(), put_screen() (as sim.Hardware's), whose every
    screen is kept (`screens`), drawn straight on the display and told the host."""

    def __init__(self):
        self.screens = []
        self.controls = None  # the table's keys (firmware/controls.py), as firmware/boot.py sets them

    def put_screen(self, table, lines):
        self.screens.append(lines)
        self.tell_screen(table, lines)

    def show(self, table):
        table.changed = False
        self.controls.screen_due = False

    def send(self, kind, body):
        if kind == "display":
            print("said", " | ".join(body["lines"]))

    def tell_screen(self, table, lines):  # a host listens to this board
        self.send("display", {"lines": lines})


def short_once():
    """The heap runs short in the first of the dice's works (spec "short_once"): firmware/board/
    dice_events.py's handle() raises MemoryError once, then is itself again."""
    from firmware.board import dice_events

    real = dice_events.handle

    def handle(table, hw, box, die, shell, data):
        dice_events.handle = real
        print("short of memory at", die, hw.screens[-1] if hw.screens else None)
        raise MemoryError("the test's")

    dice_events.handle = handle


async def main(table, spec, hw):
    if spec.get("short_once"):
        short_once()
    asyncio.create_task(ble_dice.run(table, hw, spec["dice"]))
    then = spec.get("then", [])
    keys = spec.get("keys", [])
    idle = 0
    while idle < 200:
        await asyncio.sleep_ms(5)
        for at_move in then:
            if at_move[0] is not None and len(aioble.SCRIPT) <= at_move[0]:
                table.act(at_move[1])
                at_move[0] = None
        for k in keys:
            if k[0] is not None and len(aioble.SCRIPT) <= k[0]:
                print("key", k[1], k[2], "|", " | ".join(hw.controls.pressed(k[1], k[2])[0]))
                k[0] = None
        idle = idle + 1 if not aioble.SCRIPT else 0


folder = sys.argv[1]
try:
    os.mkdir(folder)
except OSError:
    pass
f = open(sys.argv[2])
spec = json.load(f)
f.close()
aioble.SCRIPT = spec["script"]
table = Table(Journal(folder), lambda n: b"\x5a" * n, "chancellors", {"players": 2}, "t")
table.boot()
hw = Hardware()
hw.controls = Controls(table)
asyncio.run(main(table, spec, hw))
for entry in table.journal.entries(0):
    print("entry", json.dumps(entry["action"]))
for lines in hw.screens:
    if lines and lines[0] == "Out of memory":
        print("screen", " | ".join(lines))
