"""A fake `framebuf` for CPython (tests only): MicroPython has the real one built in, and there
it wins over this file. It keeps the buffer and its size; drawing only clears or fills it."""

MONO_VLSB = 0
GS8 = 6


class FrameBuffer:
    def __init__(self, buf, width, height, format):
        self._fb = (buf, width, height, format)

    def fill(self, c):
        buf = self._fb[0]
        for i in range(len(buf)):
            buf[i] = 0xFF if c else 0

    def blit(self, src, x, y, key=-1, palette=None):
        """Only what the board's current limiter does (firmware/board/leds.py): a GS8 row
        onto itself, each pixel through the palette."""
        assert src is self and (x, y, key) == (0, 0, -1) and self._fb[3] == GS8 and self._fb[2] == 1
        buf, table = self._fb[0], palette._fb[0]
        for i in range(self._fb[1]):
            buf[i] = table[buf[i]]

    def fill_rect(self, x, y, w, h, c):
        buf, width = self._fb[0], self._fb[1]
        for page in range(y // 8, (y + h + 7) // 8):  # MONO_VLSB: whole pages only, as the board draws
            for col in range(x, x + w):
                buf[page * width + col] = 0xFF if c else 0

    def text(self, s, x, y, c=1):
        pass
