"""A fake `neopixel` with the board driver's shape: .buf in the strip's byte
order, write() sends it. Each write is recorded for the test to read."""


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.buf = bytearray(n * bpp)
        self.writes = []

    def write(self):
        self.writes.append(bytes(self.buf))
