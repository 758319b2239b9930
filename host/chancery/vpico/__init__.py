"""A virtual Raspberry Pi Pico: stock MicroPython's RPI_PICO firmware on the rp2040js emulator.

    from chancery.vpico import VirtualPico
    with VirtualPico() as vp:                 # boots, waits for its USB serial
        vp.port                               # a pty: mpremote / pyserial / chancery deploy --port
        vp.press_button(4)                    # seat 1's select, with contact bounce
        frame = vp.wait_frame()               # what the WS2812 strip got
        vp.wait_display().text()              # what the SSD1306 shows
        vp.cut(during="erase"); vp.boot()     # a power cut that tears a flash erase

chip.mjs (node) runs the chip and models the board around it: the SPI NOR flash with its
program / erase times and tearing, the buttons' and encoder's pins, the strip's data line, the
display on I2C0. board.py drives it; kit.py finds node, rp2040js, the UF2 and the bootrom.
"""

from chancery.vpico.board import VirtualPico, VPicoError
from chancery.vpico.decode import Frame, Picture
from chancery.vpico.kit import UF2NotFound, VPicoSetupError, find_uf2

__all__ = ["Frame", "Picture", "UF2NotFound", "VPicoError", "VPicoSetupError", "VirtualPico", "find_uf2"]
