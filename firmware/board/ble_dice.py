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

What lasts between the dice's events is small and plain: this module's tasks and a `box`
holding the dice's holders (firmware/board/dice_holders.py) and the desk's lasting fields
(the roll under way as Roll.plain(), the entry it was asked at, the game it said no for).
Each notification, and each roll newly asked for, goes through firmware/board/dice_events.py,
which reads it with the die's reader and the desk and keeps nothing of them after. The
modules' code runs from flash (ROMFS or frozen), as the rest of the board's.
"""

import asyncio

import aioble

from shared_rules import engine
from shared_rules.compat import const

_AGAIN_MS = const(5000)  # after a die is lost or not found: the pause before connecting again


def die_id(address):
    """The die's id in the log: its address's 12 hex digits, lower case (as the host's)."""
    return address.replace(":", "").lower()[-12:]


async def run(table, hw, dice):
    """Read `dice` ([[address, shell], ...]) for the table's rolls, forever."""
    from firmware.board import dice_holders

    # What stays between the desk's loads, plain: the dice's holders (the table's menu sets them)
    # and the desk's lasting fields, its roll under way (Roll.plain(): its dice are the holders'),
    # the entry it was asked at, the game it said no for
    box = table.dice = {"path": table.journal.folder + "/dice.json", "roll": None, "roll_at": None, "said_no": None}
    dice_holders.load(table, [die_id(d[0]) for d in dice])
    for d in dice:
        asyncio.create_task(_die(table, hw, box, d[0], d[1]))
    while True:  # a roll asked for by a press or the host: said when it is asked, not at the first throw
        if _asked(table, box):
            _work(table, hw, box)
        await asyncio.sleep_ms(500)


def _work(table, hw, box, die=None, shell=None, data=None):
    """firmware/board/dice_events.py's handle(); when the heap runs short the event is lost and
    said, and the dice read on (as mpboard's keys do: the display and a host say so; a roll under
    way is asked for afresh)."""
    try:
        from firmware.board import dice_events

        dice_events.handle(table, hw, box, die, shell, data)
    except MemoryError:
        box["roll"] = None
        try:  # on the display and to a host's mirror, as a key's screen is
            hw.put_screen(table, ["Out of memory", "at a die: roll", "it again or use", "the menu"])
        except MemoryError:  # the dice read on
            pass


def _asked(table, box):
    """Whether the desk's tick has anything to do (firmware/dice/desk.py, Desk.tick): a roll
    newly asked for, or one under way that an entry ended. Seen here without loading it."""
    if table.state is None:  # a step ran short of memory (Table.reload): the next key or entry reloads it
        return False
    g = engine.game_module(table.game)
    if g is None or not g.dice_wanted(table.state):
        box["roll"] = None  # no roll asked: the one under way is over, as the tick ends it
        return False
    if box["roll"] is not None:
        return box["roll_at"] != table.count
    return box["said_no"] != g.NAME  # a game whose roll takes no smart dice is said once


async def _die(table, hw, box, address, shell):
    die = die_id(address)
    from firmware.board import dice_events

    uuids = dice_events.nus(die, shell)  # an unknown shell stops this die's task here (ValueError)
    while True:
        try:
            conn = await aioble.Device(aioble.ADDR_RANDOM, address).connect(timeout_ms=10000)
        except (asyncio.TimeoutError, OSError):
            await asyncio.sleep_ms(_AGAIN_MS)
            continue
        try:
            service = await conn.service(uuids[0])
            rx = await service.characteristic(uuids[1])
            tx = await service.characteristic(uuids[2])
            await rx.subscribe(notify=True)
            _work(table, hw, box, die, shell, "on")  # said on the display (dice_events.handle)
            await tx.write(uuids[3])
            while True:
                _work(table, hw, box, die, shell, await rx.notified())
        except (aioble.DeviceDisconnectedError, asyncio.TimeoutError, OSError):
            _work(table, hw, box, die, shell)
        await asyncio.sleep_ms(_AGAIN_MS)
