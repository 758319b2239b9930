"""VirtualPico: a Raspberry Pi Pico running stock MicroPython on rp2040js, with its serial on a pty.

The chip runs in a node process (chip.mjs); this side starts it, relays its USB serial to a
pseudo-terminal (so pyserial, mpremote, `chancery deploy --port` and `chancery mirror --port`
use `vp.port` as a board's port), follows its events (frames on the strip, pictures on the
display, resets, power cuts) and scripts its inputs in the board's simulated time.

The node process never outlives this one: close() and __exit__ end it, an atexit hook ends
any left open, and node exits by itself when its control pipe closes (so even a SIGKILL of
this process ends it: the kernel closes the pipe).
"""

import atexit
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import termios
import threading
import time
import tty
import weakref

from chancery.vpico import inputs, kit
from chancery.vpico.decode import Frame, Picture


class VPicoError(RuntimeError):
    """The virtual Pico stopped, or did not do what was waited for in time."""


_LIVE = weakref.WeakSet()  # open VirtualPicos, for the atexit hook


@atexit.register
def _close_all():
    for vp in list(_LIVE):
        vp.close()


class VirtualPico:
    """A running virtual Pico. Use as a context manager, or call close().

    flash: the 16 MiB flash image file (loaded when it exists, saved on close and by
    save_flash()); None for a fresh image in a temporary folder, removed on close.
    board: the pin map (a name in hardware/boards/ or a .json path). pace: "realtime" (the
    board's clock never runs ahead of the wall clock) or "free". wait_usb: wait until the
    board's USB serial is up before returning.
    """

    def __init__(self, flash=None, uf2=None, bootrom=None, board="rpi-pico", pace="realtime",
                 wait_usb=True, timeout=60.0, log=None):
        self.uf2 = uf2 or kit.find_uf2()
        self.bootrom = bootrom or kit.find_bootrom(self.uf2)
        self.pin_map_path, self.pins = kit.pin_map(board)
        node = kit.find_node()
        modules = kit.ensure_rp2040js(log=log)
        self._tmp = None
        if flash is None:
            self._tmp = tempfile.mkdtemp(prefix="chancery-vpico-")
            flash = os.path.join(self._tmp, "flash.img")
        self.flash_path = os.path.abspath(flash)
        self.log_path = self.flash_path + ".log"
        self.frames = []      # every Frame the strip got, in order
        self.pictures = []    # every Picture the display got, in order
        self.events = []      # every event from the chip, as dicts (frames and pictures left out)
        self._cond = threading.Condition()
        self._replies = {}
        self._next_id = 0
        self._closed = False
        self._dead = None     # why the chip's process or the pty went away
        self._usb_at = None   # board ns when the current boot's USB came up
        self._backlog = bytearray()

        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # a board's port passes bytes as they are
        self.port = os.ttyname(self._slave)
        self._cdc, child_cdc = socket.socketpair()
        cmd = [node, kit.CHIP, "--modules", modules, "--uf2", self.uf2, "--bootrom", self.bootrom,
               "--flash", self.flash_path, "--pins", self.pin_map_path, "--pace", pace,
               "--cdc-fd", str(child_cdc.fileno())]
        with open(self.log_path, "wb") as err:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                         pass_fds=[child_cdc.fileno()], start_new_session=True)
        child_cdc.close()
        _LIVE.add(self)
        self._reader = threading.Thread(target=self._read_events, name="vpico-events", daemon=True)
        self._relay = threading.Thread(target=self._relay_serial, name="vpico-serial", daemon=True)
        self._reader.start()
        self._relay.start()
        try:
            self._wait(lambda: self._find("booted"), timeout, "the chip to start")
            if wait_usb:
                self.wait_usb(timeout)
        except BaseException:
            self.close()
            raise

    # --- life ------------------------------------------------------------------------------

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self, timeout=10.0):
        """Save the flash and end the chip's process (killed if it does not end in time)."""
        if self._closed:
            return
        self._closed = True
        _LIVE.discard(self)
        proc = self.proc
        if proc.poll() is None:
            try:
                self._send({"cmd": "quit"})
                proc.wait(timeout=timeout)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        for f in (proc.stdin, proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        self._cdc.close()
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self._relay.join(timeout=2)
        self._reader.join(timeout=2)
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def alive(self):
        return not self._closed and self._dead is None and self.proc.poll() is None

    def log_text(self):
        """What the chip's process wrote to its log (stderr)."""
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    # --- the event stream --------------------------------------------------------------------

    def _read_events(self):
        for line in self.proc.stdout:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            with self._cond:
                self._take(ev)
                self._cond.notify_all()
        status = self.proc.wait()
        with self._cond:
            if self._dead is None and not self._closed:
                fatal = [ev["msg"] for ev in self.events if ev.get("ev") == "error" and ev.get("fatal")]
                why = fatal[-1] if fatal else self.log_text()[-1500:].strip()
                self._dead = f"the virtual Pico's node process exited (status {status})" + (f": {why}" if why else "")
            self._cond.notify_all()

    def _take(self, ev):
        kind = ev.get("ev")
        if kind == "frame":
            self.frames.append(Frame(ev["first"], ev["last"], ev["bits"], bytes.fromhex(ev["grb"])))
            return
        if kind == "display":
            self.pictures.append(Picture(ev["t"], ev["on"], ev["inverted"], bytes.fromhex(ev["ram"])))
            return
        if kind == "usb":
            self._usb_at = ev["t"]
        elif kind in ("booted", "cut"):
            self._usb_at = None
        if "id" in ev:
            self._replies[ev["id"]] = ev
        self.events.append(ev)

    def _find(self, kind, since=0):
        for ev in self.events[since:]:
            if ev.get("ev") == kind:
                return ev
        return None

    def _wait(self, ready, timeout, what):
        """Wait until ready() gives something (under the lock), and return it."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                got = ready()
                if got:
                    return got
                if self._dead:
                    raise VPicoError(f"{self._dead}, while waiting for {what}")
                if self._closed:
                    raise VPicoError("the virtual Pico is closed")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise VPicoError(f"timed out after {timeout:.0f} s waiting for {what}")
                self._cond.wait(min(left, 0.5))

    def _send(self, cmd):
        if self._dead:
            raise VPicoError(self._dead)
        try:
            self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError) as e:
            raise VPicoError(f"the virtual Pico's node process is gone ({e})") from None

    def _request(self, cmd, timeout=10.0):
        with self._cond:
            self._next_id += 1
            ident = self._next_id
        self._send(dict(cmd, id=ident))
        ev = self._wait(lambda: self._replies.pop(ident, None), timeout, f"an answer to {cmd['cmd']}")
        if ev["ev"] == "error":
            raise VPicoError(ev["msg"])
        return ev

    # --- the serial port ---------------------------------------------------------------------

    def _relay_serial(self):
        """Copy the board's USB serial between the chip's socket and the pty's master side.

        Bytes for the host wait while the pty's buffer is full; if nobody has read for a
        second they are dropped (tcflush), as a board's serial output is lost with no
        host on the port, rather than holding up the board.
        """
        master, cdc = self._master, self._cdc.fileno()
        os.set_blocking(master, False)
        stuck_since = None
        try:
            while not self._closed:
                want_write = [master] if self._backlog else []
                readable, writable, _ = select.select([master, cdc], want_write, [], 0.2)
                if cdc in readable:
                    data = self._cdc.recv(65536)
                    if not data:
                        break
                    self._backlog += data
                if master in readable:
                    try:
                        self._cdc.sendall(os.read(master, 65536))
                    except BlockingIOError:
                        pass
                if self._backlog and master in writable:
                    n = _write_some(master, self._backlog)
                    del self._backlog[:n]
                    stuck_since = None if n else stuck_since
                if self._backlog:
                    stuck_since = stuck_since or time.monotonic()
                    if time.monotonic() - stuck_since > 1.0:
                        termios.tcflush(self._slave, termios.TCIFLUSH)
                        stuck_since = None
        except OSError as e:
            if not self._closed:
                with self._cond:
                    self._dead = self._dead or f"the virtual Pico's serial port ({self.port}) went away: {e}"
                    self._cond.notify_all()

    # --- time and inputs -------------------------------------------------------------------------

    def now_ns(self):
        """The board's simulated time now, in ns since the chip's process started."""
        return self._request({"cmd": "now"})["t"]

    def play(self, steps, at=None, after_ns=None):
        """Set pin levels at board times: steps are (offset_ns, pin, level), from `at` (board ns;
        a past time counts from now) or from now + after_ns. Returns the board time they count from."""
        cmd = {"cmd": "pins", "steps": [[int(dt), int(pin), 1 if level else 0] for dt, pin, level in steps]}
        cmd.update(_when(at, after_ns))
        return self._request(cmd)["t"]

    def set_pin(self, pin, level, at=None, after_ns=None):
        """The level outside `pin` (what a button or wire drives when the chip does not)."""
        return self.play([(0, pin, level)], at, after_ns)

    def level(self, pin):
        """The level on the pin's line now (driven by the chip or from outside)."""
        return self._request({"cmd": "level", "pin": pin})["level"]

    def press(self, pin, hold_ms=80, bounce=inputs.BOUNCE, at=None):
        """Press the button on `pin` for hold_ms, with contact bounce at both edges (bounce:
        (offset_us, closed) pairs after each edge; None for clean edges). Returns the board
        times of the press and of the release."""
        active_low = self.pins.get("active_low", True)
        t = self.play(inputs.press_steps(pin, active_low, hold_ms, bounce), at)
        return t, t + int(hold_ms * 1e6)

    def press_button(self, index, hold_ms=80, bounce=inputs.BOUNCE, at=None):
        """Press button `index` in the firmware's order (seat 0..4 up/select/down, then the
        table's left/push/right/back), on its pin from the pin map."""
        pin = self.pins["buttons"][index]
        if pin is None:
            raise ValueError(f"button {index} is not fitted on {self.pin_map_path}")
        return self.press(pin, hold_ms, bounce, at)

    def turn(self, detents, step_ms=2.0, at=None):
        """Turn the encoder by `detents` (positive: clockwise). Returns when the turn ends (board ns)."""
        enc = self.pins.get("encoder")
        if not enc:
            raise ValueError(f"{self.pin_map_path} has no encoder")
        steps = inputs.quadrature(enc["a"], enc["b"], detents, step_ms, self.pins.get("active_low", True))
        t = self.play(steps, at)
        return t + (steps[-1][0] if steps else 0)

    # --- what the board shows -----------------------------------------------------------------

    def wait_frame(self, after_ns=None, timeout=10.0):
        """The first strip frame that starts at or after after_ns (None: the next one from now)."""
        return self._wait_for(self.frames, lambda f: f.first_ns, after_ns, timeout, "a frame on the strip")

    def _wait_for(self, seen, when, after_ns, timeout, what):
        """The first item of the growing list `seen` at or after after_ns by when(item)
        (None: the first one to arrive from now on)."""
        start = 0 if after_ns is not None else len(seen)

        def ready():
            for item in seen[start:]:
                if after_ns is None or when(item) >= after_ns:
                    return item
            return None
        return self._wait(ready, timeout, what)

    @property
    def display(self):
        """The display's latest Picture, or None if nothing has been drawn."""
        return self.pictures[-1] if self.pictures else None

    def wait_display(self, after_ns=None, timeout=10.0):
        """The first Picture drawn at or after after_ns (None: the next one from now)."""
        return self._wait_for(self.pictures, lambda p: p.t_ns, after_ns, timeout, "a picture on the display")

    # --- power and flash ------------------------------------------------------------------------

    def wait_usb(self, timeout=60.0):
        """Wait until the board's USB serial is enumerated; returns that board time."""
        return self._wait(lambda: self._usb_at, timeout, "the board's USB serial")

    def cut(self, at=None, after_ns=None, during=None, timeout=60.0, bits=None):
        """Cut the power at board time `at` (or now + after_ns). during="program", "erase" or
        "any": at the middle of the first such flash operation from then on, which is torn: a
        clean prefix done, or with bits (a seed) every bit it was changing left at its old or new
        value at random, as on real NOR (nor-flash.mjs tear()). Waits for the cut; returns its
        event: {"t": ns, "torn": None or {kind, addr, length, done, of}, with bits: done None,
        bits the seed, halfBytes the bytes left other than the operation would have made them,
        of `changing`, those it was changing}."""
        since = len(self.events)
        cmd = {"cmd": "cut"}
        cmd.update(_when(at, after_ns))
        if during:
            cmd["during"] = during
        if bits is not None:  # a timed cut too, should it land in a flash operation
            cmd["bits"] = int(bits) & 0xFFFFFFFF
        self._request(cmd)
        return self._wait(lambda: self._find("cut", since), timeout, "the power cut")

    def arm_cut(self, at=None, after_ns=None, during=None, skip=0, frac=None, bits=None):
        """Schedule a cut as cut() does, without waiting for it; skip: that many such flash
        operations go by first; frac: the cut lands at that fraction of the operation (0-1)
        rather than its middle; bits: a seed, for an operation torn with its changing bits left
        half done at random over its whole range (as real NOR may), not a clean prefix. Returns
        the board time it counts from; the cut shows in `cuts` when it is made."""
        cmd = {"cmd": "cut"}
        cmd.update(_when(at, after_ns))
        if during:
            cmd.update(during=during, skip=int(skip))
            if frac is not None:
                cmd["frac"] = float(frac)
        if bits is not None:
            cmd["bits"] = int(bits) & 0xFFFFFFFF
        return self._request(cmd)["t"]

    def uncut(self):
        """Call off every cut scheduled and not yet made; True if one was waiting for a flash
        operation. (A cut that was being made as this was asked still shows in `cuts`.)"""
        return self._request({"cmd": "uncut"})["armed"]

    @property
    def cuts(self):
        """The cut events so far ({"t", "torn"}), in order."""
        with self._cond:
            return [ev for ev in self.events if ev.get("ev") == "cut"]

    def boot(self, wait_usb=True, timeout=60.0):
        """Power on again after a cut: a fresh chip on the flash as the cut left it."""
        since = len(self.events)
        self._send({"cmd": "boot"})
        ev = self._wait(lambda: self._find("booted", since) or self._find("error", since), timeout, "the boot")
        if ev["ev"] == "error":
            raise VPicoError(ev["msg"])
        if wait_usb:
            self.wait_usb(timeout)
        return ev["t"]

    @property
    def resets(self):
        """The board times of the watchdog resets so far."""
        return [ev["t"] for ev in self.events if ev.get("ev") == "reset"]

    def save_flash(self):
        """Write the flash image to flash_path now."""
        return self._request({"cmd": "save"}, timeout=30.0)["path"]


def _when(at, after_ns):
    if at is not None:
        return {"at": int(at)}
    return {"after": int(after_ns or 0)}


def _write_some(fd, data):
    try:
        return os.write(fd, data)
    except BlockingIOError:
        return 0
