"""What the MicroPython boards (rp2, esp32) share: pins, scan loop, strip, display.

rp2.py and esp32.py only name their default pin map; everything else is here,
because `machine.Pin`, `neopixel.NeoPixel` and `machine.I2C` behave alike on
both ports. The link is the simulated board's (sim.Hardware, the base class):
sys.stdin/sys.stdout are the USB CDC serial port on a real board, polled with
select.poll exactly as the pseudo-terminal is on the unix port.

RAM: the pin objects, the frame and the strip's buffer are made once here;
the scan loop builds its level mask from small ints and allocates nothing
while no button moves; show() renders and reorders in place.

Options (beside sim's): "pins" a board name or path (default: the subclass's
BOARD), "layouts" the folder of layout files, "clock" a ticks-like clock
(tests use a FakeClock), "data" the journal folder (default /chancery).
"""

import asyncio
import binascii
import gc
import json

import machine
import neopixel

from firmware import buttons as keys
from firmware import pads, ticks
from firmware.board import pins, sim
from firmware.board.leds import tick
from shared_rules import engine, power, render, wire
from shared_rules.compat import const

SCAN_MS = const(5)
LAYOUTS = "/hardware/layouts/"
_LEFT = const(15)  # pads.index_of(pads.TABLE, "left"): an encoder's turn anticlockwise
_RIGHT = const(17)  # ... and clockwise
_LINES = const(8)  # an SSD1306 128x64 shows 8 lines of 16 characters in its 8x8 font


class Hardware(sim.Hardware):
    BOARD = None  # type: str | None  # the default pin map, set by rp2.py / esp32.py

    def __init__(self, opts):
        o = dict(opts)
        if not o.get("data"):
            o["data"] = "/chancery"
        sim.Hardware.__init__(self, o)
        cfg = pins.load(o.get("pins") or self.BOARD)
        self.cfg = cfg
        Pin = machine.Pin
        pull = Pin.PULL_UP if cfg.get("pull", "up") == "up" else Pin.PULL_DOWN
        self._pins = [None if p is None else Pin(p, Pin.IN, pull) for p in pins.buttons(cfg)]
        self._active = pins.active_level(cfg)
        self.buttons = keys.Buttons(pads.COUNT, o.get("clock") or ticks)
        enc = pins.encoder(cfg)
        self._enc = None
        if enc:
            self._a = Pin(enc["a"], Pin.IN, pull)
            self._b = Pin(enc["b"], Pin.IN, pull)
            self._enc = keys.Encoder(self._a.value(), self._b.value(), enc.get("steps_per_detent", 4))
        data, n, order = pins.strip(cfg)
        self.strip = neopixel.NeoPixel(Pin(data, Pin.OUT), n)
        self._n = n
        self._order = pins.order_offsets(order)
        self._budget = pins.budget_ma(cfg)
        self._layouts = o.get("layouts") or LAYOUTS
        self._game = None
        self._layout = None
        self._frame = bytearray(n * 3)
        self._phase = 0  # whose turn it is on an LED several seats share (tick)
        self._scans = 0
        self.oled = _display(pins.i2c(cfg))
        self.screen = None  # the last menu screen, for the display
        self._dirty = False

    def board_id(self):
        return binascii.hexlify(machine.unique_id()).decode()

    # --- buttons ----------------------------------------------------------------

    async def inputs(self, table):
        while True:
            self.scan(table)
            tick(self, table, SCAN_MS)
            await asyncio.sleep_ms(SCAN_MS)


    def scan(self, table):
        """One pass of the scan loop: read every button into a bitmask (bit i =
        button i pressed), step the encoder, debounce, and hand each completed
        press to the table's menus. Returns how many presses there were."""
        mask = 0
        ps = self._pins
        act = self._active
        for i in range(len(ps)):
            p = ps[i]
            if p is not None and p.value() == act:
                mask |= 1 << i
        if self._enc is not None:
            d = self._enc.update(self._a.value(), self._b.value())
            if d:
                self.buttons.turn(d, _LEFT, _RIGHT)  # delivered by the update below
        events = self.buttons.update(mask)
        n = len(events)
        for k in range(n):
            e = events[k]
            self._key(table, e[0], e[1])
        if n:
            self.show(table)
            table.idle()  # once the LEDs show the entry: its snapshot if due, a collection
        return n

    def _key(self, table, index, kind):
        pad, key = pads.menu_key(index, kind)
        try:
            screen = table.key(pad, key)[0]
        except MemoryError:
            gc.collect()
            return
        except Exception as e:  # a bug in a menu must not end the scan loop
            screen = ["Error:", type(e).__name__[:16]]
        self.screen = screen
        self._dirty = True
        if table.listening:
            self.send(wire.DISPLAY, {"lines": screen})

    # --- strip and display ----------------------------------------------------------

    def show(self, table):
        """Redraw after a change: the public view into the frame, the current
        limiter with the board's budget, then the strip in its byte order; and the
        display if there is one and the screen changed."""
        if table.changed:
            layout = self._layout_for(table.game)
            frame = self._frame
            if layout is None:
                for i in range(len(frame)):
                    frame[i] = 0
            else:
                view = engine.game_module(table.game).view(table.state, None)
                render.render(view, layout, frame, layout.get("level", 255), self._phase)
                view = None
                power.limit(frame, self._budget)
            self._write(frame)
            table.changed = False
        if self._dirty:
            self._dirty = False
            self._draw()

    def _write(self, frame):
        buf = self.strip.buf
        o = self._order
        o0, o1, o2 = o[0], o[1], o[2]
        for j in range(0, self._n * 3, 3):
            buf[j] = frame[j + o0]
            buf[j + 1] = frame[j + o1]
            buf[j + 2] = frame[j + o2]
        self.strip.write()

    def _layout_for(self, game):
        if game == self._game:
            return self._layout
        self._layout = None
        gc.collect()
        try:
            with open(self._layouts + game + ".json") as f:
                layout = json.load(f)
        except OSError:  # no layout for this game: the strip stays dark
            layout = None
        if layout is not None:
            layout.pop("doc", None)  # prose the board never shows: give its RAM back
            for t in layout["tracks"]:
                t.pop("label", None)
            if layout["leds"] * 3 > len(self._frame):
                self._frame = bytearray(layout["leds"] * 3)
        self._game, self._layout = game, layout
        gc.collect()
        return layout

    def _draw(self):
        oled = self.oled
        if oled is None or self.screen is None:
            return
        oled.fill(0)
        lines = self.screen
        for k in range(len(lines) if len(lines) < _LINES else _LINES):
            oled.text(str(lines[k])[:16], 0, k * 8, 1)
        oled.show()


def _display(bus):
    """An SSD1306 on the map's I2C pins if one answers, else None (no display)."""
    if not bus:
        return None
    try:
        from firmware.board import oled  # the stock firmware has framebuf, not micropython-lib's ssd1306

        Pin = machine.Pin
        i2c = machine.I2C(bus.get("id", 0), sda=Pin(bus["sda"]), scl=Pin(bus["scl"]), freq=bus.get("freq", 400000))
        addr = bus.get("addr", 0x3C)
        if addr not in i2c.scan():
            return None
        return oled.SSD1306(i2c, addr)
    except Exception:  # no driver, no bus, nobody answering: play without a display
        return None
