"""A sealed ballot on the board's table controller, run twice with one seat's hidden choice changed.

    micropython tests/mp/ballot_secrecy.py FOLDER LAYOUT [GAME]
    on the chip: ARGS = [FOLDER, LAYOUT, GAME], then this file (mpremote exec, then run)

Every hidden value differs between the two runs, with the same number of presses: the
side (which option), the count (a counted option's secret number) and the set (a multi
ballot's options). Each game's ballot kind:

Chancellors (the default), a plain ballot: the host opens it over the link (three
seats, three options), seat 0 votes on its pad (run A: up, the first option; run B:
down, the third), presses again, seat 1 votes; that is "before". Then seat 2
votes, the last voter, and the board reveals by itself: "after".

kings_dilemma, a counted ballot: the sealed variant of the Vote of the Council, which
the game opens by itself after the roll. House 0 counts and casts on its pad (run A:
AYE with 2 Power, having counted 1 on NAY; run B: NAY with 3), House 1 becomes
Moderator (PASS held): "before"; House 2 passes and gathers, the board reveals and
the game plays the vote: "after".

the_council, a multi ballot: the reveal of drafted cards after an event's bids.
Seat 0 marks its cards (run A: the first, then the third marked and unmarked; run B:
the third, fourth and fifth) and casts, seat 1 casts nothing: "before"; seat 2 marks
its fifth card and casts, the board reveals and the event resolves: "after".

yes_your_grace, the table's own counted ballot, opened over the link (any game's table
may hold one): seat 0 counts and casts as House 0 does above (run A: Aye 2; run B: Nay
3), seat 1 holds select (a held key whose option takes no count casts the fourth: Pass):
"before"; seat 2 holds down (Nay, counted 1), the board reveals: "after".

Before the last voter, mid-vote: the last cast is taken back over the link (the undo's state
frame) and cast again, a host reconnects (hello: the welcome and its digests, the state) and
gets every entry. For each run and each moment,
one line of CRC-32s: every frame the board sent, every screen its display
showed, the journal's bytes (what a log export holds), the state's digest, the
public view and the LED frame rendered from it, and whether the private ballot
box is on flash. The test compares run A's lines with run B's (equal before,
different after) and CPython's with MicroPython's.
"""

import binascii
import gc
import json
import os
import sys

from firmware.controls import Controls
from firmware.journal import Journal
from firmware.journal.store import MAGIC
from firmware.link import Link
from firmware.table import Table
from shared_rules import canon, engine, render, wire

OPEN = {"type": "ballot_open", "question": "Exile the Duke?", "options": ["Aye", "Nay", "Abstain"]}


def _crc(value):
    return canon.digest(value)


def _without_nonces(data):
    """A raw log reservation's bytes (on the chip) with each block marker's nonce blanked: the
    nonce is random by design (firmware/journal/store.py), the same in no two runs, and tells
    nothing of a ballot. A file journal's lines hold no marker."""
    at = data.find(MAGIC)
    if at < 0:
        return data
    out = bytearray(data)
    while at >= 0:
        out[at + len(MAGIC):at + len(MAGIC) + 4] = b"\0\0\0\0"
        at = data.find(MAGIC, at + 1)
    return bytes(out)


def _files(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        if not name.startswith("ballot"):  # the private box (ballot.json, or ballotN.bin on raw flash): in no frame or export
            with open(folder + "/" + name, "rb") as f:  # bytes: on the chip, the raw log's erased flash too
                out[name] = "%08x" % (binascii.crc32(_without_nonces(f.read())) & 0xFFFFFFFF)
    return out


class Sent:
    """What the board sent, as a running CRC-32 of each frame's canonical text (a board
    keeps no frames; neither does this, so the heap it runs in is the board's), and the
    frames themselves for a caller that asks (the mirror test, on CPython)."""

    def __init__(self, frames=None):
        self.crc = 0
        self.frames = frames

    def __call__(self, kind, body):
        self.crc = canon.crc32_update(canon.encode([kind, body]), self.crc)
        if self.frames is not None:
            self.frames.append([kind, body])


def _moment(name, table, sent, screens, folder, layout):
    view = engine.game_module(table.game).view(table.state, None)
    frame = bytearray(render.frame_size(layout))
    render.render(view, layout, frame)
    box = False  # the private box holds choices (its file, or its lines on raw flash: Journal.each)
    for _ in table.journal.each("ballot.json", {"n": int}):
        box = True
    return "%s frames=%s screens=%s journal=%s state=%s view=%s leds=%s box=%s" % (
        name, "%08x" % (sent.crc & 0xFFFFFFFF), _crc(screens), _crc(_files(folder)), canon.digest(table.state), _crc(view),
        "%08x" % (binascii.crc32(frame) & 0xFFFFFFFF), "yes" if box else "no")


# per game: settings, what opens the ballot (over the link), the runs' hidden keys on
# seat 0's pad (same number of presses), then the other voters' keys
GAMES = {
    "chancellors": ({"players": 3}, {"move": OPEN, "seat": None},
                    {"A": ["up"], "B": ["down"]}, ["up"], ["select"]),
    # House 0: A counts 2 on AYE and 1 on NAY, and casts AYE (back: up held); B counts 3 on
    # NAY and casts it. The side and the Power both differ.
    "kings_dilemma": ({"players": 3, "voting": "sealed"},
                      {"move": {"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"}, "seat": None},
                      {"A": ["up", "up", "down", "back"], "B": ["down", "down", "down", "long_down"]},
                      ["long_select"], ["select"]),
    # the reveal of drafted cards after the bids: seat 0 marks its first card (A: the third
    # marked and unmarked again) or its third, fourth and fifth (B), and casts by holding
    # down; seat 1 reveals nothing, seat 2 its fifth
    "the_council": ({"players": 3}, [
        {"move": {"type": "draft", "seat": 0, "cards": ["Ace of Moons", "Author", "Journey", "Mountain", "Huntress"]}},
        {"move": {"type": "draft", "seat": 1, "cards": ["Ace of Suns", "Desert", "Painter", "Sailor", "Bard"]}},
        {"move": {"type": "draft", "seat": 2, "cards": ["Ace of Waves", "Origin", "Savage", "Battle", "Sea"]}},
        {"move": {"type": "event", "card": "Mill"}},
        {"move": {"type": "bid", "seat": 0, "Waves": 1}}, {"move": {"type": "pass", "seat": 1}},
        {"move": {"type": "bid", "seat": 2, "Waves": 2}}],
        {"A": ["up", "down", "down", "long_down"], "B": ["down", "back", "long_select", "long_down"]}, ["long_down"],
        ["long_select", "long_down"]),
    # the table's own counted ballot: seat 0 casts Aye 2 (A) or Nay 3 (B), as House 0 above
    "yes_your_grace": ({"players": 3}, {"move": dict(OPEN, options=["Aye", "Abstain", "Nay", "Pass"],
                                                     counted=["Aye", "Nay"], max=5), "seat": None},
                       {"A": ["up", "up", "down", "back"], "B": ["down", "down", "down", "long_down"]},
                       ["long_select"], ["long_down"]),
}


def run(folder, tag, layout, game="chancellors", frames=None):
    """The two moments' lines of one run; `frames` (a list) gets what the board sent."""
    settings, opening, hidden, second, last = GAMES[game]
    os.mkdir(folder)
    sent = Sent(frames)
    screens = []
    table = Table(Journal(folder), lambda n: b"\x33" * n,
                  game, settings, "ballot").boot()
    keys = Controls(table)  # the pads' keys, as the board layer makes them
    host = Link(table, sent, keys)
    host.frame(0, wire.HELLO, {"proto": 1})
    for body in opening if isinstance(opening, list) else [opening]:
        host.frame(1, wire.ACT, body)
    for key in hidden[tag]:
        screens.append(keys.key(0, key)[0])
    screens.append(keys.key(0, "select")[0])  # again: voted already, whatever it chose
    for key in second:
        screens.append(keys.key(1, key)[0])
    # mid-vote, every channel a host has: the last cast taken back (its state frame) and cast
    # again, a host that reconnects (hello: its welcome and digests, the state), and a GET of
    # every entry
    host.frame(2, wire.ACT, {"move": {"type": "undo", "entry": table.count - 1}, "seat": None})
    for key in second:
        screens.append(keys.key(1, key)[0])
    host.frame(3, wire.HELLO, {"proto": 1})
    host.frame(4, wire.GET, {"i": 0, "j": table.count})
    out = [_moment("before", table, sent, screens, folder, layout)]
    if frames is not None:
        frames.append(None)  # the moment: the frames before it are all a mirror had seen
    for key in last:
        screens.append(keys.key(2, key)[0])  # the last voter: the board reveals
    out.append(_moment("after", table, sent, screens, folder, layout))
    result = table.state["ballot"]["result"]
    out.append("revealed %s counts %s amounts %s" % (canon.encode(result["choices"]), canon.encode(result["counts"]),
                                                     canon.encode(result.get("amounts"))))
    return out


def main(argv):
    if hasattr(gc, "threshold"):  # as the board runs (firmware/boot.py's _GC_EVERY)
        gc.threshold(8 * 1024)
    folder, layout_path = argv[0], argv[1]
    game = argv[2] if len(argv) > 2 else "chancellors"
    with open(layout_path) as f:
        layout = json.load(f)
    for tag in "AB":
        for line in run(folder + "/" + tag, tag, layout, game):
            print(tag + " " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(globals().get("ARGS") or sys.argv[1:]))  # a port without sys.argv (the chip's) is given ARGS
