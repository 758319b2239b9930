"""The simulated board: the real firmware under the MicroPython unix port, on a pseudo-terminal.

The host talks to it exactly as to a real board: through pyserial, on a serial
device path (the pty's slave side, /dev/pts/N), while the firmware reads and
writes the master side as its stdin/stdout, the way a board's USB CDC serial
is its stdin/stdout. The port is opened before the child starts (opening a
tty can flush input that is already waiting), and the child is always ended:
a MicroPython left on a pty whose other side closed spins at 100% CPU.

One board, one host: a board's folder is locked while a SimBoard runs it
(chancery.lock, holding the host process's PID), so a second `chancery sim` on the
same folder is refused, naming the first, instead of starting a new game under it.
A lock whose process is gone (a crash, a kill) is taken over.
"""

import json
import os
import pty
import select
import signal
import subprocess
import tempfile
import threading
import time
import tty

from chancery import ROOT
from chancery.board import micropython as mp

LOCK = "chancery.lock"


class BoardBusy(OSError):
    """The board's folder is in use by another running host process."""


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


class SimBoard:
    """A running simulated board. Use as a context manager, or call stop()."""

    def __init__(self, data_dir=None, game="chancellors", players=None, seed=None, heap="128K",
                 micropython=None, code_path=None, extra_env=None, entry=None, settings=None):
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="chancery-board-")
        os.makedirs(self.data_dir, exist_ok=True)
        self.game = game
        self.players = players
        self.settings = dict(settings or {})  # the first game's other settings (firmware/main.py)
        self.seed = seed
        self.heap = heap
        self.micropython = micropython or mp.find_micropython()
        # where the firmware and the rules are imported from: the checkout's sources by
        # default (the unix port compiles them); a deploy test passes a copied .mpy tree
        self.code_path = list(code_path) if code_path else [ROOT]
        self.extra_env = dict(extra_env or {})
        # what the unix port runs: None, the firmware (-m firmware.main and its options);
        # [] its REPL (what mpremote talks to: the deploy tests); ["main.py"] a script
        # in data_dir, such as the main.py that chancery deploy writes
        self.entry = entry
        self.proc = None
        self.port_name = None
        self._master = None
        self._slave = None
        self.stderr_path = os.path.join(self.data_dir, "board-stderr.log")
        self.locked = False

    def lock(self):
        """Take the board's folder for this process (start() does), or raise BoardBusy naming
        the process that has it. A lock left by a process that is gone is taken over."""
        if self.locked:
            return
        path = os.path.join(self.data_dir, LOCK)
        for _ in range(3):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                try:
                    with open(path) as f:
                        holder = json.load(f)
                    pid = int(holder["pid"])
                except (OSError, ValueError, KeyError, TypeError):
                    holder, pid = {}, None  # half written, or not ours: stale
                if pid is not None and pid != os.getpid() and _alive(pid):
                    raise BoardBusy("the simulated board in %s is in use by another chancery (process %d, since %s): "
                                    "one board has one host. Use that window, stop it, or give this one another "
                                    "board with --data FOLDER" % (self.data_dir, pid, holder.get("since", "?")))
                try:
                    os.remove(path)  # stale: its process is gone
                except FileNotFoundError:
                    pass
                continue
            with os.fdopen(fd, "w") as f:
                json.dump({"pid": os.getpid(), "since": time.strftime("%Y-%m-%d %H:%M:%S")}, f)
            self.locked = True
            return
        raise BoardBusy("cannot take the lock %s" % path)

    def unlock(self):
        if self.locked:
            self.locked = False
            try:
                os.remove(os.path.join(self.data_dir, LOCK))
            except FileNotFoundError:
                pass

    def args(self):
        out = ["--board", "sim", "--data", self.data_dir, "--game", self.game]
        if self.players:
            out += ["--players", str(self.players)]
        if self.seed is not None:
            out += ["--seed", str(self.seed)]
        if self.settings:
            out += ["--settings", json.dumps(self.settings, separators=(",", ":"))]
        return out

    def open_pty(self):
        """Create the pty pair; returns the serial device path for the host."""
        self._master, self._slave = pty.openpty()
        self.port_name = os.ttyname(self._slave)
        return self.port_name

    def start(self):
        """Start the firmware on the master side (open the host's port on port_name first)."""
        self.lock()
        if self._master is None:
            self.open_pty()
        env = dict(os.environ)
        env.update(self.extra_env)
        # relative to the board's folder (its working directory) where that is shorter: each
        # module's file name is interned for good, and a real board's are short ("/lib/...")
        code = [_shorter(p, self.data_dir) for p in self.code_path]
        env["MICROPYPATH"] = os.pathsep.join([".frozen"] + code)
        env["PYTHONHASHSEED"] = "0"
        cmd = [self.micropython]
        if self.heap:
            cmd += ["-X", "heapsize=" + self.heap]
        cmd += ["-m", "firmware.main"] + self.args() if self.entry is None else list(self.entry)
        end = self._master
        if self.entry == []:
            # The REPL sets its terminal raw while it reads a line and back after, and a
            # pty's two sides share one set of modes: on the host's side, mpremote's raw
            # port would flip to line mode under it. So the REPL gets a terminal of its
            # own, and a relay copies bytes between that terminal and the host's port.
            end, self._relayed = pty.openpty()
            tty.setraw(self._relayed)  # so the REPL reads Ctrl-A/C/D as bytes, not as signals or end of file
            self._relay = threading.Thread(target=_relay, args=(end, self._master), daemon=True)
        with open(self.stderr_path, "ab") as err:
            self.proc = subprocess.Popen(cmd, stdin=end if self.entry != [] else self._relayed,
                                         stdout=end if self.entry != [] else self._relayed, stderr=err,
                                         cwd=self.data_dir, env=env, start_new_session=True)
        if self.entry == []:
            os.close(self._relayed)
            self._relay.start()  # it closes both masters when either side is gone
        else:
            os.close(self._master)  # the child has its own copy
        self._master = None
        return self

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """Pull the plug: SIGKILL, as a power cut would (the journal must survive it)."""
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self, timeout=3.0):
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while self.alive() and time.monotonic() < deadline:
                time.sleep(0.02)
            self.kill()
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None
        self.unlock()

    def stderr_text(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


def _relay(a, b):
    """Copy bytes both ways between two pty masters until either side is gone."""
    try:
        while True:
            ready, _, _ = select.select([a, b], [], [], 0.5)
            for src in ready:
                data = os.read(src, 4096)
                if not data:
                    return
                dst = b if src == a else a
                while data:
                    data = data[os.write(dst, data):]
    except OSError:  # EIO: the child or the host closed its side
        return
    finally:
        for fd in (a, b):
            try:
                os.close(fd)
            except OSError:
                pass


def _shorter(path, cwd):
    """`path` relative to `cwd` if that is shorter (and they share a drive), else as given."""
    try:
        rel = os.path.relpath(path, cwd)
    except ValueError:
        return path
    return rel if len(rel) < len(path) else path
