"""Smart dice read by the board itself over Bluetooth LE (Pico W, ESP32-S3), with aioble.

Loaded only when the board's options name dice ("dice": [[address, shell], ...], written
into main.py by `chancery deploy --die`): main.py imports this module then, and a board
without dice loads nothing of it, nor aioble, nor the radio's stack. aioble is
micropython-lib's: frozen into the Pico W's firmware; `chancery deploy --die` installs it
with mpremote's mip on a board whose firmware lacks it.

Each die is one task: connect (GoDice advertise a random address), subscribe to the
Nordic UART's RX, ask for the battery, then hand every notification to the die's reader
(firmware/dice/godice.py) and its events to the desk (firmware/dice/desk.py), which
acts the roll on the Table when the game asks for one. A die lost is said, and the task
connects again after a pause. What the desk says goes to the display and to a host.
"""

import asyncio
import json

import aioble
import bluetooth

from firmware.dice import godice
from firmware.dice.desk import Desk
from shared_rules import engine
from shared_rules.compat import const

_AGAIN_MS = const(5000)  # after a die is lost or not found: the pause before connecting again
_W = const(16)  # characters on a display line


def die_id(address):
    """The die's id in the log: its address's 12 hex digits, lower case (as the host's)."""
    return address.replace(":", "").lower()[-12:]


async def run(table, hw, dice):
    """Read `dice` ([[address, shell], ...]) for the table's rolls, forever."""
    desk = Desk(lambda: (engine.game_module(table.game), table.state, table.count),
                lambda move: _act(table, hw, move), lambda line: _say(table, hw, line))
    table.dice = Holders(desk, table.journal.folder + "/dice.json", [die_id(d[0]) for d in dice])
    for d in dice:
        asyncio.create_task(_die(desk, d[0], d[1]))
    while True:  # a roll asked for by a press or the host: said when it is asked, not at the first throw
        desk.tick()
        await asyncio.sleep_ms(500)


class Holders:
    """Which die rolls for whom: the table (its rolls, such as Chancellors' problem dice) or a
    seat; set on the table's menu (its action "dice": a die, then "table" or "seat N"), kept on
    flash beside the journal. A die that is a seat's gives no value to a table's roll (the desk
    says so); every die is the table's until the menu says otherwise."""

    def __init__(self, desk, path, ids):
        self.desk, self.path = desk, path
        self.holder = {}
        for i in ids:
            self.holder[i] = "table"
        try:
            with open(path) as f:
                kept = json.load(f)
            for i in kept:
                if i in self.holder:
                    self.holder[i] = kept[i]
        except (OSError, ValueError):  # none kept yet, or a file cut short: every die is the table's
            pass
        self._tell()

    def _tell(self):
        desk = self.desk
        desk.dice = [i for i in self.holder if self.holder[i] == "table"]
        if desk.roll is not None:  # the roll under way too: a die given away mid-roll rolls no more for it
            desk.roll.dice = desk.dice

    def action(self, seats):
        from shared_rules.schema import action, param

        return action("dice", "table", [param("die", {"kind": "enum", "values": sorted(self.holder)}),
                                        param("holder", {"kind": "enum", "values": ["table"] + ["seat %d" % i
                                                                                              for i in range(seats)]})])

    def assign(self, move):
        """The menu's "dice" action: the die is the holder's from now on (the display's lines)."""
        self.holder[move["die"]] = move["holder"]
        self._tell()
        with open(self.path, "w") as f:
            f.write(json.dumps(self.holder))
        return ["die " + move["die"], "for " + move["holder"]]


def _act(table, hw, move):
    index, refused = table.pad_act(move, None)
    hw.show(table)  # the entry on the strip and the display, as a press's
    table.idle()
    return None if refused is None else refused[-1]


def _say(table, hw, line):
    lines = [""]  # broken at spaces into the display's lines
    for word in line.split(" "):
        if lines[-1] and len(lines[-1]) + 1 + len(word) > _W:
            lines.append(word[:_W])
        else:
            lines[-1] = (lines[-1] + " " + word if lines[-1] else word)[:_W]
    hw.screen, hw._dirty = lines, True  # mpboard draws it at show(); sim has no display
    hw.tell_screen(table, lines)  # a listening host hears it (the link's code is loaded by a host, not here)
    hw.show(table)


async def _die(desk, address, shell):
    reader = godice.Reader(die_id(address), shell)
    while True:
        try:
            conn = await aioble.Device(aioble.ADDR_RANDOM, address).connect(timeout_ms=10000)
        except (asyncio.TimeoutError, OSError):
            await asyncio.sleep_ms(_AGAIN_MS)
            continue
        try:
            service = await conn.service(bluetooth.UUID(godice.SERVICE))
            rx = await service.characteristic(bluetooth.UUID(godice.RX))
            tx = await service.characteristic(bluetooth.UUID(godice.TX))
            await rx.subscribe(notify=True)
            desk.say("die %s on" % reader.die)
            await tx.write(godice.ask_battery())
            while True:
                event = reader.feed(await rx.notified())
                if event is not None:
                    desk.event(event)
        except (aioble.DeviceDisconnectedError, asyncio.TimeoutError, OSError):
            desk.event(reader.lost())
        await asyncio.sleep_ms(_AGAIN_MS)
