"""Start the board: `micropython -m firmware.main --board sim --data DIR [--game G] [--players N] [--seed S]
[--settings JSON] [--dice JSON]`.

dice: the smart dice the board reads itself over Bluetooth LE ([[address, shell], ...]:
firmware/board/ble_dice.py, imported only then; a board without dice loads none of it).

On a real board, main.py on the flash calls run() with that board's options.
The game, players and settings are those of a board's first game only: a
journalled game resumes, and the table's menu (or the host) starts the next.
"""

import asyncio

from firmware import boot


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


def run(opts):
    table, hw = boot.start(opts)
    asyncio.run(_main(table, hw, opts.get("dice")))


if __name__ == "__main__":
    import sys

    from firmware.argv import options  # the unix port's command line: a board's main.py gives run() its options

    run(options(sys.argv[1:]))
