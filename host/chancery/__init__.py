"""Chancery host program: the terminal game, the link to the board, and tooling.

The game rules themselves live in the separate top-level package ``shared_rules``,
which must also run under MicroPython on the board.
"""

__version__ = "0.1.0"
