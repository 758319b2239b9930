"""One UF2 for a builder: a MicroPython firmware with the board's code in its ROMFS partition.

    chancery firmware --base MICROPYTHON.uf2 --board rpi-pico -o chancery-rpi-pico.uf2

A blank Pico flashed with the file (hold BOOTSEL, plug in, drop the file on the RPI-RP2 drive)
boots into a playing board, as Pimoroni's and the Tildagon's firmware images do. The file holds:
- the given MicroPython firmware, unchanged; it must declare a ROMFS partition (MicroPython 1.25
  or later, built with MICROPY_HW_ROMFS_BYTES: docs/firmware-image.md says how);
- in that partition, one ROMFS image of what `chancery deploy` puts on such a board: the board's
  .mpy modules, their data, the pin map and the layouts (deploy/romfs.py);
- at the start of the firmware's filesystem, a fresh littlefs holding main.py, which starts the
  firmware at power-on (MicroPython runs main.py from its filesystem only).

That last part makes the board's filesystem new, and so ends whatever journal a board held: the
file is for a blank board. `update=True` (--update) leaves the filesystem out: a board in play
flashed with that file keeps its journal and its main.py, and gets the new code (`chancery
deploy` does the same over USB, writing only the blocks that changed).
"""

import os
import tempfile

from chancery.deploy import filesystem, romfs, uf2
from chancery.deploy.flash import DeployError, pin_map, rom_stage
from chancery.deploy.uf2 import FILESYSTEM, ROMFS

PORTS = ("rp2",)  # the chips a UF2 is made for here


def make(base, board_name, out, first=None, update=False, say=print):
    """Write the UF2 `out`; returns {"image": ROMFS bytes used, "partition": its size, "blocks": UF2 blocks}.
    Raises DeployError, in words, for a base that cannot take it."""
    cfg = pin_map(board_name)
    if cfg is None or cfg.get("port") not in PORTS:
        raise DeployError("--board %s: a firmware file is made for a Pico-class board (an RP2040 pin map: %s)"
                          % (board_name, ", ".join(_rp2_boards())))
    try:
        fw = uf2.Firmware.load(base)
    except uf2.BadFirmware as e:
        raise DeployError(str(e))
    parts = fw.partitions()
    if ROMFS not in parts:
        raise DeployError("%s has no ROMFS partition, so the board's code cannot go into its flash: MicroPython's "
                          "published RPI_PICO firmware has none. Build MicroPython (1.25 or later) for the Pico "
                          "with MICROPY_HW_ROMFS_BYTES set in its board's mpconfigboard.h (docs/firmware-image.md), "
                          "or put the code on a stock firmware's filesystem with `chancery deploy`" % base)
    at, room = parts[ROMFS]
    held = fw.within(at, room)
    if held and romfs.size(held.get(at, b"")) is None:  # a ROMFS image there (a file made here) is replaced
        raise DeployError("%s's code runs past its ROMFS partition's start at 0x%x: not a firmware this can add to"
                          % (base, at))
    with tempfile.TemporaryDirectory(prefix="chancery-firmware-") as tmp:
        image, on_fs = rom_stage(tmp, board_name, room, first)
        extra = {at: image}
        if not update:
            if FILESYSTEM not in parts:
                raise DeployError("%s declares no filesystem partition (\"%s\") to hold main.py"
                                  % (base, FILESYSTEM))
            fs_at, fs_size = parts[FILESYSTEM]
            files = {}
            for p, local in on_fs.items():
                with open(local, "rb") as f:
                    files[p] = f.read()
            data = filesystem.littlefs(files, fs_size)
            for offset, block in filesystem.used_blocks(data).items():
                extra[fs_at + offset] = block
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    blocks = fw.save(out, extra)
    say("wrote %s: %s with the board's code in its ROMFS partition (%d of %d KB)%s"
        % (out, os.path.basename(base), -(-len(image) // 1024), room // 1024,
           "; the filesystem left as the board has it (its journal kept)" if update else
           "; a new filesystem with main.py, for a blank board (flashing it ends a board's journal: "
           "use --update or `chancery deploy` for a board in play)"))
    return {"image": len(image), "partition": room, "blocks": blocks}


def _rp2_boards():
    from chancery.hardware import files as hardware_files

    return [n for n in hardware_files.names("boards") if hardware_files.load("boards", n).get("port") in PORTS]
