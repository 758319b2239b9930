"""The CircuitPython board on CircuitPython: the circuitpy backend on CircuitPython 10 for raspberry_pi_pico,
run on ../shared/circuitpython-emu/ (chancery.vpico.cp), with the UF2 named by $CHANCERY_CP_UF2.

A blank flash boots CircuitPython once, which makes its CIRCUITPY FAT; `chancery deploy --board
rpi-pico-circuitpython --drive DIR` writes into a folder standing for the drive (its boot_out.txt
copied off the image first, so deploy checks it as on a real drive), and the folder goes onto the image
with mtools. Then the board boots from deploy's boot.py and code.py, with nothing faked but the
GPIOs' pull-ups (cp_inputs.mjs: rp2040js reads every open input low, so every button would be held,
boot.py's host key among them) and the host side of the second USB serial port (the runner wires only
what the board writes there; cp_inputs.mjs feeds it what a host writes). The tests run in order on the one image: each boots the board as the
one before left its flash.

Skipped, saying what is missing, without the UF2, the runner folder, node or mtools; the board's
modules are compiled by CircuitPython's mpy-cross ($CHANCERY_CP_MPY_CROSS) when one is named (a Pico's
heap is too small for the sources: then skipped too).
"""

import json
import os
import time

import pytest
from chip_checks import expected_frame

from chancery.vpico import cp
from firmware import pads
from firmware.controls import Controls
from firmware.journal import Journal
from firmware.table import Table
from shared_rules import canon, engine, wire

BOARD = "rpi-pico-circuitpython"
STRIP = 22  # the pin map's strip data pin (GP22)


def _missing():
    try:
        cp.emu_dir()
        uf2 = cp.find_uf2()
        from chancery.vpico import kit

        kit.find_node()
        cp.find_mtools()
        cp.find_bootrom(uf2, cp.emu_dir())
    except cp.CPSetupError as e:
        return str(e)
    except Exception as e:  # node too old, no bootrom: kit's messages
        return str(e)
    if not os.environ.get("CHANCERY_CP_MPY_CROSS"):
        return ("no CircuitPython mpy-cross: set CHANCERY_CP_MPY_CROSS to CircuitPython 10's mpy-cross (the board's "
                "modules as sources do not fit a Pico's heap)")
    return None


MISSING = _missing()
pytestmark = [pytest.mark.skipif(MISSING is not None, reason="CircuitPython on the emulator: %s" % MISSING), pytest.mark.slow(order=2)]


def _the_board_booting(here, uf2, image, logs):
    return cp.board_log(here, uf2, image, logs)


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """(the runner folder, the UF2, the deployed image, the drive folder deploy wrote, a folder for logs)."""
    try:
        here, uf2 = cp.setup()
    except cp.CPSetupError as e:
        pytest.skip(str(e))
    top = tmp_path_factory.mktemp("cp")
    image = str(top / "flash.img")
    cp.blank_image(here, uf2, image)
    drive = str(top / "CIRCUITPY")
    said = cp.deploy_onto(image, drive, BOARD, os.environ["CHANCERY_CP_MPY_CROSS"])
    assert "verified" in said, said
    return {"here": here, "uf2": uf2, "image": image, "drive": drive, "top": top}


def _boot_log(kit, name):
    d = kit["top"] / name
    d.mkdir()
    return str(d)


def _on_drive(kit, *parts):
    with open(os.path.join(kit["drive"], *parts), encoding="utf-8") as f:
        return json.load(f)


def _journal(kit, name):
    """The board's journal (/chancery on its drive), copied off the stopped board's image, resumed on CPython:
    (header, state, count, the digest the next entry chains on)."""
    into = kit["top"] / name
    into.mkdir()
    assert cp.get(kit["image"], "/chancery", str(into)), "no /chancery on the board's drive"
    journal = Journal(str(into / "chancery"))
    header, state, count = journal.resume(engine)
    return header, state, count, journal.last


def _expected(kit, header, state):
    game = header["game"]
    cfg = _on_drive(kit, "hardware", "boards", BOARD + ".json")  # the board's own copies, as deploy wrote them
    layout = _on_drive(kit, "hardware", "layouts", game + ".json")
    return expected_frame(game, engine.game_module(game).view(state, None), cfg, layout=layout)


def test_the_deployed_board_boots_to_its_first_frame_the_render_of_its_game(kit):
    """Deploy's files on the drive boot: boot.py gives the firmware the drive, code.py starts the game, the
    journal is written, and the first frame on GP22 is the CPython render of the journalled state."""
    started = time.time()
    with _the_board_booting(kit["here"], kit["uf2"], kit["image"], _boot_log(kit, "boot1")) as b:
        t_ms, first = cp.wait_frame(b, pin=STRIP)
        kit["first"] = first
        print("first frame: %.1f s simulated, %.0f s wall" % (t_ms / 1000, time.time() - started))
        time.sleep(2)  # the journal's writes flushed by CircuitPython's background before the runner saves
    header, state, count, _ = _journal(kit, "journal1")
    assert header["game"] == "chancellors" and count == 0
    assert len(first) == 3 * _on_drive(kit, "hardware", "boards", BOARD + ".json")["strip"]["leds"]  # the panel
    assert first == _expected(kit, header, state)
    assert any(first), "the first frame is dark"


MOVE = {"type": "score", "seat": 0, "amount": 3}
ACT = """
import json, os
from firmware import boot
table, hw = boot.start(%(opts)r)
table.act(%(move)r)
hw.show(table)
os.sync()
print("ENTRY", json.dumps([table.count, table.journal.last]))
"""
READ = """
import json
from firmware import pads
from firmware.journal import Journal
from firmware.table import Table
from shared_rules import canon, engine, wire
j = Journal("/chancery")
h, s, c = j.resume(engine)
print("RESUMED", json.dumps([h["game"], c, j.last]))
"""


def test_an_action_entered_on_the_board_survives_a_reset(kit):
    """An action entered through the firmware's Table on the board's own journal (over the REPL: the runner
    cannot press the buttons of a stopped code.py's menus), the board stopped (its flash saved) and started
    again: it resumes at the same count and digest, and its first frame is the render of the state after it."""
    if "first" not in kit:
        pytest.skip("the boot test did not run first")
    with _the_board_booting(kit["here"], kit["uf2"], kit["image"], _boot_log(kit, "boot2")) as b:
        cp.wait_frame(b, pin=STRIP)
        out = cp.run_on_board(b, ACT % {"opts": cp.code_py_options(kit["drive"]), "move": MOVE})
        count, digest = json.loads(out.split("ENTRY", 1)[1].strip().splitlines()[0])
        assert count == 1
        time.sleep(2)
    header, state, on_drive, last = _journal(kit, "journal2")
    assert (on_drive, last) == (count, digest)
    with _the_board_booting(kit["here"], kit["uf2"], kit["image"], _boot_log(kit, "boot3")) as b:
        _t, first = cp.wait_frame(b, pin=STRIP)
        assert first == _expected(kit, header, state) and first != kit["first"]
        out = cp.run_on_board(b, READ)
    game, resumed, chained = json.loads(out.split("RESUMED", 1)[1].strip().splitlines()[0])
    assert (game, resumed, chained) == ("chancellors", count, digest)


# The table's controls, as a player enters "score: seat 0, +1" (firmware/menus.py's table menu): push opens
# it, right moves to score, push picks it and the seat (seat 0), right steps the amount from 0 to +1, push
# picks it, push sends it.
KEYS = ["push", "right", "push", "push", "right", "push", "push"]


def _shadow(kit, name):
    """A Table on CPython on a copy of the board's journal (its game as the board left it)."""
    into = kit["top"] / name
    into.mkdir()
    assert cp.get(kit["image"], "/chancery", str(into))
    return Table(Journal(str(into / "chancery")), os.urandom).boot()


def test_presses_on_the_gpios_enter_an_action_through_the_menus(kit):
    """Presses of the table's buttons (GP16 push, GP17 right: switches to GND read with the pull-up, held low
    for 120 ms of simulated time by cp_inputs.mjs) go through the backend's scan, the buttons' debounce and
    the table's menu into an entry: the same entry a CPython table makes from the same keys on the same
    journal, and a frame of the new state on the strip."""
    if "first" not in kit:
        pytest.skip("the boot test did not run first")
    shadow = _shadow(kit, "shadow")
    keys = Controls(shadow)  # its keys, as firmware/boot.py composes them
    before = shadow.count
    for k in KEYS:
        keys.pressed(pads.TABLE, pads.menu_name(k, pads.SHORT))
    assert shadow.count == before + 1, "the keys enter nothing on CPython: %r" % (keys.status(),)
    cfg = _on_drive(kit, "hardware", "boards", BOARD + ".json")
    with cp.board_log(kit["here"], kit["uf2"], kit["image"], _boot_log(kit, "presses"), presses=True) as b:
        cp.wait_frame(b, pin=STRIP)
        time.sleep(20)  # the first awaited press computed (table.idle: the roll ahead) before the first key
        shown = len(cp.frames(b, STRIP))
        for k in KEYS:
            gpio = cfg["names"][cfg["buttons"][pads.index_of(pads.TABLE, k)]]
            released = b.stderr_text().count("[release GP%d " % gpio)
            cp.press(b, gpio, 120)
            end = time.time() + 60
            while b.stderr_text().count("[release GP%d " % gpio) == released and time.time() < end:
                time.sleep(0.1)
            time.sleep(0.5)  # the next key may come while the board still steps the menu: keypad queues it
        cp.wait_frame(b, after=shown, pin=STRIP, timeout=120)
        time.sleep(5)  # the entry shown, and flushed to the drive before the runner saves the flash
        frame = cp.frames(b, STRIP)[-1][1]  # the last: a menu's step may show a frame of its own before
    header, state, count, last = _journal(kit, "journal-presses")
    assert (count, last) == (shadow.count, shadow.journal.last)
    assert frame == _expected(kit, header, shadow.state)


LINK_MOVE = {"type": "score", "seat": 1, "amount": 2}


def _frames_of(b, kind, n=1, timeout=120):
    """The board's frames of `kind` on its data port, once there are n of them."""
    end = time.time() + timeout
    while time.time() < end:
        got = [f for f in cp.data_frames(b) if f[1] == kind]
        if len(got) >= n:
            return got
        if b.p.poll() is not None:
            break
        time.sleep(0.2)
    raise AssertionError("no %s frame on the data port in %ds; it sent %r; stderr: %r"
                         % (kind, timeout, cp.data_frames(b)[-4:], b.stderr_text()[-600:]))


def test_the_link_runs_over_the_data_port(kit):
    """The host's link on the second USB serial port (usb_cdc.data, enabled by deploy's boot.py), the REPL's
    console left alone: a hello is answered with the welcome of the journalled game, an act from the host is
    entered (its entry frame and ok), journalled on the drive, and shown on the strip."""
    if "first" not in kit:
        pytest.skip("the boot test did not run first")
    header, state, count, _ = _journal(kit, "journal-before-link")
    with cp.board_log(kit["here"], kit["uf2"], kit["image"], _boot_log(kit, "link"), cdc_data=True) as b:
        cp.wait_frame(b, pin=STRIP)
        shown = len(cp.frames(b, STRIP))
        cp.send_data(b, b"\n" + wire.encode(1, wire.HELLO, {"proto": wire.PROTO}).encode())
        welcome = _frames_of(b, wire.WELCOME)[0][2]
        assert (welcome["game"], welcome["len"], welcome["digest"]) == ("chancellors", count, canon.digest(state))
        cp.send_data(b, wire.encode(2, wire.ACT, {"seat": None, "move": LINK_MOVE}).encode())
        entry = _frames_of(b, wire.ENTRY)[0][2]
        assert entry["i"] == count and entry["move"]["type"] == "score"
        assert any(f[1] == wire.OK and f[2]["re"] == 2 for f in _frames_of(b, wire.OK))
        cp.wait_frame(b, after=shown, pin=STRIP, timeout=120)
        time.sleep(5)  # flushed to the drive before the runner saves the flash
        frame = cp.frames(b, STRIP)[-1][1]
    header, state, after, digest = _journal(kit, "journal-link")
    assert (after, digest) == (count + 1, entry["digest"])
    assert frame == _expected(kit, header, state)


def test_the_heap_at_idle_is_reported(kit):
    """The heap on CircuitPython with the game running at idle (tools/chip/cp_heap.py's figure): reported, and
    only checked to be there (the board boots and plays)."""
    if "first" not in kit:
        pytest.skip("the boot test did not run first")
    with cp.board_log(kit["here"], kit["uf2"], kit["image"], _boot_log(kit, "heap")) as b:
        cp.wait_frame(b, pin=STRIP)
        heap = cp.heap_at_idle(b, cp.code_py_options(kit["drive"]))
    free, used = heap["idle"]
    print("CircuitPython heap at idle in %s: %d free, %d in use" % (heap["game"], free, used))
    assert heap["game"] == "chancellors" and heap["count"] >= 1 and free > 0
