"""The CircuitPython backend's strip, through Adafruit's own NeoPixel library on CPython.

firmware/board/circuitpy.py hands each LED to `neopixel.NeoPixel` as one 0xRRGGBB
int and leaves the byte order (pixel_order) and the brightness to the library. Here
the real library (adafruit-circuitpython-neopixel over the pure-Python
adafruit_pixelbuf) turns our frame into bytes; only `neopixel_write`, the call that
clocks them out of the pin, is replaced by a recorder. So the bytes checked are the
ones the library would put on the wire, and the expected bytes are computed here,
from the rendered frame, the pin map's byte order and the strip's brightness.

`board`, `digitalio`, `keypad`, `microcontroller` and `rotaryio` are small fakes
with the KB2040's pin names (tests/helpers/circuitpy_fakes.py): they are
CircuitPython's core modules, and Blinka's stand-ins on CPython know no KB2040 pins.
"""

import importlib.metadata
import importlib.util
import json
import sys
import types

import board_files  # tests/helpers/board_files.py: the layouts as a board reads them
import pytest
from circuitpy_fakes import fake_core, load_file
from conftest import ROOT

from chancery.hardware import files as hardware_files
from shared_rules import engine, power, render

KB2040 = ROOT / "hardware" / "boards" / "adafruit-kb2040.json"
BACKEND = ROOT / "firmware" / "board" / "circuitpy.py"


def real_neopixel_path():
    """The installed library's neopixel.py, found by its distribution, so that the fake
    tests/fakes/neopixel.py can never stand in for it."""
    try:
        dist = importlib.metadata.distribution("adafruit-circuitpython-neopixel")
    except importlib.metadata.PackageNotFoundError:
        pytest.fail("adafruit-circuitpython-neopixel is not installed (the test extra: pip install -e .[test])",
                    pytrace=False)
    return dist.locate_file("neopixel.py")


def flash(folder):
    """open() for the backend: the board's /hardware/layouts/ holds the layouts as `chancery deploy`
    writes them (in folder), the rest of its /hardware/ is the repository's hardware/."""
    board_files.layouts_folder(folder)

    def flash_open(path, *args, **kwargs):
        if isinstance(path, str) and path.startswith("/hardware/layouts/"):
            path = str(folder) + path
        elif isinstance(path, str) and path.startswith("/hardware/"):
            path = str(ROOT) + path
        return open(path, *args, **kwargs)
    return flash_open


@pytest.fixture
def board(monkeypatch, tmp_path):
    """The circuitpy backend over the real neopixel library; .writes records each neopixel_write."""
    with open(KB2040) as f:
        names = json.load(f)["names"]
    core = fake_core(names)
    for name, module in core.items():
        monkeypatch.setitem(sys.modules, name, module)
    # Blinka's neopixel_write (imported by the library, replaced below) refuses an unknown board without it
    monkeypatch.setenv("BLINKA_OS_AGNOSTIC", "1")
    neopixel = load_file("neopixel", real_neopixel_path())
    assert neopixel.__version__ == importlib.metadata.version("adafruit-circuitpython-neopixel")
    monkeypatch.setitem(sys.modules, "neopixel", neopixel)  # what the backend's `import neopixel` finds
    backend = load_file("circuitpy_under_test", BACKEND)  # a private name: firmware.board.circuitpy stays as it was
    monkeypatch.setattr(backend, "open", flash(tmp_path / "flash"), raising=False)
    writes = []
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: writes.append((pin, bytes(buf))))
    return types.SimpleNamespace(backend=backend, neopixel=neopixel, core=core, writes=writes)


class Table:
    """What show() needs of firmware.table.Table (a game, its state, `changed`) and of the board's
    firmware.controls.Controls (`screen_due`): one stub plays both."""

    def __init__(self):
        self.game = "chancellors"
        self.state = engine.new_match("chancellors", {"players": 4}, 7)["state"]
        self.changed = True
        self.screen_due = False
        self.listening = False


def pin_map(tmp_path, order, budget):
    with open(KB2040) as f:
        cfg = json.load(f)
    cfg["strip"]["order"] = order
    cfg["budget_ma"] = budget
    path = tmp_path / "kb2040.json"
    path.write_text(json.dumps(cfg))
    return str(path), cfg


def expected_frame(table, budget):
    """The logical R, G, B frame the backend should send: rendered at the layout's level, then limited."""
    layout = hardware_files.layout("chancellors")  # placed on the arrangement, as the board's copy
    frame = bytearray(layout["leds"] * 3)
    render.render(engine.game_module(table.game).view(table.state, None), layout, frame, layout["level"])
    power.limit(frame, budget)
    return frame


def wire_bytes(frame, order, brightness):
    """Each LED's channels in the strip's order, each scaled by brightness and floored."""
    out = bytearray()
    for j in range(0, len(frame), 3):
        for channel in order:
            out.append(int(frame[j + "RGB".index(channel)] * brightness))
    return bytes(out)


@pytest.mark.parametrize("order, budget", [("GRB", 500), ("RGB", 500), ("BRG", 258)])
def test_the_wire_carries_our_frame_in_the_maps_order(board, tmp_path, order, budget):
    path, cfg = pin_map(tmp_path, order, budget)
    hw = board.backend.Hardware({"pins": path, "data": str(tmp_path)})
    table = hw.controls = Table()
    hw.show(table)
    assert table.changed is False
    assert len(board.writes) == 1
    pin, wire = board.writes[0]
    assert pin.pin is getattr(board.core["board"], cfg["strip"]["data"])
    assert pin.direction == "output"

    frame = expected_frame(table, budget)
    assert any(frame[j] != frame[j + 1] for j in range(0, len(frame), 3)), "no LED would show the byte order"
    if budget < 500:
        assert power.estimate_ma(frame) <= budget < power.estimate_ma(expected_frame(table, 10 ** 6))
    # the backend leaves brightness at full (the layout's level already capped the frame)
    assert hw.strip.brightness == 1.0
    assert wire == wire_bytes(frame, order, 1.0)

    hw.show(table)  # nothing changed: nothing sent
    assert len(board.writes) == 1


def test_a_dimmed_strip_scales_our_bytes_once(board, tmp_path):
    """If the strip's brightness is lowered (at the REPL, or by a later option), the
    library scales the bytes we gave it, after the order; the frame is not scaled twice."""
    path, _ = pin_map(tmp_path, "GRB", 500)
    hw = board.backend.Hardware({"pins": path, "data": str(tmp_path)})
    hw.strip.brightness = 0.5
    table = hw.controls = Table()
    hw.show(table)
    assert board.writes[-1][1] == wire_bytes(expected_frame(table, 500), "GRB", 0.5)
