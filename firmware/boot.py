"""The board's boot: its hardware, the table on its journal (the game journalled, else the
first game of the board's options), a game switch's restart answered (firmware/main.py's run())."""

import gc

from firmware import board as boards
from firmware.controls import Controls
from firmware.journal import Journal
from firmware.table import Table
from shared_rules.compat import const
from shared_rules.errors import RuleError

_GC_EVERY = const(8192)


def _restarter(hw):
    def restart(switch=None):
        from firmware.board import reboot

        reboot.restart(hw.data_dir(), hw.listening(), switch)

    return restart


def start(opts):
    """(the table, the board's Hardware), booted from the board's options (firmware/main.py)."""
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
        table = Table(Journal(hw.data_dir()), hw.entropy, opts["game"], settings, hw.board_id())
        if switch is not None:
            reboot.begin(table, switch)
        table.boot()
    except RuleError as e:  # a main.py with a game or setting this firmware does not know: play on
        print("chancery: the first game's options were refused (%s %s); starting chancellors" % (e.code, e.detail))
        table = Table(Journal(hw.data_dir()), hw.entropy, "chancellors", None, hw.board_id()).boot()
    hw.controls = Controls(table)  # the pads' and the table's keys: a client of the table, as a host's link is
    if restarts:
        if reboot.taken(hw.data_dir()):  # the host of before a game switch's restart: still listening
            hw.host_link(table).listening = True
        table.restart = _restarter(hw)
        if switch is not None:
            reboot.answer(hw.host, switch)
    hw.show(table)
    return table, hw
