"""The LED frame's primitives: a run of LEDs lit in a colour, a seat's colour, a seat's LED.

A leaf (it imports only compat), shared by render.py and render_tracks.py, so neither
imports the other for them.
"""

# Builtins as this module's globals: MicroPython looks a name up in the module first, and on a
# Pico a builtin found there costs 1 us against 9 us through the builtins' table (canon.py)
from builtins import bool, bytes, int, isinstance, len

from shared_rules.compat import const

_FULL = const(255)


_RUNS = {}  # a colour (r << 16 | g << 8 | b) -> [its bytes repeated k times, for k LEDs]
_RUN_LEDS = const(16)  # the longest run copied at once (longer runs take several copies)


def _run(frame, leds, base, step, first, count, colour, mul, div):
    """Light `count` LEDs of a track from its `first`, each channel colour*mul//div.

    base/step: the strip index of the track's first LED and +1 or -1; or step 0
    and base the track's strip indices (a track that is not one run on the strip:
    render.plan). LEDs outside 0..leds-1 are skipped, so a bad layout cannot write
    past the frame's LEDs. A run of several LEDs is copied in C from the colour's bytes
    (kept in _RUNS), not written byte by byte: a board renders on every change
    (in Python, three stores per LED took most of a Pico's render)."""
    if colour is None or count <= 0:
        return
    r = colour[0] * mul // div
    g = colour[1] * mul // div
    b = colour[2] * mul // div
    if step == 0:  # LED by LED through the track's indices (none before its first)
        end = first + count
        if end > len(base):
            end = len(base)
        if first < 0:
            first = 0
        while first < end:
            i = base[first]
            if 0 <= i < leds:
                j = i * 3
                frame[j] = r
                frame[j + 1] = g
                frame[j + 2] = b
            first += 1
        return
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
    if j == end:
        frame[j] = r
        frame[j + 1] = g
        frame[j + 2] = b
        return
    if j > end:
        return
    key = (r << 16) | (g << 8) | b
    runs = _RUNS.get(key)
    if runs is None:
        if len(_RUNS) >= 32:  # partial colours come and go: keep the cache small
            _RUNS.clear()
        runs = _RUNS[key] = [None] * (_RUN_LEDS + 1)
    end += 3
    while j < end:
        k = (end - j) // 3
        if k > _RUN_LEDS:
            k = _RUN_LEDS
        run = runs[k]
        if run is None:  # made once: later frames copy it with nothing allocated
            run = runs[k] = bytes([r, g, b]) * k
        frame[j:j + 3 * k] = run
        j += 3 * k


def _seat_colour(seats, seat):
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seats):
        return seats[seat]
    return None


def _seat_led(frame, leds, base, step, length, seat, colour, level):
    if colour is not None and isinstance(seat, int) and 0 <= seat < length:
        _run(frame, leds, base, step, seat, 1, colour, level, _FULL)
