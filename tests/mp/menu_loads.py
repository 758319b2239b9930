"""What the table's menus leave loaded, on either interpreter (a fresh process).

    micropython tests/mp/menu_loads.py FOLDER

On a Pico the menus come on top of a game's state and code, within 96 KB (issue 13
part 6), so: the game's code that builds the actions offered (its views.py, and what that
imports, as The King's Dilemma's effects) goes once they are built, before the menu's own
code is loaded; and a new game, of the same game as much as another, lets the menu's code
and entry go before the new journal's files are made, and its own code after. Prints one
line per check.
"""

import sys

from firmware.journal import Journal
from firmware.pads import TABLE
from firmware.table import Table


def loaded(*names):
    return ", ".join(["%s %s" % (n, "loaded" if n in sys.modules else "not loaded") for n in names])


def run(folder):
    out = []
    t = Table(Journal(folder), lambda kind, body: None, lambda n: b"\x02" * n, "kings_dilemma", {"players": 5}).boot()
    screen = t.pressed(TABLE, "select")[0]
    out.append("table menu: %s; %s" % (screen[0], loaded("firmware.menu", "shared_rules.kings_dilemma.views",
                                                          "shared_rules.kings_dilemma.effects")))
    screen = t.pressed(TABLE, "down")[0]
    out.append("down: %s" % [line for line in screen if line[:1] == ">"])
    screen = t.pressed(1, "select")[0]  # the menu turns to a seat's pad: its actions built again
    out.append("seat 1: %s; %s" % (screen[0], loaded("firmware.menu", "shared_rules.kings_dilemma.views")))
    t.start({"type": "new_game", "game": "kings_dilemma", "settings": {"players": 5}})
    out.append("new game: menu %s, %s" % (t.menu, loaded("firmware.menu", "firmware.game_start",
                                                                      "firmware.journal_start")))
    screen = t.pressed(TABLE, "select")[0]
    out.append("table menu again: %s; %s" % (screen[0], loaded("firmware.menu", "shared_rules.kings_dilemma.views")))
    return out


if __name__ == "__main__":
    for line in run(sys.argv[1]):
        print(line)
