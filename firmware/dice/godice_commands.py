"""GoDice's commands (written to its Nordic UART TX) other than the battery's (godice.ask_battery):
the pips' colour and the LEDs, as the maker's API (godice/dice.py) sends them. Bytes out only;
MicroPython-safe, and kept apart from godice.py so a board that reads dice loads none of it.
"""


def ask_colour():
    return b"\x17"


def _rgb(rgb):
    if len(rgb) != 3 or [c for c in rgb if not (isinstance(c, int) and 0 <= c <= 255)]:
        raise ValueError("a colour is three ints 0-255 (red, green, blue), not %r" % (rgb,))
    return bytes(rgb)


def leds(first, second):
    """Both LEDs on, in these colours ((0, 0, 0): off)."""
    return b"\x08" + _rgb(first) + _rgb(second)


def pulse(count, on_10ms, off_10ms, rgb):
    """Both LEDs blink `count` times, on and off for these times in 10 ms steps (each 0-255)."""
    for n in (count, on_10ms, off_10ms):
        if not (isinstance(n, int) and 0 <= n <= 255):
            raise ValueError("a pulse's count and times are ints 0-255, not %r" % (n,))
    return bytes((16, count, on_10ms, off_10ms)) + _rgb(rgb) + b"\x01\x00"
