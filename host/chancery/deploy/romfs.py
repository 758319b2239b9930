"""The board's code as one ROMFS image: MicroPython's read-only filesystem that runs .mpy in place.

A MicroPython firmware built with a ROMFS partition (rp2: `MICROPY_HW_ROMFS_BYTES` in its
board's mpconfigboard.h) mounts a valid image there at /rom and puts /rom and /rom/lib on
sys.path. A module imported from it runs its bytecode straight from flash: only its objects
go on the heap. So the board's modules (lib/shared_rules, lib/firmware), the data they read
(lib/firmware/refusals.txt) and the board's own files (hardware/boards/NAME.json,
hardware/layouts/) go into one image; the journal and main.py stay on the read-write
filesystem.

    image = romfs.build({"lib/firmware/main.mpy": b"...", ...})
    romfs.read(image)          # {path: bytes}: what a board would see under /rom
    romfs.blocks(image, 4096)  # the image cut into erase blocks, padded as erased flash

The image is written by mpremote's own ROMFS writer (mpremote.romfs.VfsRomWriter, the format's
reference); read() is this project's reader of that format, for the deploy's checks and the
tests. Files are written in sorted order, so one tree always makes one image.
"""

from mpremote.romfs import VfsRomWriter

HEADER = VfsRomWriter.ROMFS_HEADER  # b"\xd2\xcd\x31"
_PADDING, _VERBATIM, _POINTER, _DIRECTORY, _FILE = (VfsRomWriter.ROMFS_RECORD_KIND_PADDING,
                                                    VfsRomWriter.ROMFS_RECORD_KIND_DATA_VERBATIM,
                                                    VfsRomWriter.ROMFS_RECORD_KIND_DATA_POINTER,
                                                    VfsRomWriter.ROMFS_RECORD_KIND_DIRECTORY,
                                                    VfsRomWriter.ROMFS_RECORD_KIND_FILE)
ERASED = 0xFF  # what a NOR flash block holds after an erase


class BadImage(ValueError):
    """The bytes are not a ROMFS image (or not a whole one)."""


def _tree(files):
    root = {}
    for path, data in files.items():
        parts = path.strip("/").split("/")
        if not all(parts):
            raise ValueError("bad path in a ROMFS image: %r" % path)
        node = root
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ValueError("%r is a file and a folder" % path)
        if parts[-1] in node:
            raise ValueError("%r is given twice, or as a folder too" % path)
        node[parts[-1]] = bytes(data)
    return root


PAD = ".pad"  # an empty file at the root whose record keeps the image's header one length (see build)


def build(files):
    """The ROMFS image (bytes) of `files` ({path with "/": bytes}); folders are made from the paths.

    The format keeps an image's length even: where its records' length is odd, the writer puts one
    more byte in the header, and every byte after it moves by one, so a module grown by a byte would
    change every block of the image, and a deploy rewrite them all. So where that byte would be
    needed, an empty file (PAD) at the root makes the records' length even instead: a changed
    module moves only what follows it."""
    tree = _tree(files)
    if PAD in tree:
        raise ValueError("%s is the image's own filler: not a file's name" % PAD)
    image = _write(tree)
    if image[3] == 0x80:  # the writer's extra header byte (a number's leading zero group)
        image = _write(tree, pad=True)
    return image


def _write(tree, pad=False):
    """The image of `tree`, files in sorted order, and PAD last (where it moves nothing) if `pad`."""
    writer = VfsRomWriter()

    def emit(node):
        for name in sorted(node):
            item = node[name]
            if isinstance(item, dict):
                writer.opendir(name)
                emit(item)
                writer.closedir()
            else:
                writer.mkfile(name, item)

    emit(tree)
    if pad:
        writer.mkfile(PAD, b"")
    return writer.finalise()


def _uint(buf, at, end):
    """(value, next offset) of the format's unsigned int: 7 bits a byte, the high bit set on all but the last."""
    value = 0
    while True:
        if at >= end:
            raise BadImage("a number runs past its record")
        b = buf[at]
        at += 1
        value = (value << 7) | (b & 0x7F)
        if not b & 0x80:
            return value, at


def size(image):
    """The whole image's length in bytes (its header's), or None when `image` does not start as one."""
    if bytes(image[:3]) != HEADER:
        return None
    n, at = _uint(image, 3, min(len(image), 3 + 10))
    return at + n


def read(image):
    """{path: bytes} of every file in a ROMFS image (build()'s empty PAD left out). Raises BadImage."""
    total = size(image)
    if total is None:
        raise BadImage("no ROMFS header (%s)" % bytes(image[:3]).hex())
    if total > len(image):
        raise BadImage("the image says %d bytes and %d are there" % (total, len(image)))
    _n, at = _uint(image, 3, total)
    out = {}
    _records(image, at, total, "", out)
    if out.get(PAD) == b"":  # build()'s filler, not one of the files
        del out[PAD]
    return out


def _records(buf, at, end, folder, out):
    while at < end:
        kind, at = _uint(buf, at, end)
        length, at = _uint(buf, at, end)
        stop = at + length
        if stop > end:
            raise BadImage("a record runs past its folder at %d" % at)
        if kind in (_DIRECTORY, _FILE):
            n, p = _uint(buf, at, stop)
            name = bytes(buf[p:p + n]).decode("ascii")
            p += n
            if kind == _DIRECTORY:
                _records(buf, p, stop, folder + name + "/", out)
            else:
                out[folder + name] = _data(buf, p, stop)
        elif kind != _PADDING:
            raise BadImage("a record of kind %d where a file or folder was expected" % kind)
        at = stop


def _data(buf, at, end):
    kind, at = _uint(buf, at, end)
    length, at = _uint(buf, at, end)
    if kind == _VERBATIM:
        return bytes(buf[at:at + length])
    if kind == _POINTER:
        offset, at = _uint(buf, at, end)
        n, at = _uint(buf, at, end)
        return bytes(buf[offset:offset + n])
    raise BadImage("a file's data of kind %d" % kind)


def blocks(image, block_size):
    """The image cut into `block_size` pieces, the last padded as erased flash (0xFF)."""
    out = []
    for at in range(0, len(image), block_size):
        piece = bytes(image[at:at + block_size])
        out.append(piece + bytes([ERASED]) * (block_size - len(piece)))
    return out
