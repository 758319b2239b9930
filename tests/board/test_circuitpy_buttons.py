"""The CircuitPython backend's buttons: CircuitPython's keypad reads the pins in the background and queues
each edge with its tick; the scan turns the queue into the table's keys through firmware/buttons.py.

On CPython with small fakes of CircuitPython's core modules (tests/helpers/circuitpy_fakes.py): a test
queues edges as keypad's background scan would and runs the backend's scan on a FakeClock. The backend read
its pins with digitalio until this test: it took a pulled-up, unpressed pin for a pressed one, so every
button of a CircuitPython board was held from boot (the board rolled at its first scan, on the emulated
Pico too: tests/chip/test_cp_board.py), and a tap made while the scan loop was busy was lost.
"""

import sys
import types

import pytest
from circuitpy_fakes import fake_core, load_file
from conftest import ROOT

from firmware import pads
from firmware.ticks import FakeClock

BACKEND = ROOT / "firmware" / "board" / "circuitpy.py"
PICO = ROOT / "hardware" / "boards" / "rpi-pico-circuitpython.json"
PUSH = pads.index_of(pads.TABLE, "push")
RIGHT = pads.index_of(pads.TABLE, "right")


class Table:
    """What scan() needs of firmware.table.Table and of the board's firmware.controls.Controls (one stub
    plays both): pressed() records the keys, nothing changes on the strip."""

    def __init__(self):
        self.keys = []
        self.downs = []  # the presses begun (Controls.down's masks)
        self.changed = self.screen_due = self.listening = False
        self.game = "chancellors"

    def down(self, mask):
        self.downs.append(mask)

    def pressed(self, pad, key):
        self.keys.append((pad, key))
        return (["pressed", key],)

    def idle(self):
        pass


def _neopixel():
    neopixel = types.ModuleType("neopixel")

    class NeoPixel(list):
        def __init__(self, pin, n, auto_write=False, pixel_order="GRB"):
            list.__init__(self, [0] * n)

        def show(self):
            pass

    neopixel.NeoPixel = NeoPixel
    return neopixel


@pytest.fixture
def board(monkeypatch, tmp_path):
    import json

    with open(PICO) as f:
        cfg = json.load(f)
    core = fake_core(cfg["names"])
    for name, module in dict(core, neopixel=_neopixel()).items():
        monkeypatch.setitem(sys.modules, name, module)
    backend = load_file("circuitpy_buttons_under_test", BACKEND)
    clock = FakeClock(29, start=(1 << 29) - 300)  # supervisor.ticks_ms wraps at 2**29: a hold across the wrap
    hw = backend.Hardware({"pins": str(PICO), "data": str(tmp_path), "clock": clock})
    keys = core["keypad"].Keys.made[-1] if core["keypad"].Keys.made else None  # None: no keypad (the old backend)
    hw.controls = table = Table()
    return types.SimpleNamespace(hw=hw, keys=keys, clock=clock, table=table, cfg=cfg, board=core["board"])


def _scan(b, ms):
    """Scans every 5 ms for `ms` of the clock, as the inputs task does."""
    for _ in range(ms // 5):
        b.clock.advance(5)
        b.hw.scan(b.table)


def _key(b, button):
    """The keypad's key number of a button: its place among the fitted buttons."""
    return [i for i in range(len(b.cfg["buttons"])) if b.cfg["buttons"][i] is not None].index(button)


def test_the_keypad_reads_every_fitted_button_active_low_with_the_pull_up(board):
    fitted = [name for name in board.cfg["buttons"] if name is not None]
    assert board.keys.pins == [getattr(board.board, name) for name in fitted]
    assert board.keys.value_when_pressed is False and board.keys.pull is True


def test_an_idle_board_presses_nothing(board):
    """No edge: no key however long the board waits (the backend's first scan used to hold every button)."""
    _scan(board, 1000)
    assert board.table.keys == []


def test_a_tap_is_a_short_press_and_a_hold_is_long(board):
    now = board.clock.ticks_ms()
    board.keys.queue(_key(board, PUSH), True, now)
    _scan(board, 100)
    assert board.table.downs == [1 << PUSH] and board.table.keys == []  # begun, told while held
    board.keys.queue(_key(board, PUSH), False, board.clock.ticks_ms())
    _scan(board, 20)
    assert board.table.keys == [pads.menu_key(PUSH, pads.SHORT)]
    board.keys.queue(_key(board, RIGHT), True, board.clock.ticks_ms())
    _scan(board, 700)
    board.keys.queue(_key(board, RIGHT), False, board.clock.ticks_ms())
    _scan(board, 50)
    assert board.table.keys[1:] == [pads.menu_key(RIGHT, pads.LONG)]


def test_a_tap_made_while_the_scan_loop_was_busy_still_counts(board):
    """A press and its release both queued between two scans (a module loading, the journal writing) is a
    tap, not lost and never long however late the scan; a hold seen late is timed from its edge."""
    t = board.clock.ticks_ms()
    board.keys.queue(_key(board, RIGHT), True, t)
    board.keys.queue(_key(board, RIGHT), False, board.clock.ticks_add(t, 120))
    board.clock.advance(900)
    board.hw.scan(board.table)
    _scan(board, 30)
    assert board.table.keys == [pads.menu_key(RIGHT, pads.SHORT)]
    t = board.clock.ticks_ms()
    board.keys.queue(_key(board, PUSH), True, t)
    board.clock.advance(650)  # still held, first seen 650 ms after its edge: long at once
    board.hw.scan(board.table)
    assert board.table.keys[1:] == [pads.menu_key(PUSH, pads.LONG)]
