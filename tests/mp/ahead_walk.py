"""The entry computed ahead (firmware/ahead.py) changes nothing but when the work is done.

    micropython tests/mp/ahead_walk.py FOLDER GAME[:SETTING=VALUE] FIRST_SEED SEEDS KEYS

(kings_dilemma:voting=sealed, say: its votes a sealed ballot on the voters' pads, which the table's
hold closes, then the board reveals: two entries from one press, computed ahead together.)

Two tables of GAME at its most seats, each with its own journal under FOLDER, take the same
KEYS random keys on random pads (one walk per seed, mostly select, so that entries are made), with
idle() after each key as a board runs it. One looks ahead whenever its menu waits on a confirm
screen; the other never does (its idle() sees no menu). After every key both must show the same
screen and report the same entry; at the end they must hold the same state, the same count and
the same journal, line for line, which replays to that state. Over the seeds, the look-ahead
must have been met by a confirm at least once and left by another key at least once. The
board's strip is stood in for by on_ahead and on_entry: the 'frame' given ahead is the digest
of the state it was drawn from, which must be the entry's state once it is folded in.

Prints one line a seed: the game, the entries, the look-aheads taken, the confirms that met them,
those left, the final state's digest; the test compares the interpreters' lines. Exit status 1 on a mismatch.
"""

import os
import sys

from menu_player import MenuPlayer, cursor  # noqa: I001  (tests/helpers/, on the path)
from random_game import Draw, action  # (tests/mp, on the path)

from firmware.controls import Controls
from firmware.journal import Journal
from firmware.pads import TABLE
from firmware.table import Table
from shared_rules import canon, engine
from shared_rules.errors import RuleError

KEYS = ("select", "select", "up", "down", "down", "back", "long_select", "long_down")


class Plain(Controls):
    """A board's keys that never look ahead: the table's "idle" is not theirs to hear."""

    def heard(self, what, data):
        if what != "idle":
            Controls.heard(self, what, data)


def strip(table, keys, counts):
    """The board layer's hooks: a 'frame' is the state's digest (what render would draw from)."""

    def on_ahead(state):
        counts["looked"] += 1
        return canon.digest(state)

    def on_entry(ready=None):
        if ready is None:
            return
        # the frame computed ahead must be the state the entry makes: checked once it is folded in
        counts["due"] = ready
        counts["met"] += 1

    keys.on_ahead, table.on_entry = on_ahead, on_entry


def lines(folder):
    out = []
    for name in sorted(os.listdir(folder)):
        with open(folder + "/" + name, "rb") as f:
            out.append((name, f.read()))
    return out


class Walk:
    """Both tables, each key to both (through its controls), compared; idle() after each, as a board
    runs it."""

    def __init__(self, tables, controls, counts, rnd, trace):
        self.tables, self.controls, self.counts, self.rnd, self.trace = tables, controls, counts, rnd, trace
        self.keys = self.left = 0

    def key(self, pad, name):
        had = self.controls[0].ahead is not None
        got = [c.pressed(pad, name) for c in self.controls]
        if self.trace:
            print(self.keys, pad, name, had, got[0])
        self.keys += 1
        if self.counts["due"] is not None:
            if canon.digest(self.tables[0].state) != self.counts["due"]:
                raise Mismatch("key %d (%s on %s): the frame computed ahead is not the entry's state"
                               % (self.keys, name, pad))
            self.counts["due"] = None
        elif had and self.controls[0].ahead is None:
            self.left += 1
        if got[0] != got[1]:
            raise Mismatch("key %d (%s on %s): %r with the look-ahead, %r without" % (self.keys, name, pad, got[0],
                                                                                        got[1]))
        for t in self.tables:
            t.idle()
        return got[0]


class Mismatch(Exception):
    pass


class Player(MenuPlayer):
    """Enters an action on one pad; on a confirm screen that waits ahead, now and then first
    scrolls it, or presses a key on another pad (which leaves the look-ahead behind)."""

    def __init__(self, walk, pad, pads):
        self.walk, self.pad, self.pads = walk, pad, pads
        MenuPlayer.__init__(self, None)

    def seek(self, text):
        for _ in range(40):  # a menu longer than this is not met in these games
            if cursor(self.screen) == text:
                return
            self.key("down")
        raise AssertionError("not offered")

    def press(self, k):
        w = self.walk
        if k == "select" and w.controls[0].ahead is not None:
            r = w.rnd.below(8)
            if r < 2:
                w.key(self.pad, ("down", "up", "long_down", "long_up")[w.rnd.below(4)])
            elif r == 2:
                w.key(w.rnd.pick([p for p in self.pads if p != self.pad]), "down")
                w.key(self.pad, "up")  # turns the menu back to this pad: only opens it, where it was
            elif r == 3:  # scrolled, then back to the last choice: the entry is given up
                w.key(self.pad, "long_down")
                w.key(self.pad, "back")
                raise AssertionError("given up")
        screen, index = w.key(self.pad, k)
        return screen, index


def enter(w, g, pads, most):
    """A random action the rules take, entered on the menu of a pad that has one; False if none has."""
    t = w.tables[0]
    order = list(pads)
    for i in range(len(order) - 1, 0, -1):
        j = w.rnd.below(i + 1)
        order[i], order[j] = order[j], order[i]
    for pad in order:
        seat = None if pad == TABLE else pad
        offered = [x for x in w.controls[0].legal(t.state, seat) if x["type"] not in ("undo", "new_game", "names", "dice")]
        for _ in range(3 if offered else 0):
            schema = w.rnd.pick(offered)
            move = action(w.rnd, schema, most, list(g.card_names(t.state)))
            for q in schema["params"]:  # a text (a printed effect's reason): the menu offers its own words
                if q["domain"]["kind"] == "text" and q["name"] in move:
                    move[q["name"]] = w.rnd.pick(["house rule", "fix a misentry"])
            try:
                engine.step(t.game, t.state, dict(move, seat=seat) if seat is not None else move)
            except RuleError:
                continue
            _enter(w, pad, pads, schema, move)
            return True
    return False


def _enter(w, pad, pads, schema, move):
    who = Player(w, pad, pads)
    who.key("down")  # the first key opens the pad's menu: read its screen
    for _ in range(8):
        if cursor(who.screen) == schema["type"] or who.screen[0].endswith("action?"):
            break
        who.key("back")
    try:
        who.seek(schema["type"])
        who.enter(schema, move)
    except AssertionError:  # a value the narrowed menu words otherwise, or given up: let it go
        for _ in range(6):
            w.key(pad, "back")


def vote_on_pad(w, g, most):
    """A game's own pad (KD's vote cards) where a seat's keys are its now: 0-3 counts or choices,
    then a hold (each side's vote or addition, a pass, a stay), as a House enters its turn. False if none."""
    t = w.tables[0]
    if g.pad is None or w.rnd.below(3) == 0:
        return False
    for seat in range(most):
        if g.pad(t.state, seat, "select", None) is not None:
            for _ in range(w.rnd.below(4)):
                w.key(seat, w.rnd.pick(["up", "down", "select"]))
            w.key(seat, w.rnd.pick(["back", "long_down", "long_select"]))
            return True
    return False


def main(argv):
    folder, game, first, seeds, keys = argv[0], argv[1], int(argv[2]), int(argv[3]), int(argv[4])
    trace = len(argv) > 5  # every key and its screen, for a walk that failed
    met = left = 0
    for seed in range(first, first + seeds):
        os.mkdir("%s/%d" % (folder, seed))
        try:
            got = walk("%s/%d" % (folder, seed), game, seed, keys, trace)
        except Mismatch as e:
            print("seed %d: %s" % (seed, e))
            return 1
        if got is None:
            return 1
        met += got[0]
        left += got[1]
    if met == 0 or left == 0:
        print("the walks never met a confirm ahead (%d) or never left one (%d)" % (met, left))
        return 1
    return 0


def walk(folder, game, seed, keys, trace):
    settings = {}
    if ":" in game:
        game, setting = game.split(":")
        settings[setting.split("=")[0]] = setting.split("=")[1]
    g = engine.game_module(game)
    most = [s for s in g.SETTINGS if s["name"] == "players"][0]["domain"]["max"]
    pads = list(range(most)) + [TABLE]
    tables, controls = [], []
    counts = {"looked": 0, "met": 0, "due": None}
    for cls, sub in ((Controls, "/ahead"), (Plain, "/plain")):
        os.mkdir(folder + sub)
        t = Table(Journal(folder + sub), lambda n: b"\x05" * n, game, dict(settings, players=most))
        tables.append(t.boot())
        controls.append(cls(t))
    strip(tables[0], controls[0], counts)
    w = Walk(tables, controls, counts, Draw(seed), trace)
    while w.keys < keys and not g.is_over(tables[0].state):
        b = tables[0].state.get("ballot")
        if b is not None and b["open"]:  # every voter's pad and the table's are the ballot's: its keys
            w.key(w.rnd.pick(pads), w.rnd.pick(KEYS))
            continue
        if vote_on_pad(w, g, most):
            continue
        if w.rnd.below(4) == 0 or not enter(w, g, pads, most):
            pad = w.rnd.pick(pads)
            for _ in range(4):  # random keys on one pad: ballots, vote cards (a count, then its hold), pages
                w.key(pad, w.rnd.pick(KEYS))
    a, b = tables
    if (a.count, canon.digest(a.state), a.journal.last) != (b.count, canon.digest(b.state), b.journal.last):
        print("seed %d: the tables ended apart: %d and %d entries" % (seed, a.count, b.count))
        return None
    if lines(folder + "/ahead") != lines(folder + "/plain"):
        print("seed %d: the journals differ" % seed)
        return None
    resumed = Table(Journal(folder + "/ahead"), lambda n: b"\x05" * n, game).boot()
    if canon.digest(resumed.state) != canon.digest(a.state) or resumed.count != a.count:
        print("seed %d: the journal written ahead does not replay to the state" % seed)
        return None
    print("%s seed %d keys %d entries %d ahead %d met %d left %d %s" % (
        game, seed, w.keys, a.count, counts["looked"], counts["met"], w.left, canon.digest(a.state)))
    return counts["met"], w.left


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
