"""The deployed firmware on the chip: the stock RPI_PICO MicroPython on the virtual Pico.

The board's files go onto its flash as `chancery deploy` stages them (vpico.image: the same
.mpy build, pin map, layouts and main.py, written into littlefs directly), and main.py starts
the firmware at power-on with nothing faked: firmware/board/rp2.py drives the strip through
the rp2 port's neopixel, reads the buttons' GPIOs and draws on the SSD1306 over I2C0.
Skips only when no UF2 is found (the message says where to get one).
"""

import json
import os
import time

import paths
import pytest
import serial
from chip_checks import expected_frame
from conftest import needs_uf2

from chancery.vpico import VirtualPico, image
from firmware.pads import TABLE, index_of
from shared_rules import engine, wire

pytestmark = needs_uf2

ROOT = paths.ROOT


def _welcome(port, timeout=60):
    """Say hello on the board's USB serial; returns (welcome body, state body)."""
    got = {}
    with serial.Serial(port, 115200, timeout=0.2) as ser:
        ser.write(wire.encode(1, wire.HELLO, {"proto": wire.PROTO}).encode() + b"\n")
        reader = wire.Reader()
        end = time.monotonic() + timeout
        while time.monotonic() < end and not (wire.WELCOME in got and wire.STATE in got):
            for item in reader.feed(ser.read(512)):
                if not isinstance(item, wire.FrameError):
                    got[item[1]] = item[2]
    assert wire.WELCOME in got and wire.STATE in got, "no welcome from the board: %r" % got
    return got[wire.WELCOME], got[wire.STATE]


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    flash = str(tmp_path_factory.mktemp("chip") / "flash.img")
    image.deployed_image(flash)
    with VirtualPico(flash=flash, pace="free") as vp:
        yield vp


def test_the_deployed_firmware_lights_the_strip_with_the_public_view(board):
    first = board.wait_frame(after_ns=0, timeout=120)
    welcome, state = _welcome(board.port)
    assert welcome["game"] == "chancellors" and state["len"] == 0
    # the host's own match from the welcome: the board's state, rebuilt and viewed here
    match = engine.new_match(welcome["game"], welcome["settings"], welcome["seed"])
    assert match["start"] == welcome["start"] and state["view"] == engine.game_module("chancellors").view(
        match["state"], None)
    with open(os.path.join(ROOT, "hardware", "boards", "rpi-pico.json")) as f:
        cfg = json.load(f)
    assert first.data == expected_frame("chancellors", state["view"], cfg)
    assert 1100 < first.ns_per_bit < 1400  # WS2812 at 800 kHz: 1.25 us a bit


def test_a_gpio_press_reaches_the_menus_and_the_display(board):
    before = board.now_ns()
    board.press_button(index_of(TABLE, "push"))  # the table's push: its menu on the display
    pic = board.wait_display(after_ns=before, timeout=60)
    assert pic.on and "#" in pic.text(), "the display shows nothing after a press"
