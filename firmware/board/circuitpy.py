"""A CircuitPython board (the maps: hardware/boards/adafruit-kb2040.json, rpi-pico-circuitpython.json, ...).

CircuitPython has no `machine`: pins are `board` names, the buttons `keypad`, the strip
Adafruit's `neopixel` (pixel_order does the byte order: each LED is one 0xRRGGBB int, no
tuple), the encoder `rotaryio` (keypad and rotaryio count in the background: the scan loop
misses no edge), the id microcontroller.cpu.uid, the display `adafruit_ssd1306`.

The link is usb_cdc.data, the second USB serial port, when boot.py enables it (the REPL's console stays
out of the frames); else the console. The journal needs a writable flash: boot.py remounts "/" writable.

Needs Adafruit's `asyncio`, `adafruit_ticks`, `neopixel` (and `adafruit_ssd1306`): `chancery deploy --drive`
writes them, and a boot.py that does the above (host/chancery/deploy/cpboot.py).
"""

import asyncio
import binascii
import gc
import os
import sys

import board
import keypad
import microcontroller
import neopixel

from firmware import buttons as keys
from firmware import pads, ticks
from firmware.board import pins, sim
from firmware.board.leds import scan_and_tick
from shared_rules import engine, power, prng, render, wire
from shared_rules.compat import const

SCAN_MS = const(5)
_CHUNK = const(256)
_LEFT = const(15)
_RIGHT = const(17)


def _pin(name):
    return getattr(board, name)


class Hardware:
    def __init__(self, opts):
        self._data = opts.get("data") or "/chancery"
        self._seq = 0
        self.host, self.controls = None, opts.get("controls")  # the host's link (sim.host_link), the keys (boot.py)
        self._fixed = None if opts.get("seed") is None else prng.seed_state(opts["seed"])
        try:
            import usb_cdc

            self._port = usb_cdc.data
        except ImportError:
            self._port = None
        cfg = pins.load(opts.get("pins") or "adafruit-kb2040")
        # keypad reads the buttons in the background (also while a module loads or the journal writes) and
        # queues each edge with its tick: a tap while the scan loop is busy counts, a hold is timed from its edge
        fitted = pins.buttons(cfg)
        self._index = bytes([i for i in range(len(fitted)) if fitted[i] is not None])  # key number -> button
        wired = [_pin(fitted[i]) for i in self._index]
        self._keys = keypad.Keys(wired, value_when_pressed=pins.active_level(cfg) == 1, pull=True)
        self._event = keypad.Event()  # filled in place by the queue: a scan allocates nothing
        self._down = 0  # bit i: button i down, as the keypad's events last said
        self.buttons = keys.Buttons(pads.COUNT, opts.get("clock") or ticks)
        enc, self._enc = pins.encoder(cfg), None
        if enc:
            import rotaryio

            self._enc = rotaryio.IncrementalEncoder(_pin(enc["a"]), _pin(enc["b"]),
                                                    divisor=enc.get("steps_per_detent", 4))
            self._pos = self._enc.position
        data, n, order = pins.strip(cfg)
        pins.order_offsets(order)  # refuse a bad order here, not at the first frame
        # brightness stays at its default, full: the layout's level caps it, in ints
        self.strip = neopixel.NeoPixel(_pin(data), n, auto_write=False, pixel_order=order)
        self._n, self._budget, self._layout, self._game = n, pins.budget_ma(cfg), None, None
        self._tracks = None  # render.plan(layout), kept with the layout
        self._frame = bytearray(n * 3)
        self._phase = self._scans = 0  # whose turn it is on an LED several seats share (tick); ms since
        self.oled = _display(pins.i2c(cfg))
        self.screen = None

    def board_id(self):
        return binascii.hexlify(microcontroller.cpu.uid).decode()

    def entropy(self, n):
        if self._fixed is None:
            return os.urandom(n)
        out = bytearray(n)
        for i in range(n):
            out[i], self._fixed = prng.draw(self._fixed, 256)
        return bytes(out)

    def data_dir(self):
        return self._data

    # --- the link ------------------------------------------------------------------

    def _write(self, piece):
        if self._port is not None:
            self._port.write(piece.encode())
        else:
            sys.stdout.write(piece)

    def send(self, kind, body):
        seq = self._seq
        self._seq = wire.next_seq(seq)
        if self._port is not None and not getattr(self._port, "connected", True):
            return  # nobody listening: dropped, as on the other boards
        wire.write(seq, kind, body, self._write)

    def _waiting(self):
        if self._port is not None:
            return self._port.in_waiting
        import supervisor

        return supervisor.runtime.serial_bytes_available

    async def link(self, table):
        reader, link = wire.Reader(), sim.host_link(self, table)
        chunk = bytearray(_CHUNK)
        view = memoryview(chunk)
        while True:
            n = self._waiting()
            if not n:
                await asyncio.sleep_ms(2)
                continue
            n = min(n, _CHUNK)
            if self._port is not None:
                n = self._port.readinto(view[:n]) or 0
            else:
                for i in range(n):
                    chunk[i] = ord(sys.stdin.read(1))
            for item in reader.feed(view[:n]):
                sim.answer(link, item)
                self.show(table)
                table.idle()

    # --- buttons, strip, display -----------------------------------------------------

    async def inputs(self, table):
        table.idle()  # as after every input: the first awaited press is computed now
        while True:
            scan_and_tick(self, table, SCAN_MS)  # never raises: the loop goes on
            await asyncio.sleep_ms(SCAN_MS)

    def _read(self):
        """(down, taps): the buttons down now and those pressed since the last scan, from keypad's queue."""
        ev, queue, index, b, taps = self._event, self._keys.events, self._index, self.buttons, 0
        while queue.get_into(ev):
            i = index[ev.key_number]
            if ev.pressed:
                self._down |= 1 << i
                if b.note_press(i, ev.timestamp):
                    taps |= 1 << i
            else:
                self._down &= ~(1 << i)
                b.note_release(i, ev.timestamp)
        return self._down, taps

    def scan(self, table):
        down, taps = self._read()
        if self._enc is not None:
            pos = self._enc.position
            if pos != self._pos:
                self.buttons.turn(pos - self._pos, _LEFT, _RIGHT)
                self._pos = pos
        events = self.buttons.update(down | taps, taps & ~down)
        if self.buttons.went:  # a press begun: its entry is taken while it is held (firmware/ahead.py)
            self.controls.down(self.buttons.went)
        n = len(events)
        for k in range(n):
            pad, key = pads.menu_key(events[k][0], events[k][1])
            try:
                self.screen = self.controls.pressed(pad, key)[0]
            except MemoryError:  # a board fault: the table lets the key go, reloads and says so (sim.fault)
                self.screen = sim.fault(table)
            except Exception as e:
                self.screen = ["Error:", type(e).__name__[:16]]
            if sim.listening(self):
                self.send(wire.DISPLAY, {"lines": self.screen})
        if n:
            self.show(table)
            self._draw()
            table.idle()
        return n

    def show(self, table):
        c = self.controls
        if c.screen_due:  # the game moved, not by a key (a key's screen is pressed()'s): status()
            c.screen_due, self.screen = False, c.status()
            if sim.listening(self):
                self.send(wire.DISPLAY, {"lines": self.screen})
            self._draw()
        if not table.changed:
            return
        frame = self._frame
        layout = self._layout_for(table.game)
        for i in range(len(frame)):
            frame[i] = 0
        if layout is not None:
            render.render(engine.game_module(table.game).view(table.state, None), layout, frame,
                          layout.get("level", 255), self._phase, None, self._tracks)
            power.limit(frame, self._budget)
        px = self.strip
        for i in range(self._n):
            j = i * 3
            px[i] = (frame[j] << 16) | (frame[j + 1] << 8) | frame[j + 2]
        px.show()
        table.changed = False

    def _layout_for(self, game):
        if game != self._game:
            import json

            self._layout = None
            gc.collect()
            try:
                with open("/hardware/layouts/" + game + ".json") as f:
                    self._layout = json.load(f)
                self._layout.pop("doc", None)
                for t in self._layout["tracks"]:
                    t.pop("label", None)
                if self._layout["leds"] * 3 > len(self._frame):
                    self._frame = bytearray(self._layout["leds"] * 3)
                self._tracks = render.plan(self._layout)  # each track's LEDs on the strip, once
            except OSError:
                self._layout = None
            self._game = game
        return self._layout

    def _draw(self):
        if self.oled is None or self.screen is None:
            return
        self.oled.fill(0)
        for k in range(min(len(self.screen), 8)):
            self.oled.text(str(self.screen[k])[:16], 0, k * 8, 1)
        self.oled.show()


def _display(bus):
    if not bus:
        return None
    try:
        import adafruit_ssd1306
        import busio

        i2c = busio.I2C(_pin(bus["scl"]), _pin(bus["sda"]), frequency=bus.get("freq", 400000))
        return adafruit_ssd1306.SSD1306_I2C(128, 64, i2c, addr=bus.get("addr", 0x3C))
    except Exception:  # no library, no display answering: play without one
        return None
