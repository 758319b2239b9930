"""Type-check each board backend against its own port's stubs, with mypy.

    .venv/bin/python tools/typecheck_boards.py                 # every backend
    .venv/bin/python tools/typecheck_boards.py rp2 esp32       # some
    .venv/bin/python tools/typecheck_boards.py rp2 --files /tmp/x/mpboard.py
    .venv/bin/python tools/typecheck_boards.py --install-stubs  # only install them (run.py test does)

The firmware has no annotations (MicroPython has no `typing`), so what this catches
is a call the port does not have: a misspelled keyword to machine.Pin, a NeoPixel
method that port's driver lacks, a digitalio property set to the wrong kind of value.

Each port's stub set is pinned in hardware/stubs/<port>.txt and installed on first
use, or when that file changes, into .cache/stubs/<port>/ (pip --target --no-deps).
Each backend is checked in its own mypy run whose standard library and search path
hold that port's stubs and nothing else (no site-packages), so `machine`,
`neopixel`, `board`, `digitalio` resolve to that port's API and never to another's.
Only the listed firmware files report errors; shared_rules/ and the stubs are
followed for their types but not reported (mypy's follow_imports = silent).

`python3 run.py test` installs every port's stubs before the tests (--install-stubs), so
tests/tools/test_typecheck_boards.py finds them; without the network it skips, saying so in the
run's summary, and under CI (the CI variable set, as .ci/run does) it fails instead.

Exit status: 0 all clean, 1 a backend has errors, 2 no mypy or stubs could not be installed.
"""

import argparse
import hashlib
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINS = ROOT / "hardware" / "stubs"
CACHE = ROOT / ".cache"
# Bumped when the way a stub set is laid out on disk changes, so old installs are redone.
LAYOUT = "1"

_MP_SHARED = ("firmware/board/mpboard.py", "firmware/board/oled.py", "firmware/board/knob.py", "firmware/board/reboot.py",
              "firmware/board/sim.py",
              "firmware/board/pins.py", "firmware/board/wiring.py", "firmware/pads.py", "firmware/buttons.py",
              "firmware/ticks.py")
_CP_SHARED = ("firmware/board/pins.py", "firmware/pads.py", "firmware/buttons.py", "firmware/ticks.py")

# Modules a backend imports that its port's stubs do not describe, and why each is fine.
# Calls into them are not checked.
_MP_UNCOVERED = {
    "supervisor": "CircuitPython's; ticks.py imports it only where `time` has no ticks_ms (never on MicroPython)",
}
_CP_UNCOVERED = {
    "time": "in CircuitPython's core; circuitpython-stubs' wheel leaves it out",
    "gc": "in CircuitPython's core; no stubs in circuitpython-stubs",
    "binascii": "in CircuitPython's core; no stubs in circuitpython-stubs",
    "select": "in CircuitPython's core (with asyncio); no stubs in circuitpython-stubs",
}

# Error codes switched off in one module, each for a pattern that is right on the board
# but that mypy cannot follow (none now: the two such lines carry their own comments).
_MP_EXEMPT = {}
_CP_EXEMPT = {}


class Backend:
    def __init__(self, port, files, uncovered, exempt, others):
        self.port = port  # the stub set: hardware/stubs/<port>.txt
        self.files = files  # checked and reported, relative to ROOT
        self.uncovered = uncovered
        self.exempt = exempt
        self.others = others  # other backends' modules: not followed (their imports are another port's)


BACKENDS = {
    "rp2": Backend("rp2", ("firmware/board/rp2.py",) + _MP_SHARED, _MP_UNCOVERED, _MP_EXEMPT,
                   ("firmware.board.circuitpy", "firmware.board.esp32")),
    "esp32": Backend("esp32", ("firmware/board/esp32.py", "firmware/board/ble_dice.py",
                                       "firmware/board/dice_events.py") + _MP_SHARED,
                     dict(_MP_UNCOVERED, aioble="micropython-lib's, not frozen on the ESP32-S3 (deploy --die installs it "
                                                "with mip): no stubs in this set; rp2w checks the calls into it"),
                     _MP_EXEMPT, ("firmware.board.circuitpy", "firmware.board.rp2")),
    # the Pico W: the Pico's backend with the board's own Bluetooth LE (the smart dice), against its stubs,
    # which carry the aioble its MicroPython freezes
    "rp2w": Backend("rp2w", ("firmware/board/rp2.py", "firmware/board/ble_dice.py",
                                     "firmware/board/dice_events.py") + _MP_SHARED, _MP_UNCOVERED,
                    _MP_EXEMPT, ("firmware.board.circuitpy", "firmware.board.esp32")),
    "circuitpy": Backend("circuitpy", ("firmware/board/circuitpy.py",) + _CP_SHARED, _CP_UNCOVERED,
                         _CP_EXEMPT, ("firmware.board.rp2", "firmware.board.esp32", "firmware.board.mpboard")),
}


class StubInstallError(Exception):
    """pip could not install a stub set; .output holds what pip said."""

    def __init__(self, port, output):
        Exception.__init__(self, "could not install the %s stubs from %s" % (port, PINS / (port + ".txt")))
        self.port = port
        self.output = output


def _digest(port):
    text = (PINS / (port + ".txt")).read_bytes()
    return hashlib.sha256(LAYOUT.encode() + b"\0" + text).hexdigest()


def stub_dir(port):
    return CACHE / "stubs" / port


def ensure_stubs(port, log=print):
    """The port's stub directory, installed from its pinned file if missing or stale."""
    target = stub_dir(port)
    marker = target / ".installed"
    digest = _digest(port)
    if marker.is_file() and marker.read_text().strip() == digest:
        return target
    log("installing the %s stubs from hardware/stubs/%s.txt into %s" % (port, port, os.path.relpath(target, ROOT)))
    tmp = target.with_name("%s.tmp-%d" % (port, os.getpid()))
    shutil.rmtree(tmp, ignore_errors=True)
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check",
           "--no-deps", "--only-binary=:all:", "--target", str(tmp), "-r", str(PINS / (port + ".txt"))]
    run = subprocess.run(cmd, check=False, capture_output=True, text=True)
    if run.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise StubInstallError(port, run.stdout + run.stderr)
    _unsuffix_stub_packages(tmp)
    (tmp / ".installed").write_text(digest + "\n")
    shutil.rmtree(target, ignore_errors=True)
    os.replace(tmp, target)
    return target


def install_all(log=print):
    """Every port's stubs, installed if missing or stale; raises StubInstallError."""
    for port in sorted({b.port for b in BACKENDS.values()}):
        ensure_stubs(port, log)


def _unsuffix_stub_packages(folder):
    """Rename PEP 561 stub-only packages (board-stubs/) to their module name (board/).

    mypy looks for `NAME-stubs` only in site-packages, and a run that sees the host's
    site-packages would not be isolated; under the plain name, mypy_path finds them."""
    for entry in folder.iterdir():
        if entry.is_dir() and entry.name.endswith("-stubs"):
            plain = folder / entry.name[: -len("-stubs")]
            if plain.exists():
                raise StubInstallError(folder.name, "%s and %s both exist" % (entry.name, plain.name))
            entry.rename(plain)


def _config(backend, stubs, cache_dir):
    """A mypy config for one backend: its stubs only, our files reported, the rest silent."""
    lines = [
        "[mypy]",
        "mypy_path = %s, %s" % (stubs, ROOT),
        # the stub set's stdlib/ (micropython-stdlib-stubs) replaces CPython's typeshed
        "custom_typeshed_dir = %s" % stubs,
        "no_site_packages = True",
        "cache_dir = %s" % cache_dir,
        # unannotated code is checked too: nothing in firmware/ has annotations
        "check_untyped_defs = True",
        "follow_imports = silent",
        "follow_imports_for_stubs = True",  # and the stubs' own slips are not reported either
        "",
        "[mypy-%s]" % ",".join(backend.others),
        "follow_imports = skip",
        "",
        "[mypy-%s]" % ",".join(sorted(backend.uncovered)),
        "ignore_missing_imports = True",
        "",
    ]
    for module in sorted(backend.exempt):
        lines += ["[mypy-%s]" % module, "disable_error_code = %s" % ", ".join(backend.exempt[module]), ""]
    return "\n".join(lines)


def check(name, files=None, log=print):
    """Run mypy on one backend (or on `files` with that backend's stubs).

    Returns (ok, output): ok when mypy found no error (its notes do not count), and
    mypy's report, with the paths as given (the backends' relative to the project)."""
    backend = BACKENDS[name]
    stubs = ensure_stubs(backend.port, log)
    if files:
        # Files outside the backends get a cache of their own, thrown away after: mypy's cache
        # keys a module by its name and content, so one copy checked at another path replayed
        # the errors of the earlier path (a test's tmp folder), and a check could miss its own.
        with tempfile.TemporaryDirectory(prefix="chancery-mypy-") as tmp:
            return _mypy(backend, stubs, Path(tmp), [str(f) for f in files])
    cache_dir = CACHE / "mypy" / name
    cache_dir.mkdir(parents=True, exist_ok=True)
    return _mypy(backend, stubs, cache_dir, list(backend.files))


def _mypy(backend, stubs, cache_dir, targets):
    cfg = cache_dir / "mypy.ini"
    cfg.write_text(_config(backend, stubs, cache_dir))
    env = dict(os.environ)
    env.pop("MYPYPATH", None)  # only the config's search path
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(cfg), "--no-error-summary",
                          "--hide-error-context", *targets], check=False, cwd=ROOT, capture_output=True, text=True,
                         env=env)
    # mypy exits 1 on type errors and 2 when it cannot run at all (bad config, a crash)
    return run.returncode == 0, (run.stdout + run.stderr).strip()


def main(argv=None):
    parser = argparse.ArgumentParser(description="Type-check the board backends against each port's stubs.")
    parser.add_argument("backends", nargs="*", metavar="BACKEND",
                        help="which to check (default: all of %s)" % ", ".join(sorted(BACKENDS)))
    parser.add_argument("--files", nargs="+", help="check these files instead, with the one BACKEND's stubs")
    parser.add_argument("--install-stubs", action="store_true", help="only install (or update) every port's stubs")
    args = parser.parse_args(argv)
    if args.install_stubs:
        try:
            install_all()
        except StubInstallError as e:
            print("%s\n%s" % (e, e.output), file=sys.stderr)
            return 2
        print("the board stubs are ready in %s" % os.path.relpath(CACHE / "stubs", ROOT))
        return 0
    names = args.backends or sorted(BACKENDS)
    unknown = [n for n in names if n not in BACKENDS]
    if unknown:
        parser.error("no backend %s (known: %s)" % (", ".join(unknown), ", ".join(sorted(BACKENDS))))
    if args.files and len(names) != 1:
        parser.error("--files needs exactly one BACKEND")
    files = [Path(f).resolve() for f in args.files] if args.files else None  # mypy runs in ROOT
    if importlib.util.find_spec("mypy") is None:
        print("mypy is not installed: pip install -e '.[test]'", file=sys.stderr)
        return 2
    print("mypy %s" % importlib.metadata.version("mypy"))
    failed = []
    for name in names:
        try:
            ok, output = check(name, files)
        except StubInstallError as e:
            print("%s: %s\n%s" % (name, e, e.output), file=sys.stderr)
            return 2
        pins = ", ".join(_pinned(BACKENDS[name].port))
        if ok:
            print("%s: ok (%s)" % (name, pins))
        else:
            failed.append(name)
            print("%s: FAILED (%s)" % (name, pins))
            print("    " + output.replace("\n", "\n    "))
    if failed:
        print("type errors in: %s" % ", ".join(failed))
        return 1
    return 0


def _pinned(port):
    out = []
    for line in (PINS / (port + ".txt")).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("micropython-stdlib-stubs"):
            out.append(line)
    return out


if __name__ == "__main__":
    sys.exit(main())
