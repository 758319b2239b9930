"""Chancery's rules core: pure game logic shared by the board and the host.

Runs unchanged under CPython and MicroPython. Nothing here does I/O, reads a
clock or keeps mutable globals: an action goes in, events come out, and the
state is the fold of those events (see engine.py).
"""
