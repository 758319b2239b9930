"""Raspberry Pi Pico / Pico W under MicroPython (the rp2 port).

Everything but the default pin map is shared with the ESP32 (mpboard.py): the
rp2 port's machine.Pin, neopixel (PIO) and machine.I2C behave as the esp32
port's do. The pin map is hardware/boards/rpi-pico.json, copied to
/hardware/boards/ on the flash; pass {"pins": NAME_OR_PATH} for another.

The buttons are read in one load of the SIO's GPIO_IN (levels()), not a Pin.value() each.
The journal sees the rp2 port by itself (firmware/journal/: `import rp2`) and programs its
entries through rp2.Flash() into reservations inside littlefs (firmware/journal/flash.py).
"""

import machine

from firmware.board import mpboard, pins
from shared_rules.compat import const

_GPIO_IN = const(0xD0000004)  # the SIO's GPIO_IN: every pin's input level, bit n GPIO n


class Hardware(mpboard.Hardware):
    BOARD = "rpi-pico"

    def __init__(self, opts):
        mpboard.Hardware.__init__(self, opts)
        self._gpio = pins.buttons(pins.load(opts.get("pins") or self.BOARD))  # each button's GPIO, or None
        self._word, self._down = -1, 0  # the levels read last, and the buttons down in them

    def levels(self):
        """The buttons down now (bit i: button i), from one read of every pin's level; mapped
        to buttons only when a level changed (a Pin.value() call a button cost more than the
        rest of a scan in which nothing moved)."""
        word = machine.mem32[_GPIO_IN]
        if word != self._word:
            down, gpio, act = 0, self._gpio, self._active
            for i in range(len(gpio)):
                g = gpio[i]
                if g is not None and (word >> g) & 1 == act:
                    down |= 1 << i
            self._word, self._down = word, down
        return self._down
