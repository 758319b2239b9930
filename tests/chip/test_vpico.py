"""The virtual Pico (chancery.vpico): stock MicroPython's RPI_PICO firmware on rp2040js.

Everything the board does here is the real firmware's doing: the REPL over USB CDC on a pty
(mpremote talks to it), machine.bitstream's WS2812 timing decoded back to bytes, the hardware
I2C writes of firmware/board/oled.py rebuilt into the SSD1306's picture, GPIO reads of a
scripted button, littlefs on the modelled NOR flash, across a reboot and a power cut that
tears a flash program. These tests skip only when no UF2 is found (the message says where to
get one); without node they fail, as the virtual Pico would for anyone.

The pure parts (input scripts, the flash model's timing and tearing) run without the UF2.
"""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from chip_repl import RawRepl, mpremote
from conftest import ROOT, UF2, needs_uf2

from chancery.vpico import VirtualPico, inputs, kit
from firmware.buttons import Encoder

pytestmark = pytest.mark.slow(order=9)  # takes minutes: started first (tests/conftest.py)


# --- helpers (mpremote, RawRepl: tests/helpers/chip_repl.py) --------------------------------------

@pytest.fixture(scope="module")
def vp():
    with VirtualPico() as board:
        yield board
    assert not _alive(board.proc.pid), "the chip's node process outlived close()"


# --- the chip under the real firmware ---------------------------------------------------------------

@needs_uf2
def test_the_chip_boots_and_its_pty_answers_mpremote(vp):
    assert mpremote(vp.port, "exec", "print(1+1)") == "2\n"
    out = mpremote(vp.port, "exec", "import sys; print(sys.implementation._machine)")
    assert "Raspberry Pi Pico with RP2040" in out


@needs_uf2
def test_a_pin_the_firmware_drives_reads_back_on_its_line(vp):
    mpremote(vp.port, "exec", "from machine import Pin; Pin(19, Pin.OUT).value(1)")
    assert vp.level(19) == 1
    mpremote(vp.port, "exec", "from machine import Pin; Pin(19, Pin.OUT).value(0)")
    assert vp.level(19) == 0


@needs_uf2
def test_a_neopixel_frame_is_decoded_to_the_bytes_sent(vp):
    pixels = [((i * 7) & 255, 255 - i, (i * 37) & 255) for i in range(116)]
    before = vp.now_ns()
    mpremote(vp.port, "exec", "import machine, neopixel\n"
             "n = neopixel.NeoPixel(machine.Pin(22), 116)\n"
             "for i in range(116): n[i] = ((i * 7) & 255, 255 - i, (i * 37) & 255)\n"
             "n.write()\n")
    frame = vp.wait_frame(after_ns=before, timeout=30)
    assert frame.bits == 116 * 24
    # the pin map's whole panel as it shows after the frame: the 116 LEDs sent, the rest still dark
    sent = bytes(b for r, g, b_ in pixels for b in (g, r, b_))  # GRB on the wire
    assert frame.data == sent + bytes(len(frame.data) - len(sent)) and len(frame.data) >= len(sent)
    assert frame.pixels("GRB")[:116] == pixels
    # machine.bitstream's 800 kHz: 1.25 us a bit, counted in the core's cycles
    assert 1200 <= frame.ns_per_bit <= 1300, frame.ns_per_bit
    assert before < frame.first_ns < frame.last_ns


@needs_uf2
def test_oled_py_draws_on_the_display_as_framebuf_would(vp, micropython):
    draw = ("d.fill(0)\n"
            "d.text('Chancery', 0, 0, 1)\n"
            "d.text('vpico 1.28', 8, 24, 1)\n"
            "d.text('>seat 3', 0, 56, 1)\n")
    # the picture MicroPython's own framebuf makes of the same text (the unix port's)
    want = subprocess.run([micropython, "-c", "import framebuf, binascii\n"
                           "buf = bytearray(1024)\n"
                           "d = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)\n" + draw +
                           "print(binascii.hexlify(buf).decode())\n"],
                          check=True, capture_output=True, text=True, timeout=60).stdout.strip()
    before = vp.now_ns()
    with open(ROOT / "firmware" / "board" / "oled.py") as f:
        source = f.read()
    out = mpremote(vp.port, "exec", source + "\nimport machine\n"
                   "i2c = machine.I2C(0, sda=machine.Pin(20), scl=machine.Pin(21), freq=400000)\n"
                   "print(i2c.scan())\n"
                   "d = SSD1306(i2c, 0x3C)\n" + draw + "d.show()\n")
    assert out.strip() == "[60]"  # the display answers, and nothing else on the bus
    picture = vp.wait_display(after_ns=before, timeout=30)
    assert picture.on and not picture.inverted
    assert picture.ram.hex() == want, "\n" + picture.text()
    assert sum(map(sum, picture.rows)) > 100


@needs_uf2
def test_a_bouncing_button_press_is_seen_by_the_board(vp):
    repl = RawRepl(vp.port)
    try:
        repl.start("import time\n"
                   "from machine import Pin\n"
                   "p = Pin(16, Pin.IN, Pin.PULL_UP)\n"
                   "seen = [(p.value(), 0)]\n"
                   "print('ready')\n"
                   "t0 = time.ticks_us()\n"
                   "while time.ticks_diff(time.ticks_us(), t0) < 2000000:\n"
                   "    v = p.value()\n"
                   "    if v != seen[-1][0]:\n"
                   "        seen.append((v, time.ticks_diff(time.ticks_us(), t0)))\n"
                   "    if v == 1 and len(seen) > 1 and time.ticks_diff(time.ticks_us(), t0) - seen[-1][1] > 20000:\n"
                   "        break\n"
                   "print(seen)\n")
        repl.read_until(b"ready")
        pressed, released = vp.press(16, hold_ms=80)
        out = repl.read_until(b"\x04", timeout=60).decode()
    finally:
        repl.close()
    seen = eval(out[out.index("["):out.rindex("]") + 1])
    levels = [v for v, _ in seen]
    assert levels[0] == 1 and levels[1] == 0 and levels[-1] == 1, seen  # idle high, pressed low, let go
    assert len(levels) >= 4, f"no bounce seen: {seen!r}"
    down = seen[1][1]
    up = [t for v, t in seen if v == 1][-1]
    assert 78000 <= up - down <= 83000, seen  # held 80 ms on the board's own clock
    assert released - pressed == 80_000_000


@needs_uf2
def test_flash_erase_and_program_take_a_w25q16s_time_on_the_boards_clock(vp):
    # the filesystem's last block, read, erased and programmed back as it was
    out = mpremote(vp.port, "exec", "import rp2, time\n"
                   "f = rp2.Flash()\n"
                   "n = f.ioctl(4, 0) - 1\n"
                   "buf = bytearray(4096)\n"
                   "f.readblocks(n, buf)\n"
                   "t = time.ticks_us(); f.ioctl(6, n); erase = time.ticks_diff(time.ticks_us(), t)\n"
                   "t = time.ticks_us(); f.writeblocks(n, buf, 0); program = time.ticks_diff(time.ticks_us(), t)\n"
                   "print(erase, program)\n")
    erase, program = map(int, out.split())
    assert 45_000 <= erase < 47_000, erase  # a 4 KB sector: 45 ms
    assert 16 * 400 <= program < 8_000, program  # 16 pages of 0.4 ms


@needs_uf2
def test_the_flash_keeps_files_across_a_power_cut_and_boot(vp):
    mpremote(vp.port, "exec", "with open('/kept.txt', 'w') as f: f.write('across the cut')")
    cut = vp.cut(after_ns=1_000_000)
    assert cut["torn"] is None  # nothing was being written
    vp.boot()
    assert mpremote(vp.port, "exec", "print(open('/kept.txt').read())") == "across the cut\n"


@needs_uf2
def test_a_cut_during_a_flash_program_tears_it_and_littlefs_survives(vp):
    old = b"old!" * 2048
    mpremote(vp.port, "exec", "with open('/big.bin', 'wb') as f: f.write(b'old!' * 2048)")
    repl = RawRepl(vp.port)
    try:
        repl.start("f = open('/big.bin', 'wb')\n"
                   "for i in range(48):\n"
                   "    f.write(bytes([65 + i % 26]) * 1024)\n"
                   "    f.flush()\n"
                   "    if i == 8: print('writing')\n"
                   "f.close()\n")
        repl.read_until(b"writing")
        cut = vp.cut(during="program", timeout=60)
    finally:
        repl.close()
    torn = cut["torn"]
    assert torn and torn["kind"] == "program" and 0 < torn["done"] < torn["of"], cut
    vp.boot()
    out = mpremote(vp.port, "exec", "import os, binascii\n"
                   "print(sorted(os.listdir('/')))\n"
                   "print(binascii.hexlify(open('/big.bin', 'rb').read()).decode())\n")
    listing, data = out.splitlines()
    assert "kept.txt" in listing and "big.bin" in listing, listing  # mounted, not reformatted
    data = bytes.fromhex(data)
    new = b"".join(bytes([65 + i % 26]) * 1024 for i in range(48))
    assert data == old or (0 < len(data) < len(new) and new.startswith(data)), (len(data), data[:16])
    # and it takes new writes
    assert mpremote(vp.port, "exec", "with open('/after.txt', 'w') as f: f.write('ok')\n"
                    "print(open('/after.txt').read())") == "ok\n"


@needs_uf2
def test_machine_reset_reboots_on_the_same_flash(vp):
    resets = len(vp.resets)
    mpremote(vp.port, "exec", "open('/reset.txt', 'w').write('kept')")
    mpremote(vp.port, "reset")  # machine.reset(), not waiting for an answer (as chancery deploy ends)
    vp._wait(lambda: len(vp.resets) > resets, 30, "the watchdog reset")
    vp.wait_usb(30)
    assert mpremote(vp.port, "exec", "import machine; print(open('/reset.txt').read(), machine.reset_cause())") \
        == "kept 3\n"  # machine.WDT_RESET


# --- its life: never a node process left behind ------------------------------------------------------

def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(") ")[1][0] != "Z"


@needs_uf2
def test_close_ends_the_node_process_and_a_killed_parent_takes_it_along(tmp_path):
    with VirtualPico(flash=str(tmp_path / "a.img"), wait_usb=False) as board:
        pid = board.proc.pid
    assert not _alive(pid)
    assert os.path.getsize(tmp_path / "a.img") == 16 * 1024 * 1024  # saved on close
    # A parent that dies without closing (SIGKILL: no atexit) still takes node with it.
    script = ("import sys, time\n"
              "from chancery.vpico import VirtualPico\n"
              "vp = VirtualPico(flash=sys.argv[1], wait_usb=False)\n"
              "print(vp.proc.pid, flush=True)\n"
              "time.sleep(60)\n")
    parent = subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "b.img")], stdout=subprocess.PIPE, text=True)
    try:
        pid = int(parent.stdout.readline())
        assert _alive(pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(pid), "node outlived its parent"
    finally:
        parent.kill()
        parent.wait()


@needs_uf2
def test_a_uf2_for_another_board_is_named_and_refused(tmp_path):
    with open(UF2, "rb") as f:
        blocks = bytearray(f.read())
    blocks[28:32] = (0xE48BFF59).to_bytes(4, "little")  # the first block says RP2350 (a Pico 2)
    other = tmp_path / "pico2.uf2"
    other.write_bytes(bytes(blocks))
    with pytest.raises(Exception, match="RP2350.*micropython.org/download/RPI_PICO"):
        VirtualPico(flash=str(tmp_path / "x.img"), uf2=str(other), bootrom=kit.find_bootrom(UF2))


# --- the pure parts -----------------------------------------------------------------------------

def test_a_press_bounces_at_both_edges_and_ends_as_meant():
    steps = inputs.press_steps(16, active_low=True, hold_ms=80)
    levels = [lv for _, _, lv in steps]
    times = [t for t, _, _ in steps]
    assert times == sorted(times) and times[0] == 0
    assert levels[0] == 0 and levels[len(levels) // 2 - 1] == 0  # closes (low), bouncing, stays closed
    assert levels[len(levels) // 2] == 1 and levels[-1] == 1  # opens at 80 ms, bouncing, stays open
    assert times[len(levels) // 2] == 80_000_000
    with pytest.raises(ValueError):
        inputs.press_steps(16, hold_ms=0.1)


@pytest.mark.parametrize("detents", [1, 3, -2])
def test_a_turn_is_counted_by_the_firmwares_encoder(detents):
    enc = Encoder(1, 1, 4)
    levels = {26: 1, 27: 1}
    total = 0
    for _, pin, level in inputs.quadrature(26, 27, detents):
        levels[pin] = level
        total += enc.update(levels[26], levels[27])
    assert total == detents and enc.errors == 0


def test_the_flash_model_is_busy_for_a_w25q16s_times_and_tears_at_a_cut():
    node = kit.find_node()
    script = """
import { NorFlash } from MODULE;
let t = 0;
const image = new Uint8Array(1 << 20).fill(0xff);
image.fill(0x11, 0x2000, 0x3000);
const flash = new NorFlash(image, () => t);
const send = (...bytes) => { flash.chipSelect(0); for (const b of bytes) { flash.cmd.push(b); flash.reply(); } flash.chipSelect(1); };
const status = () => { flash.chipSelect(0); flash.cmd.push(5); flash.cmd.push(0); const s = flash.reply(); flash.chipSelect(1); return s; };
const out = {};
send(6); send(0x20, 0, 0x20, 0);                 // erase the sector at 0x2000
out.eraseBusy = [status() & 1, (t = 44.9e6, status() & 1), (t = 45.1e6, status() & 1)];
out.erased = image.subarray(0x2000, 0x3000).every((b) => b === 0xff);
send(6); send(2, 0, 0x20, 0, ...new Array(256).fill(0x00));   // program a page at t = 45.1 ms
out.programBusy = [status() & 1, (t = 45.1e6 + 0.39e6, status() & 1), (t = 45.1e6 + 0.41e6, status() & 1)];
t = 46e6; send(6); send(2, 0, 0x2f, 0, ...new Array(256).fill(0x00));   // and the sector's last page
t = 47e6; send(6); send(0x20, 0, 0x20, 0);       // erase the sector again, and cut at a fifth of its 45 ms
t += 9e6;
out.torn = flash.tear();
out.firstPage = image.subarray(0x2000, 0x2100).every((b) => b === 0xff);   // reached: erased
out.lastPage = image.subarray(0x2f00, 0x3000).every((b) => b === 0x00);    // not reached: as it was
out.afterCut = status() & 1;
console.log(JSON.stringify(out));
""".replace("MODULE", json.dumps(os.path.join(kit.HERE, "nor-flash.mjs")))
    run = subprocess.run([node, "--input-type=module", "-e", script], check=False, capture_output=True, text=True,
                         timeout=30)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["eraseBusy"] == [1, 1, 0] and out["erased"]
    assert out["programBusy"] == [1, 1, 0]
    assert out["torn"] == {"kind": "erase", "addr": 0x2000, "length": 4096, "done": 819, "of": 4096}
    assert out["firstPage"] and out["lastPage"] and out["afterCut"] == 0


def test_a_cut_can_leave_the_bits_of_its_operation_half_done():
    """Issue 44: a torn page kept a clean prefix, where real NOR can leave any of the bits being
    programmed (or erased) at either value. tear(seed): over the whole operation, each changing bit
    is left old or new at random, the same for the same seed; bits not being changed are never
    touched."""
    node = kit.find_node()
    script = """
import { NorFlash } from MODULE;
let t = 0;
const run = (seed) => {
  const image = new Uint8Array(1 << 16).fill(0xff);
  image.fill(0xf0, 0x1000, 0x1100);
  const flash = new NorFlash(image, () => t);
  const send = (...bytes) => { flash.chipSelect(0); for (const b of bytes) { flash.cmd.push(b); flash.reply(); } flash.chipSelect(1); };
  t = 0;
  send(6); send(2, 0, 0x10, 0, ...new Array(256).fill(0x00));   // program the page at 0x1000 to zeros
  t = 0.1e6;
  const torn = flash.tear(seed);
  const page = Array.from(image.subarray(0x1000, 0x1100));
  return { torn, page };
};
const a = run(7), b = run(7), c = run(8);
console.log(JSON.stringify({ a, same: JSON.stringify(a) === JSON.stringify(b), other: JSON.stringify(a.page) !== JSON.stringify(c.page) }));
""".replace("MODULE", json.dumps(os.path.join(kit.HERE, "nor-flash.mjs")))
    run = subprocess.run([node, "--input-type=module", "-e", script], check=False, capture_output=True, text=True,
                         timeout=30)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    page = out["a"]["page"]
    assert all(b & 0x0F == 0 for b in page)  # the low bits were 0 already: never touched
    assert len(set(page)) > 4 and any(b & 0xF0 not in (0, 0xF0) for b in page)  # bits of one byte, either way
    assert out["a"]["torn"]["bits"] == 7 and out["a"]["torn"]["changing"] == 256 and out["same"] and out["other"]


def test_an_erase_cut_can_leave_its_bits_half_set():
    """The erase side of tear(seed): over the whole sector, each bit being set (0 to 1) is left
    0 or 1 at random; bits already 1 stay 1, the sectors around it are not touched, the same seed
    tears the same way, and the chip is idle after it."""
    node = kit.find_node()
    script = """
import { NorFlash } from MODULE;
let t = 0;
const run = (seed) => {
  const image = new Uint8Array(1 << 16).fill(0xff);
  image.fill(0x5a, 0x1000, 0x4000);   // 0101 1010: the bits of 0xa5 are the ones an erase sets
  const flash = new NorFlash(image, () => t);
  const send = (...bytes) => { flash.chipSelect(0); for (const b of bytes) { flash.cmd.push(b); flash.reply(); } flash.chipSelect(1); };
  const status = () => { flash.chipSelect(0); flash.cmd.push(5); flash.cmd.push(0); const s = flash.reply(); flash.chipSelect(1); return s; };
  t = 0;
  send(6); send(0x20, 0, 0x20, 0);    // erase the sector at 0x2000
  t = 30e6;
  const torn = flash.tear(seed);
  return { torn, sector: Array.from(image.subarray(0x2000, 0x3000)), around: Array.from(image.subarray(0x1000, 0x2000)).concat(Array.from(image.subarray(0x3000, 0x4000))), busy: status() & 1 };
};
const a = run(99), b = run(99);
console.log(JSON.stringify({ a, same: JSON.stringify(a) === JSON.stringify(b) }));
""".replace("MODULE", json.dumps(os.path.join(kit.HERE, "nor-flash.mjs")))
    run = subprocess.run([node, "--input-type=module", "-e", script], check=False, capture_output=True, text=True,
                         timeout=30)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    sector = out["a"]["sector"]
    assert all(b & 0x5A == 0x5A for b in sector)  # bits that were 1 stay 1
    assert any(b == 0xFF for b in sector) and any(b == 0x5A for b in sector)  # set, or left as it was
    assert any(b not in (0x5A, 0xFF) for b in sector)  # a byte with some of its bits set, some not
    assert set(out["a"]["around"]) == {0x5A}  # the sectors around it are not touched
    torn = out["a"]["torn"]
    assert torn["kind"] == "erase" and torn["bits"] == 99 and torn["done"] is None and torn["changing"] == 4096
    assert torn["halfBytes"] == sum(b != 0xFF for b in sector)
    assert out["a"]["busy"] == 0 and out["same"]
