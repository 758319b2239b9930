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

The cable (cable=True, for the tests): the board gets a terminal of its own and a relay
(Cable) joins it to the host's, which the tests can pull out, as a USB cable is pulled:
the host's port hangs up, what the board sends meanwhile is lost, and plugged back the
host finds a new port at the same path (port_name is a link to it, as udev's by-id names
are) that carries only what the board sends from then on. Without it the pty would keep
the board's output for the host while the "cable" is out, and a test could not tell a
host that fetches what it missed from one that does not.
"""

import json
import os
import pty
import select
import shutil
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


# The simulated board's heap: what a Pico's firmware image leaves a game, in the unix port's terms.
# On the chip, with the code in its ROMFS partition, the heap is 240 KB and the board idles within
# 32 KB of it (the goal docs/performance.md measures): 208 KB for a game. The unix port is 64-bit
# (an object takes twice the bytes) and holds the code in its heap (every board module imported:
# 280 KB). A game the chip can play never runs out here; the chip's own figures are the yardstick.
CHIP_HEAP_KB, CHIP_IDLE_KB, UNIX_CODE_KB = 240, 32, 280
HEAP = "%dK" % (2 * (CHIP_HEAP_KB - CHIP_IDLE_KB) + UNIX_CODE_KB)


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

    def __init__(self, data_dir=None, game="chancellors", players=None, seed=None, heap=HEAP,
                 micropython=None, code_path=None, extra_env=None, entry=None, settings=None, cable=False):
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
        # a pullable cable (see the module's doc); port_name is then a link in a folder of its own
        self.cable = None
        self._port_dir = tempfile.mkdtemp(prefix="chancery-port-") if cable else None

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
        if self._port_dir is not None:  # the board's own terminal, and the cable to the host's
            if self.cable is not None:
                self.cable.close()  # the last board's, unplugged before the next is plugged in
            board, self._slave = pty.openpty()
            tty.setraw(self._slave)  # bytes as they come: no echo, no line editing, no signals
            self.cable = Cable(board, os.path.join(self._port_dir, "port"))
            self.port_name = self.cable.path
            return self.port_name
        self._master, self._slave = pty.openpty()
        self.port_name = os.ttyname(self._slave)
        return self.port_name

    def start(self):
        """Start the firmware on the master side (open the host's port on port_name first)."""
        self.lock()
        if (self._slave is None or self.cable.dead) if self.cable is not None else self._master is None:
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
        if self.cable is not None:  # the child on its terminal's other side; the cable reads the master
            end, self._slave = self._slave, None
        elif self.entry == []:
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
        if self.cable is not None:
            os.close(end)  # the child has its own copy: when it dies, the cable sees the board go
        elif self.entry == []:
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
        if self.cable is not None:
            self.cable.close()  # the board's power went: its USB with it

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
        if self.cable is not None:
            self.cable.close()
        if self._port_dir is not None:
            shutil.rmtree(self._port_dir, ignore_errors=True)
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


class Cable:
    """A USB cable between a simulated board and its host, that a test can pull out.

    A thread relays bytes between the board's terminal (`board`, a pty master whose other
    side is the board's stdin and stdout) and the host's, a pty of the cable's own that
    `path` (a symbolic link) names. pull() is an unplug: the host's port hangs up (its
    reads fail, as pyserial's do when a USB device goes), the link at `path` goes, and
    whatever the board sends until plug() is read and dropped; the board plays on. plug()
    gives the host a new port at `path`. cut_at() pulls the cable from inside the board's
    output, at the line a test picks (between an act's entry and its ok, in the middle of
    a frame, during a catch-up). to_board() writes to the board directly: its own buttons,
    pressed at the table while no host is listening. When the board dies the cable is
    unplugged for good (`dead`); the board's next start() makes a new one."""

    def __init__(self, board, path):
        self.path = path
        self.cut = threading.Event()  # set when a cut_at() cut happened
        self.lost = bytearray()  # what the board sent that no host got
        self.dead = False
        self._board = board
        self._name = None  # the host's pty, where `path` points while plugged
        self._host = None  # the master of the host's pty; None while unplugged
        self._held = None  # its slave, held open: a host closing its port is no hang-up
        self._cut = None  # (test(line), bytes of that line to let through)
        self._line = bytearray()  # while a cut is armed: the board's line so far
        self._pending = bytearray()  # for the host, not yet taken by its port
        self._asks = []
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = os.pipe()
        self._thread = None
        self._plug()
        self._thread = threading.Thread(target=self._run, name="sim-cable", daemon=True)
        self._thread.start()

    # --- what a test does ---------------------------------------------------------

    def pull(self):
        self._ask(self._unplug)

    def plug(self):
        self._ask(self._plug)

    def cut_at(self, test, keep=0):
        """Pull the cable at the first complete line the board sends from now on for which
        test(line) is true (bytes, with its newline), after `keep` of its bytes went through."""
        self.cut.clear()
        self._ask(lambda: self._arm(test, keep))

    def idle(self):
        """True when nothing the board has sent waits in the cable: for a test whose board has
        stopped talking (frozen, or waiting), everything it said is at the host's port."""
        said = []
        self._ask(lambda: said.append(not self._pending and not select.select([self._board], [], [], 0)[0]))
        return bool(said and said[0])

    def to_board(self, data):
        while data:
            data = data[os.write(self._board, data):]

    def close(self):
        """The board is gone: unplug for good, end the thread, let everything go."""
        if self._wake_w is None:
            return
        self._ask(None)  # the thread's end: it unplugs and closes the board's terminal
        self._thread.join(timeout=5)
        self._end()
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        self._wake_r = self._wake_w = None

    # --- the relay's thread -------------------------------------------------------

    def _ask(self, what):
        """Have the relay's thread do `what` (None: stop) between two reads, and wait for it:
        only that thread reads, writes or closes the ptys while it runs, so none is closed
        under a read. Once it has ended, `what` is done here."""
        done = threading.Event()
        with self._lock:
            running = self._thread is not None and self._thread.is_alive() and not self.dead
            if running:
                self._asks.append((what, done))
        if not running:
            if what is not None:
                what()
            return
        os.write(self._wake_w, b".")
        done.wait()  # the thread does every ask it took, even as it ends

    def _arm(self, test, keep):
        self._cut, self._line = (test, keep), bytearray()

    def _plug(self):
        if self._host is not None or self.dead:
            return
        master, slave = pty.openpty()
        # raw from the start, as a USB serial device nobody has opened: a new pty echoes what it is sent
        # until its host sets it raw, and the relay would hand the board its own frames back (half a line
        # of them swallowed the host's next hello)
        tty.setraw(slave)
        os.set_blocking(master, False)  # what the host's port has no room for waits in _pending, not the relay
        link = self.path + ".new"
        if os.path.lexists(link):
            os.remove(link)
        self._name = os.ttyname(slave)
        os.symlink(self._name, link)
        os.replace(link, self.path)
        self._host, self._held = master, slave

    def _unplug(self):
        try:
            if os.readlink(self.path) == self._name:
                os.remove(self.path)  # the device is gone, as /dev/ttyACM0 is when the cable comes out
        except OSError:
            pass
        for fd in (self._host, self._held):  # the master first: the host's port hangs up
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._host = self._held = None
        self.lost += self._line + self._pending  # in flight when the cable came out
        self._line, self._pending = bytearray(), bytearray()

    def _run(self):
        try:
            while self._serve():
                pass
        except OSError:
            pass  # EIO on the board's terminal: the board is gone
        finally:
            with self._lock:
                self.dead = True  # no ask is taken from now on
                asks, self._asks = self._asks, []
            self._end()
            for what, done in asks:
                if what is not None:
                    what()
                done.set()

    def _end(self):
        """The board's power went, and its USB with it, for good."""
        self.dead = True
        self._unplug()
        if self._board is not None:
            os.close(self._board)
            self._board = None

    def _serve(self):
        """Relay what is waiting, or do what was asked; False to stop. While the host has
        not taken what the board sent, the board is not read: its own writes then find no
        room, as a board's do when the USB host does not read, and it drops its frames."""
        host = self._host
        reads = [self._wake_r] + ([self._board] if not self._pending else []) + ([host] if host is not None else [])
        ready, room, _ = select.select(reads, [host] if host is not None and self._pending else [], [], 1.0)
        if self._wake_r in ready:
            os.read(self._wake_r, 64)
            with self._lock:
                asks, self._asks = self._asks, []
            go_on = True
            for what, done in asks:
                if what is None:
                    go_on = False
                else:
                    what()
                done.set()
            return go_on  # the ports may have changed: select again
        if room:
            self._to_host(b"")
        if self._board in ready:
            data = os.read(self._board, 4096)
            if not data:
                return False
            self._from_board(data)
        if host is not None and host in ready:
            try:
                data = os.read(host, 4096)
            except BlockingIOError:
                data = b""
            while data:
                data = data[os.write(self._board, data):]
        return True

    def _from_board(self, data):
        if self._host is None:
            self.lost += data
            return
        if self._cut is None:
            self._to_host(data)
            return
        out, pos = bytearray(), 0
        while pos < len(data):  # armed: whole lines only, so that the cut can pick one
            nl = data.find(b"\n", pos)
            end = len(data) if nl < 0 else nl + 1
            self._line += data[pos:end]
            pos = end
            if nl < 0:
                break
            line, self._line = bytes(self._line), bytearray()
            test, keep = self._cut
            if test(line):
                self._cut = None
                self._to_host(bytes(out) + line[:keep])
                self.cut.set()  # before the hang-up, which a host may see at once
                self._unplug()
                self.lost += line[keep:] + data[pos:]
                return
            out += line
        self._to_host(bytes(out))

    def _to_host(self, data):
        """Send the host `data` after what waits for it: what its port has no room for waits."""
        self._pending += data
        try:
            while self._pending:
                del self._pending[:os.write(self._host, self._pending)]
        except BlockingIOError:
            pass


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
