"""Raspberry Pi Pico / Pico W under MicroPython (the rp2 port).

Everything but the default pin map is shared with the ESP32 (mpboard.py): the
rp2 port's machine.Pin, neopixel (PIO) and machine.I2C behave as the esp32
port's do. The pin map is hardware/boards/rpi-pico.json, copied to
/hardware/boards/ on the flash; pass {"pins": NAME_OR_PATH} for another.

The journal sees the rp2 port by itself (firmware/journal/: `import rp2`) and programs its
entries through rp2.Flash() into reservations inside littlefs (firmware/journal/flash.py).
"""

from firmware.board import mpboard


class Hardware(mpboard.Hardware):
    BOARD = "rpi-pico"
