"""CircuitPython on the emulated Pico: ../shared/circuitpython-emu/ run with a UF2 named by $CHANCERY_CP_UF2.

What it needs, each found or refused with a message that says what to do (CPSetupError):
- the runner folder ../shared/circuitpython-emu/ (run-cp.mjs, flash.mjs, cpdrive.py, cpfs.sh), or
  $CHANCERY_CP_EMU;
- a CircuitPython UF2 for raspberry_pi_pico ($CHANCERY_CP_UF2: never shipped here or in ../shared/);
- the RP2040 B1 bootrom ($CHANCERY_PICO_BOOTROM, else bootrom-b1.bin beside the UF2, in the runner
  folder or where the MicroPython chip's kit finds one: chancery.vpico.kit);
- Node.js with rp2040js (the MicroPython chip's install, kit.ensure_rp2040js: the same 1.4.1 the
  runner's package.json names) and mtools (mcopy) for the CIRCUITPY FAT in the flash image.

The runner's files are copied, as its README says to set it up, into a folder of the rp2040js cache
(beside its node_modules) with the bootrom as bootrom-b1.bin; the shared folder is never written.
With them goes cp_inputs.mjs, loaded into the runner by node's --import: the GPIOs' pull-ups (rp2040js
reads every open input low) and button presses, which the runner does not model.
"""

import os
import shutil
import subprocess
import sys

from chancery.vpico import kit

ENV_UF2 = "CHANCERY_CP_UF2"
ENV_EMU = "CHANCERY_CP_EMU"
SHARED = os.path.join(os.path.dirname(kit.ROOT), "shared", "circuitpython-emu")
RUNNER = ("run-cp.mjs", "flash.mjs", "package.json", "cpdrive.py", "cpfs.sh")
INPUTS = os.path.join(kit.HERE, "cp_inputs.mjs")
FAT_OFFSET = 1 << 20  # CircuitPython 10 on a 2 MB Pico: its FAT at flash offset 1 MiB (the runner's cpfs.sh)
DOWNLOAD = "https://circuitpython.org/board/raspberry_pi_pico/"


class CPSetupError(kit.VPicoSetupError):
    """Something CircuitPython on the emulator needs is missing; the message says what to do."""


def emu_dir():
    folder = os.environ.get(ENV_EMU) or SHARED
    missing = [f for f in RUNNER if not os.path.isfile(os.path.join(folder, f))]
    if missing:
        raise CPSetupError("no CircuitPython emulator runner in %s (%s missing): it is the team's "
                           "../shared/circuitpython-emu/ beside the checkout, or set %s" % (folder, ", ".join(missing),
                                                                                           ENV_EMU))
    return folder


def find_uf2():
    path = os.environ.get(ENV_UF2)
    if not path:
        raise CPSetupError("no CircuitPython UF2: set %s to CircuitPython 10.x's .uf2 for raspberry_pi_pico "
                           "(from %s, or built in your session)" % (ENV_UF2, DOWNLOAD))
    if not os.path.isfile(path):
        raise CPSetupError("%s=%s: no such file" % (ENV_UF2, path))
    return path


def find_bootrom(uf2, emu):
    if os.environ.get(kit.ENV_BOOTROM):
        return kit.find_bootrom(uf2)
    for candidate in (os.path.join(os.path.dirname(os.path.abspath(uf2)), "bootrom-b1.bin"),
                      os.path.join(emu, "bootrom-b1.bin")):
        if os.path.isfile(candidate):
            return candidate
    return kit.find_bootrom(uf2)


def find_mtools():
    if shutil.which("mcopy") is None:
        raise CPSetupError("mtools is not installed (mcopy, mdir): the CIRCUITPY drive is written into the "
                           "flash image with it (apt-get install mtools)")


def setup(log=None):
    """(the runner folder to run from, the UF2): everything checked, the runner copied beside rp2040js."""
    emu = emu_dir()
    uf2 = find_uf2()
    kit.find_node()
    find_mtools()
    bootrom = find_bootrom(uf2, emu)
    modules = kit.ensure_rp2040js(log)
    here = os.path.join(os.path.dirname(modules), "circuitpython-emu")
    os.makedirs(here, exist_ok=True)
    for name, src in [(f, os.path.join(emu, f)) for f in RUNNER] + [("bootrom-b1.bin", bootrom),
                                                                     ("cp_inputs.mjs", INPUTS)]:
        dst = os.path.join(here, name)
        tmp = "%s.%d.tmp" % (dst, os.getpid())
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)  # whole: side-by-side runs may copy at once
    return here, uf2


def _mtools_env():
    return dict(os.environ, MTOOLS_SKIP_CHECK="1", MTOOLS_NO_VFAT="0")


def fat(image):
    return "%s@@%d" % (image, FAT_OFFSET)


def put(image, folder):
    """Copy folder's contents onto the CIRCUITPY drive in a stopped emulator's flash image (cpfs.sh put)."""
    for name in sorted(os.listdir(folder)):
        subprocess.run(["mcopy", "-i", fat(image), "-s", "-o", "-Q", os.path.join(folder, name), "::/"],
                       check=True, capture_output=True, env=_mtools_env(), timeout=120)


def get(image, path, into):
    """Copy a file or folder (recursively) off the drive into the folder `into`; False when it is not there."""
    done = subprocess.run(["mcopy", "-i", fat(image), "-s", "-o", "-n", "::" + path, into], capture_output=True,
                          env=_mtools_env(), timeout=120)
    return done.returncode == 0


def board(here, uf2, flash, ws2812=(22,), presses=None, log=None, cdc_data=None, cdc_in=None):
    """A cpdrive.Board (the runner's pipe driver) on the flash image, with cp_inputs.mjs loaded.
    cdc_data: a file the board's data port (usb_cdc.data) writes to; cdc_in: a file whose appended
    bytes go to that port, as a host's writes (cp_inputs.mjs)."""
    if here not in sys.path:
        sys.path.insert(0, here)
    import cpdrive

    env = {"NODE_OPTIONS": (os.environ.get("NODE_OPTIONS", "") + " --import=" +
                            "file://" + os.path.join(here, "cp_inputs.mjs")).strip()}
    if presses:
        env["CP_PRESSES"] = presses
    if cdc_data:
        env["PICO_CDC_DATA"] = cdc_data
    if cdc_in:
        env["CP_CDC_IN"] = cdc_in
    return cpdrive.Board(uf2, flash=flash, ws2812=list(ws2812), log=log, env=env)


def board_log(here, uf2, flash, log_dir, presses=False, cdc_data=False):
    """board() with its WS2812 frames logged in full (frames()) and the console kept, under log_dir."""
    env_log = os.path.join(log_dir, "ws2812.jsonl")
    os.environ["PICO_WS2812_LOG"] = env_log  # cpdrive.Board passes the environment on
    try:
        press_file = os.path.join(log_dir, "presses") if presses else None
        if press_file:
            open(press_file, "a").close()
        data_in = os.path.join(log_dir, "cdc-in") if cdc_data else None
        if data_in:
            open(data_in, "ab").close()
        b = board(here, uf2, flash, presses=press_file, log=os.path.join(log_dir, "console.log"),
                  cdc_data=os.path.join(log_dir, "cdc-data") if cdc_data else None, cdc_in=data_in)
    finally:
        del os.environ["PICO_WS2812_LOG"]
    b.frames_file, b.presses_file, b.data_in = env_log, press_file, data_in
    b.data_out = os.path.join(log_dir, "cdc-data") if cdc_data else None
    return b


def send_data(b, raw):
    """Bytes to the board's data port, as a host writes them (board_log(..., cdc_data=True))."""
    with open(b.data_in, "ab") as f:
        f.write(raw)


def data_frames(b):
    """Every frame the board has written to its data port so far, decoded: [(seq, kind, body)]."""
    from shared_rules import wire

    try:
        with open(b.data_out, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return []
    out = []
    for item in wire.Reader().feed(raw):
        if isinstance(item, tuple):
            out.append(item)
    return out


def frames(b, pin=22):
    """[(simulated ms, bytes)] of every frame the board has sent on `pin` so far."""
    import json

    out = []
    try:
        with open(b.frames_file, encoding="utf-8") as f:
            for line in f:
                if line.endswith("\n"):
                    got = json.loads(line)
                    if got["pin"] == pin:
                        out.append((got["t_ms"], bytes.fromhex(got["hex"])))
    except FileNotFoundError:
        pass
    return out


def wait_frame(b, after=0, pin=22, timeout=300):
    """The first frame (t_ms, bytes) on `pin` past the `after` frames sent before; TimeoutError when none comes."""
    import time

    end = time.time() + timeout
    while time.time() < end:
        got = frames(b, pin)
        if len(got) > after:
            return got[after]
        if b.p.poll() is not None:
            break
        time.sleep(0.2)
    raise TimeoutError("no WS2812 frame on GP%d in %ds; console: %r; stderr: %r"
                       % (pin, timeout, bytes(b.out[-600:]), b.stderr_text()[-600:]))


def press(b, gpio, ms=120):
    """Hold `gpio` low for `ms` of simulated time (cp_inputs.mjs)."""
    with open(b.presses_file, "a") as f:
        f.write("press %d %d\n" % (gpio, ms))


def blank_image(here, uf2, path, timeout=300):
    """A flash image on which CircuitPython has booted once, from erased flash: it made its CIRCUITPY FAT
    (with boot_out.txt, code.py, lib/) and the image was saved as the runner exits."""
    if os.path.exists(path):
        os.remove(path)
    with board(here, uf2, path, ws2812=()) as b:
        b.expect(rb"Press any key", timeout)
        b.exec("import os\nos.sync()")
    return path


def deploy_onto(image, drive, board_name="rpi-pico-circuitpython", mpy_cross=None, extra=()):
    """`chancery deploy --board BOARD --drive DRIVE` into the empty folder `drive` standing for the image's
    CIRCUITPY drive (its boot_out.txt copied there first, as CircuitPython wrote it), then the folder onto the
    image. Returns deploy's output."""
    os.makedirs(drive, exist_ok=True)
    if not get(image, "/boot_out.txt", drive):
        raise CPSetupError("%s has no CIRCUITPY drive with a boot_out.txt" % image)
    args = [sys.executable, "-m", "chancery", "deploy", "--board", board_name, "--drive", drive] + list(extra)
    if mpy_cross:
        args += ["--mpy-cross", mpy_cross]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(kit.ROOT, "host"), kit.ROOT,
                                                       os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, cwd=kit.ROOT)
    if done.returncode != 0:
        raise RuntimeError("chancery deploy failed:\n" + done.stdout + done.stderr)
    put(image, drive)
    return done.stdout + done.stderr


def exec_paced(b, code, timeout=300, chunk=64, pause=0.4):
    """cpdrive.Board.exec with the code sent in small pieces: rp2040js's USB CDC holds 512 bytes toward the
    board and drops the rest, and the emulated board reads them at a tenth of wall speed or less (cpdrive's
    256 bytes every 10 ms lose a longer program's tail, and the raw REPL then waits for ever)."""
    import time

    b.send(b"\r\x03\x03")
    time.sleep(0.5)
    b.send(b"\x01")
    b.expect(rb"raw REPL; CTRL-B to exit\r\n>", timeout)
    data = code.encode()
    for i in range(0, len(data), chunk):
        b.send(data[i:i + chunk])
        time.sleep(pause)
    b.send(b"\x04")
    b.expect(rb"OK", timeout)
    body = b.expect(rb"\x04[^\x04]*\x04>", timeout)
    out, err = body[:-1].split(b"\x04")[:2]
    b.send(b"\x02")
    return out.decode(errors="replace"), err.decode(errors="replace")


def run_on_board(b, code, timeout=300):
    """Interrupt code.py (Ctrl-C) and run `code` through the raw REPL; its printed text (an error raises)."""
    b.repl(timeout)
    out, err = exec_paced(b, code, timeout)
    if err.strip():
        raise RuntimeError("the board raised: %s" % err)
    return out


HEAP = """
import gc, json, asyncio
gc.collect()
before = [gc.mem_free(), gc.mem_alloc()]
from firmware import boot, main
table, hw = boot.start(%(opts)r)

async def idle():
    asyncio.create_task(main._main(table, hw, None))
    await asyncio.sleep_ms(%(ms)d)
    gc.collect()
    print("HEAP", json.dumps({"repl": before, "idle": [gc.mem_free(), gc.mem_alloc()], "count": table.count, "game": table.game}))

asyncio.run(idle())
"""


def heap_at_idle(b, opts, ms=1500):
    """The board's heap with the game running at idle: code.py interrupted, the firmware booted again from the
    REPL with code.py's options (main.run's tasks, the inputs and the link, started), `ms` of simulated time
    left to settle, collected. {"repl": [free, alloc] before, "idle": [free, alloc], "count", "game"}."""
    import json

    out = run_on_board(b, HEAP % {"opts": opts, "ms": ms})
    return json.loads(out.split("HEAP", 1)[1].strip().splitlines()[0])


def code_py_options(drive):
    """The options deploy's code.py hands main.run()."""
    import ast
    import re

    with open(os.path.join(drive, "code.py"), encoding="utf-8") as f:
        return ast.literal_eval(re.search(r"main\.run\((\{.*\})\)", f.read()).group(1))
