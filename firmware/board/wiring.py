"""A MicroPython board's parts, made once at boot from its pin map (firmware/board/pins.py):
the buttons' pins, the debouncer, the encoder, the strip and the display, for mpboard.Hardware.

Boot-only: mpboard lets this module go once its Hardware is made, with pins.py and the map
(their code would stay in the board's heap beside every game, for nothing).
"""

import machine
import neopixel
from micropython import const

from firmware import buttons, pads, ticks
from firmware.board import pins

MYPY = const(0)  # true for mypy alone (its old spelling of TYPE_CHECKING): the compiler drops the block
if MYPY:
    from firmware.board import knob, oled  # noqa: F401 (parts()'s type comment)


def parts(o, board):
    # type: (dict, str | None) -> tuple[list, int, buttons.Buttons, knob.Knob | None, neopixel.NeoPixel, int, object, int, oled.SSD1306 | None]
    """(button pins, active level, Buttons, Knob or None, strip, LEDs, byte order's offsets,
    current budget in mA, display or None) for the options `o` (its "pins": a board name or a
    path, else `board`'s map; "clock": a ticks-like clock)."""
    cfg = pins.load(o.get("pins") or board)
    Pin = machine.Pin
    pull = Pin.PULL_UP if cfg.get("pull", "up") == "up" else Pin.PULL_DOWN
    button_pins = [None if p is None else Pin(p, Pin.IN, pull) for p in pins.buttons(cfg)]
    knob = None  # the table's encoder, read in its pins' IRQs (knob.py)
    enc = pins.encoder(cfg)
    if enc:
        from firmware.board.knob import Knob

        knob = Knob(Pin(enc["a"], Pin.IN, pull), Pin(enc["b"], Pin.IN, pull), enc.get("steps_per_detent", 4))
    data, n, order = pins.strip(cfg)
    return (button_pins, pins.active_level(cfg), buttons.Buttons(pads.COUNT, o.get("clock") or ticks), knob,
            neopixel.NeoPixel(Pin(data, Pin.OUT), n), n, pins.order_offsets(order), pins.budget_ma(cfg),
            _display(pins.i2c(cfg)))


def _display(bus):
    """An SSD1306 on the map's I2C pins if one answers, else None (no display, no framebuf)."""
    try:
        from firmware.board import oled  # the stock firmware has framebuf, not micropython-lib's ssd1306
    except ImportError:
        return None
    return oled.find(bus)
