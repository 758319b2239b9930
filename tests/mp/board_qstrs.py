"""How many strings the board has interned after boot, a resume, the menus and play.

    micropython tests/mp/board_qstrs.py FOLDER [GAME [ballot]]

MicroPython interns identifiers and short string constants (qstrs) in pools
that it never frees, and a full pool is followed by one twice its size: on
the unix port the pools hold 20, 40, 80, 160 and 320 strings (620 in all),
and the 621st allocates a pool of 640 entries, about 7 KB of the board's
heap at once. This runner loads what the simulated board loads (firmware.main
and its imports, the game, the resume code, the menus), boots a game,
resumes it, plays actions through the table and presses through a pad's
menu, then prints the pool figures (micropython.qstr_info()).
"""

import os
import sys

import micropython

from firmware import main  # noqa: F401  (what the board imports first)
from firmware.board import sim  # noqa: F401
from firmware.controls import Controls
from firmware.journal import Journal
from firmware.table import Table
from shared_rules import engine


def run(folder, game="chancellors", ballot=""):
    table = Table(Journal(folder), os.urandom, game,
                  {"players": 4}).boot()
    if game == "chancellors" or game == "kings_dilemma":
        table.act({"type": "roll"})
    else:  # the first action, built from the game's own names: a literal here would be
        # interned and counted as the board's (local names are interned too)
        kind = next(iter(engine.game_module(game).SCHEMAS))["type"]  # The Council's draft, YYG's next
        act = {"type": kind}
        if game == "the_council":
            from shared_rules import decktet

            act["seat"], act["cards"] = 0, list(decktet.NAMES[:5])
        table.act(act)
    table = Table(Journal(folder), os.urandom).boot()  # resume
    keys = Controls(table)  # the pads' keys, as the board layer makes them
    for key in ("down", "select", "down", "back", "select", "select"):
        keys.key(5, key)
    keys.key(0, "down")
    if ballot:  # a sealed ballot too: its modules and the private box
        table.act({"type": "ballot_open", "question": "Q?", "options": ["a", "b"]})
        for seat in range(4):
            keys.key(seat, "up")
    micropython.qstr_info()


if __name__ == "__main__":
    run(*sys.argv[1:])
