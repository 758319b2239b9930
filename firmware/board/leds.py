"""The strip's phase, and the frame's fast paths, for the boards with a strip (mpboard.py, circuitpy.py).

wire_order puts a layout's colours into the strip's byte order once, when it
loads, so render() fills the strip's buffer as it is sent; Scaler scales a
frame's bytes for the current limiter in C.

Where several seats share an LED (a layout's seats_at tracks: The Council's
ranks) they take turns, one per phase (shared_rules/render.py). Not in sim.py,
which every board loads: the simulated board has no strip.
"""

from shared_rules import canon, render


def tick(hw, table, scan_ms):
    """For a board with a strip (mpboard, circuitpy), after each scan, scan_ms after the
    one before it: every cycle_ms of the game's layout (one whose LEDs several seats may
    share, taking turns: render.py) the phase moves on and the strip is redrawn, once no
    button is down.
    hw._scans counts the ms since the phase last moved."""
    layout = hw._layout_for(table.game)
    cycle = layout.get("cycle_ms", 0) if layout is not None else 0
    if cycle <= 0:
        return
    hw._scans += scan_ms
    # not while a button is down or settling: a redraw (11 ms on a Pico for The Council) in the
    # middle of a press delayed its scan, and so its entry, when the press ended during it
    if hw._scans >= cycle and not hw.buttons.busy:
        hw._scans = 0
        hw._phase += 1
        table.changed = True
        hw.show(table)
        hw.controls.phase_moved()  # the frames drawn ahead, in the phase the strip now shows


def scan_and_tick(hw, table, scan_ms):
    """One wake of a board's inputs task: the scan (its keys to the menus, their redraw), then
    tick(). Whatever fails in either (a redraw out of memory) is said on the serial and the
    loop goes on: an exception out of here ended the task, and the board took no key again
    (The Council's phase redraw, outside the scan's guard, did that on the chip)."""
    try:
        hw.scan(table)
        tick(hw, table, scan_ms)
    except Exception as e:
        print("chancery: scan:", type(e).__name__, e)


class Shown:
    """What the strip shows of a layout's LEDs (their first `lit` bytes, in the strip's order),
    and the log it shows (Journal.last). A WS2812 keeps its colour when a frame ends before it:
    once a layout's first frame has cleared the whole strip, only its LEDs up to the last that
    changed go on the wire (30 us an LED: 7.7 ms for the panel's 256, where an entry often changes
    only its first rows). The frame shown before the log last changed is kept (768 bytes for
    the panel): an undo shows it again without a render (before())."""

    def __init__(self, lit):
        self.now = memoryview(bytearray(lit))
        self.back = bytearray(lit)
        self.sent = False  # the layout's first frame, the whole strip, not yet
        self.at = self.back_at = None

    def before(self, at):
        """The frame the strip showed while the log was `at`, just before its last change; else None."""
        return self.back if at is not None and at == self.back_at else None

    def write(self, strip, buf, at, bitstream):
        """The strip's buffer `buf` (a memoryview of strip.buf, filled) on the wire, showing the log
        `at`; bitstream: machine.bitstream, or None (the whole buffer, as NeoPixel.write sends it)."""
        now = self.now
        if at != self.at:
            if self.sent and self.at is not None:
                self.back[:] = now  # C memcpy: the strip as it showed the log before this change
                self.back_at = self.at
            self.at = at
        if self.sent and bitstream is not None:
            n = changed_leds(buf, now) * 3
            bitstream(strip.pin, 0, strip.timing, buf[:n])  # as NeoPixel.write sends its buf
        else:
            strip.write()
            n = len(now)
            self.sent = True
        now[:n] = buf[:n]


_MISSING = ["(missing)"]  # a view key that is not there, told from one that holds None


class Redraw:
    """render.render() for a board, drawing only what changed: the tracks (a plan_kept() plan) whose
    view keys (render.reads) hold other values than when the frame was last drawn, each track's
    LEDs cleared first, and the seats_at tracks when the phase moved. A track's Python costs
    0.5-2.6 ms on the chip, and an entry changes one to three of a layout's 10-20. Every track is
    drawn when the frame is not what the last draw left (forget(): a frame drawn ahead put on it,
    an undo's kept frame, the limiter's scaling) and at the first draw."""

    def __init__(self, plan):
        self.plan = plan
        self.reads = [render.reads(p[0], p[5]) for p in plan]
        self.seen = None  # {key: a copy of the value the frame shows}; None: draw every track
        self.phase = None

    def forget(self):
        self.seen = None

    def draw(self, view, layout, frame, level, phase, row):
        """Draw `view` into `frame` (in place); row: a framebuf over the frame, cleared in C for a
        whole draw."""
        seen, plan = self.seen, self.plan
        if seen is None:
            row.fill(0)
            render.render(view, layout, frame, level, phase, False, plan)
            seen = {}
            for keys in self.reads:
                for k in keys:
                    seen[k] = None
            changed = seen
        else:
            changed = None
            for k in seen:
                v = view.get(k, _MISSING)
                if v != seen[k]:
                    if changed is None:
                        changed = {}
                    changed[k] = None
            moved = phase != self.phase
            if changed is None and not moved:
                return
            dirty = []
            for i in range(len(plan)):
                item = plan[i]
                if (moved and item[0] == "seats_at") or (changed is not None and _any_in(self.reads[i], changed)):
                    render.blank(frame, layout["leds"], item)
                    dirty.append(item)
            render.render(view, layout, frame, level, phase, False, dirty)
        if changed is not None:
            for k in changed:
                v = view.get(k, _MISSING)
                seen[k] = v if v is _MISSING else canon.copy(v)  # the view's values are the state's own
        self.seen, self.phase = seen, phase


def _any_in(keys, changed):
    for k in keys:
        if k in changed:
            return True
    return False


def changed_leds(now, shown):
    """How many of the strip's first LEDs a frame must send for the strip to show `now`
    (its bytes in the strip's order) where it shows `shown` (the same length or longer): up to
    the last LED that differs, since a WS2812 keeps its colour when a frame ends before it.
    At least one, so that every redraw still ends in a frame. Both memoryviews: each compare
    is of two slices in C, and halving on the LEDs' common tail takes 8 of them for 256 LEDs."""
    end = len(shown)
    lo, hi = 0, end // 3
    while lo < hi:
        mid = (lo + hi) >> 1
        if now[mid * 3:end] == shown[mid * 3:end]:
            hi = mid
        else:
            lo = mid + 1
    return lo if lo else 1


def load_layout(path, order):
    """A layout file as a board keeps it (None if there is none): without the prose it never
    shows, its colours in the strip's byte order (order: pins.order_offsets)."""
    import json

    try:
        with open(path) as f:
            layout = json.load(f)
    except OSError:
        return None
    layout.pop("doc", None)  # give its RAM back
    for t in layout["tracks"]:
        t.pop("label", None)
        t.pop("caption", None)
    wire_order(layout, order)
    return layout


def plan_kept(layout):
    """render.plan(layout) as a board keeps it: each track's dict keeps only what render
    reads from it (the plan holds its kind, place and direction), and the layout lets its
    track list go. A dict from the JSON keeps the room of every key it had; rebuilt, it holds
    only what is read."""
    out = []
    for shows, generic, base, step, length, t in render.plan(layout):
        for k in ("name", "start", "length", "dir", "shows", "idx"):
            t.pop(k, None)
        out.append((shows, generic, base, step, length, dict(t)))
    layout["tracks"] = None
    return out


def wire_order(layout, order):
    """Every colour of the layout with its channels in the strip's byte order (order: the
    offsets pins.order_offsets gives). The current limiter scales every byte alike, so
    the frame it limits may be in either order."""
    if order[0] == 0 and order[1] == 1 and order[2] == 2:
        return
    seats = layout.get("seat_colours") or []
    for i in range(len(seats)):
        seats[i] = _wire_colour(seats[i], order)
    colours = layout.get("colours") or {}
    for name in colours:
        colours[name] = _wire_colour(colours[name], order)


def _wire_colour(c, order):
    return None if c is None else [c[order[0]], c[order[1]], c[order[2]]]


class Scaler:
    """power.limit's scale for one frame: each byte to byte * level // 255, done by
    framebuf's palette blit (the frame as a row of 8-bit pixels, the palette a table
    of the scaled values) instead of a Python loop over every byte (4-5 ms for 116
    LEDs on a Pico). The table is filled only for the values the frame holds."""

    def __init__(self, frame):
        import framebuf

        self.table = bytearray(256)
        self.row = framebuf.FrameBuffer(frame, len(frame), 1, framebuf.GS8)
        self.palette = framebuf.FrameBuffer(self.table, 256, 1, framebuf.GS8)

    def __call__(self, frame, level):
        table = self.table
        for v in set(frame):
            table[v] = v * level // 255
        self.row.blit(self.row, 0, 0, -1, self.palette)
