"""chancery deploy --drive: put the firmware onto a CircuitPython board's mounted CIRCUITPY drive.

    chancery deploy --board rpi-pico-circuitpython --drive /media/me/CIRCUITPY [--mpy-cross PATH] [--dry-run]

1. check the drive: its boot_out.txt (circuitpython.boot_out) names a CircuitPython of 10 or newer
   and the pin map's board_id (an empty folder, with no boot_out.txt, is taken as a drive to be);
2. stage in a temporary folder what the board needs: the modules of lib/shared_rules and
   lib/firmware that the circuitpy backend runs (deploy/modules.py's walk) and Adafruit's
   libraries it imports (deploy/adafruit.py, pinned), compiled by CircuitPython's own mpy-cross
   when one is named and it writes the board's major version, else the sources (said so); the
   refusals' words (lib/firmware/refusals.txt), the pin map and the layouts as the MicroPython
   deploy writes them (deploy/flash.py); boot.py and code.py (deploy/cpboot.py);
3. hash (sha256) what the drive holds in the places that are ours (OURS, and each library's
   module as NAME.py, NAME.mpy or the package NAME/), and write only what differs, removing files
   there that the build no longer has (a NAME.py left from a deploy of sources would shadow the new
   NAME.mpy); boot.py and code.py last, so a deploy cut short leaves the old ones to start;
4. read the written files back (after a sync) and compare their hashes.
Nothing else on the drive is touched: the firmware's journal and kept games (its data folder,
/chancery), settings.toml, other libraries. `dry_run` says what would be written and writes nothing.

After a deploy the board is to be reset: boot.py then gives the drive to the firmware, which
writes its journal there, and the computer sees it read-only until the board is reset with the
host key held (cpboot.py), which gives it back for the next deploy.
"""

import os
import shutil
import subprocess
import tempfile

from chancery.board import micropython as mp
from chancery.deploy import adafruit, circuitpython, cpboot, flash
from chancery.deploy.flash import DeployError

OURS = ("lib/shared_rules", "lib/firmware", "hardware")  # folders the deploy owns on the drive
LAST = ("boot.py", "code.py")  # written after everything else


def check_drive(drive, board_name, cfg, say=print):
    """The drive's (CircuitPython version, board id), or None for an empty folder; DeployError for a
    path that is not a CIRCUITPY drive of this board."""
    if not os.path.isdir(drive):
        raise DeployError("no folder %s: give the folder the CIRCUITPY drive is mounted at (Linux: "
                          "/media/$USER/CIRCUITPY, macOS: /Volumes/CIRCUITPY, Windows: its drive letter)" % drive)
    found = circuitpython.boot_out(drive)
    if found is None:
        if os.listdir(drive):
            raise DeployError("%s has no %s: not a CIRCUITPY drive (CircuitPython writes that file at every "
                              "boot); deploy writes only onto one, or into an empty folder"
                              % (drive, circuitpython.BOOT_OUT))
        say("%s is empty: no board to check it against (no %s); writing the files for a %s"
            % (drive, circuitpython.BOOT_OUT, board_name))
        return None
    version, board_id = found
    if version[:2] < circuitpython.OLDEST:
        raise DeployError("the drive's board runs CircuitPython %s; Chancery needs %d.%d or newer"
                          % (".".join(str(v) for v in version), circuitpython.OLDEST[0], circuitpython.OLDEST[1]))
    want = cfg.get("board_id")
    if want and board_id and board_id != want:
        raise DeployError("the drive is a %s's, and --board %s is for %s: give that board's pin map"
                          % (board_id, board_name, want))
    say("drive %s: CircuitPython %s on %s" % (drive, ".".join(str(v) for v in version), board_id or "a board"))
    return version, board_id


def code_format(exe, board_version, say=print, run=subprocess.run):
    """"mpy" when the CircuitPython mpy-cross `exe` writes for the board's major version, else "py" (said why)."""
    if exe is None:
        say("no CircuitPython mpy-cross named (--mpy-cross or %s): copying the sources, which the board "
            "compiles as it imports them (slower to start and far more RAM, which a Pico may lack)"
            % circuitpython.ENV_MPY_CROSS)
        return "py"
    version, mpy = circuitpython.compiler_version(exe, run)
    if board_version is not None and board_version[0] != version[0]:
        say("%s writes .mpy for CircuitPython %d.x and the board runs %d.x: copying the sources"
            % (exe, version[0], board_version[0]))
        return "py"
    say("compiling with %s (CircuitPython %s, .mpy v%d.%d)" % (exe, ".".join(str(v) for v in version), *mpy))
    return "mpy"


def stage(out_dir, board_name, libraries, exe=None, first=None, cache=None, say=print, run=subprocess.run):
    """Write the board's files under out_dir; returns {drive path: local path}. `libraries`: Adafruit's
    it gets (adafruit.needed()); `exe`: CircuitPython's mpy-cross (None: the sources); `cache`: the
    folder of Adafruit's wheels (adafruit.cache_dir())."""
    cfg = flash.pin_map(board_name, flash.CIRCUITPYTHON)
    lib = os.path.join(out_dir, "lib")
    flash.stage_code(lib, flash.backend(cfg), exe)
    got = adafruit.wheels(libraries, cache or adafruit.cache_dir(), say, run)
    with tempfile.TemporaryDirectory(prefix="chancery-cplibs-") as src:
        for package, _version, _digest, names, _display in libraries:
            if exe is None:  # the sources, as the wheel has them
                adafruit.unpack(got[package], names, lib)
                continue
            for rel in adafruit.unpack(got[package], names, src):
                _compile(exe, os.path.join(src, rel), os.path.join(lib, rel[:-3] + ".mpy"), rel)
    if exe is not None:
        for path in flash.staged(lib).values():
            if path.endswith(".mpy"):
                circuitpython.check_mpy(path)
    flash.stage_hardware(out_dir, board_name)
    with open(os.path.join(out_dir, "boot.py"), "w", encoding="utf-8") as f:
        f.write(cpboot.boot_py(board_name, cfg))
    with open(os.path.join(out_dir, "code.py"), "w", encoding="utf-8") as f:
        f.write(cpboot.code_py(board_name, cfg, flash.run_options(board_name, cfg, first)))
    return flash.staged(out_dir)


def _compile(exe, src, dst, rel):
    """One library module to .mpy, its name embedded as deploy embeds the firmware's (mp.build_mpy)."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    parts = rel[:-3].split("/")
    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    done = subprocess.run([exe] + list(mp.MPY_ARGS) + ["-s", name, "-o", dst, src], capture_output=True, text=True,
                          timeout=120)
    if done.returncode != 0 or not os.path.exists(dst):
        raise DeployError("%s failed on %s: %s" % (exe, rel, (done.stdout + done.stderr).strip()))


def ours(path, libraries):
    """Whether a drive path is one the deploy owns: in OURS, boot.py or code.py, or a library's module."""
    if path in LAST or path.startswith(tuple(d + "/" for d in OURS)):
        return True
    for name in adafruit.modules_of(libraries):
        if path in ("lib/%s.py" % name, "lib/%s.mpy" % name) or path.startswith("lib/%s/" % name):
            return True
    return False


def held(drive, libraries):
    """{drive path: sha256} of every file in the places the deploy owns."""
    out = {}
    for top in ("lib", "hardware") + LAST:
        base = os.path.join(drive, top)
        if os.path.isfile(base):
            out[top] = flash.sha256(base)
            continue
        for folder, _dirs, names in os.walk(base):
            for name in names:
                local = os.path.join(folder, name)
                rel = os.path.relpath(local, drive).replace(os.sep, "/")
                if ours(rel, libraries):
                    out[rel] = flash.sha256(local)
    return out


def changes(files, before):
    """(to write, to remove): the staged files whose hash differs from the drive's, boot.py and code.py
    last, and the files of ours on the drive that the build does not have."""
    write = sorted((p for p in files if before.get(p) != flash.sha256(files[p])), key=lambda p: (p in LAST, p))
    remove = sorted(p for p in before if p not in files)
    return write, remove


def _room(drive, files, write, remove, before):
    """DeployError when the drive has too little free space for what is to be written."""
    need = sum(os.path.getsize(files[p]) for p in write)
    freed = sum(os.path.getsize(os.path.join(drive, p)) for p in list(remove) + [p for p in write if p in before])
    free = shutil.disk_usage(drive).free
    if need > free + freed:
        raise DeployError("the drive has %d KB free and the build needs %d KB more: name CircuitPython's "
                          "mpy-cross (--mpy-cross), whose .mpy files are about half the sources' size"
                          % (free // 1024, -(-(need - freed) // 1024)))


def _writable(drive, cfg):
    if not os.access(drive, os.W_OK):
        raise DeployError(read_only(cfg))


def read_only(cfg):
    return ("the drive is read-only to this computer: the board's firmware has it (its boot.py). Hold %s while "
            "you reset the board (or plug it in), then deploy again" % cpboot.key_words(cfg))


def _write(drive, files, write, remove, cfg):
    try:
        for p in remove:
            os.remove(os.path.join(drive, *p.split("/")))
        for p in write:
            dst = os.path.join(drive, *p.split("/"))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(files[p], "rb") as src:
                data = src.read()
            with open(dst, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        _prune(drive, remove)
    except PermissionError:
        raise DeployError(read_only(cfg))
    except OSError as e:
        if e.errno == 30:  # EROFS
            raise DeployError(read_only(cfg))
        raise DeployError("writing to the drive failed: %s" % e)
    if hasattr(os, "sync"):
        os.sync()


def _prune(drive, removed):
    """Remove the folders of ours that the removals left empty (MicroPython imports an empty folder as a
    namespace package, ahead of a module of the same name)."""
    for p in sorted({p.rsplit("/", 1)[0] for p in removed if "/" in p}, key=len, reverse=True):
        folder = os.path.join(drive, *p.split("/"))
        while p not in ("lib", "") and os.path.isdir(folder) and not os.listdir(folder):
            os.rmdir(folder)
            p = p.rsplit("/", 1)[0] if "/" in p else ""
            folder = os.path.join(drive, *p.split("/")) if p else drive


def deploy(drive, board_name, dry_run=False, mpy_cross=None, first=None, cache=None, say=print,
           run=subprocess.run, libraries=None):
    """Deploy onto the CIRCUITPY drive mounted at `drive`; returns (written, removed). Raises DeployError.
    `libraries`: Adafruit's that the board gets (default adafruit.needed(): the tests give their own)."""
    cfg = flash.pin_map(board_name, flash.CIRCUITPYTHON)
    found = check_drive(drive, board_name, cfg, say)
    exe = circuitpython.find_mpy_cross(mpy_cross)
    fmt = code_format(exe, found[0] if found else None, say, run)
    font = os.path.isfile(os.path.join(drive, adafruit.FONT))
    if libraries is None:
        libraries = adafruit.needed(cfg, font)
    if cfg.get("i2c") and not font:
        say("no display libraries: the display's text needs %s at the drive's root, which no PyPI package "
            "ships (it is in Adafruit_CircuitPython_framebuf's examples/); copy it there and deploy again, and "
            "until then the board plays without its display" % adafruit.FONT)
    with tempfile.TemporaryDirectory(prefix="chancery-drive-") as tmp:
        files = stage(tmp, board_name, libraries, exe if fmt == "mpy" else None, first, cache, say, run)
        before = held(drive, libraries)
        write, remove = changes(files, before)
        flash.say_plan(say, "write", write, remove, len(files))
        if dry_run:
            return write, remove
        if write or remove:
            _writable(drive, cfg)
            _room(drive, files, write, remove, before)
            _write(drive, files, write, remove, cfg)
        after = held(drive, libraries)
        wrong = [p for p in write if after.get(p) != flash.sha256(files[p])] + [p for p in remove if p in after]
        if wrong:
            raise DeployError("verify failed: %d files differ on the drive after the write (%s)"
                              % (len(wrong), ", ".join(wrong[:3])))
        say("verified: %d files on the drive match the build" % len(files))
    say("reset the board to play (its reset button, or unplug it and plug it in): boot.py then gives CIRCUITPY to "
        "the firmware, which keeps its journal there, and this computer sees the drive read-only. To deploy again, "
        "hold %s while you reset it: the drive is then this computer's and the game does not start"
        % cpboot.key_words(cfg))
    return write, remove
