"""Drive the rp2/esp32 backend (firmware/board/mpboard.py) on fake pins; both interpreters.

    drive_board.py HARDWARE_DIR TMP_DIR BACKEND LAYOUTS_DIR

HARDWARE_DIR is the repository's hardware/ folder, TMP_DIR a writable folder,
BACKEND rp2 or esp32, LAYOUTS_DIR the layouts as `chancery deploy` writes them for a board
(placed on the arrangement: tests/helpers/board_files.py). Checks with assert (exit status 1 on failure) and prints
one canonical JSON line of what it saw, so tests/board/test_boards.py can also
require CPython and MicroPython to agree.
"""

import gc
import json
import sys

import machine
import neopixel  # noqa: F401  (the fake, first on the path)

from firmware import ahead, ticks
from firmware import board as boards
from firmware import pads as keys
from firmware.board import oled, pins
from firmware.board.leds import scan_and_tick
from shared_rules import canon, engine, power
from shared_rules.the_council.views import available

HW, TMP, BACKEND, LAYOUTS = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
BOARD = {"rp2": "rpi-pico", "esp32": "esp32-s3-devkitc"}[BACKEND]
STEP = 3  # the strip index of Chancellors' step track's first LED (row 0, column 3: the data runs left to right)
TIGHT = 258  # a budget the first frame (260 mA: the panel's 256 chips idle, the step's LED lit) does not fit


class Log:
    """What the backend reads of the table's journal: `last`, the digest that names the log so far."""

    last = None


class Step:
    """What a frame drawn ahead reads of firmware/table.py's Step: the state after it."""

    after = None


class StubTable:
    """What the backend needs of firmware.table.Table (idle(), changed, game, state) and of its
    firmware.controls.Controls (pressed(), status(), screen_due): one stub plays both, as the
    board's `controls` too."""

    def __init__(self):
        self.game = "chancellors"
        self.state = engine.new_match("chancellors", {"players": 4}, 7)["state"]
        self.changed = True
        self.screen_due = False  # no entry here: the keys' screens are what the display shows
        self.listening = False
        self.keys = []
        self.downs = []  # the presses begun (Controls.down's masks)
        self.journal = Log()
        self.ahead = self.on_ahead = None  # Controls' entry computed ahead (firmware/ahead.py), its frame's maker


    def down(self, mask):
        self.downs.append(mask)

    def phase_moved(self):
        ahead.redraw(self)

    def pressed(self, pad, name):
        self.keys.append([pad, name])
        return ["pad %d" % pad, name], None

    def status(self):
        return ["#0", "a pad: its menu"]

    def idle(self):
        for _ in self.upkeep():
            pass

    def upkeep(self, collect=True):  # Table.upkeep's parts: counted as begun, and as done
        self.begun = getattr(self, "begun", 0) + 1
        yield
        self.idles = getattr(self, "idles", 0) + 1


class RecordingOled(oled.SSD1306):
    """The board's own display driver, noting the text of each screen it shows."""

    def __init__(self, i2c, addr=0x3C):
        super().__init__(i2c, addr)
        self.lines = {}  # y: the text drawn there
        self.shown = []

    def fill(self, c):
        super().fill(c)
        self.lines = {}

    def fill_rect(self, x, y, w, h, c):
        super().fill_rect(x, y, w, h, c)
        self.lines.pop(y, None)

    def text(self, s, x, y, c=1):
        super().text(s, x, y, c)
        if s:
            self.lines[y] = s

    def _note(self):
        self.shown.append([[y, self.lines[y]] for y in sorted(self.lines)])

    def show(self):
        super().show()
        self._note()

    def show_page(self, page):
        super().show_page(page)
        self._note()


oled.SSD1306 = RecordingOled  # what mpboard makes when the display answers


class Wake:
    """The scan's ThreadSafeFlag, as a pin's IRQ handler sees it: set() counts its wakes."""

    def __init__(self, woken):
        self.woken = woken
        woken.append(0)  # its slot made now: set() must not allocate either

    def set(self):
        self.woken[0] += 1


def _no_lock():
    pass


def make(budget=None):
    path = HW + "/boards/" + BOARD + ".json"
    if budget is not None:  # the same map with another budget
        with open(path) as f:
            cfg = json.load(f)
        cfg["budget_ma"] = budget
        path = TMP + "/tight.json"
        with open(path, "w") as f:
            canon.dump(cfg, f.write)  # streamed: no whole text, which a fragmented heap may not fit
    mod = boards.load(BACKEND)  # through the loader main.py uses
    clock = ticks.FakeClock(30, start=(1 << 30) - 40)  # the presses cross the Pico's wrap
    hw = mod.Hardware({"pins": path, "layouts": LAYOUTS + "/", "clock": clock, "data": TMP})
    return hw, clock


def run(hw, clock, table, ms):
    """Scan every 5 ms for `ms` milliseconds, each scan followed by a piece of what waits for a
    quiet moment (the display, the table's upkeep), as the inputs task does."""
    for _ in range(ms // 5):
        hw.scan(table)
        hw.quiet(table)
        clock.advance(5)


def main():
    out = {}
    machine.DEVICES.append(0x3C)  # an SSD1306 answers on the bus
    hw, clock = make()
    cfg = pins.load(HW + "/boards/" + BOARD + ".json")  # the board lets its map go once read
    gpio = pins.buttons(cfg)
    data = pins.strip(cfg)[0]
    made = {}
    for p in machine.MADE:
        made[p.id] = (p.mode, p.pull)
    for g in gpio:
        assert made[g] == (machine.Pin.IN, machine.Pin.PULL_UP), (g, made.get(g))
    assert made[data][0] == machine.Pin.OUT
    out["id"] = hw.board_id()
    assert out["id"] == "deadbeef01020304"
    assert hw.oled is not None

    table = hw.controls = StubTable()
    run(hw, clock, table, 200)  # everything pulled up: nothing pressed
    assert table.keys == [], table.keys
    if BACKEND == "rp2":  # its scan reads every pin in one load of GPIO_IN, not a Pin.value() each
        reads, value = [], machine.Pin.value
        machine.Pin.value = lambda self, v=None: reads.append(self.id) or value(self, v)
        hw.scan(table)
        machine.Pin.value = value
        assert [g for g in reads if g in gpio] == [], reads

    # seat 1's select: a short press, with contact bounce at both edges
    pin = gpio[keys.index_of(1, "select")]
    for level in (0, 1, 0):
        machine.LEVELS[pin] = level
        run(hw, clock, table, 5)
    run(hw, clock, table, 100)
    assert table.keys == [], "a press must wait for its release: %r" % table.keys
    # its down told once, bounce and all, while it is held: the entry it makes is taken then (firmware/ahead.py)
    assert table.downs == [1 << keys.index_of(1, "select")], table.downs
    for level in (1, 0, 1):
        machine.LEVELS[pin] = level
        run(hw, clock, table, 5)
    run(hw, clock, table, 40)
    assert table.keys == [[1, "select"]], table.keys

    # the table's back button held: a long press, delivered while still held
    pin = gpio[keys.index_of(keys.TABLE, "back")]
    machine.LEVELS[pin] = 0
    run(hw, clock, table, 700)
    assert table.keys[-1] == [keys.TABLE, "back"], table.keys
    machine.LEVELS[pin] = 1
    run(hw, clock, table, 100)
    assert len(table.keys) == 2, table.keys

    # A pin's IRQ is a hard one on a Pico (mpboard.inputs): it may run in the middle of a
    # collect, with the heap locked, so its handler must allocate nothing. Seat 3's select goes
    # down and its edge's handler runs with the heap locked (MicroPython's heap_lock; CPython has
    # none); it is up again before any scan: the tap the IRQ noted still arrives.
    i = keys.index_of(3, "select")
    woken = []
    edge = hw._catch(i, Wake(woken))
    machine.LEVELS[gpio[i]] = 0
    try:
        import micropython

        lock, unlock = micropython.heap_lock, micropython.heap_unlock
    except (ImportError, AttributeError):
        lock = unlock = _no_lock
    lock()
    try:
        edge(hw._pins[i])
    finally:
        unlock()
    machine.LEVELS[gpio[i]] = 1
    assert woken == [1], woken
    run(hw, clock, table, 60)
    assert table.keys[2:] == [[3, "select"]], table.keys

    # The board busy (no scan) while seat 2 taps up twice, 80 ms taps 150 ms apart, each edge
    # with a bounce: the IRQs note both presses, and each arrives. Then seat 2 taps down wholly
    # inside a time with interrupts off (the rp2's flash erase): its handler runs once after it,
    # the pin up again, its irq's flags saying both edges came; that tap arrives too.
    hw._press_edge = machine.Pin.IRQ_FALLING  # as inputs() sets it where an irq has flags (rp2)
    i = keys.index_of(2, "up")
    edge, pin = hw._catch(i, Wake(woken)), hw._pins[i]
    lock()
    try:
        for _ in range(2):
            for level in (0, 1, 0):
                machine.LEVELS[gpio[i]] = level
                edge(pin)
                clock.advance(1)
            clock.advance(80)
            for level in (1, 0, 1):
                machine.LEVELS[gpio[i]] = level
                edge(pin)
                clock.advance(1)
            clock.advance(150)
    finally:
        unlock()
    run(hw, clock, table, 60)
    assert table.keys[3:] == [[2, "up"], [2, "up"]], table.keys
    i = keys.index_of(2, "down")
    edge, pin = hw._catch(i, Wake(woken)), hw._pins[i]
    pin.irq().latched = machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING
    clock.advance(100)
    lock()
    try:
        edge(pin)
    finally:
        unlock()
    pin.irq().latched = 0
    run(hw, clock, table, 60)
    assert table.keys[5:] == [[2, "down"]], table.keys

    # two buttons at once (seat 4's down and seat 0's up): both arrive, in index order
    a, b = gpio[keys.index_of(4, "down")], gpio[keys.index_of(0, "up")]
    machine.LEVELS[a] = machine.LEVELS[b] = 0
    run(hw, clock, table, 60)
    machine.LEVELS[a] = machine.LEVELS[b] = 1
    run(hw, clock, table, 60)
    assert table.keys[6:] == [[0, "up"], [4, "down"]], table.keys

    # What waits for a quiet moment (firmware/board/later.py: the display, the table's upkeep):
    # one piece after each scan, none while an edge an IRQ noted waits for its scan. Seat 0's
    # down changes the screen; seat 4's select goes down, its IRQ noting it, before the piece
    # that would draw: no piece runs until the scan has served that edge. Held, it does not stop
    # them (its press is when the entry its release makes is computed ahead).
    run(hw, clock, table, 100)
    shown, idles = len(hw.oled.shown), table.idles
    a, b = gpio[keys.index_of(0, "down")], gpio[keys.index_of(4, "select")]
    machine.LEVELS[a] = 0
    hw.scan(table)
    clock.advance(30)
    machine.LEVELS[a] = 1
    hw.scan(table)
    assert table.keys[-1] == [0, "down"], table.keys
    i = keys.index_of(4, "select")
    machine.LEVELS[b] = 0
    hw._catch(i, Wake(woken))(hw._pins[i])
    assert not hw.quiet(table) and len(hw.oled.shown) == shown, hw.oled.shown[shown:]
    hw.scan(table)
    assert hw.quiet(table) and hw.oled.shown[shown:] == [[[0, "pad 0"], [8, "down"]]], hw.oled.shown[shown:]
    run(hw, clock, table, 100)  # held
    assert table.idles == idles + 1 and table.keys[-1] == [0, "down"], (table.idles, table.keys)
    machine.LEVELS[b] = 1
    run(hw, clock, table, 60)
    assert table.keys[-1] == [4, "select"] and hw.oled.shown[-1] == [[0, "pad 4"], [8, "select"]], (
        table.keys, hw.oled.shown[shown:])

    # MicroPython: no collection in the middle of a press (the threshold raised from a button's
    # down until none settles), and one as a button goes down, after its scan: the input it
    # completes (the release, a hold's long instant) finds the heap collected, however much the
    # quiet moments' pieces allocated while it was down, and none at the release itself.
    from firmware.board import later as scan_gc  # the scan's collection policy (Later.scan_begins, scan_ends)

    class ScanGc:
        collects = 0

        @staticmethod
        def collect():
            ScanGc.collects += 1

    upy = hasattr(gc, "threshold")  # CPython has no threshold: the scan takes no collection there
    if upy:
        ScanGc.threshold = staticmethod(gc.threshold)
    every = gc.threshold() if upy else None
    if upy:
        gc.threshold(8192)  # as boot.py sets it
    scan_gc.gc = ScanGc
    try:
        run(hw, clock, table, 100)
        pin = gpio[keys.index_of(1, "select")]
        machine.LEVELS[pin] = 0
        hw.scan(table)
        assert ScanGc.collects == (1 if upy else 0), ScanGc.collects
        assert not upy or gc.threshold() > 8192, gc.threshold()
        run(hw, clock, table, 200)  # held: no more
        machine.LEVELS[pin] = 1
        run(hw, clock, table, 100)
        assert ScanGc.collects == (1 if upy else 0), ScanGc.collects
        assert not upy or gc.threshold() == 8192, gc.threshold()
        assert table.keys[-1] == [1, "select"], table.keys
    finally:
        scan_gc.gc = gc
        if upy:
            gc.threshold(every)

    # The upkeep's collection waits for later.QUIET_MS without an input (firmware/board/later.py):
    # the keys of a menu pressed one after the other do not meet it; once the board has been
    # quiet that long, a piece collects, and until then the board is busy (a host's ping waits).
    from firmware.board import later as waits

    class CountingGc:
        collects = 0

        @staticmethod
        def collect():
            CountingGc.collects += 1

    hw.later.clock = clock  # as inputs() sets it
    run(hw, clock, table, 400)
    real_gc, waits.gc = waits.gc, CountingGc
    a = gpio[keys.index_of(0, "down")]
    for _ in range(2):  # two taps, 100 ms apart
        machine.LEVELS[a] = 0
        run(hw, clock, table, 30)
        machine.LEVELS[a] = 1
        run(hw, clock, table, 70)
        assert CountingGc.collects == 0 and hw.later.busy(), CountingGc.collects
    run(hw, clock, table, 120)
    assert CountingGc.collects == 1 and not hw.later.busy(), CountingGc.collects
    waits.gc, hw.later.clock = real_gc, None
    assert table.keys[-2:] == [[0, "down"], [0, "down"]], table.keys

    enc = pins.encoder(cfg)
    if enc:  # one detent clockwise: the table's right, which a menu reads as down
        for la, lb in ((0, 1), (0, 0), (1, 0), (1, 1)):
            machine.LEVELS[enc["a"]], machine.LEVELS[enc["b"]] = la, lb
            run(hw, clock, table, 5)
        assert table.keys[-1] == [keys.TABLE, "down"], table.keys
    run(hw, clock, table, 20)  # its screen, a page of the display at a piece
    out["keys"] = table.keys
    out["screen"] = hw.oled.shown[-1]  # the display shows the last menu screen
    assert hw.oled.shown[-1] == [[0, "pad %d" % table.keys[-1][0]], [8, table.keys[-1][1]]]
    # only the lines that changed go to the display: a page (128 columns) each, after its data control byte
    addr, data = machine.WRITES[-1]
    assert addr == 0x3C and data[:1] == b"\x40" and len(data) == 1 + 128, (addr, data[:4])
    window = machine.WRITES[-2][1]  # the one page's window: columns 0..127, page k..k (line 0 or 1 here)
    assert window[:5] == bytes((0x00, 0x21, 0, 127, 0x22)) and window[5] == window[6] < 2, window
    # the display keeps what it drew as bytes, not the key's strings: the same lines again send nothing,
    # a line changed (in 2-byte characters too) its page only, and the board lets go of the screen drawn
    assert hw.later.screen is None
    sent = len(machine.WRITES)
    last = ["pad %d" % table.keys[-1][0], table.keys[-1][1]]
    hw.oled.show_lines(last)
    assert len(machine.WRITES) == sent, machine.WRITES[sent:]
    for lines in ([last[0], "\u00e9" * 16], [last[0], "\u00e9" * 15 + "e"], [last[0], "\u00e9" * 15 + "e"]):
        hw.oled.show_lines(lines)
    assert len(machine.WRITES) == sent + 4 and machine.WRITES[-2][1][5] == 1, machine.WRITES[sent:]

    # A screen goes to the display a page at a piece (3-4 ms on I2C each; a whole one took 30 ms,
    # and a press that came meanwhile waited for all of it), and to the host after its last page.
    run(hw, clock, table, 100)
    told, shown, tell = [], len(hw.oled.shown), hw.tell_screen
    hw.tell_screen = lambda seat, lines: told.append(lines)
    hw.later.show(["one", "two", "three"])
    for k in range(3):
        assert hw.quiet(table) and len(hw.oled.shown) == shown + k + 1 and told == [], (k, hw.oled.shown[shown:])
    assert hw.quiet(table) and told == [["one", "two", "three"]] and not hw.quiet(table), told
    assert hw.oled.shown[-1] == [[0, "one"], [8, "two"], [16, "three"]], hw.oled.shown[-1]
    hw.tell_screen = tell

    # No piece starts within later.GUARD_MS of a hold's long instant: the longest (a
    # collection, a look-ahead) delayed its scan, and so its entry. Far from it, one does.
    run(hw, clock, table, 100)
    pin = gpio[keys.index_of(keys.TABLE, "back")]
    machine.LEVELS[pin] = 0
    hw.scan(table)  # the press begins: long 600 ms from now
    clock.advance(300)
    hw.scan(table)
    shown = len(hw.oled.shown)
    hw.later.show(["far"])
    assert hw.quiet(table) and hw.oled.shown[-1][0] == [0, "far"], hw.oled.shown[shown:]
    while hw.quiet(table):
        pass
    clock.advance(590 - 300)
    hw.scan(table)
    hw.later.show(["near"])
    drawn = len(hw.oled.shown)
    assert not hw.quiet(table) and len(hw.oled.shown) == drawn, hw.oled.shown[shown:]
    clock.advance(10)
    hw.scan(table)  # its long instant: the key
    assert table.keys[-1] == [keys.TABLE, "back"], table.keys
    assert hw.quiet(table) and len(hw.oled.shown) == drawn + 1, hw.oled.shown[shown:]  # the pieces go on
    machine.LEVELS[pin] = 1
    run(hw, clock, table, 100)

    # show(): the frame, limited, reaches the strip in GRB
    table.changed = True
    hw.show(table)
    assert not table.changed
    buf = hw.strip.writes[-1]
    out["strip"] = strip_facts(buf)
    # LED 3 (row 0, column 3 of the panel) is the step track's "roll" LED: step colour
    # [150, 0, 255] at level 25 is R 14, G 0, B 25; the strip wants G, R, B
    assert buf[STEP * 3:STEP * 3 + 3] == bytes([0, 14, 25]), buf[STEP * 3:STEP * 3 + 3]
    assert power.estimate_ma(grb_to_rgb(buf)) <= 450
    assert hw.strip.sent[0] == len(buf)  # a layout's first frame clears the whole strip

    # after it, a frame ends at the last LED that changed (a WS2812 keeps its colour past a
    # frame's end, as the fake strip does): the same frame again sends one LED
    table.changed = True
    hw.show(table)
    assert hw.strip.sent[-1] == 3 and hw.strip.writes[-1] == buf, hw.strip.sent
    # the first roll moves the step to "A" (LED 4, row 0) and lights the problems' dice (rows 3-7;
    # row 7 runs right to left: problem 4's first die, a 3, lights LEDs 124 down to 122): the frame
    # ends after LED 124; then three points to seat 0 light the first LED of its score (row 9, right
    # to left: column 6 is LED 153): it ends after LED 153
    moved, was, sent = StubTable(), buf, []
    wanted = engine.game_module("chancellors").dice_wanted(moved.state)
    for move in ({"type": "roll", "values": [1 + i % 6 for i in range(wanted)]},
                 {"type": "score", "seat": 0, "amount": 3}):
        moved.state = engine.decide("chancellors", moved.state, move, True)[2]
        hw.show(moved)
        now, n = hw.strip.writes[-1], hw.strip.sent[-1]
        assert now == bytes(hw.strip.buf) and now != was, hw.strip.sent  # the strip shows the whole frame
        assert now[n:] == was[n:] and now[n - 3:n] != was[n - 3:n], (n, len(was))  # up to its last change
        sent.append(n)
        was, moved.changed = now, True
    assert sent == [125 * 3, 154 * 3], sent

    # an undo: the log is again what the strip showed before its last change (the same digest);
    # the strip shows that frame again as it was, with no render. A log the strip has not shown
    # (another entry in the undone one's place) is rendered.
    moved, renders, render = StubTable(), [], hw._render
    hw._render = lambda game, state: renders.append(game) or render(game, state)
    first = canon.copy(moved.state)
    moved.journal.last = "start"
    hw.show(moved)
    was = bytes(hw.strip.buf)
    moved.state = engine.decide("chancellors", moved.state, {"type": "score", "seat": 1, "amount": 5}, True)[2]
    moved.journal.last, moved.changed = "scored", True
    hw.show(moved)
    assert bytes(hw.strip.buf) != was and len(renders) == 2, renders
    moved.state, moved.journal.last, moved.changed = first, "start", True  # the score taken back
    hw.show(moved)
    assert len(renders) == 2 and bytes(hw.strip.buf) == was, renders
    moved.state = engine.decide("chancellors", canon.copy(first), {"type": "score", "seat": 2, "amount": 5}, True)[2]
    moved.journal.last, moved.changed = "scored 2", True
    hw.show(moved)
    assert len(renders) == 3 and bytes(hw.strip.buf) != was, renders
    out["undo"] = hw.strip.sent[-2:]
    hw._render = render
    moved = was = now = move = sent = first = render = renders = None
    out["sent"] = sent

    # an entry's frame drawn ahead (firmware/ahead.py; on_ahead as the board's inputs() sets it) is
    # drawn again when the phase moves on (tick: The Council's ranks take turns, and at the start
    # every seat shares rank 0 of each suit, rows 5-10). So its press, a pass that moves the bidder
    # (row 1), sends the LEDs up to that one, not up to the last that takes turns; and the strip then
    # shows what a whole render of the new state in the phase it is in shows
    del hw.strip.writes[:-1], hw.strip.sent[:-1]  # the fake strip's history: the heap of 256 KB
    gc.collect()
    council = StubTable()
    council.game, council.state = "the_council", engine.new_match("the_council", {"players": 5}, 7)["state"]
    for seat in range(5):
        draft = {"type": "draft", "seat": seat, "cards": available(council.state)[:5]}
        council.state = engine.decide("the_council", council.state, draft, True)[2]
    council.state = engine.decide("the_council", council.state, {"type": "event", "card": available(council.state)[0]},
                                  True)[2]
    council.journal.last = "bid"
    was = hw.controls
    hw.controls = council
    hw.show(council)
    step = Step()
    step.after = engine.decide("the_council", canon.copy(council.state), {"type": "pass", "seat": council.state["turn"]},
                               True)[2]
    council.on_ahead = lambda state: hw._render(council.game, state) or bytes(hw._frame)  # as inputs() sets it
    council.ahead = ahead.Ahead(1, 1, None, step, council.on_ahead(step.after))
    phase, sent = hw._phase, len(hw.strip.sent)
    scan_and_tick(hw, council, 10000)  # past the layout's cycle: the phase moves on and redraws
    assert hw._phase == phase + 1 and len(hw.strip.sent) == sent + 1 and hw.strip.sent[-1] > 5 * 16 * 3, hw.strip.sent
    council.state, council.journal.last = step.after, "passed"
    hw.show(council, council.ahead.frame)
    out["ahead_sent"] = hw.strip.sent[-1]
    assert hw.strip.sent[-1] <= 32 * 3, hw.strip.sent[-1]  # rows 0 and 1
    shown = hw.strip.writes[-1]
    hw._redraw.forget()
    hw._render(council.game, step.after)  # drawn whole, in the phase it is now
    assert bytes(hw._frame)[:len(shown)] == shown, "the strip is not the new state in the phase it is in"
    hw.controls = was
    council = step = shown = was = None

    # a budget the frame does not fit: dimmed as a whole to fit, still GRB
    machine.MADE[:] = []
    machine.STRIPS.clear()  # the fake strip of the board let go goes with it
    hw = None  # one board at a time, as on a board
    gc.collect()
    tight, clock2 = make(budget=TIGHT)
    tight.controls = table
    table.changed = True
    tight.show(table)
    dim = tight.strip.writes[-1]
    rgb = grb_to_rgb(dim)
    out["tight"] = strip_facts(dim)
    assert power.estimate_ma(rgb) <= TIGHT, power.estimate_ma(rgb)
    assert dim[STEP * 3] == 0 and 0 < dim[STEP * 3 + 1] < 14 and 0 < dim[STEP * 3 + 2] < 25, dim[STEP * 3:STEP * 3 + 3]
    for i in range(len(buf)):
        assert dim[i] <= buf[i]
    # scaled by the board's Scaler (framebuf's palette blit) exactly as power.limit's own loop scales
    loop = bytearray(buf)
    power.limit(loop, TIGHT)
    assert bytes(loop) == dim, "the board's scaling differs from power.limit's"

    # no display on the bus: none, and the presses still work
    machine.DEVICES[:] = []
    tight = None
    gc.collect()
    bare, clock3 = make()
    assert bare.oled is None
    t2 = bare.controls = StubTable()
    pin = gpio[keys.index_of(2, "up")]
    machine.LEVELS[pin] = 0
    run(bare, clock3, t2, 40)
    machine.LEVELS[pin] = 1
    run(bare, clock3, t2, 40)
    assert t2.keys == [[2, "up"]], t2.keys

    # a redraw that fails in the phase's tick (The Council's layout takes turns) is said, and the
    # inputs task goes on: its keys still reach the menus
    t2.game, t2.state = "the_council", engine.new_match("the_council", {"players": 5}, 7)["state"]
    shows = []

    def failing_show(table):
        shows.append(1)
        raise MemoryError("a redraw out of memory")

    bare.show = failing_show
    scan_and_tick(bare, t2, 10000)  # past the layout's cycle: the phase moves on and redraws
    pin = gpio[keys.index_of(3, "down")]
    machine.LEVELS[pin] = 0
    scan_and_tick(bare, t2, 20)
    clock3.advance(40)
    machine.LEVELS[pin] = 1
    for _ in range(10):
        scan_and_tick(bare, t2, 5)
        clock3.advance(5)
    assert shows and t2.keys == [[2, "up"], [3, "down"]], (shows, t2.keys)
    out["tick_failed"] = len(shows) > 0
    sys.stdout.write("RESULT " + canon.encode(out) + "\n")


def grb_to_rgb(buf):
    out = bytearray(len(buf))
    for j in range(0, len(buf), 3):
        out[j], out[j + 1], out[j + 2] = buf[j + 1], buf[j], buf[j + 2]
    return out


def strip_facts(buf):
    lit = 0
    total = 0
    for i in range(0, len(buf), 3):
        if buf[i] or buf[i + 1] or buf[i + 2]:
            lit += 1
    for c in buf:
        total += c
    return {"bytes": len(buf), "lit": lit, "sum": total, "ma": power.estimate_ma(grb_to_rgb(buf))}


main()
