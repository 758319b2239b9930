"""A MicroPython board's read-write filesystem (littlefs v2) made on the host, as the board would mount it.

    data = filesystem.littlefs({"main.py": b"..."}, size=1408 * 1024)

MicroPython's rp2 port mounts its flash storage as `vfs.VfsLfs2(rp2.Flash(), progsize=256)` with
4 KB blocks (ports/rp2/modules/_boot.py), and formats it when no filesystem is there. An image
made here with the same geometry is what the board would have made itself, with the files in
it: a firmware image's first boot (chancery firmware) and the virtual Pico's deployed flash.
littlefs keeps no list of free blocks, so only the blocks the image uses need writing
(used_blocks): the rest are free to it whatever they hold.
"""

BLOCK = 4096  # the RP2040's flash erase block, and littlefs's block on it
PROG = 256  # the rp2 port's progsize


def _littlefs(block_count, prog_size):
    try:
        import littlefs
    except ImportError:
        raise RuntimeError("littlefs-python is needed to build a flash image: pip install littlefs-python "
                           "(python3 run.py installs it)")
    # MicroPython's VfsLfs2: 32-byte reads and lookahead, names of up to 255 bytes
    return littlefs.LittleFS(block_size=BLOCK, block_count=block_count, read_size=32, prog_size=prog_size,
                             lookahead_size=32, name_max=255)


def littlefs(files, size, prog_size=PROG):
    """The bytes of a `size`-byte littlefs holding `files` ({path with "/": bytes}), folders made."""
    if size % BLOCK:
        raise ValueError("a filesystem of %d bytes is not whole %d-byte blocks" % (size, BLOCK))
    fs = _littlefs(size // BLOCK, prog_size)
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
    return bytes(fs.context.buffer)


def read(data, prog_size=PROG):
    """{path: bytes} of every file in a littlefs image (`littlefs()`'s, or a board's)."""
    fs = _littlefs(len(data) // BLOCK, prog_size)
    fs.context.buffer[:] = data
    fs.mount()
    out = {}
    for root, _dirs, names in fs.walk("/"):
        for name in names:
            path = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out


def used_blocks(data):
    """{offset: 4 KB} of the blocks of an image that are not erased flash (0xFF throughout)."""
    blank = b"\xff" * BLOCK
    return {at: data[at:at + BLOCK] for at in range(0, len(data), BLOCK) if data[at:at + BLOCK] != blank}
