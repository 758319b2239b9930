"""`chancery sim --chip`: the main job on the virtual Pico, the stock RP2040 firmware with our code deployed.

The board runs the stock RPI_PICO MicroPython UF2 on rp2040js (chancery.vpico), its flash
kept in the user data folder (or --data), so a game survives a restart as it does on a Pico.
Before the mirror opens, the checkout's firmware goes onto that flash with `chancery deploy`,
but only when the code changed since the last deploy to it: a stamp of what was deployed
(the sources, the pin map and layouts, the deploy code, mpy-cross) sits beside the image.

The mirror then shows what the chip's pins show: the strip as decoded from the WS2812
waveform on its data pin, and the display as rebuilt from the I2C traffic, not re-rendered
from the game. The keyboard presses the board's buttons on their GPIOs (with contact
bounce) and turns its encoder, as fingers would; the command line and :new still go over
the USB serial link.
"""

import hashlib
import os
import subprocess
import sys
import time

import platformdirs

from chancery import ROOT
from chancery.board import micropython as mp

BOARD = "rpi-pico"
STAMP = "deployed.sha256"
HOLD_MS = {"short": 80, "long": 900}  # a tap, and a hold past the firmware's long press (600 ms)
# How long the host waits for the board's first answer while the chip runs. The chip is emulated:
# on a loaded machine its boot (the firmware's imports, the game's resume) takes many times a
# Pico's, so the wait ends when the chip stops or after this, not after a few hellos.
BOARD_WAIT_S = 300.0
HELLO_S = 5.0  # each hello's wait for its welcome


def wait_for_board(vp, link, deployed, limit, clock=time.monotonic, say=None):
    """Hello the board on `link` until it answers, while the chip `vp` is alive, for at most
    `limit` seconds, saying on the terminal how long it has waited. None once it answered, else
    what happened, in words that fit it: the chip stopped, or the firmware (deployed and verified
    just now, or already there) did not answer in time."""
    from chancery.board.link import LinkError

    say = say or (lambda line: print(line, flush=True))
    began = clock()
    say("  waiting for the board to boot and resume its game...")
    while True:
        if not vp.alive():
            return "the virtual Pico stopped before its firmware answered"
        try:
            link.open()
            link.hello(wait=HELLO_S)
            return None
        except (OSError, LinkError):
            link.close()
        waited = clock() - began
        if waited >= limit:
            if deployed:
                return ("the firmware was deployed and verified, but the board did not answer within %d s while "
                        "the chip ran; the machine may be too busy for the emulated chip: try again when it is "
                        "quieter" % limit)
            return ("the board did not answer within %d s while the chip ran. Its firmware was deployed before "
                    "(the stamp in its data folder says so); if the flash was changed since, remove the stamp "
                    "(%s) to deploy again" % (limit, STAMP))
        say("  still booting (%d s)..." % waited)


def code_stamp(board=BOARD):
    """A hash of everything `chancery deploy` builds from: when it is unchanged, so is the deploy."""
    from chancery.deploy import flash, modules, rom, romfs

    h = hashlib.sha256()
    files = [os.path.join(ROOT, "hardware", "boards", board + ".json"),
             os.path.join(ROOT, "hardware", "arrangement.json")] + [
        os.path.abspath(m.__file__) for m in (flash, modules, rom, romfs)]
    for folder in ("shared_rules", "firmware", os.path.join("hardware", "layouts")):
        for base, dirs, names in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            files += [os.path.join(base, n) for n in sorted(names) if n.endswith((".py", ".json"))]
    for path in files:
        h.update(os.path.relpath(path, ROOT).encode() + b"\0")
        with open(path, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    h.update(repr(flash.ours()).encode())  # the .mpy version mpy-cross writes
    h.update(repr(mp.MPY_ARGS).encode())  # and how it is asked to write it
    return h.hexdigest()


def deploy_if_changed(port, data, say=print, board=BOARD):
    """Deploy the checkout to the board on `port` unless the stamp in `data` says it is there
    already. Returns True if it deployed. Raises flash.DeployError."""
    from chancery.deploy import flash

    stamp_path = os.path.join(data, STAMP)
    stamp = code_stamp(board)
    try:
        with open(stamp_path) as f:
            if f.read().strip() == stamp:
                return False
    except OSError:
        pass
    say("deploying the firmware to the virtual Pico (only the files that changed)...")
    flash.deploy(port, board, say=lambda line: say("  " + line))
    with open(stamp_path, "w") as f:
        f.write(stamp + "\n")
    return True


class ChipPins:
    """What the mirror reads from and presses on the virtual Pico's pins."""

    def __init__(self, vp):
        self.vp = vp
        from firmware.board import pins

        self.offsets = pins.order_offsets(pins.strip(vp.pins)[2])  # wire byte k of an LED is RGB[offsets[k]]

    def seen(self):
        """Changes when the strip or the display shows something new."""
        return len(self.vp.frames), len(self.vp.pictures)

    def frame(self, out):
        """The strip's last frame into `out` (RGB per LED, as render() writes); False before the first."""
        if not self.vp.frames:
            return False
        data = self.vp.frames[-1].data
        o = self.offsets
        n = min(len(out), len(data)) // 3 * 3
        for j in range(0, n, 3):
            for k in range(3):
                out[j + o[k]] = data[j + k]
        for j in range(n, len(out)):
            out[j] = 0
        return True

    def display_text(self):
        pic = self.vp.display
        if pic is None:
            return "(the display has shown nothing yet)"
        if not pic.on:
            return "(the display is off)"
        try:
            lines = pic.lines()  # read back from the pixels in the chip's own font
        except (OSError, subprocess.SubprocessError, RuntimeError):  # no MicroPython here to draw the font
            lines = None
        while lines and not lines[-1]:
            lines.pop()
        return "\n".join(lines) if lines is not None else braille(pic)

    def press(self, pad, key, hold):
        """A keyboard key on the board's GPIOs: the encoder for a short left/right, else the button."""
        from firmware import pads

        names = pads.TABLE_BUTTONS if pad == pads.TABLE else pads.PAD_BUTTONS
        name = names[key]
        if pad == pads.TABLE and name in ("left", "right") and hold == "short" and self.vp.pins.get("encoder"):
            self.vp.turn(-1 if name == "left" else 1)
        else:
            self.vp.press_button(pads.index_of(pad, name), hold_ms=HOLD_MS[hold])


def braille(picture):
    """The 128x64 picture in 64x16 braille cells (2x4 dots each): the whole display in a terminal."""
    dots = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40),
            (1, 3, 0x80))
    rows = []
    for cy in range(0, 64, 4):
        line = []
        for cx in range(0, 128, 2):
            bits = 0
            for dx, dy, bit in dots:
                if picture.pixel(cx + dx, cy + dy) != picture.inverted:
                    bits |= bit
            line.append(chr(0x2800 + bits))
        rows.append("".join(line))
    return "\n".join(rows)


def run(args, wanted, names=None):
    """`chancery sim --chip`; `wanted` is the new game asked for (or None: resume the board's),
    `names` the seats' names asked for (or None)."""
    from chancery.board.link import Link
    from chancery.deploy import flash
    from chancery.logbook.store import Logbook
    from chancery.vpico import VirtualPico, VPicoError, VPicoSetupError

    data = args.data or os.path.join(platformdirs.user_data_dir("chancery", appauthor=False), "chip-board")
    os.makedirs(data, exist_ok=True)
    image = os.path.join(data, "flash.img")
    if not os.path.exists(image):
        try:  # a new flash has none of our files, whatever a stamp left from another says
            os.remove(os.path.join(data, STAMP))
        except OSError:
            pass
    began = time.monotonic()
    print("starting the virtual Pico (stock MicroPython on rp2040js); its flash: %s" % image, flush=True)
    try:
        vp = VirtualPico(flash=image, pace="realtime", timeout=120.0)
    except (VPicoSetupError, VPicoError, OSError) as e:
        print("error: cannot start the virtual Pico: %s" % e, file=sys.stderr)
        return 2
    with vp:
        print("  the chip is up (%.1f s)" % (time.monotonic() - began), flush=True)
        step = time.monotonic()
        try:
            deployed = deploy_if_changed(vp.port, data, say=lambda line: print(line, flush=True))
        except flash.DeployError as e:
            print("error: the deploy to the virtual Pico failed: %s" % e, file=sys.stderr)
            return 2
        print("  %s (%.1f s)" % ("deployed and verified" if deployed else "its firmware is up to date",
                                 time.monotonic() - step), flush=True)
        link = Link(vp.port, logbook=Logbook())
        problem = wait_for_board(vp, link, deployed, BOARD_WAIT_S)
        if problem is not None:
            print("error: %s\nthe chip's last output:\n%s" % (problem, vp.log_text()[-2000:]), file=sys.stderr)
            return 2
        print("  the board answered: %s, %d entries (%.1f s in all)" % (
            link.mirror.welcome.get("game"), link.mirror.welcome.get("len", 0), time.monotonic() - began), flush=True)
        if wanted is None and args.new:  # --new alone: the board's game again, from its start
            from chancery.words import new_game

            wanted = new_game.parse([link.mirror.welcome["game"]])
        from chancery.mirror import app

        return app.attach(link, wanted, ChipPins(vp), again=args.new, names=names)
