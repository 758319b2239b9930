"""Wrap-safe millisecond ticks, with MicroPython's semantics on every interpreter.

A tick counter wraps: at 2**30 on a Pico or an ESP32 (about 12.4 days), at
2**62 on the 64-bit unix port, at 2**29 under CircuitPython's supervisor.
Code that subtracts tick values directly works on the unix port for years and
breaks on a board after 12 days, so everything here goes through ticks_diff
and ticks_add, and the tests run the same code on a FakeClock that wraps at
2**30 (or any period) exactly as MicroPython does:

    ticks_add(t, d)   (t + d) mod period; d must lie in (-period/2, period/2),
                      else OverflowError, as MicroPython raises
    ticks_diff(a, b)  the signed distance a - b, in -period/2 .. period/2-1

A "clock" is any object with ticks_ms(), ticks_add() and ticks_diff(): this
module itself (the real clock) or a FakeClock.
"""

import time


def diff(a, b, period):
    """MicroPython's ticks_diff for a counter wrapping at `period` (a power of two)."""
    half = period >> 1
    return ((a - b + half) & (period - 1)) - half


def add(t, delta, period):
    """MicroPython's ticks_add for a counter wrapping at `period`."""
    half = period >> 1
    if delta <= -half or delta >= half:
        # beyond this ticks_diff(ticks_add(t, d), t) == d would no longer hold
        raise OverflowError("ticks interval overflow")
    return (t + delta) & (period - 1)


if hasattr(time, "ticks_ms"):  # MicroPython: the port's own, wrapping at its own period
    ticks_ms = time.ticks_ms
    ticks_add = time.ticks_add
    ticks_diff = time.ticks_diff
else:
    try:  # CircuitPython: supervisor.ticks_ms wraps at 2**29
        from supervisor import ticks_ms as _raw

        _PERIOD = 1 << 29
    except ImportError:  # CPython: a monotonic clock, made to wrap at 2**30 like a Pico's
        _PERIOD = 1 << 30

        def _raw():  # type: ignore[misc]  # CircuitPython's is supervisor.ticks_ms; this stands in on CPython
            return time.monotonic_ns() // 1000000  # type: ignore[attr-defined]  # CPython's time, not the board's

    def ticks_ms():
        return _raw() & (_PERIOD - 1)

    def ticks_add(t, delta):
        return add(t, delta, _PERIOD)

    def ticks_diff(a, b):
        return diff(a, b, _PERIOD)


class FakeClock:
    """A clock for tests: time moves only when told to, and wraps at 2**period_bits.

    `set(t)` and `advance(ms)` take any int and store it wrapped, so a test can
    start a press just before the wrap: FakeClock(30, start=(1 << 30) - 100).
    """

    def __init__(self, period_bits=30, start=0):
        self.period = 1 << period_bits
        self.now = start & (self.period - 1)

    def ticks_ms(self):
        return self.now

    def ticks_add(self, t, delta):
        return add(t, delta, self.period)

    def ticks_diff(self, a, b):
        return diff(a, b, self.period)

    def set(self, t):
        self.now = t & (self.period - 1)

    def advance(self, ms):
        self.now = (self.now + ms) & (self.period - 1)
