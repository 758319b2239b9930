"""A board's ROMFS partition, over its raw REPL: what it is, what it holds, and a new image written into it.

    part = rom.query(board)                    # None, or Partition(size, block)
    plan = rom.plan(image, rom.hashes(board, part, n), part)
    rom.write(board, part, image, plan)        # the blocks that differ, the first one last

`board` is chancery.deploy.flash.Board (exec() runs a program and returns what it printed).
MicroPython (1.25 and later) gives a firmware's ROMFS partitions through vfs.rom_ioctl; on the
rp2 port the partition is an rp2.Flash object: readable as a buffer, erased and written a
4 KB block at a time through its ioctl and writeblocks.

Written so that a cut anywhere leaves no half image that mounts: the first block (the image's
header) is erased before anything else is written and written after everything else, so a
board cut in between boots with no /rom (main.py then fails to import the firmware, and the
next deploy writes the image whole) instead of a mix of two images. The journal and main.py
are on the other, read-write filesystem, which this never touches.
"""

import ast
import binascii
import zlib

from chancery.deploy import romfs

# Run on the board: (partition size, block size) of ROMFS0, or None where there is none, or
# where it is not a block device this can erase and write (memory-mapped only).
_QUERY = """import vfs
def _q():
    f = getattr(vfs, 'rom_ioctl', None)
    if f is None or f(1) <= 0:
        return None
    d = f(2, 0)
    if not hasattr(d, 'ioctl'):
        return None
    return (d.ioctl(4, 0) * d.ioctl(5, 0), d.ioctl(5, 0))
print(repr(_q()))
"""

# Run on the board: "i sha256" for each of the partition's first n blocks.
_HASHES = """import vfs, hashlib, binascii
def _h(n, b):
    m = memoryview(vfs.rom_ioctl(2, 0))
    for i in range(n):
        print(i, binascii.hexlify(hashlib.sha256(m[i * b:(i + 1) * b]).digest()).decode())
_h(%d, %d)
"""

# Run on the board once before writing: /rom unmounted, the partition's device and a writer
# that takes a block's bytes as base64 of raw deflate (or plain base64 without deflate).
_PREPARE = """import vfs, binascii
try:
    vfs.umount('/rom')
except OSError:
    pass
_d = vfs.rom_ioctl(2, 0)
def _w(i, s, z):
    b = binascii.a2b_base64(s)
    if z:
        import io, deflate
        b = deflate.DeflateIO(io.BytesIO(b), deflate.RAW, 12).read()
    _d.ioctl(6, i)
    _d.writeblocks(i, b, 0)
"""


class Partition:
    def __init__(self, size, block):
        self.size = size
        self.block = block

    def __repr__(self):
        return "Partition(%d, %d)" % (self.size, self.block)


def query(board):
    """The board's ROMFS partition, or None."""
    out = board.exec(_QUERY).strip().splitlines()
    try:
        got = ast.literal_eval(out[-1])
    except (IndexError, ValueError, SyntaxError):
        return None
    if not (isinstance(got, tuple) and len(got) == 2 and got[1] > 0):
        return None
    return Partition(int(got[0]), int(got[1]))


def hashes(board, part, n):
    """[sha256 hex of each of the partition's first n blocks]."""
    got = {}
    for line in board.exec(_HASHES % (n, part.block)).splitlines():
        bits = line.split()
        if len(bits) == 2 and bits[0].isdigit() and len(bits[1]) == 64:
            got[int(bits[0])] = bits[1]
    return [got.get(i) for i in range(n)]


def _sha256(data):
    import hashlib

    return hashlib.sha256(data).hexdigest()


def plan(image, held, part):
    """The blocks to write, in order: none when the partition holds the image already, else
    the first block last, after every other block that differs (see the module's note)."""
    pieces = romfs.blocks(image, part.block)
    differ = [i for i, piece in enumerate(pieces) if i >= len(held) or held[i] != _sha256(piece)]
    if not differ:
        return []
    return [i for i in differ if i] + [0]


def write(board, part, image, order, deflate=True):
    """Write the image's blocks in `order` (plan()'s): block 0 is erased first when it is to be
    written. Returns the bytes sent."""
    pieces = romfs.blocks(image, part.block)
    board.exec(_PREPARE)
    sent = 0
    if order and order[-1] == 0:
        board.exec("_d.ioctl(6, 0)\n")  # the header goes first: until it is back, no image mounts
    for i in order:
        data = pieces[i]
        if deflate:
            z = zlib.compressobj(9, zlib.DEFLATED, -12)
            data = z.compress(data) + z.flush()
        text = binascii.b2a_base64(data, newline=False).decode()
        board.exec("_w(%d, %r, %d)\n" % (i, text, 1 if deflate else 0), timeout=60)
        sent += len(text)
    return sent


def verify(board, part, image):
    """The blocks of the image that the partition does not hold (read back and hashed on the board)."""
    pieces = romfs.blocks(image, part.block)
    held = hashes(board, part, len(pieces))
    return [i for i, piece in enumerate(pieces) if held[i] != _sha256(piece)]
