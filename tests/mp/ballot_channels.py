"""Every channel a host or a seat can see while a sealed ballot is open, run twice with the
choices cast changed (and the counts: The King's Dilemma's Power, the table's counted ballot).

    micropython tests/mp/ballot_channels.py FOLDER LAYOUT GAME

tests/mp/ballot_secrecy.py compares two moments whose only hello came before the ballot
opened; this one plays the channels a host meets during the vote too. Each run:

open     the board boots; a host says hello; the ballot opens (the game's own flow, or the
         host's action)
cast     two seats cast, each on a pad (the first by its buttons, the second by a host's press
         frames, as the simulated board's mirror sends them), and a third seat counts or marks
         on its pad without casting (pads' counts and marks, in RAM only)
mid      a ping, the pull of a kept game, a NEW hello (a host that reconnects) with its welcome,
         state frame and display, a GET of every entry, a host's reveal refused, the table's
         and a voted seat's keys (their screens), and the moment (below)
undo     the table's back, then push, takes back the last cast (its screens, its state frame,
         the strip); the moment; that seat casts again, another hidden choice
undo2    the host's undo action takes back that cast (its state frame, its ok); a hello, a GET,
         the moment; the seat casts again
hostcast the host's undo again, and the host casts for that seat, the choice (and count) in
         its act (a host may vote for a seat): its entry and ok; the moment
reboot   the board restarts on its flash (a power cut); a host says hello: welcome, state,
         display, a GET; the moment
after    the last voter casts (the same in both runs) and the board reveals: the moment. Here
         the runs differ, so the comparison can fail.

The moment: the display's status, the public view (a state frame drops it when it is longer
than a frame may be: The King's Dilemma's), the strip's frame for every phase of its shared
LEDs (the view rendered as a board does it, current limiter and all), every byte of every file in
the journal's folder but the private box's (what a log export and the simulated board's
--data folder hold), and the state's digest. Every frame the board sends goes through the
wire's encoder, seq and CRC included: the line a host reads. A frame too long for the wire
is noted as dropped (the board's sim.py says it on its console and the host fetches it).

Each run's record is (step, channel, text) in order; main() prints, per run, one line for each
step and channel: how many texts and their CRC-32. The test compares run A's with run B's
(equal but at "after"; "secret", what the private box holds mid-vote, must differ: the runs
do hide different choices), and CPython's lines with MicroPython's.
"""

import binascii
import gc
import json
import os
import sys

from firmware.controls import Controls
from firmware.journal import Journal
from firmware.link import Link
from firmware.pads import LONG, PAD_BUTTONS, SHORT, TABLE, TABLE_BUTTONS
from firmware.table import Table
from shared_rules import canon, engine, power, render, wire

T = TABLE  # the table's controls: back, push (select), push held (long_select)

# a menu key as a pad's button and hold (a host's press frame: firmware/link.py press)
_BUTTON = {"up": ("up", SHORT), "select": ("select", SHORT), "down": ("down", SHORT),
           "back": ("up", LONG), "long_select": ("select", LONG), "long_down": ("down", LONG)}

# per game: settings; the host's actions that open the ballot; the casts before the moment
# [(pad, keys per run, how: "key" a pad's button, "press" a host's press frame)], the last of
# them the cast that is taken back; the pending keys (a seat that counts or marks, casting
# nothing yet: pad, keys per run); the keys that cast again after the first two undos (the same
# seat), then the host's cast for it after the third (choice and count per run); and the last
# voter's keys, the same in both runs (the board reveals)
GAMES = {
    # House 0 counts 2 on AYE and 1 on NAY and casts AYE (A), or counts 3 on NAY and casts it
    # (B); House 1 becomes Moderator (A: select held) or gathers (B: select); House 2 counts 2
    # Power on AYE (A) or NAY (B) and has not cast. Cast again: House 1 gathers (A) or becomes
    # Moderator (B), then AYE (A) or NAY (B) with 1 Power; the host: NAY with 4 (A) or gather (B).
    # House 2 becomes Moderator at last.
    "kings_dilemma": ({"players": 3, "voting": "sealed"},
                      [{"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"}],
                      [(0, {"A": ["up", "up", "down", "back"], "B": ["down", "down", "down", "long_down"]}, "key"),
                       (1, {"A": ["long_select"], "B": ["select"]}, "press")],
                      (2, {"A": ["up", "up"], "B": ["down", "down"]}),
                      [{"A": ["select"], "B": ["long_select"]}, {"A": ["up", "back"], "B": ["down", "long_down"]},
                       {"A": {"choice": "nay", "count": 4}, "B": {"choice": "gather"}}],
                      (2, ["long_select"])),
    # the reveal of drafted cards after the bids: seat 0 marks its first card, and its third on
    # and off again (A), or its third, fourth and fifth (B), and casts; seat 1 reveals its second
    # (A) or first (B); seat 2 marks its first (A) or third (B) and has not cast. Cast again:
    # seat 1 its third (A) or second (B), then its first (A) or third (B); the host: its second and
    # fourth (A) or none (B). Seat 2 casts at last.
    "the_council": ({"players": 3}, [
        {"type": "draft", "seat": 0, "cards": ["Ace of Moons", "Author", "Journey", "Mountain", "Huntress"]},
        {"type": "draft", "seat": 1, "cards": ["Ace of Suns", "Desert", "Painter", "Sailor", "Bard"]},
        {"type": "draft", "seat": 2, "cards": ["Ace of Waves", "Origin", "Savage", "Battle", "Sea"]},
        {"type": "event", "card": "Mill"},
        {"type": "bid", "seat": 0, "Waves": 1}, {"type": "pass", "seat": 1}, {"type": "bid", "seat": 2, "Waves": 2}],
        [(0, {"A": ["up", "down", "down", "long_down"], "B": ["down", "back", "long_select", "long_down"]}, "key"),
         (1, {"A": ["select", "long_down"], "B": ["up", "long_down"]}, "press")],
        (2, {"A": ["up"], "B": ["down"]}),
        [{"A": ["down", "long_down"], "B": ["select", "long_down"]},
         {"A": ["up", "long_down"], "B": ["down", "long_down"]},
         {"A": {"choice": ["2", "4"]}, "B": {"choice": []}}],
        (2, ["back", "long_down"])),
    # a plain ballot the host opens: seat 0 votes Aye (A) or Abstain (B), seat 1 Nay (A) or Aye
    # (B); cast again: Abstain (A) or Nay (B), then Aye (A) or Abstain (B); the host: Nay (A) or
    # Aye (B). Seat 2 votes Nay.
    "chancellors": ({"players": 3},
                    [{"type": "ballot_open", "question": "Exile the Duke?", "options": ["Aye", "Nay", "Abstain"]}],
                    [(0, {"A": ["up"], "B": ["down"]}, "key"), (1, {"A": ["select"], "B": ["up"]}, "press")],
                    None,
                    [{"A": ["down"], "B": ["select"]}, {"A": ["up"], "B": ["down"]},
                     {"A": {"choice": "Nay"}, "B": {"choice": "Aye"}}],
                    (2, ["select"])),
    # the table's own counted ballot: seat 0 counts 6 on Aye, one past the most (5), and casts Aye
    # (A), or counts 3 on Nay and 3 on Aye and casts Nay 3 (B), seat 1 Pass (A) or Abstain
    # (B), seat 2 counts 1 on Aye (A) or Nay (B); cast again: Abstain (A) or Pass (B), then Aye 1
    # (A) or Nay 1 (B); the host: Aye 5 (A) or Pass (B). Seat 2 casts Nay at last.
    "yes_your_grace": ({"players": 3},
                       [{"type": "ballot_open", "question": "Exile the Duke?",
                         "options": ["Aye", "Abstain", "Nay", "Pass"], "counted": ["Aye", "Nay"], "max": 5}],
                       [(0, {"A": ["up"] * 6 + ["back"], "B": ["down"] * 3 + ["up"] * 3 + ["long_down"]}, "key"),
                        (1, {"A": ["long_select"], "B": ["select"]}, "press")],
                       (2, {"A": ["up"], "B": ["down"]}),
                       [{"A": ["select"], "B": ["long_select"]}, {"A": ["up", "back"], "B": ["down", "long_down"]},
                        {"A": {"choice": "Aye", "count": 5}, "B": {"choice": "Pass"}}],
                       (2, ["long_down"])),
}

_BOX = "ballot.json"  # the private box (firmware/ballot_box.py), and its .tmp while it is written


class Seen:
    """What the runs saw, per step and channel: a count and a running CRC-32 (a board keeps
    no frames; neither does this under MicroPython), and the texts themselves for a caller that
    keeps them (`kept`, a list: the test on CPython, for a readable difference)."""

    def __init__(self, kept=None):
        self.step = None
        self.keys = []  # "step channel", in the order first seen (no reliance on a dict's order)
        self.sums = {}
        self.kept = kept

    def add(self, channel, text):
        key = self.step + " " + channel
        got = self.sums.get(key)
        if got is None:
            got = self.sums[key] = [0, 0]
            self.keys.append(key)
        got[0] += 1
        got[1] = canon.crc32_update(text, got[1])
        if self.kept is not None:
            self.kept.append([self.step, channel, text])

    def lines(self):
        return ["%s %d %08x" % (key, self.sums[key][0], self.sums[key][1] & 0xFFFFFFFF) for key in self.keys]


class Board:
    """The board layer's part, as firmware/board/sim.py and mpboard.py play it: the wire (each
    frame encoded, seq and all), the strip (the public view rendered at each entry, or the frame
    computed ahead), the display (a key's screen; status() when the game moved), and idle()
    after each input (the snapshot, the look ahead)."""

    def __init__(self, folder, layout, game, settings, seen):
        self.folder, self.layout, self.seen = folder, layout, seen
        self.seq = 0
        self.frame = bytearray(render.frame_size(layout))
        self.boot(game, settings)

    def boot(self, game=None, settings=None):
        t = self.table = Table(Journal(self.folder), lambda n: b"\x33" * n, game, settings,
                               "ballot").boot()
        self.controls = Controls(t)  # the pads' keys and the host's link, as the board layer makes them
        self.link = Link(t, self.send, self.controls)
        t.on_entry = self.on_entry
        self.controls.on_ahead = lambda state: bytes(self.render(state))
        self.on_entry()  # the strip at boot
        t.idle()

    # the wire
    def send(self, kind, body):
        seq = self.seq
        self.seq = wire.next_seq(seq)
        try:
            line = wire.encode(seq, kind, body)
        except wire.FrameError as e:
            if kind == wire.STATE:  # link.send_state sends it again without the view
                raise
            line = "dropped %s: %s" % (kind, e.code)
        self.seen.add("frame", line)

    def host(self, kind, body=None, seq=900):
        """A host's frame, answered; then the board shows what changed, and idles."""
        self.link.frame(seq, kind, body or {})
        self.show()
        self.table.idle()

    # the strip and the display
    def render(self, state, phase=0):
        view = engine.game_module(self.table.game).view(state, None, True)
        render.render(view, self.layout, self.frame, self.layout.get("level", 255), phase)
        power.limit(self.frame)
        return self.frame

    def on_entry(self, ready=None):
        """An entry on flash (or an undo, a boot): the strip shows it, computed ahead or now
        (mpboard.py's show)."""
        t = self.table
        if ready is None and not t.changed:
            return
        leds = ready if ready is not None else self.render(t.state)
        t.changed = False
        self.seen.add("strip", binascii.hexlify(leds).decode())

    def screen(self, lines):
        self.seen.add("display", canon.encode(lines))
        if self.link.listening:
            self.send(wire.DISPLAY, {"lines": lines})

    def show(self):
        c = self.controls
        self.on_entry()
        if c.screen_due:
            c.screen_due = False
            self.screen(c.status())

    # the pads
    def key(self, pad, name):
        """A button of a pad pressed (mpboard.py's scan): the screen it shows, then the strip."""
        self.screen(self.controls.pressed(pad, name)[0])
        self.show()
        self.table.idle()

    def press(self, pad, name):
        """The same key as a host's press frame (the simulated board's mirror)."""
        button, hold = _BUTTON[name] if pad != TABLE else ({"select": "push"}.get(name, name), SHORT)
        names = TABLE_BUTTONS if pad == TABLE else PAD_BUTTONS
        self.host(wire.PRESS, {"pad": pad, "key": names.index(button), "hold": hold})

    def keys(self, pad, names, how="key"):
        for name in names:
            (self.key if how == "key" else self.press)(pad, name)

    # what a host and the seats see at a moment
    def moment(self):
        t = self.table
        self.seen.add("status", canon.encode(self.controls.status()))
        self.seen.add("view", canon.encode(engine.game_module(t.game).view(t.state, None)))
        for phase in range(5):  # each seat's turn on an LED that seats share (The Council's ranks)
            self.seen.add("leds", binascii.hexlify(self.render(t.state, phase)).decode())
        for name in sorted(os.listdir(self.folder)):
            if name[:len(_BOX)] != _BOX:  # the private box: on the board's flash, in no frame or export
                with open(self.folder + "/" + name, "rb") as f:
                    self.seen.add("file", name + " " + f.read().decode())
        self.seen.add("digest", canon.digest(t.state))

    def reconnect(self):
        """A host that comes (again): hello, then every entry."""
        self.host(wire.HELLO, {"proto": wire.PROTO})
        self.host(wire.GET, {"i": 0, "j": self.table.count})

    def voted(self):
        """Who has voted, and whether the ballot is still open: the test checks each step's (the
        casts taken, each undo's), here and not by an assert, so that a run that goes astray
        on a hidden choice shows as a difference between the runs."""
        b = self.table.state["ballot"]
        self.seen.add("voted", canon.encode([b["voted"], b["open"]]))

    def secret(self):
        """What the private box holds: this must differ between the runs."""
        step, self.seen.step = self.seen.step, "secret"
        with open(self.folder + "/" + _BOX, "rb") as f:
            self.seen.add("box", f.read().decode())
        self.seen.step = step


def run(folder, tag, layout, game, seen):
    settings, opening, casts, pending, again, last = GAMES[game]
    os.mkdir(folder)
    seen.step = "open"
    board = Board(folder, layout, game, settings, seen)
    board.host(wire.HELLO, {"proto": wire.PROTO})
    for move in opening:
        board.host(wire.ACT, {"move": move, "seat": None})
    assert board.table.state["ballot"]["open"], "no ballot open"

    seen.step = "cast"
    for pad, keys, how in casts:
        board.keys(pad, keys[tag], how)
    if pending is not None:
        board.keys(pending[0], pending[1][tag])
    board.voted()
    b = board.table.state["ballot"]
    undone = casts[-1][0]

    seen.step = "mid"
    board.secret()
    board.host(wire.PING)
    board.host("pull", {"id": None, "i": 0, "j": 0})
    board.reconnect()
    board.host(wire.ACT, {"move": {"type": "ballot_reveal", "choices": [None] * len(b["voters"])}, "seat": None})
    board.key(T, "select")  # the table's controls: how many have voted
    board.keys(casts[0][0], ["up", "select"])  # a seat that has voted presses again
    board.moment()

    seen.step = "undo"
    board.key(T, "back")
    board.key(T, "select")  # push: the last cast taken back
    board.voted()
    board.moment()
    board.keys(undone, again[0][tag])
    board.voted()
    board.secret()
    board.moment()

    seen.step = "undo2"
    board.host(wire.ACT, {"move": {"type": "undo", "entry": board.table.count - 1}, "seat": None})
    board.voted()
    board.reconnect()
    board.moment()
    board.keys(undone, again[1][tag])
    board.voted()
    board.secret()
    board.moment()

    seen.step = "hostcast"
    board.host(wire.ACT, {"move": {"type": "undo", "entry": board.table.count - 1}, "seat": None})
    cast = dict(again[2][tag], type="ballot_cast")
    board.host(wire.ACT, {"move": cast, "seat": undone})
    board.voted()
    board.secret()
    board.moment()

    seen.step = "reboot"
    board.table.journal.close()  # the power goes; the board boots again on the same flash
    board.boot()
    board.reconnect()
    board.moment()
    board.voted()

    seen.step = "after"
    board.keys(last[0], last[1])  # the last voter: the board reveals
    seen.add("revealed", canon.encode(board.table.state["ballot"]["result"]))
    board.moment()
    board.table.journal.close()


def main(argv):
    if hasattr(gc, "threshold"):  # as the board runs (firmware/boot.py's _GC_EVERY)
        gc.threshold(8 * 1024)
    folder, layout_path, game = argv[0], argv[1], argv[2]
    with open(layout_path) as f:
        layout = json.load(f)
    for tag in "AB":
        seen = Seen()
        run(folder + "/" + tag, tag, layout, game, seen)
        for line in seen.lines():
            print(tag + " " + line)
        seen = None
        gc.collect()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
