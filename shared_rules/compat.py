"""The few names that differ between CPython and MicroPython."""

try:
    from micropython import const  # noqa: F401  (MicroPython: folded at compile time)
except ImportError:  # CPython

    def const(value):
        return value
