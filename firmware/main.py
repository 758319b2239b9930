"""Start the board: `micropython -m firmware.main --board sim --data DIR [--game G] [--players N] [--seed S]
[--settings JSON] [--dice JSON]`.

dice: the smart dice the board reads itself over Bluetooth LE ([[address, shell], ...]:
firmware/board/ble_dice.py, imported only then; a board without dice loads none of it).

On a real board, main.py on the flash calls run() with that board's options.
The game, players and settings are those of a board's first game only: a
journalled game resumes, and the table's menu (or the host) starts the next.
"""

import asyncio
import gc

from firmware import board as boards
from firmware.journal import Journal, _let_go
from firmware.table import Table
from shared_rules.compat import const
from shared_rules.errors import RuleError

_GC_EVERY = const(8192)


async def _main(table, hw, dice):
    asyncio.create_task(hw.inputs(table))
    if dice:  # smart dice over Bluetooth LE: this board's radio and aioble, only when it reads dice
        try:
            from firmware.board import ble_dice
        except ImportError as e:  # no aioble or no radio (a Pico without W, the unix port): play on
            print("chancery: the dice are not read, no Bluetooth LE here:", e)
        else:
            asyncio.create_task(ble_dice.run(table, hw, dice))
    # Let the inputs task set its pins' IRQs before the link answers anything: a host's hello
    # (and the journal's upkeep after it) can keep the link busy for a second, and a tap in
    # that time, with no IRQ yet to note it, was lost.
    await asyncio.sleep_ms(0)
    await hw.link(table)


def _restarter(folder):
    def restart(listening, switch=None):
        from firmware.board import reboot

        reboot.restart(folder, listening, switch)

    return restart


def run(opts):
    # Collect after every 8 KB allocated, not only when the heap is full: garbage is then
    # freed in small runs and the long-lived objects (each action's new state) land
    # low in the heap instead of between old garbage. Measured on the simulated board:
    # a whole game over the link needs 84K with it, 93K without.
    if hasattr(gc, "threshold"):
        gc.threshold(_GC_EVERY)
    hw = boards.load(opts["board"]).Hardware(opts)
    settings = dict(opts.get("settings") or {})
    if opts["players"]:
        settings["players"] = opts["players"]
    restarts = opts["board"] in ("rp2", "esp32")  # their soft reset keeps the USB serial: a game switch restarts them
    switch = None
    if restarts:
        from firmware.board import reboot

        switch = reboot.switched(hw.data_dir())  # the game switch this boot is the restart for
    try:
        table = Table(Journal(hw.data_dir()), hw.send, hw.entropy, opts["game"], settings, hw.board_id())
        if switch is not None:
            reboot.begin(table, switch)
        table.boot()
    except RuleError as e:  # a main.py with a game or setting this firmware does not know: play on
        print("chancery: the first game's options were refused (%s %s); starting chancellors" % (e.code, e.detail))
        table = Table(Journal(hw.data_dir()), hw.send, hw.entropy, "chancellors", None, hw.board_id()).boot()
    if restarts:
        table.listening = reboot.taken(hw.data_dir())  # the host of before a game switch's restart
        table.restart = _restarter(hw.data_dir())
        if switch is not None:
            reboot.answer(table, switch)
        # Its code goes for the game: loaded again by a switch's restart (1.1 KB on a Pico,
        # which a table's menu on top of a game needs within the 96 KB)
        reboot = switch = None
        _let_go("firmware.board.reboot")
    hw.show(table)
    asyncio.run(_main(table, hw, opts.get("dice")))


if __name__ == "__main__":
    import sys

    from firmware.argv import options  # the unix port's command line: a board's main.py gives run() its options

    run(options(sys.argv[1:]))
