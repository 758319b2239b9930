"""A Pico's flash image with the board's files already on it, and a UF2 dropped onto one.

What `chancery deploy` would put on a board (deploy.stage: the .mpy build, the pin map, the
layouts, main.py) written straight into the flash image: into a littlefs with the layout
MicroPython's RPI_PICO firmware mounts (4 KB blocks at 0xA0000, 1408 KB), or, for a firmware
with a ROMFS partition, the code as one ROMFS image there and main.py on the littlefs; so a
test or the benchmark boots a deployed board in a second instead of copying it over the
emulated USB serial. deploy itself is tested on the virtual Pico too (tests/chip/test_vpico_games.py).
flash_uf2() is BOOTSEL's drag and drop: a UF2's blocks written into the image.
"""

import os
import tempfile

FLASH_BYTES = 16 * 1024 * 1024  # the image size chip.mjs keeps
FS_OFFSET = 0xA0000  # RPI_PICO: MICROPY_HW_FLASH_STORAGE_BASE (after 640 KB of firmware)
BLOCK = 4096
BLOCKS = 352  # 1408 KB


def write_image(path, files):
    """Write a flash image at `path` whose filesystem holds `files` ({board path: bytes})."""
    from chancery.deploy import filesystem

    image = bytearray(b"\xff" * FLASH_BYTES)
    image[FS_OFFSET:FS_OFFSET + BLOCK * BLOCKS] = filesystem.littlefs(files, BLOCK * BLOCKS)
    with open(path, "wb") as f:
        f.write(image)
    return path


def flash_uf2(path, uf2_path):
    """What dropping a UF2 on a Pico in BOOTSEL mode does to its flash: the file's blocks written
    into the image at `path` (a blank 16 MiB image where there is none), the rest left as it was."""
    from chancery.deploy import uf2

    try:
        with open(path, "rb") as f:
            image = bytearray(f.read())
    except FileNotFoundError:
        image = bytearray(b"\xff" * FLASH_BYTES)
    for address, payload in uf2.Firmware.load(uf2_path).blocks:
        at = address - uf2.XIP_BASE
        image[at:at + len(payload)] = payload
    with open(path, "wb") as f:
        f.write(image)
    return path


def deployed_image(path, board="rpi-pico", first=None, extra=None, uf2=None):
    """A flash image holding what `chancery deploy --board BOARD` puts on a board (its .mpy
    build), plus `extra` ({board path: bytes}: a log for the benchmark). `uf2`: the firmware the
    image is for (default: the one the virtual Pico runs, kit.find_uf2); where it has a ROMFS
    partition, the code goes there, as deploy puts it on such a board."""
    from chancery.deploy import flash as deploy
    from chancery.deploy import uf2 as uf2s
    from chancery.vpico import kit

    if uf2 is None:
        try:
            uf2 = kit.find_uf2()
        except kit.UF2NotFound:
            uf2 = None
    rom = uf2s.Firmware.load(uf2).romfs() if uf2 else None
    with tempfile.TemporaryDirectory(prefix="chancery-image-") as tmp:
        image = None
        if rom is None:
            staged = deploy.stage(tmp, board, "mpy", first=first)
        else:
            image, staged = deploy.rom_stage(tmp, board, rom[1], first)
        files = {}
        for name, local in staged.items():
            with open(local, "rb") as f:
                files[name] = f.read()
    files.update(extra or {})
    write_image(os.fspath(path), files)
    if image is not None:
        with open(path, "r+b") as f:
            f.seek(rom[0])
            f.write(image)
    return path
