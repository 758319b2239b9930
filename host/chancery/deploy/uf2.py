"""UF2 files for the RP2040: what a firmware file holds, and one more file made from it with data added.

    fw = uf2.Firmware.load("RPI_PICO-v1.28.0.uf2")
    fw.partitions()            # {"ROMFS": (address, size), "MicroPython": (address, size)}
    fw.save("out.uf2", {address: bytes, ...})

The blocks are read and written by uf2utils (the format: 512-byte blocks, each with its flash
address, 256 bytes of payload and the chip family's id). The partitions are the firmware's own
declarations in the Pico SDK's "binary info" (what `picotool info` prints): MicroPython's rp2
port tags its filesystem "MicroPython" and, when it is built with one, its ROMFS partition
"ROMFS", each a block device entry with its flash address and size.
"""

import struct

RP2040_FAMILY = 0xE48BFF56
ROMFS = "ROMFS"  # the partition names MicroPython's rp2 port declares: its ROMFS partition,
FILESYSTEM = "MicroPython"  # and its read-write filesystem
XIP_BASE = 0x10000000
PAYLOAD = 256  # bytes a block carries: the RP2040 bootrom takes 256-byte, 256-aligned writes

# The Pico SDK's binary info (pico/binary_info/structure.h): a header in the binary's first
# 256 bytes after boot2, pointing at a table of pointers to entries.
_MARKER_START = 0x7188EBF2
_MARKER_END = 0xE71AA390
_TYPE_BLOCK_DEVICE = 7
_SEARCH = 0x400  # the header sits within the first KB (after the 256-byte boot2 and the vector table)


class BadFirmware(ValueError):
    """Not a UF2 for the RP2040, or not one this can add to; the message says which."""


class Firmware:
    """A firmware UF2 as its blocks: [(flash address, 256 bytes of payload)], in file order."""

    def __init__(self, blocks, family=RP2040_FAMILY, name="firmware"):
        self.blocks = blocks
        self.family = family
        self.name = name
        self._flat = None

    @classmethod
    def load(cls, path):
        from uf2utils.file import UF2File
        from uf2utils.header import UF2DecodeError

        try:
            f = UF2File(path)
        except (UF2DecodeError, OSError, ValueError, struct.error) as e:
            raise BadFirmware("%s is not a UF2 file (%s)" % (path, e))
        if not len(f):
            raise BadFirmware("%s holds no UF2 blocks" % path)
        blocks, families = [], set()
        for b in f:
            h = b.header
            if h.flags & 1:  # "not main flash": a comment or a file container, not ours to keep
                continue
            families.add(h.board_family if h.flags & 0x2000 else None)
            blocks.append((h.address, bytes(b.payload[:h.payload_size])))
        if families != {RP2040_FAMILY}:
            raise BadFirmware("%s is not a firmware for the RP2040 (UF2 family %s; a Pico's is 0x%08x)"
                              % (path, ", ".join("none" if x is None else "0x%08x" % x for x in sorted(
                                  families, key=lambda x: x or 0)), RP2040_FAMILY))
        return cls(blocks, RP2040_FAMILY, path)

    def span(self):
        """(first address, end address) of what the firmware writes."""
        return min(a for a, _ in self.blocks), max(a + len(d) for a, d in self.blocks)

    def flat(self):
        """The firmware's bytes from its first address to its last, gaps as erased flash."""
        if self._flat is None:
            lo, hi = self.span()
            out = bytearray(b"\xff" * (hi - lo))
            for a, d in self.blocks:
                out[a - lo:a - lo + len(d)] = d
            self._flat = (lo, bytes(out))
        return self._flat

    def partitions(self):
        """{name: (flash offset, size)} of the block devices the firmware declares (offsets from the
        start of flash, as MicroPython's build gives them). Empty when it declares none."""
        lo, data = self.flat()
        out = {}
        for entry in _entries(lo, data):
            if len(entry) < 22 or struct.unpack_from("<H", entry, 0)[0] != _TYPE_BLOCK_DEVICE:
                continue
            name_at, address, size = struct.unpack_from("<III", entry, 4)
            name = _string(lo, data, name_at)
            if name:
                out[name] = (address - XIP_BASE, size)
        return out

    def romfs(self):
        """(flash offset, size) of the firmware's ROMFS partition, or None where it has none."""
        return self.partitions().get(ROMFS)

    def save(self, path, extra):
        """Write a UF2 of the firmware's blocks and `extra` ({flash offset: bytes}: each written
        in 256-byte blocks; a piece that is not a whole number of them is padded as erased flash).
        A block of the firmware's file that `extra` covers is replaced (a file made by save() can be
        the base of another). Returns the number of blocks written."""
        from uf2utils.file import UF2File

        spans = []
        for offset, data in extra.items():
            if offset % PAYLOAD:
                raise BadFirmware("data for 0x%x is not on a %d-byte boundary" % (offset, PAYLOAD))
            spans.append((XIP_BASE + offset, XIP_BASE + offset + len(data)))
        f = UF2File(board_family=self.family)
        for a, d in self.blocks:
            if not [1 for lo, hi in spans if a < hi and a + len(d) > lo]:
                f.append_payload(d, a, block_payload_size=PAYLOAD)
        for offset, data in sorted(extra.items()):
            pad = (-len(data)) % PAYLOAD
            f.append_payload(bytes(data) + b"\xff" * pad, XIP_BASE + offset, block_payload_size=PAYLOAD)
        f.to_file(path)
        return len(f)

    def within(self, offset, size):
        """{flash offset: payload} of the firmware's blocks in [offset, offset + size)."""
        return {a - XIP_BASE: d for a, d in self.blocks if offset <= a - XIP_BASE < offset + size}


def _entries(lo, data):
    """Each binary info entry's bytes (from its address to the end of the firmware)."""
    for at in range(0, min(len(data), _SEARCH) - 20, 4):
        start, first, last, _mapping, end = struct.unpack_from("<IIIII", data, at)
        if start != _MARKER_START or end != _MARKER_END:
            continue
        out = []
        for p in range(first, last, 4):
            if not lo <= p < lo + len(data) - 4:
                continue
            target = struct.unpack_from("<I", data, p - lo)[0]
            if lo <= target < lo + len(data):
                out.append(data[target - lo:])
        return out
    return []


def _string(lo, data, address):
    if not lo <= address < lo + len(data):
        return None
    end = data.find(b"\0", address - lo, address - lo + 64)
    if end < 0:
        return None
    try:
        return data[address - lo:end].decode("ascii")
    except UnicodeDecodeError:
        return None


def has_romfs(path):
    """True when the firmware UF2 at `path` declares a ROMFS partition."""
    return Firmware.load(path).romfs() is not None
