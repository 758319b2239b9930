"""What the virtual Pico's strip and display showed, as the chip reported it."""

import subprocess
from dataclasses import dataclass

WIDTH, HEIGHT = 128, 64


@dataclass(frozen=True)
class Frame:
    """One WS2812 frame: the whole strip's bytes in wire order as it shows after the frame (LEDs
    past a frame shorter than the strip keep their colours), the bits that were sent, and when
    its first bit rose and last fell (board ns)."""

    first_ns: int
    last_ns: int
    bits: int
    data: bytes

    def pixels(self, order="GRB"):
        """(r, g, b) per LED, for a strip that takes its bytes in `order`."""
        at = [order.index(c) for c in "RGB"]
        return [tuple(self.data[i + k] for k in at) for i in range(0, len(self.data) - 2, 3)]

    @property
    def ns_per_bit(self):
        # the last bit's low part is not on the wire before the latch: about a bit's worth short
        return (self.last_ns - self.first_ns) / max(1, self.bits - 1)


@dataclass(frozen=True)
class Picture:
    """The SSD1306's GDDRAM after a write: 8 pages of 128 columns, a byte per column, bit 0 on top."""

    t_ns: int
    on: bool
    inverted: bool
    ram: bytes

    def pixel(self, x, y):
        return (self.ram[(y // 8) * WIDTH + x] >> (y % 8)) & 1

    @property
    def rows(self):
        """The picture as 64 rows of 128 bits (1 = lit, before any inversion)."""
        return [[self.pixel(x, y) for x in range(WIDTH)] for y in range(HEIGHT)]

    def text(self, on="#", off="."):
        return "\n".join("".join(on if b else off for b in row) for row in self.rows)

    def lines(self):
        """The 8 text lines of 16 characters the picture shows, read back from its pixels with
        MicroPython's 8x8 font (the one framebuf.text draws on the chip): what a player reads.
        None when a cell is not one of the font's characters (a picture, not text)."""
        font = glyphs()
        out = []
        for page in range(HEIGHT // 8):
            row = self.ram[page * WIDTH:(page + 1) * WIDTH]
            if self.inverted:
                row = bytes(255 - b for b in row)
            chars = []
            for x in range(0, WIDTH, 8):
                c = font.get(row[x:x + 8])
                if c is None:
                    return None
                chars.append(c)
            out.append("".join(chars).rstrip())
        return out


_GLYPHS = {}


def glyphs():
    """{8 column bytes: character} of MicroPython's built-in 8x8 font, for the printable ASCII
    characters, drawn once by the MicroPython unix port's framebuf (the chip's own font)."""
    if not _GLYPHS:
        from chancery.board import micropython

        code = ("import framebuf\nb=bytearray(8)\nf=framebuf.FrameBuffer(b,8,8,framebuf.MONO_VLSB)\n"
                "for c in range(32,127):\n f.fill(0)\n f.text(chr(c),0,0,1)\n print(bytes(b).hex())\n")
        out = subprocess.run([micropython.find_micropython(), "-c", code], capture_output=True, text=True,
                             timeout=30, check=True).stdout.split()
        for c, hexed in zip(range(32, 127), out):
            _GLYPHS.setdefault(bytes.fromhex(hexed), chr(c))  # a blank cell reads as the space
    return _GLYPHS
