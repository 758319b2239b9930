"""A Pico's flash image with the board's files already on its filesystem.

What `chancery deploy` would copy (deploy.stage: the .mpy build, the pin map, the layouts,
main.py) written straight into a littlefs image with the layout MicroPython's RPI_PICO
firmware mounts (4 KB blocks at 0xA0000, 1408 KB), so a test or the benchmark boots a
deployed board in a second instead of copying 80 files over the emulated USB serial.
deploy itself is tested on the virtual Pico too (tests/test_vpico_games.py).
"""

import os
import tempfile

FLASH_BYTES = 16 * 1024 * 1024  # the image size chip.mjs keeps
FS_OFFSET = 0xA0000  # RPI_PICO: MICROPY_HW_FLASH_STORAGE_BASE (after 640 KB of firmware)
BLOCK = 4096
BLOCKS = 352  # 1408 KB


def _littlefs():
    try:
        import littlefs
    except ImportError:
        raise RuntimeError("littlefs-python is needed to build a flash image: pip install littlefs-python "
                           "(python3 run.py installs it)")
    # MicroPython's VfsLfs2 defaults: read and program in 32-byte units, a 32-byte lookahead
    return littlefs.LittleFS(block_size=BLOCK, block_count=BLOCKS, read_size=32, prog_size=32, lookahead_size=32,
                             name_max=255)


def write_image(path, files):
    """Write a flash image at `path` whose filesystem holds `files` ({board path: bytes})."""
    fs = _littlefs()
    made = set()
    for name in sorted(files):
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i])
            if folder not in made:
                fs.mkdir(folder)
                made.add(folder)
        with fs.open(name, "wb") as f:
            f.write(files[name])
    image = bytearray(b"\xff" * FLASH_BYTES)
    image[FS_OFFSET:FS_OFFSET + BLOCK * BLOCKS] = fs.context.buffer
    with open(path, "wb") as f:
        f.write(image)
    return path


def deployed_image(path, board="rpi-pico", first=None, extra=None):
    """A flash image holding what `chancery deploy --board BOARD` puts on a board (its .mpy
    build), plus `extra` ({board path: bytes}: a log for the benchmark)."""
    from chancery.deploy import flash as deploy

    with tempfile.TemporaryDirectory(prefix="chancery-image-") as tmp:
        staged = deploy.stage(tmp, board, "mpy", first=first)
        files = {}
        for name, local in staged.items():
            with open(local, "rb") as f:
                files[name] = f.read()
    files.update(extra or {})
    return write_image(os.fspath(path), files)
