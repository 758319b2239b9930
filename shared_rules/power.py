"""Strip current: the estimate and the limiter (the way WLED does it).

A USB port or a small supply browns out long before a strip of WS2812B LEDs
at full white is lit (a 16x16 panel's 256 LEDs would draw about 15 A), so every frame is
scaled down, as a whole, until its estimated current fits a budget (the
pin map's `budget_ma`, 450 mA by default: a USB 2.0 port's 500 mA, USB 2.0
section 7.2.1, less about 45 mA for the board itself, its display and the level
shifter; hardware/rules.json holds each board's figures).

The model, with WS2812B figures from its datasheet and WLED's measurements:
  * each colour channel draws about 20 mA at 255 and in proportion below it
    (per_channel_ma), so a white LED at full draws about 60 mA;
  * each LED's controller chip draws about 1 mA whatever it shows, dark
    included (idle_ma), so a long dark strip still costs current.
All in ints: the lit part is rounded up, so the estimate errs high and the
limiter errs on the safe side.

Pure functions over a frame (a bytearray of R, G, B triples, see render.py).
The host's power-budget command (chancery.hardware.power) uses the same ones,
so the figure printed on the laptop is the figure the board enforces.
"""

from shared_rules.compat import const

_FULL = const(255)
PER_CHANNEL_MA = const(20)
IDLE_MA = const(1)
BUDGET_MA = const(450)


def _ma(total, leds, per_channel_ma, idle_ma):
    """mA for `total` channel steps (sum of bytes) over `leds` LEDs."""
    return (total * per_channel_ma + _FULL - 1) // _FULL + leds * idle_ma


def estimate_ma(frame, per_channel_ma=PER_CHANNEL_MA, idle_ma=IDLE_MA):
    """The estimated current (mA) of a frame: every byte at 255 draws
    per_channel_ma, and every LED draws idle_ma on top, lit or dark."""
    return _ma(sum(frame), len(frame) // 3, per_channel_ma, idle_ma)


def limit(frame, budget_ma=BUDGET_MA, per_channel_ma=PER_CHANNEL_MA, idle_ma=IDLE_MA, scale=None, top=None):
    """Scale `frame` in place so that estimate_ma(frame) <= budget_ma.

    Returns the level used (0-255): 255 and the frame untouched when it
    already fits; 0 and a dark frame when even the idle current does not fit.
    Scaling never brightens a byte, and a limited frame is left alone by a
    second call (it fits). `scale(frame, level)`, if given, does the scaling
    (each byte to byte * level // 255, as the loop here does): a board does it
    in C (firmware/board/leds.py). `top`, if given, is a byte no byte of the frame exceeds (the
    layout's brightest channel at its level: render.brightest): when every non-zero byte at `top`
    would fit, the frame fits, and its bytes are not summed (counting the zero bytes is one
    search in C; sum() takes each byte as an int, 1.7 ms for the panel's 768 on the chip).
    """
    leds = len(frame) // 3
    if top is not None and _ma((len(frame) - frame.count(b"\x00")) * top, leds, per_channel_ma, idle_ma) <= budget_ma:
        return _FULL
    total = sum(frame)  # C's loop: the bytes are summed on every frame
    if _ma(total, leds, per_channel_ma, idle_ma) <= budget_ma:
        return _FULL
    lit = (total * per_channel_ma + _FULL - 1) // _FULL  # > 0 here, or the frame would fit
    spare = budget_ma - leds * idle_ma
    # lit * level / 255 <= spare, and flooring each byte only lowers the sum
    level = spare * _FULL // lit if spare > 0 else 0
    if level >= _FULL:  # cannot happen (the frame did not fit), but never brighten
        level = _FULL - 1
    if scale is not None:
        scale(frame, level)
        return level
    for i in range(len(frame)):
        frame[i] = frame[i] * level // _FULL
    return level
