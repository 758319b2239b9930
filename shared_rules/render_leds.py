"""The LED frame's primitives: a run of LEDs lit in a colour, a seat's colour, a seat's LED.

A leaf (it imports only compat), shared by render.py and render_tracks.py, so neither
imports the other for them.
"""

from shared_rules.compat import const

_FULL = const(255)


def _run(frame, leds, base, step, first, count, colour, mul, div):
    """Light `count` LEDs of a track from its `first`, each channel colour*mul//div.

    base/step: the strip index of the track's first LED and +1 or -1. LEDs
    outside 0..leds-1 are skipped, so a bad layout cannot write past the
    frame's LEDs."""
    if colour is None or count <= 0:
        return
    r = colour[0] * mul // div
    g = colour[1] * mul // div
    b = colour[2] * mul // div
    # the run is one block of strip indices whichever way the track goes: clip it once
    lo = base + first * step
    hi = lo + count - 1
    if step < 0:
        lo, hi = lo - count + 1, lo
    if lo < 0:
        lo = 0
    if hi >= leds:
        hi = leds - 1
    j = lo * 3
    end = hi * 3
    while j <= end:
        frame[j] = r
        frame[j + 1] = g
        frame[j + 2] = b
        j += 3


def _seat_colour(seats, seat):
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seats):
        return seats[seat]
    return None


def _seat_led(frame, leds, base, step, length, seat, colour, level):
    if colour is not None and isinstance(seat, int) and 0 <= seat < length:
        _run(frame, leds, base, step, seat, 1, colour, level, _FULL)
