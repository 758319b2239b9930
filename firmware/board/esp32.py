"""ESP32-S3 boards under MicroPython (the esp32 port).

Shared with the Pico (mpboard.py): the esp32 port's neopixel drives the strip
through the RMT peripheral, and its machine.Pin and machine.I2C take the same
arguments. The pin map is hardware/boards/esp32-s3-devkitc.json, copied to
/hardware/boards/ on the flash; pass {"pins": NAME_OR_PATH} for another.
"""

from firmware.board import mpboard


class Hardware(mpboard.Hardware):
    BOARD = "esp32-s3-devkitc"
