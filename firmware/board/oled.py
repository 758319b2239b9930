"""The board's SSD1306 OLED (128x64 or 128x32, on I2C): a framebuf with show().

The stock MicroPython firmware has framebuf but not micropython-lib's ssd1306
driver, so this small one goes on the board with the firmware. Drawing (fill,
text, pixel, ...) is framebuf's own; show() sends the whole picture: the column
and page window, then GDDRAM in one write whose control byte 0x40 says "data";
show_page(k) sends only page k (rows 8k..8k+7: one line of 8x8 text), an
eighth of the bytes (a whole picture takes about 25 ms at 400 kHz), and
show_lines draws and sends only the lines of text that changed.
GDDRAM holds a byte per column per 8-row page, bit 0 on top: framebuf's
MONO_VLSB, so the buffer goes out as it is.
"""

import framebuf
import machine
from micropython import const  # this module runs only on a board's MicroPython (its framebuf)

# Control byte 0x00 (Co clear: every byte after it is a command), then the
# commands that bring a panel up, in the order the SSD1306 datasheet's
# application note gives them. _MUX and _COM_PINS index the two that depend on
# the panel's height.
_INIT = bytes((
    0x00,
    0xAE,  # display off while it is set up
    0x20, 0x00,  # horizontal addressing: the buffer fills the window row of pages by row
    0x40,  # display start line 0
    0xA1,  # segment remap: column 0 at the left with the panel's usual mounting
    0xA8, 63,  # multiplex ratio: height - 1
    0xC8,  # COM scan direction: top row first
    0xD3, 0x00,  # no display offset
    0xDA, 0x12,  # COM pins: alternative layout (0x02 for 32 rows)
    0xD5, 0x80,  # oscillator and clock divider: the reset values
    0xD9, 0xF1,  # precharge periods, for the internal charge pump
    0xDB, 0x30,  # VCOMH deselect level
    0x81, 0xFF,  # contrast
    0xA4,  # show GDDRAM (not all pixels on)
    0xA6,  # not inverted
    0x8D, 0x14,  # charge pump on: the module has no external VCC
    0xAF,  # display on
))
_MUX = 7
_COM_PINS = 12
_DATA = b"\x40"  # control byte: GDDRAM data follows
_LINE = const(49)  # show_lines' record of a page's line: its length byte, then up to 48 bytes of UTF-8
_UNDRAWN = const(255)  # a length no line of 16 characters has: the page was not drawn by show_lines


class SSD1306(framebuf.FrameBuffer):
    def __init__(self, i2c, addr=0x3C, width=128, height=64):
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.height = height
        pages = height // 8
        self.buf = bytearray(width * pages)
        super().__init__(self.buf, width, height, framebuf.MONO_VLSB)
        init = bytearray(_INIT)
        init[_MUX] = height - 1
        init[_COM_PINS] = 0x12 if height == 64 else 0x02
        i2c.writeto(addr, init)
        # the window show() writes: columns 0..width-1, pages 0..pages-1
        self._window = bytes((0x00, 0x21, 0, width - 1, 0x22, 0, pages - 1))
        self._page_window = bytearray(self._window)  # show_page's: one page (bytes 5, 6)
        whole = memoryview(self.buf)
        self._pages = [whole[k * width:(k + 1) * width] for k in range(pages)]
        # Each page's line as show_lines last drew it: a length byte (_UNDRAWN: none yet), then its
        # UTF-8, in one buffer made once. Not the strings it was given: those would outlive the
        # key that made them, scattered over the heap's free room, and fragment it.
        self._text = bytearray(_LINE * pages)
        for k in range(pages):
            self._text[_LINE * k] = _UNDRAWN

    def show(self):
        self.i2c.writeto(self.addr, self._window)
        self.i2c.writevto(self.addr, (_DATA, self.buf))

    def show_lines(self, lines):
        """Show up to 8 lines of text (16 characters each in the 8x8 font): only those that
        changed since the last call are drawn and sent, each as its page."""
        while self.show_line(lines):
            pass

    def show_line(self, lines):
        """show_lines() a page at a time: the first line of `lines` that differs from what the
        display shows, drawn and sent (3-4 ms at 400 kHz); False when none does. The board takes
        a screen so, a page between two scans (firmware/board/later.py): a whole screen took 30 ms,
        and a press that came meanwhile waited for all of it."""
        text = self._text
        for k in range(len(self._pages)):
            line = str(lines[k])[:16] if k < len(lines) else ""
            b, at = line.encode(), _LINE * k
            n = len(b)
            if text[at] == n and text[at + 1:at + 1 + n] == b:
                continue
            if n < _LINE:
                text[at] = n
                text[at + 1:at + 1 + n] = b
            else:  # characters of 3 bytes or more: drawn every time, never compared
                text[at] = _UNDRAWN
            self.fill_rect(0, k * 8, self.width, 8, 0)
            self.text(line, 0, k * 8, 1)
            self.show_page(k)
            return True
        return False

    def show_page(self, page):
        w = self._page_window
        w[5] = w[6] = page
        self.i2c.writeto(self.addr, w)
        self.i2c.writevto(self.addr, (_DATA, self._pages[page]))

    def power(self, on):
        self.i2c.writeto(self.addr, b"\x00\xaf" if on else b"\x00\xae")


def find(bus):
    """An SSD1306 on a pin map's I2C bus ({"id", "sda", "scl", "freq", "addr"}) if one
    answers, else None: no bus, nobody answering, a bus that fails (play without a display)."""
    if not bus:
        return None
    try:
        Pin = machine.Pin
        i2c = machine.I2C(bus.get("id", 0), sda=Pin(bus["sda"]), scl=Pin(bus["scl"]), freq=bus.get("freq", 400000))
        addr = bus.get("addr", 0x3C)
        if addr not in i2c.scan():
            return None
        return SSD1306(i2c, addr)
    except Exception:
        return None
