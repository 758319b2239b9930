"""Chancery's board firmware: runs shared_rules/ under MicroPython (or CircuitPython).

Small modules, one job each: the board layer (firmware/board/) hides the hardware, the journal
keeps every accepted action on flash, the link speaks frames to the host, the inputs and menus
turn button presses into actions. firmware/README.md maps the press path and who owns what.

The board runs its code from flash (a ROMFS partition, or frozen modules), so a module it loads
stays loaded: nothing is ever unloaded. What it loads only when first needed is declared here,
once; each is a part a board may never use at all:

- the host's link: shared_rules/wire.py, and firmware/link.py's Link, at the first
  byte a host sends (firmware/board/sim.py's host_link()); a board played on its own has none of it;
- smart dice: firmware/board/ble_dice.py and firmware/dice/, when the board's options name dice
  (firmware/main.py);
- a game's rules: the game being played (shared_rules/games.py's registry), and a module of
  its own that only some entries need (The Council's effects.py);
- the board's backend: its own only (firmware/board/__init__.py's load()), and its own parts:
  the wiring from a pin map, the encoder and the display (firmware/board/wiring.py), the
  restart after a game switch (firmware/board/reboot.py, firmware/boot.py) on the boards that
  restart; the unix port's command line (firmware/argv.py);
- the kept games and the flash's room for a new one: firmware/kept.py, at a new game or the
  host's pull (firmware/table.py, firmware/link.py);
- the seats' names: firmware/names.py, at the first names action (firmware/table.py);
- the Decktet's tables, when a menu first shows a Decktet card (firmware/menu.py): a game
  without Decktet cards never builds them;
- refusals' words: firmware/refusals.txt is read line by line when a refusal is shown
  (firmware/words.py); no prose stays in RAM.

Every other import is at the top of its module.
"""

FIRMWARE = "0.1.0"  # the firmware's version, in the welcome (firmware/link.py)
