"""Chancery's board firmware: runs shared_rules/ under MicroPython (or CircuitPython).

Small modules, one job each: the board layer (firmware/board/) hides the hardware, the journal
keeps every accepted action on flash, the link speaks frames to the host, the inputs and menus
turn button presses into actions. firmware/README.md maps the press path and who owns what.

The board runs its code from flash (a ROMFS partition, or frozen modules), so a module it loads
stays loaded: nothing is ever unloaded. What it loads only when first needed is declared here,
once; each is a part a board may never use at all:

- the host's link: shared_rules/wire.py, and firmware/link.py, at the first
  byte a host sends (firmware/board/sim.py's link()); a board played on its own has none of it;
- smart dice: firmware/board/ble_dice.py and firmware/dice/, when the board's options name dice
  (firmware/main.py);
- a game's rules: the game being played (shared_rules/games.py's registry), and a module of
  its own that only some entries need (The Council's effects.py);
- the board's backend: its own only (firmware/board/__init__.py's load()).

The other imports inside functions in this package are there because the table's modules still
import each other both ways (firmware/table.py and its keys, menus, look-ahead and link answers):
a module imported inside a function is loaded at its first use, and then kept like any other.
"""

FIRMWARE = "0.1.0"  # the firmware's version, in the welcome (firmware/link.py)
