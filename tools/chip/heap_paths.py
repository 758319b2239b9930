# Board-side heap figures (run on a board or the virtual Pico with `mpremote run`, main.py
# removed so the firmware is not already running): one path of the board's work with the
# deployed firmware's own objects (firmware.board.rp2.Hardware: its strip, display and pin
# map; firmware.table.Table with its journal on the flash), inside a heap capped at CAP bytes
# (a blocker takes the rest), with the firmware's gc threshold. Set before running:
#   PATH_NAME  "game" (LOG replayed through the table), "ballot" (the same, a log whose game
#              has a sealed vote: the casts go through the private ballot box), "link" (the
#              same as game with a host's link: wire loaded as a hello loads it, and every
#              entry and screen written as its frame, into nothing), "menus" (KEYS
#              random presses of the seats' pads and the table's controls through the menus,
#              Chancellors at 4 seats), "switch" (every game started in turn at the table,
#              each shown and its table menu pressed), one switch per run: STEP (0, 1, ...) picks
#              it, and a run after the first boots into the game the run before switched to, as
#              a board restarts after a switch (firmware/board/reboot.py)
#              "dice" (the same as game, each roll the game asks for read from two smart dice: the
#              board's firmware/board/ble_dice.py on the fake aioble and bluetooth that the bench puts
#              in /bench/ble, each die settling on the log's values), "dice_menus" (the menus with
#              those two dice connected, one of them thrown every 50 presses)
#   LOG        the game log (a header line, then {"action", "digest"} lines), for game/ballot
#   CAP        the heap the path may use, in bytes (default 96 KB)
#   SEED       the board's own rolls from this seed (default: os.urandom, as a board's), so that
#              a run of the menus' path, say, is the same run each time
# Prints one line: the path, peak_seen (the most allocated seen after an entry, before the
# collection the board runs once it has shown it), peak_live (after that collection),
# base (after the firmware's imports), entries, and "ok" or the error that stopped it.
import gc
import os
import sys

sys.path.insert(0, "/lib")

path_name = globals().get("PATH_NAME", "game")
log_path = globals().get("LOG", None)
cap = globals().get("CAP", 96 * 1024)
keys = globals().get("KEYS", 400)
step = globals().get("STEP", 0)
entropy_seed = globals().get("SEED", None)
SWITCHES = ("kings_dilemma", "the_council", "yes_your_grace", "chancellors", "yes_your_grace")

import json

# The log this runner feeds the table is opened before the blocker: a littlefs file keeps a
# block's buffer while open (about 1.1 KB), the runner's, not the board's (a board gets its
# actions from its pads and its host's frames)
if path_name.startswith("dice"):
    # The stock Pico's firmware has no radio: the tests' fakes stand in, imported here, before the
    # blocker, as the runner's. A Pico W freezes the real aioble, so its code is in flash, not the
    # heap; what the fake allocates as the dice run (connections, characteristics) is the board's.
    sys.path.insert(0, "/bench/ble")
    import binascii

    import aioble
    import bluetooth  # noqa: F401

    # The D6's face vectors that settle() throws (firmware/dice/godice.py's _D6, faces 1-6): the
    # runner's, not loaded from the reader, which the board loads for each notification and lets go
    D6_AXES = b"\x00\x40\x40\x40\x40\x80\x40\x80\x40\x40\x00\x40\x40\x40\x00\x80\x40\x40"
f = None
first, settings = "chancellors", {"players": 4}
if log_path:
    f = open(log_path)
    hdr = json.loads(f.readline())
    first, settings = hdr["game"], hdr["settings"]
    hdr = None
gc.collect()
# What is allocated now is this runner (its compiled code, mpremote's REPL, the log it reads): not
# the board's. The blocker leaves the board's work `cap` bytes beside it, and every figure is net of both.
ours = gc.mem_alloc()
blocker = bytearray(max(0, gc.mem_free() - cap))
held = len(blocker) + ours
gc.threshold(8192)  # as firmware/boot.py's start sets it

from firmware import main as _main  # noqa: F401  (the board runs from it: its code is resident too)
from firmware.board import rp2
from firmware.controls import Controls
from firmware.journal import Journal
from firmware.table import Table
from shared_rules import prng
from shared_rules.errors import RuleError

peak = [0, 0]


def seen():
    m = gc.mem_alloc() - held
    if m > peak[0]:
        peak[0] = m


def shown(hw, table):
    """What the board does after an entry: show it, then idle (snapshot, collection)."""
    hw.show(table)
    seen()
    table.idle()
    m = gc.mem_alloc() - held
    if m > peak[1]:
        peak[1] = m


def key(hw, table, index, kind):
    """A press as the board's scan makes it. mpboard's _key answers a MemoryError as a board
    fault (Table.fault: the input let go, the game reloaded) and goes on; here it is the path's
    failure, not a success."""
    hw._key(table, index, kind)
    screen = hw.later.screen  # the key's screen, waiting for the next quiet moment to be drawn
    if screen and screen[0] == "Board fault:":
        raise MemoryError("at a key (the display said so)")


DICE = (("c0:00:00:00:00:01", "D6"), ("c0:00:00:00:00:02", "D6"))


def settle(die, value):
    """A D6's notifications as it rolls and settles on `value` (godice.py's vectors, as the die sends them)."""
    axes = D6_AXES[3 * value - 3:3 * value]
    aioble.SCRIPT.append([die, "52"])  # b"R": rolling
    aioble.SCRIPT.append([die, binascii.hexlify(b"S" + bytes([(a - 64) & 255 for a in axes])).decode()])


async def with_dice(play):
    """The board's dice task beside the path, as main.py starts it for a board with dice."""
    import asyncio

    from firmware.board import ble_dice

    asyncio.create_task(ble_dice.run(table, hw, [list(d) for d in DICE]))
    await asyncio.sleep_ms(100)  # each die connects, is said on the display, asks its battery
    await play()


async def dice_game():
    """The log's entries; a roll the game asks for comes from the dice (the log's values, else 6s)."""
    import asyncio

    from shared_rules import engine

    global count
    for line in f:
        a = json.loads(line)["action"]
        line = None
        n = engine.game_module(table.game).dice_wanted(table.state)
        if a["type"] == "roll" and 0 < n <= len(DICE):
            values = a.get("values") or [6] * n
            before = table.count
            for i in range(n):
                settle(DICE[i][0], values[i] if i < len(values) else 6)
            for wait in range(400):  # the dice's notifications, the desk's roll, the table's entry
                if table.count != before:
                    break
                await asyncio.sleep_ms(5)
            else:
                raise RuntimeError("the dice's roll was not entered")
        else:
            try:
                table.act(a)
            except RuleError:  # this run's board rolls differ from the log's: a move no longer legal
                continue
        count += 1
        shown(hw, table)
        await asyncio.sleep_ms(0)


def press(rnd):
    """One random press at a 4-seat table: a seat's pad or the table's controls, short or held."""
    global count
    i, rnd = prng.draw(rnd, 19)
    if i >= 12 and i < 15:
        i += 3  # seats 0-3 and the table: no fifth seat at a 4-seat table
    hold, rnd = prng.draw(rnd, 6)
    key(hw, table, i, "long" if hold == 0 else "short")
    count += 1
    shown(hw, table)
    return rnd


def wipe(folder):
    try:
        for name in os.listdir(folder):
            os.remove(folder + "/" + name)
    except OSError:
        pass


if path_name != "switch" or step == 0:
    wipe("/heap")  # else the switch before this run's boot left its game on the journal
count = 0
status = "ok"
base = 0
try:
    # the board's own entropy, as main.py gives the table: os.urandom, or with a seed (the
    # board's "seed" option) the same rolls on every run
    try:  # the pin map and the layouts where deploy put them: in the ROMFS image, or on the filesystem
        os.stat("/rom/hardware")
        at = {"pins": "/rom/hardware/boards/rpi-pico.json", "layouts": "/rom/hardware/layouts/"}
    except OSError:
        at = {}
    hw = rp2.Hardware(dict(at, data="/heap", seed=entropy_seed))
    at = None
    table = Table(Journal(hw.data_dir()), hw.entropy, first, settings, hw.board_id())
    from firmware.board import reboot  # as main.py boots: the switch noted, if any

    switch = reboot.switched(hw.data_dir())
    if switch is not None:
        reboot.begin(table, switch)
    table.boot()
    hw.controls = Controls(table)  # the pads' keys, as firmware/boot.py composes them
    if path_name == "switch":  # as on a Pico: the switch restarts the board (the next STEP's run boots)

        def restart(switch):
            from firmware.board import reboot

            reboot.note(hw.data_dir(), switch)

        table.restart = restart
    # the board's hooks, as mpboard's inputs task sets them: an entry on the strip once it is on flash,
    # and the strip's frame of an entry computed ahead (firmware/ahead.py), kept while it waits
    table.on_entry = lambda ready=None: hw.show(table, ready)
    hw.controls.on_ahead = lambda state: hw._render(table.game, state) or bytes(hw._frame)
    shown(hw, table)
    gc.collect()
    base = gc.mem_alloc() - held
    if path_name == "link":  # as a hello leaves the board: listening, wire's code loaded
        from shared_rules import wire

        def frame(kind, body, seq=[0]):
            wire.write(seq[0], kind, body, lambda piece: None)
            seq[0] = wire.next_seq(seq[0])

        hw.send = frame
        hw.host_link(table).listening = True
        gc.collect()
        base = gc.mem_alloc() - held
    if path_name in ("game", "ballot", "link"):
        for line in f:
            e = json.loads(line)
            line = None
            try:
                table.act(e["action"])
                count += 1
            except RuleError:  # the log's own reveal: the board's box has revealed already
                pass
            e = None
            shown(hw, table)
    elif path_name == "menus":
        rnd = prng.seed_state(11)
        for k in range(keys):
            rnd = press(rnd)
    elif path_name in ("dice", "dice_menus"):
        import asyncio

        show = hw.show

        def show_seen(t, ready=None):  # the dice's entries are shown by ble_dice (then idle): their peak too
            show(t, ready)
            seen()

        hw.show = show_seen

        async def menus():
            rnd = prng.seed_state(11)
            for k in range(keys):
                rnd = press(rnd)
                if k % 50 == 25:  # a die thrown among the presses: its event loads the desk on top of a menu
                    settle(DICE[k // 50 % 2][0], 1 + k // 50 % 6)
                    while aioble.SCRIPT:
                        await asyncio.sleep_ms(5)
                    shown(hw, table)
                await asyncio.sleep_ms(0)

        asyncio.run(with_dice(dice_game if path_name == "dice" else menus))
    elif path_name == "switch":
        if step > 0:
            for k in range(6):  # the table menu's keys on the game switched to: its menus load too
                key(hw, table, 16, "short" if k % 3 else "long")
                count += 1
                shown(hw, table)
        if step < len(SWITCHES):  # up to where the board would restart
            table.start({"type": "new_game", "game": SWITCHES[step], "settings": {}})
            count += 1
            shown(hw, table)
    else:
        status = "unknown PATH_NAME " + path_name
except MemoryError:
    status = "MemoryError"
except Exception as e:
    status = "%s:%s" % (type(e).__name__, e)
print("heap %s peak_seen %d peak_live %d base %d entries %d cap %d %s" % (path_name, peak[0], peak[1], base,
                                                                         count, cap, status))
