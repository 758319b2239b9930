"""Buttons: debounce, short and long presses, the rotary encoder (the layout: firmware/pads.py).

The board's scan loop reads its pins every few milliseconds and passes the
levels (1 = pressed; the board layer inverts active-low pins) to
Buttons.update, which returns the presses that completed:

    (index, "short")   on release, after a hold shorter than long_ms
    (index, "long")    as soon as the hold reaches long_ms (not on release,
                       so the player feels the menu react while holding);
                       the release that follows gives nothing

Debounce reacts on the first edge: a level change counts the moment a scan
first sees it, and every change after it is ignored for lockout_ms (the
contact's bounce). A press is felt at once and a tap's release is its short
press, with nothing waited for; a level that differs from the one counted
when the lockout ends (a tap shorter than it) counts then. The hold is timed
from the first edge of the press. All times go through the clock's
ticks_diff, so a counter wrapping in the middle of a press (2**30 on a Pico)
changes nothing. settling() tells a scan loop that sleeps until a pin
changes (mpboard.py) when it must still look on its own, and how soon: while a
button is held (a long press comes with time, not with an edge: the loop's
sleep ends when it is due) or a lockout runs (it ends when the lockout does).

A scan can come late (the board busy writing flash, or running a resume's
upkeep): a pin's IRQ dates a press with note_press, and the hold is timed
from that date. Its note_release dates each release, so that further presses
before that scan (two taps of a count while the board is busy) are each
counted, past their bounce, and none is lost: update() gives each earlier one
as a short press.

The host's virtual presses (Buttons.press) and the encoder's detents join
the same queue, so the menus cannot tell them from real buttons.

update() allocates nothing while nothing happens (the scan loop's steady
state): its state lives in bytearrays and lists made once, and the returned
list is reused (read it before the next update or press). Only a press
allocates, its (index, kind) tuple.
"""

from firmware.pads import LONG, SHORT


class Buttons:
    def __init__(self, count, clock, lockout_ms=20, long_ms=600, queue=16):
        self.count = count
        self.clock = clock
        self.lockout_ms = lockout_ms
        self.long_ms = long_ms
        self.cap = queue
        self.dropped = 0  # presses lost because nobody read the queue
        self._raw = bytearray(count)  # the level last read
        self._level = bytearray(count)  # the level counted (debounced)
        self._held = bytearray(count)  # 1: this hold already gave its long press
        self._locked = bytearray(count)  # 1: a lockout may still run since this button's last edge
        self._edge = [0] * count  # tick of the last counted edge (the lockout's start)
        self._down = [0] * count  # tick the current hold began
        self._noted = [0] * count  # tick a pin's IRQ saw button i go down (note_press)
        self._dated = 0  # bit i: _noted[i] dates the press the next update counts
        self._up = [0] * count  # tick a pin's IRQ saw button i go up (note_release)
        self._released = 0  # bit i: _up[i] dates a release after the press _noted[i] dates
        self._taps = bytearray(count)  # whole taps the IRQs noted before the press _noted dates
        self._live = 0  # bit i: button i was held or locked at the last update (update() looks at it)
        self.busy = False  # a button held or locked at the last update: the scan loop must look on its own
        self.went = 0  # bit i: button i went down at the last update (a press begun: its edge counted)
        self._queue = []
        self._sent = 0  # how many queued events the last update returned

    def update(self, levels=None, over=0):
        """Feed the levels now (an int bitmask, bit i = button i, or a sequence
        of 0/1); None only advances time (long presses, lockouts ending) and
        delivers virtual presses. `over`: bits of presses an IRQ noted that are
        up again by this scan (a tap in busy time): counted down now, never long
        however late. Returns the list of new (index, kind) events."""
        q = self._queue
        if self._sent:
            del q[:self._sent]
            self._sent = 0
        clock = self.clock
        now = clock.ticks_ms()
        raw = self._raw
        level = self._level
        locked = self._locked
        edge = self._edge
        lockout = self.lockout_ms
        mask = isinstance(levels, int)
        busy, went = False, 0
        taps = self._taps
        # the buttons to look at: those down now or noted by an IRQ, and those held or locked at the
        # last update; every other is up, unlocked and stays so (most of a scan's buttons)
        todo = (levels if mask else 0) | self._live | self._dated if mask or levels is None else -1
        live = 0
        for i in range(self.count):
            if not (todo >> i) & 1:
                continue
            while taps[i]:  # taps an IRQ noted before the press it dates: each a short press
                taps[i] -= 1
                self._put(i, SHORT)
            if levels is None:
                v = raw[i]
            elif mask:
                v = (levels >> i) & 1
            else:
                v = 1 if levels[i] else 0
            raw[i] = v
            if locked[i]:
                if clock.ticks_diff(now, edge[i]) < lockout:
                    busy = True
                    live |= 1 << i
                    if level[i]:
                        self._long(i, now)
                    continue  # the bounce after an edge: ignored
                locked[i] = 0
            if v != level[i]:  # the first edge: it counts now
                level[i] = v
                edge[i] = now
                locked[i] = 1
                busy = True
                if v:
                    went |= 1 << i
                    self._held[i] = 0
                    # held from the pin's edge, not the scan; up again by this scan is a tap in busy
                    # time, but not within the lockout after its edge: that is the contact's bounce
                    if (self._dated >> i) & 1 and (not (over >> i) & 1
                                                   or clock.ticks_diff(now, self._noted[i]) < lockout):
                        self._down[i] = self._noted[i]
                        self._long(i, now)
                    else:
                        self._down[i] = now
                elif not self._held[i]:
                    self._put(i, SHORT)
            elif v:
                busy = True
                self._long(i, now)
            if locked[i] or level[i]:
                live |= 1 << i
        self._live = live
        self.busy, self.went = busy, went
        self._dated = self._released = 0  # a date noted for a press no scan counted is stale by the next
        self._sent = len(q)
        return q

    def _long(self, i, now):
        if not self._held[i] and self.clock.ticks_diff(now, self._down[i]) >= self.long_ms:
            self._held[i] = 1
            self._put(i, LONG)

    def note_press(self, i, at=None):
        """A pin's IRQ saw button i go down now (or at tick `at`: a queue's event, such as
        CircuitPython's keypad, read later). True when that press would count (the
        button is up and no lockout runs: an IRQ must not note a release's bounce); the
        press is then dated, so that a scan kept away by busy time (a flash write, a
        resume's upkeep) still times its hold from the edge: a 700 ms hold first seen
        300 ms late is a long press, not a tap. A press after one noted that no scan has
        counted yet (its release noted by note_release, both past their bounce) makes that
        one a whole tap, given by the next update before this one. Allocates nothing (a
        hard IRQ)."""
        if self._level[i]:
            return False
        clock, lockout = self.clock, self.lockout_ms
        now = clock.ticks_ms() if at is None else at
        if self._locked[i] and clock.ticks_diff(now, self._edge[i]) < lockout:
            return False
        bit = 1 << i
        if self._dated & bit:  # a press noted, and no scan since
            if not self._released & bit:
                return False  # no release noted since it: a glitch of the same press
            if clock.ticks_diff(now, self._noted[i]) < lockout or clock.ticks_diff(now, self._up[i]) < lockout:
                return False  # its bounce, or its release's
            if self._taps[i] < 255:
                self._taps[i] += 1
        self._noted[i] = now
        self._dated |= bit
        self._released &= ~bit
        return True

    def note_release(self, i, at=None):
        """A pin's IRQ saw button i go up now (or at tick `at`): while a press it noted waits
        for a scan, the release's date, which the next noted press must be past (note_press)."""
        bit = 1 << i
        if self._dated & bit:
            self._up[i] = self.clock.ticks_ms() if at is None else at
            self._released |= bit

    def settling(self, most=5):
        """0 while the last update saw no button held and no lockout running: a scan loop that
        sleeps until a pin changes (mpboard.py) is woken by its edge. Else the ms that loop may
        sleep before it must look on its own: `most`, or less when a lockout ends sooner (a level
        to count then) or a held button becomes a long press sooner (a King's Dilemma vote's
        end), so that each comes when due and the loop wakes for nothing in between."""
        if not self.busy:
            return 0
        clock, level, held, down = self.clock, self._level, self._held, self._down
        locked, edge, lockout = self._locked, self._edge, self.lockout_ms
        now = clock.ticks_ms()
        for i in range(self.count):
            left = most
            if locked[i] and clock.ticks_diff(now, edge[i]) < lockout:
                left = lockout - clock.ticks_diff(now, edge[i])
            elif level[i] and not held[i]:
                left = self.long_ms - clock.ticks_diff(now, down[i])
            if left < most:
                most = left if left > 1 else 1
        return most

    def long_in(self, most):
        """The ms until the soonest held button becomes a long press (0 if one is due now), or
        `most` when that is later or no button is held."""
        clock, level, held, down = self.clock, self._level, self._held, self._down
        now = clock.ticks_ms()
        for i in range(self.count):
            if level[i] and not held[i]:
                left = self.long_ms - clock.ticks_diff(now, down[i])
                if left < most:
                    most = left if left > 0 else 0
        return most

    def press(self, index, kind=SHORT):
        """A virtual press (from the host or the simulator), delivered by the next update."""
        if index < 0 or index >= self.count:
            raise IndexError(index)
        if kind != SHORT and kind != LONG:
            raise ValueError(kind)
        self._put(index, kind)

    def turn(self, detents, ccw, cw):
        """Queue an encoder's detents as short presses of buttons ccw (< 0) or cw (> 0)."""
        while detents > 0:
            self._put(cw, SHORT)
            detents -= 1
        while detents < 0:
            self._put(ccw, SHORT)
            detents += 1

    def levels(self):
        """The debounced levels as a bitmask (for the host's mirror)."""
        out = 0
        for i in range(self.count):
            if self._level[i]:
                out |= 1 << i
        return out

    def _put(self, index, kind):
        if len(self._queue) - self._sent >= self.cap:
            self.dropped += 1
        else:
            self._queue.append((index, kind))  # a press is rare: its tuple is made when it happens


# Quadrature: the state is (A << 1) | B. Turning clockwise runs A ahead of B:
# 00 -> 10 -> 11 -> 01 -> 00. _STEP[old * 4 + new] is the step plus one (0:
# back, 1: none, 2: forward); a change of both bits at once is a missed step.
_STEP = b"\x01\x00\x02\x01\x02\x01\x01\x00\x00\x01\x01\x02\x01\x02\x00\x01"


class Encoder:
    """Counts a rotary encoder's detents from its A/B levels; pure, no pins.

    steps_per_detent is 4 for most encoders (a full quadrature cycle per
    click), 2 or 1 for others. A detent is counted when the encoder comes
    back to a rest state having moved at least half a detent one way, so
    contact bounce (forth and back between two states) adds nothing and a
    missed step (both bits changing at once) loses nothing. Build it at rest: the levels it is given
    first are taken as the rest state.
    """

    def __init__(self, a=0, b=0, steps_per_detent=4):
        self.state = (a << 1) | b
        self.rest = self.state
        self.per = steps_per_detent
        self.steps = 0  # sub-detent steps since the last rest
        self.position = 0  # detents, clockwise positive
        self.errors = 0  # transitions where both bits changed

    def _at_rest(self, s):
        if self.per == 4:
            return s == self.rest
        if self.per == 2:
            return s == self.rest or s == self.rest ^ 3
        return True

    def update(self, a, b):
        """Feed the levels now; returns the detents completed (-1, 0 or 1)."""
        s = (a << 1) | b
        old = self.state
        if s == old:
            return 0
        self.state = s
        step = _STEP[old * 4 + s] - 1
        if step == 0:
            self.errors += 1
        self.steps += step
        if not self._at_rest(s):
            return 0
        moved = self.steps
        self.steps = 0
        if moved * 2 >= self.per:
            self.position += 1
            return 1
        if -moved * 2 >= self.per:
            self.position -= 1
            return -1
        return 0
