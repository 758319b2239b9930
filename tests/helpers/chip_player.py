"""Playing the deployed board on the virtual Pico as a table does: GPIO presses and encoder
turns in, the decoded strip and display out, the host's link (a mirror with a logbook) beside it.

ChipTable drives one VirtualPico and checks, after every entry the board makes:
- the decoded LED frame equals render() of the mirror's public view through the current limiter
  (tests/chip_checks.expected_frame);
- the display: every picture a key brings is read back as text and must be the screen the same
  firmware (firmware/table.py and its menus) shows on CPython for the same key, in a shadow
  table fed the same keys and link actions (its dice are the board's own roll, the one thing
  it cannot know), so a lost, doubled or misread press, a stale display or a chip-only
  difference fails; after an entry made over the link, one key on the table shows its prompt;
- the logbook (the host's, as the link stores what it receives) equals the board's journal as
  the board reads it back (a GET over the link), entry by entry.

ChipPlayer is tests/helpers/menu_player.py's MenuPlayer on these inputs: it reads only the screens,
and takes the shorter way round a list (as a player who knows the deck's order does).
"""

import os
import shutil
import sys
import time

from chip_checks import (
    as_menu_screen,
    board_journal,
    drawn,
    entry_of,
    expected_frame,
    flash_journal,
    layout_of,
    logbook_entries,
    pin_map,
    read_screen,
)
from menu_player import MenuPlayer, cursor

from chancery.board.link import Link
from chancery.logbook.store import Logbook
from firmware import pads
from firmware.controls import Controls
from firmware.journal import Journal
from firmware.link import Link as BoardLink
from firmware.table import Table
from shared_rules import canon, engine, wire

SHORT_MS = 50  # a tap: past firmware/buttons.py's 20 ms lockout (or debounce), well short of a long press
LONG_MS = 650  # a hold: past its long_ms (600)
QUIET_NS = 30_000_000  # after a release, its bounce and firmware/buttons.py's 20 ms lockout
STEP_MS = 12  # an encoder's contact change every 12 ms: a detent in 48 ms, a brisk turn
PAD_COUNT = 3  # at most this many presses counted on a pad for a ballot's count (act)
WAIT = 90.0  # wall seconds for the board to answer anything (a loaded machine is slow)

# menu key -> (button name, hold) on a seat's pad, or on the table (an int: encoder detents)
SEAT_INPUTS = {"up": ("up", SHORT_MS), "select": ("select", SHORT_MS), "down": ("down", SHORT_MS),
               "back": ("up", LONG_MS), "long_select": ("select", LONG_MS), "long_down": ("down", LONG_MS)}
TABLE_INPUTS = {"up": -1, "down": 1, "select": ("push", SHORT_MS), "long_select": ("push", LONG_MS),
                "back": ("back", SHORT_MS), "long_down": ("right", LONG_MS)}
TABLE_BUTTONS = dict(TABLE_INPUTS, up=("left", SHORT_MS), down=("right", SHORT_MS))  # the buttons beside it


class Shadow(Table):
    """The board's table on CPython, fed the same keys and actions: what the board must show.
    Its journal is a folder of its own; its board rolls take the board's faces (board_roll(i):
    the action of the board's entry i)."""

    def __init__(self, folder, welcome, board_roll):
        self.sent = []  # the frames it answers the link with
        Table.__init__(self, Journal(folder), lambda n: bytes(n), welcome["game"], welcome["settings"], "shadow")
        self.keys = Controls(self)  # the board's own keys and link, as firmware/boot.py composes them
        self.link = BoardLink(self, lambda kind, body: self.sent.append((kind, body)), self.keys)
        m = engine.new_match(welcome["game"], welcome["settings"], welcome["seed"])
        self.header = {"format": m["format"], "game": m["game"], "settings": m["settings"], "seed": m["seed"],
                       "start": m["start"]}
        self.journal.start(self.header)
        self.game, self.state, self.count = m["game"], m["state"], 0
        self._board_roll_of = board_roll

    def catch_up(self, entries, state):
        """The board's game so far (a resumed board): its entries into the journal, its state."""
        for i in range(len(entries)):
            e = entries[i]
            self.journal.write(i, canon.encode(e["action"]), canon.encode(e["events"]), e["digest"])
        self.state, self.count = canon.copy(state), len(entries)

    def _board_roll(self, g, move):
        if g.dice_wanted(self.state) == 0:
            return move, self._rng
        made = self._board_roll_of(self.count)
        assert made["type"] == "roll", "the board made %r where the shadow rolls" % made
        return dict(move, values=made["values"], source="board"), self._rng


class ChipTable:
    """A deployed board on the virtual Pico `vp`, with the host's link and logbook (in `folder`)."""

    def __init__(self, vp, folder):
        self.vp = vp
        self.folder = folder
        self.cfg = pin_map()
        self.logbook = Logbook(os.path.join(folder, "logbook.sqlite3"))
        self.said = []  # the screens the board sent the host (display frames), in order
        self.link = Link(vp.port, logbook=self.logbook, on_event=self._heard)
        self.link.open()
        self.link.hello(wait=WAIT)
        self.sync()
        self.shadow = None
        self.games = 0
        self.keys = 0
        self.checked = 0  # entries checked
        self.cast_on_pads = False  # a sealed ballot's casts on the voters' pads (act)
        self.rolls = None  # a Draw: board rolls sent as thrown dice (act), so a game repeats
        self._follow()

    def close(self):
        self.link.close()
        self.logbook.close()

    # --- the link ----------------------------------------------------------------------

    def sync(self):
        """Wait until the board is back in its loops: a ping is answered once the scan that
        took the last key (its redraw, snapshot and collection) is over, so a press made now
        is scanned (a press shorter than a busy spell is lost, as on any polled board)."""
        kind, _ = self.link.request(wire.PING, {}, WAIT)
        assert kind == wire.PONG

    def _follow(self):
        """A new shadow for the game the board plays now (after a hello or a new game)."""
        self.games += 1
        folder = os.path.join(self.folder, "shadow%d" % self.games)
        os.makedirs(folder)
        self.shadow = Shadow(folder, self.link.mirror.welcome, self._board_entry)
        if self.link.mirror.match["entries"]:
            self.shadow.catch_up(self.link.mirror.match["entries"], self.link.mirror.match["state"])

    def _board_entry(self, i):
        """The action of the board's entry i, once the link has it."""
        deadline = time.monotonic() + WAIT
        while len(self.link.mirror.match["entries"]) <= i:
            assert time.monotonic() < deadline, "the board's entry %d did not come over the link" % i
            self.link.poll(0.05)
        return self.link.mirror.match["entries"][i]["action"]

    @property
    def mirror(self):  # the link's, so that tests/helpers/sim_play.py plays this table as it plays a link
        return self.link.mirror

    @property
    def state(self):
        return self.link.mirror.match["state"]

    @property
    def game(self):
        return self.link.mirror.match["game"]

    def new_game(self, game, settings):
        """A new game, sent by the host as the mirror does (`:new GAME`)."""
        t0 = self.vp.now_ns()
        kind, body = self.link.act({"type": "new_game", "game": game, "settings": settings}, wait=WAIT)
        assert kind == wire.OK, body
        assert self.link.mirror.match["game"] == game and not self.link.mirror.match["entries"]
        self.sync()
        self._follow()
        self.check_frame(t0, self.vp.now_ns())

    # --- inputs ------------------------------------------------------------------------

    def _input(self, pad, k, buttons):
        """The GPIO input for menu key k on pad `pad`: a tap or a hold of its button (with
        contact bounce), or a detent of the table's encoder (its left and right buttons
        instead with `buttons`)."""
        how = (SEAT_INPUTS if pad != pads.TABLE else TABLE_BUTTONS if buttons else TABLE_INPUTS)[k]
        if isinstance(how, int):
            return self.vp.turn(how, step_ms=STEP_MS)
        return self.vp.press_button(pads.index_of(pad, how[0]), hold_ms=how[1])[1]

    def _heard(self, kind, body):
        if kind == wire.DISPLAY:
            self.said.append(body["lines"])

    def key(self, pad, k, buttons=False):
        """Menu key k on pad `pad` (a seat, or pads.TABLE) by its GPIO: (the screen read on
        the display, the entry's index if the key made one). Checks the display against the
        shadow's screen, and every entry the key made.

        The board tells the host the screen of every key it takes (a display frame), once the
        strip and the display show what the key did (firmware/board/mpboard.py's scan): when
        that frame came, so had every picture and frame before it."""
        before = self.shadow.count
        heard = len(self.said)
        t0 = self.vp.now_ns()
        over = self._input(pad, k, buttons)
        deadline = time.monotonic() + WAIT
        while len(self.said) == heard:
            assert time.monotonic() < deadline, "the board did not take key %s on pad %s" % (k, pad)
            self.link.poll(0.02)
        # a hold's screen comes at its long press, before its release: the next key must not begin
        # before this one is over (the board would feel one longer hold, and take no key)
        while self.vp.now_ns() < over + QUIET_NS:
            time.sleep(0.01)
        assert len(self.said) == heard + 1, "one key, %d screens: %r" % (len(self.said) - heard, self.said[heard:])
        self.vp.now_ns()  # the chip's events come in order: every picture and frame until now is in
        lines = read_screen(self.vp.display)
        self.keys += 1
        try:
            screen, index = self.shadow.keys.pressed(pad, k)
        except Exception as e:  # as the board's scan loop answers a failing menu (mpboard.py)
            screen, index = ["Error:", type(e).__name__[:16]], None
        assert lines == drawn(screen), "pad %s key %s: the display shows\n%s\nwhere the firmware shows\n%s\n" \
            "(the board told the host %r; pictures at %s ns since the key's input at %d)" % (
                pad, k, "\n".join(lines or ["(nothing)"]), "\n".join(drawn(screen)), self.said[-1],
                [p.t_ns for p in self.vp.pictures if p.t_ns >= t0], t0)
        assert self.said[-1] == screen, "the board told the host %r, its display shows %r" % (self.said[-1], lines)
        if self.shadow.count > before:
            self.check_entries(before, t0)
        return as_menu_screen(lines), index

    def act(self, move, seat=None):
        """An action sent over the link, as the host's mirror sends it: (kind, body) of the
        board's answer, which must be the shadow's (a refusal with the same code, changing
        nothing). With cast_on_pads, a ballot's cast goes on the voter's pad instead; with
        rolls (a tests/mp/random_game.py Draw), a board roll is sent as thrown dice."""
        b = self.shadow.state.get("ballot")
        if self.cast_on_pads and move.get("type") == "ballot_cast" and b is not None and b["open"]:
            count = move.get("count")
            if count is not None:
                count = 1 + (count - 1) % PAD_COUNT  # a House counts a few presses, not 99
            keys = ballot_keys(b, move["choice"], count)
            if keys is not None and seat in b["voters"] and seat not in b["voted"]:
                return self.cast_on_pad(seat, keys)
        g = engine.game_module(self.game)
        if self.rolls is not None and move.get("type") == "roll" and "values" not in move:
            n = g.dice_wanted(self.shadow.state)
            if n:
                move = dict(move, values=[1 + self.rolls.below(6) for _ in range(n)], source="manual")
        before = self.shadow.count
        t0 = self.vp.now_ns()
        kind, body = self.link.act(move, seat, wait=WAIT)
        self.shadow.sent = []
        self.shadow.link.frame(0, wire.ACT, {"seat": seat, "move": canon.copy(move)})
        answer = self.shadow.sent[-1]
        assert kind == answer[0] and body.get("code") == answer[1].get("code"), \
            "the board answered %r to %r, the firmware on CPython %r" % ((kind, body), move, answer)
        if kind == wire.ERROR:
            assert self.shadow.count == len(self.link.mirror.match["entries"]) == before
            return kind, body
        self.check_entries(before, t0)
        self.probe()
        return kind, body

    def cast_on_pad(self, seat, keys):
        """A sealed ballot's cast on the voter's pad (firmware/ballot_box.py's keys)."""
        before = self.shadow.count
        for k in keys:
            self.key(seat, k)
        assert self.shadow.count > before, "seat %d's keys %r cast nothing" % (seat, keys)
        return wire.OK, {"i": before}

    def probe(self):
        """One key on the table, checked against the shadow's screen: its action list (the
        right button; the encoder's steps are lost where a layout's phase redraw takes
        longer than a step: see test_an_encoder_turned_briskly_moves_every_detent), or while
        a ballot is open its count of votes (back would ask to take the last entry back)."""
        self.key(pads.TABLE, "down", buttons=True)

    # --- checks ------------------------------------------------------------------------

    def check_entries(self, before, t0):
        """The entries made since `before` by an input at board time t0. A ping first: then
        the board has shown them and is idle again (the journal's upkeep done), so the next
        press is not made while it is busy (a press, or an encoder's step, shorter than a
        busy spell is lost: firmware/buttons.py reads levels when the scan runs). The
        board's journal is read from its flash (a GET at each game's end reads it too)."""
        mirror = self.link.mirror.match
        deadline = time.monotonic() + WAIT
        while len(mirror["entries"]) < self.shadow.count:
            assert time.monotonic() < deadline, "the link has %d entries, the firmware made %d" % (
                len(mirror["entries"]), self.shadow.count)
            self.link.poll(0.05)
        n = len(mirror["entries"])
        assert n == self.shadow.count and canon.digest(mirror["state"]) == canon.digest(self.shadow.state), \
            "the board's game is not the firmware's on CPython after entry %d" % (n - 1)
        self.sync()
        self.check_frame(t0, self.vp.now_ns())
        journal = self.flash_journal()
        logged = logbook_entries(self.logbook, self.link.game_id)
        assert logged == journal, "the logbook's entries differ from the board's journal after entry %d" % (n - 1)
        shadow = [entry_of(before + k, e["action"], e["events"], e["digest"])
                  for k, e in enumerate(self.shadow.journal.entries(before))]
        assert shadow == journal[before:], "the board journalled other entries than the firmware on CPython"
        self.checked += n - before

    def flash_journal(self):
        """The board's journal as its flash holds it now (entry_of tuples)."""
        into = os.path.join(self.folder, "flash-journal")
        shutil.rmtree(into, ignore_errors=True)
        return flash_journal(self.vp.save_flash(), into)

    def check_journal_over_the_link(self):
        """The whole journal as the board reads it back (a GET) is the logbook's."""
        n = len(self.link.mirror.match["entries"])
        assert board_journal(self.link, 0, n) == logbook_entries(self.logbook, self.link.game_id)
        self.sync()

    def check_frame(self, t0, t1):
        """The strip's last frame from t0 to t1 is the mirror's public view, rendered and
        limited, in the strip's byte order (any phase, where the layout's LEDs take turns)."""
        frames = [f for f in self.vp.frames if t0 <= f.first_ns and f.last_ns <= t1]
        assert frames, "no frame on the strip between %d and %d ns" % (t0, t1)
        view = engine.game_module(self.game).view(self.state, None)
        phases = range(60) if layout_of(self.game).get("cycle_ms") else (0,)  # 60: every seat count's turn
        want = {expected_frame(self.game, view, self.cfg, p) for p in phases}
        assert frames[-1].data in want, "the strip's frame is not the public view (entry %d)" % (
            len(self.link.mirror.match["entries"]) - 1)


SHORT_KEYS = ("up", "select", "down")
LONG_KEYS = ("back", "long_select", "long_down")  # the same buttons held (a seat's pad: back is up held)


def ballot_keys(b, choice, count):
    """The keys a voter presses on its pad to cast `choice` (with `count` where the option is
    counted) in ballot b, as firmware/ballot_box.py reads them: with "multi", each option of the
    list marked by its key (the first five), then down held to cast the marks. None where the
    pad cannot."""
    if b.get("multi"):
        if not isinstance(choice, list) or [c for c in choice if c not in b["options"][:5]]:
            return None
        return [(SHORT_KEYS + LONG_KEYS)[b["options"].index(c)] for c in choice] + ["long_down"]
    if choice not in b["options"]:
        return None
    i = b["options"].index(choice)
    counted = b.get("counted")
    if not counted:
        return [(SHORT_KEYS + LONG_KEYS)[i]] if i < 6 else None
    if i < 3:
        if choice not in counted:
            return [SHORT_KEYS[i]]
        return [SHORT_KEYS[i]] * (count if count > 1 else 0) + [LONG_KEYS[i]]  # taps count, the hold casts
    free = [k for k in range(3) if b["options"][k] not in counted]  # held, an option with no count: the fourth
    return [LONG_KEYS[free[0]]] if i == 3 and free else None


def menu_items(m):
    """The items of the menu's list now, as their lines read (cursor and mark left off). The
    words are the menu's own module's: a game switch lets firmware.menu go (firmware/table.py),
    and a module imported again has other sentinels (its "(default)" is told apart by identity)."""
    menu = sys.modules[type(m).__module__]
    d = None if m.stage == menu._TYPE else m._leaf()
    omit = None if m.stage == menu._TYPE else m._param().get("omit")  # "(board rolls)" for "(default)"
    return [menu._words(d, m._item(i), omit)[:14] for i in range(m._count())]


class ChipPlayer(MenuPlayer):
    """Enters actions on the chip's menus by GPIO, reading only the decoded display."""

    def __init__(self, table, pad):
        self.table = table
        self.pad = pad
        MenuPlayer.__init__(self, None)

    def press(self, k):
        return self.table.key(self.pad, k)

    def enter(self, schema, target):
        self.key("down")  # the first press opens the pad's menu: read its screen
        self.seek(target["type"])
        return MenuPlayer.enter(self, schema, target)

    def seek(self, text):
        """Down to the item, or up where that is the shorter way round."""
        m = self.table.shadow.keys.menu
        items = menu_items(m)
        step = "down"
        if text in items:
            n, to = len(items), items.index(text)
            step = "down" if (to - m.cur) % n <= (m.cur - to) % n else "up"
        for _ in range(300):
            if cursor(self.screen) == text:
                return
            assert self.key(step) is None
        raise AssertionError("%r is not offered: %s" % (text, self.screen))
