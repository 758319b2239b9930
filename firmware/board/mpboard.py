"""What the MicroPython boards (rp2, esp32) share: pins, scan loop, strip, display.

rp2.py and esp32.py only name their default pin map; everything else is here,
because `machine.Pin`, `neopixel.NeoPixel` and `machine.I2C` behave alike on
both ports. The link is sim.Hardware's: sys.stdin/sys.stdout are the USB CDC
serial port on a real board, polled with select.poll as the pty is on unix.

RAM: pins, frame and strip buffer are made once; the scan allocates nothing while no button
moves; show() renders in place, in the strip's byte order (leds.wire_order). Speed: a pin's IRQ
wakes the scan (pace.py's timer when a long press or a lockout's end is due); the strip shows an input's
answer first; the display and the table's upkeep wait for a quiet moment (later.py).

Options (beside sim's): "pins" a board name or path (default: the subclass's
BOARD), "layouts" the folder of layout files, "clock" a ticks-like clock
(tests use a FakeClock), "data" the journal folder (default /chancery).
"""

import asyncio
import binascii
import gc

import machine

from firmware import pads
from firmware.board import pace, sim
from firmware.board.later import GUARD_MS, Later
from firmware.board.leds import Redraw, Scaler, Shown, load_layout, plan_kept, scan_and_tick
from shared_rules import engine, power, render
from shared_rules.compat import const

LAYOUTS = "/hardware/layouts/"
_LEFT = const(15)  # pads.index_of(pads.TABLE, "left"): an encoder's turn anticlockwise
_RIGHT = const(17)  # ... and clockwise


class Hardware(sim.Hardware):
    BOARD = None  # type: str | None  # the default pin map, set by rp2.py / esp32.py

    def __init__(self, opts):
        o = dict(opts, data=opts.get("data") or "/chancery")
        sim.Hardware.__init__(self, o)
        from firmware.board import wiring  # boot only

        (self._pins, self._active, self.buttons, self._knob, self.strip, self._n, self._order, self._budget,
         self.oled) = wiring.parts(o, self.BOARD)
        self._layouts = o.get("layouts") or LAYOUTS
        self._game = self._layout = self._wire = self._shown = self._top = None  # _layout_for's
        self._redraw = Redraw([])
        self._frame, self._strip_bytes = self.strip.buf, memoryview(self.strip.buf)  # _layout_for, _write
        self._phase = self._scans = 0  # whose turn it is on an LED several seats share (tick); ms since
        self.later = Later(self._draw)  # the display and the table's upkeep, between presses
        # buttons the IRQs saw pressed since the last scan; a press's edge as a pin's irq flags it (inputs)
        self._latched = self._press_edge = 0
        self._scanned = 0  # ticks_ms of the last scan (_scan: the strip phase's clock)

    def board_id(self):
        return binascii.hexlify(machine.unique_id()).decode()

    # --- buttons ----------------------------------------------------------------

    async def inputs(self, table):
        flag = asyncio.ThreadSafeFlag()
        both = machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING
        for i in range(len(self._pins)):
            p = self._pins[i]
            if p is not None:  # hard: a press dated at its edge, not when a collect or flash write ends
                try:
                    irq = p.irq(self._catch(i, flag), both, hard=True)
                except TypeError:  # a port without hard pin IRQs: a soft one, scheduled soon after
                    irq = p.irq(self._catch(i, flag), both)
                if hasattr(irq, "flags"):  # the edges latched since the last run (rp2's; not esp32's)
                    self._press_edge = machine.Pin.IRQ_RISING if self._active else machine.Pin.IRQ_FALLING
        if self._knob is not None:
            self._knob.listen(flag.set, both)
        asyncio.create_task(pace.run(self.buttons, flag, lambda: self._scan(table)))
        table.on_entry = lambda ready=None: self._entry(table, ready)  # the strip shows an entry once it is on flash
        self.controls.on_ahead = lambda state: self._render(table.game, state) or bytes(self._frame)  # an entry's, ahead
        table.idle()  # as after every input: the first awaited press (a roll, a vote's hold) is computed now
        clock = self.later.clock = self.buttons.clock
        self.later.wake = flag
        self._scanned = clock.ticks_ms()
        flag.set()  # a first scan now: a button already down when the IRQs were set has no edge to come
        while True:
            await flag.wait()
            self._scan(table)
            if self.quiet(table):  # one piece of what waits for a quiet moment: the next after a scan
                flag.set()
                await asyncio.sleep_ms(0)  # the host's link, the pace

    def _scan(self, table):
        """One scan and the strip's phase (scan_and_tick: never raises, the loops go on)."""
        clock = self.buttons.clock
        now = clock.ticks_ms()
        scan_and_tick(self, table, clock.ticks_diff(now, self._scanned))
        self._scanned = now

    def _catch(self, i, flag):
        """A pin's IRQ handler: wake the scan; note a press or a release, dated, for a scan that
        may come late (Buttons.note_press, note_release: each tap counts). A tap wholly inside a
        time with interrupts off (the rp2's flash writes) runs it once, the pin up again: its
        irq's flags say a press came. A hard IRQ (it runs during a collect, the heap locked):
        nothing here allocates, and it closes over three names (more than four, and MicroPython's
        closure_call copies them to the heap at each call)."""

        def edge(pin):
            b = self.buttons
            down = pin.value() == self._active
            # down, or pressed and up again while the IRQ waited (its press edge latched)
            if (down or self._press_edge and pin.irq().flags() & self._press_edge) and b.note_press(i):
                self._latched |= 1 << i
            if not down:
                b.note_release(i)
            flag.set()
        return edge

    def levels(self):
        """The buttons down now: bit i, button i (rp2.py reads every pin at once)."""
        down = 0
        ps, act = self._pins, self._active
        for i in range(len(ps)):
            p = ps[i]
            if p is not None and p.value() == act:
                down |= 1 << i
        return down

    def scan(self, table):
        """Read the buttons (bit i: button i pressed), the encoder's detents, debounce; each press to the menus."""
        latched = self._latched  # presses the IRQs saw, down or not by now
        self._latched = 0
        down = self.levels()
        if self._knob is not None:
            d = self._knob.take()  # the detents its IRQs counted since the last scan
            if d:
                self.buttons.turn(d, _LEFT, _RIGHT)  # delivered by the update below
        began = self.later.scan_begins()  # no collection in the middle of a press (later.py)
        try:
            events = self.buttons.update(down | latched, latched & ~down)
            if self.buttons.went:  # a press begun: its entry is taken while it is held (firmware/ahead.py),
                self.controls.down(self.buttons.went)
                self.later.settle()  # in an upkeep's look-ahead, though the last input's is done
            n = len(events)
            if n:
                self._held = []  # what the keys send to the host goes after the frame
                for e in events:
                    self._key(table, e[0], e[1])
                self.show(table)
        finally:
            self.flush()
            self.later.scan_ends(began, self.buttons.busy)
        if n:
            self.settle(table)  # once the LEDs show the entry: its snapshot if due, a collection
        return n

    def settle(self, table):
        """After an input: the table's upkeep is due, a part at a time between scans (later.py)."""
        self.later.settle()

    def working(self):
        return self.later.busy()  # the host's link waits for it (sim.py)

    def quiet(self, table):
        """One piece of what waits for a quiet moment (later.py), none while an edge an IRQ noted
        waits for its scan, nor near a hold's long instant: True when more waits (inputs() takes it
        after a scan). A button held stops only the upkeep's flash work: its press is the time its
        entry is computed ahead in."""
        busy = self.buttons.busy
        return not self._latched and self.later.piece(table, busy, busy and self.buttons.long_in(GUARD_MS) < GUARD_MS)

    def _entry(self, table, ready=None):
        """An entry is on flash: the strip shows it now; the host's frames wait for the input's answer (flush)."""
        if self._held is None:
            self._held = []
        self.show(table, ready)

    def _key(self, table, index, kind):
        pad, key = pads.menu_key(index, kind)
        try:
            screen = self.controls.pressed(pad, key)[0]
        except MemoryError:  # a board fault: the table lets the key go, reloads and says so (sim.fault)
            screen = sim.fault(table)
        except Exception as e:  # a bug in a menu must not end the scan loop
            screen = ["Error:", type(e).__name__[:16]]
        self.later.show(screen)

    # --- strip and display ----------------------------------------------------------

    def show(self, table, ready=None):
        """Redraw after a change: the public view into the frame (the strip's byte order), the current
        limiter, the strip; the display, if the screen changed, in the next quiet moment. ready: an
        entry's frame computed ahead (_render's), sent as it is (LEDs that take turns: the phase's
        next step redraws them)."""
        at = table.journal.last  # the log the frame shows: its last digest names every entry up to it
        if ready is not None:
            if self._frame != ready:  # not the frame the last draw left (Redraw's): the next draws whole
                self._redraw.forget()
            self._frame[:] = ready  # C memcpy
            self._write(self._frame, at)  # the entry's frame, drawn ahead
        elif table.changed:
            self._layout_for(table.game)
            back = self._shown.before(at) if self._shown is not None else None
            if back is not None:  # the log is again what the strip showed before its last change (an
                self._frame[:len(back)] = back  # undo): that frame, no render (LEDs that take turns: the
                self._redraw.forget()
            else:  # phase's next step redraws them)
                self._render(table.game, table.state)
            self._write(self._frame, at)
            table.changed = False
        c = self.controls
        if c.screen_due and self._held is None:  # the game moved, not by a key (_key shows its own)
            c.screen_due = False
            self.later.show(c.status())

    def _render(self, game, state):
        """The public view of `state` into the frame, through the current limiter."""
        layout = self._layout_for(game)
        frame = self._frame
        if layout is not None:
            view = engine.game_module(game).view(state, None, True)  # read once: no copy
            self._redraw.draw(view, layout, frame, layout.get("level", 255), self._phase, self._scale.row)
            view = None
            if power.limit(frame, self._budget, scale=self._scale, top=self._top) < 255:
                self._redraw.forget()  # scaled: the next draw is of every track, at the layout's level

    def _write(self, frame, at):
        """The frame on the strip; `at`: the log it shows (Journal.last; leds.Shown keeps them)."""
        strip = self.strip
        if frame is not strip.buf:
            strip.buf[:] = self._wire  # the frame's first LEDs, already in the strip's order (C memcpy)
        if self._shown is None:
            strip.write()
        else:
            self._shown.write(strip, self._strip_bytes, at, getattr(machine, "bitstream", None))

    def _layout_for(self, game):
        if game == self._game:
            return self._layout
        self._layout = None
        gc.collect()
        layout = load_layout(self._layouts + game + ".json", self._order)  # None: the strip stays dark
        size = self._n * 3 if layout is None or layout["leds"] <= self._n else layout["leds"] * 3
        if size != len(self._frame):
            self._frame = None
            # the strip's own buffer when the layout fits it: render() writes the wire's bytes
            self._frame = self.strip.buf if size == len(self.strip.buf) else bytearray(size)
        frame = self._frame
        self._scale = Scaler(frame)
        self._scale.row.fill(0)  # nothing of the last game's lights stays on
        self._wire = memoryview(frame)[:len(self.strip.buf)]
        lit = 0 if layout is None else min(layout["leds"] * 3, len(self.strip.buf))
        # what the strip shows of the layout's LEDs, once its first frame has cleared the whole strip
        self._shown = Shown(lit) if lit else None
        self._redraw = Redraw(plan_kept(layout) if layout is not None else [])
        self._top = render.brightest(layout) if layout is not None else None  # the limiter's bound
        self._game, self._layout = game, layout
        gc.collect()
        return layout

    def put_screen(self, table, lines):
        self.later.show(lines)  # drawn, and told the host, in the next quiet moment (_draw)

    def _draw(self, lines):
        """A step of a screen (later.py): a page of the display that changed (True: more may), else the
        host told (the host hears a screen once the display shows it; one replaced before, never)."""
        if self.oled is not None and self.oled.show_line(lines):
            return True
        self.tell_screen(None, lines)
        return False
