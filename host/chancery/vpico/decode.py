"""What the virtual Pico's strip and display showed, as the chip reported it."""

from dataclasses import dataclass

WIDTH, HEIGHT = 128, 64


@dataclass(frozen=True)
class Frame:
    """One WS2812 frame: the bytes in wire order, and when its first bit rose and last fell (board ns)."""

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
