"""Adafruit's CircuitPython libraries that the circuitpy backend imports, at pinned versions, from
their PyPI packages: the one place their versions are pinned (tests/host/test_cp_deploy.py holds the
test extra's neopixel, which the backend's pixel test runs on CPython, to the same version).

Each is a pure-Python wheel, downloaded once (pip download, no dependencies: the list names them
all) into a cache folder outside the checkout ($CHANCERY_CP_WHEELS, else the user's cache folder),
checked against its pinned sha256, and unpacked: its modules go into the board's lib/. What the
boards have built in is not sent: adafruit_pixelbuf (neopixel's base), adafruit_bus_device (the
display's), board, digitalio, rotaryio, usb_cdc, storage, supervisor, microcontroller, busio.
"""

import glob
import hashlib
import os
import subprocess
import sys
import zipfile

from chancery.deploy.flash import DeployError

ENV_WHEELS = "CHANCERY_CP_WHEELS"

# (PyPI package, version, sha256 of its wheel, the modules it puts in lib/, needed only for a display)
LIBRARIES = (
    ("adafruit-circuitpython-asyncio", "3.1.1",
     "901a673e9ce467ece4e70605815aab3bd2153c2f5e85e27e7cdcf1232bc08e5a", ("asyncio",), False),
    ("adafruit-circuitpython-ticks", "1.1.7",  # asyncio's clock
     "d6c28f766e40ff12b5791b63824244fa26a6abbd92af22c179c4dae7b54303c5", ("adafruit_ticks",), False),
    ("adafruit-circuitpython-neopixel", "6.4.2",
     "1a471557e7b82c98894ec27c23910149c5ef76ce39420f054773943dfe56970e", ("neopixel",), False),
    ("adafruit-circuitpython-ssd1306", "2.12.24",
     "f6bc9bf726cc7f8f8c79e1156d785a73dbf8770d64c2b78ec58396d4bfca4e1a", ("adafruit_ssd1306",), True),
    ("adafruit-circuitpython-framebuf", "1.6.12",  # the display's text (its font: FONT)
     "b9c04fdacca6660ecb6c3ec4f4cad5b79416913d68fb46e98aa8af22e1d2d08b", ("adafruit_framebuf",), True),
)
# adafruit_framebuf's text() reads its font from this file in the board's working folder, the drive's
# root; no PyPI package ships it (it is in the library's repository, examples/).
FONT = "font5x8.bin"


def needed(cfg, font=False):
    """The LIBRARIES entries a board with pin map `cfg` imports: the display's only where it has one and
    `font` (FONT is on its drive). Without the font, adafruit_framebuf's text() raises at the first
    line drawn, where without the libraries the backend plays on without a display."""
    return [lib for lib in LIBRARIES if not lib[4] or (cfg.get("i2c") and font)]


def modules_of(libraries):
    """The module names (lib/NAME.py, lib/NAME.mpy or the package lib/NAME/) the libraries put in lib/."""
    return sorted(m for lib in libraries for m in lib[3])


def cache_dir():
    """Where the wheels are kept: $CHANCERY_CP_WHEELS, else the user's cache folder (platformdirs)."""
    given = os.environ.get(ENV_WHEELS)
    if given:
        return given
    import platformdirs

    return os.path.join(platformdirs.user_cache_dir("chancery"), "circuitpython-wheels")


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _cached(cache, package, version):
    pattern = os.path.join(cache, "%s-%s-*.whl" % (package.replace("-", "_"), version))
    found = sorted(glob.glob(pattern))
    return found[0] if found else None


def wheels(libraries, cache, say=print, run=subprocess.run):
    """{package: wheel path} of `libraries`, each from the cache or downloaded into it, every one checked
    against its pinned sha256. DeployError when one cannot be had or differs."""
    out = {}
    missing = [lib for lib in libraries if _cached(cache, lib[0], lib[1]) is None]
    if missing:
        specs = ["%s==%s" % (lib[0], lib[1]) for lib in missing]
        say("fetching %s into %s (pip download)" % (", ".join(specs), cache))
        os.makedirs(cache, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--disable-pip-version-check", "-q", "-d", cache] + specs
        done = run(cmd, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            lines = (done.stdout + done.stderr).strip().splitlines()
            raise DeployError("cannot fetch Adafruit's libraries (%s): pip said %s; with this computer online, "
                              "deploy again, or put their wheels in %s (or the folder named by %s)"
                              % (", ".join(specs), lines[-1] if lines else done.returncode, cache, ENV_WHEELS))
    for package, version, digest, _mods, _display in libraries:
        path = _cached(cache, package, version)
        if path is None:
            raise DeployError("pip fetched no wheel of %s==%s into %s" % (package, version, cache))
        if _sha256(path) != digest:
            raise DeployError("%s is not the %s %s pinned in chancery/deploy/adafruit.py (sha256 differs): remove "
                              "it and deploy again" % (path, package, version))
        out[package] = path
    return out


def unpack(wheel, names, out_dir):
    """The modules `names` of a wheel (NAME.py, or the package NAME/ and its .py files) into out_dir;
    returns their paths relative to out_dir, with "/". The wheel's metadata stays out."""
    written = []
    with zipfile.ZipFile(wheel) as z:
        for member in z.namelist():
            top = member.split("/", 1)[0]
            if not member.endswith(".py") or (top[:-3] if top.endswith(".py") else top) not in names:
                continue
            dst = os.path.join(out_dir, *member.split("/"))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with z.open(member) as src, open(dst, "wb") as f:
                f.write(src.read())
            written.append(member)
    missing = [n for n in names if not [w for w in written if w.split("/", 1)[0] in (n, n + ".py")]]
    if missing:
        raise DeployError("%s holds no module %s" % (wheel, ", ".join(missing)))
    return sorted(written)
