"""A fake `neopixel` with the board driver's shape: .buf in the strip's byte
order, write() sends it. `writes` holds what the strip showed after each frame, whole
(a frame from machine.bitstream may end early: the LEDs past it keep their colours),
`sent` how many bytes each frame sent."""

import machine


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.timing = timing
        self.buf = bytearray(n * bpp)
        self.writes = []
        self.sent = []
        machine.STRIPS[pin.id] = self

    def write(self):
        self.took(bytes(self.buf))

    def took(self, data):
        shown = bytearray(self.writes[-1] if self.writes else len(self.buf))
        shown[:len(data)] = data
        self.writes.append(bytes(shown))
        self.sent.append(len(data))
