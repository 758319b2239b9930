"""What waits for a quiet moment on a board with buttons: the display's redraw and the table's
upkeep (Table.upkeep: the entries computed ahead, the snapshot, the journal's tidy, the spare
copy, a collection), taken one piece at a time, each after a scan (mpboard.py's quiet: none
while an edge an IRQ noted waits for its scan). A screen is drawn a page of the display at a
piece (a whole one took 30 ms on I2C), and told to the host once it is all shown.

The collection is the longest piece (12.6 ms on the emulated Pico's clock with The King's
Dilemma's 74 KB in use, 20.5 ms with 130 KB), and a press that came during it waited for all of
it: it waits for QUIET_MS without an input, so that the keys of a menu, pressed one after the
other, do not meet it. The firmware's allocation threshold (boot.py) still collects in between.

An input is so served after one piece at most, never after the whole upkeep. A button held does
not stop the pieces up to the look-ahead: its press is when the entry its release makes is
computed ahead. The parts after the upkeep's "still" (the journal's flash work, whose littlefs
block allocations take some 50 ms on the chip) wait until no button is down. An upkeep
under way when an input comes goes on (each part reads the table as it is when it runs), and
another follows it: the host's frames (a ping, a GET) come often, and one that restarted the
upkeep each time kept it from ever reaching its look-ahead. But one that waits past its
look-ahead for the buttons to be still gives way to the next at once: the press whose down
made it due is held, and its entry is that look-ahead's (its parts after "still" are the next's).
"""


import gc

from shared_rules.compat import const

QUIET_MS = const(150)  # no input for this long before the upkeep's collection
# no piece starts this close to a hold's long instant (piece()'s `near`): the longest (a
# collection, a look-ahead) would delay its scan, and so its entry
GUARD_MS = const(25)
_BURST = const(48 * 1024)  # bytes a press may allocate before a collection (scan_begins)


class Later:
    def __init__(self, draw):
        """draw(lines): the board's: one step of showing the lines, True while more waits (a page
        of its display at a time); the last step tells a listening host."""
        self.draw = draw
        self.screen = None  # the lines to draw next (a key's screen, status()), or None
        self.parts = None  # the table's upkeep under way (a generator), or None
        self.due = False  # an input was answered since: another upkeep after the one under way
        self.wake = None  # the board's scan loop's flag, set when something is due
        self.clock = None  # the board's ticks clock (with wake); None: the upkeep collects at once
        self.collect_at = None  # the ticks_ms from which the upkeep's collection is due, or None
        self.every = -1  # the board's allocation threshold (boot.py's), while a scan raises it
        self.still = False  # the upkeep's parts from here on wait for no button down (piece())

    def busy(self):
        """Something waits still: the host's link reads no frame until it is done (sim.py), so a
        host's ping is answered once the board is idle, as before it took the upkeep in pieces."""
        return self.parts is not None or self.due or self.screen is not None or self.collect_at is not None

    def scan_begins(self):
        """Before a scan's work: no automatic collection in the middle of a press, the threshold
        raised from a button's down until no button settles. True when no button was settling
        before this scan (one may be going down in it)."""
        every = gc.threshold() if hasattr(gc, "threshold") else -1
        began = every != _BURST  # else raised since a button went down: self.every is the board's
        if began:
            self.every = every
        if every > 0:
            gc.threshold(_BURST)
        return began

    def scan_ends(self, began, busy):
        """After a scan's work: the board's threshold back once no button settles; where a button
        went down in it, a collection now, so that the input it completes (a tap's release, a
        hold's long instant) finds a collected heap and the whole raised threshold, whatever the
        quiet moments' pieces allocate while it is down."""
        if self.every > 0:
            if not busy:
                gc.threshold(self.every)
            elif began:
                gc.collect()

    def show(self, lines):
        """The screen changed: `lines` are drawn in the next quiet moment (a later screen before
        it is drawn takes its place)."""
        self.screen = lines

    def settle(self):
        """An input was answered and shown: the table's upkeep is due (again)."""
        self.due = True
        if self.wake is not None:
            self.wake.set()

    def piece(self, table, held=False, near=False):
        """One piece (the display, else one of the upkeep's parts); True when more waits. `held`:
        a button is down or settling (the parts after the upkeep's "still" wait); `near`: a hold
        becomes long within GUARD_MS (none now: the scan that completes it comes first). Whatever
        fails in a piece is said on the serial, and that upkeep goes."""
        if near:
            return False
        try:
            if self.screen is not None:
                lines, self.screen = self.screen, None  # its strings go once drawn (the display keeps bytes)
                if self.draw(lines) and self.screen is None:
                    self.screen = lines  # more of it to draw (a page at a time), and no other screen came
                return True
            if self.parts is not None and held and self.still:
                if not self.due:
                    return False  # the rest when the buttons are still (the input wakes the loop)
                # a press begun (or an input answered) while this upkeep waits past its look-ahead:
                # the next one's look-ahead now, for the press held; the parts left are its too
                self.parts, self.still = None, False
            if self.parts is None and self.due:
                self.parts, self.due = table.upkeep(self.clock is None), False
            if self.parts is not None:
                if next(self.parts) == "still":
                    self.still = True
                return True
            clock = self.clock
            if self.collect_at is not None and clock.ticks_diff(clock.ticks_ms(), self.collect_at) >= 0:
                self.collect_at = None
                gc.collect()  # the inputs' garbage, once quiet: not in the next press
        except StopIteration:
            self.parts, self.still = None, False
            if self.clock is not None:
                self.collect_at = self.clock.ticks_add(self.clock.ticks_ms(), QUIET_MS)
        except Exception as e:
            self.parts, self.still = None, False
            print("chancery: upkeep:", type(e).__name__, e)
        return False
