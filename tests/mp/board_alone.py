"""What a board on its own at the table loads, on either interpreter (a fresh process).

    micropython tests/mp/board_alone.py FOLDER

The link's code (shared_rules/wire.py, 5.9 KB on a Pico, and the table's answers to the
frames, firmware/link.py) comes with a host's first byte:
a board played on its pads with no host never loads it, through boot, entries, keys,
the display's status and idle(); a hello then loads it. The seats' names' code
(firmware/names.py) waits for a names action. Prints one line per check.
"""

import sys

from firmware.board import sim  # noqa: F401  (the link's task lives here: importing it loads no wire)
from firmware.controls import Controls
from firmware.journal import Journal
from firmware.pads import TABLE
from firmware.table import Table
from shared_rules import engine


def loaded():
    """The link's code: the frames' (wire) and the table's answers to them (firmware/link.py)."""
    return "%s, %s" % ("wire loaded" if "shared_rules.wire" in sys.modules else "no wire",
                       "link loaded" if "firmware.link" in sys.modules else "no link")


def run(folder):
    out = []
    sent = []
    t = Table(Journal(folder), lambda n: b"\x02" * n, "chancellors",
              {"players": 3}).boot()
    keys = Controls(t)  # the pads' keys, as the board layer makes them
    out.append("boot: " + loaded())
    t.act({"type": "roll", "values": [3] * engine.game_module("chancellors").dice_wanted(t.state),
           "source": "manual"})
    t.idle()
    for pad, key in ((0, "down"), (0, "select"), (TABLE, "long_select"), (1, "down")):
        keys.pressed(pad, key)
        t.idle()
    keys.status()
    out.append("played: %s, %d entries, %d frames" % (loaded(), t.count, len(sent)))
    out.append("names: %s" % ("loaded" if "firmware.names" in sys.modules else "not loaded"))  # at a names action
    from firmware.link import Link  # as the board layer makes it at the first byte
    from shared_rules import wire  # as the link's reader does at the first byte

    host = Link(t, lambda kind, body: sent.append(kind), keys)
    host.frame(1, wire.HELLO, {"proto": wire.PROTO})
    out.append("hello: %s, listening %s, sent %s" % (loaded(), host.listening, sent[0] if sent else None))
    return out


if __name__ == "__main__":
    for line in run(sys.argv[1]):
        print(line)
