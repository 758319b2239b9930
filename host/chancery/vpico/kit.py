"""What the virtual Pico needs on the host: node, rp2040js, a MicroPython UF2 and the bootrom.

Each finder raises VPicoSetupError with a message that says what to do, so a missing piece
reads as an instruction rather than a stack trace.
"""

import fcntl
import glob
import json
import os
import re
import shutil
import subprocess

import platformdirs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
HERE = os.path.dirname(os.path.abspath(__file__))
CHIP = os.path.join(HERE, "chip.mjs")
# Where the team keeps its emulator kit (the UF2 and the bootrom), beside the checkout.
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "pico-emu")

RP2040JS = "1.4.1"
NODE_MIN = 18
DOWNLOAD = "https://micropython.org/download/RPI_PICO/"

ENV_UF2 = "CHANCERY_PICO_UF2"
ENV_BOOTROM = "CHANCERY_PICO_BOOTROM"
ENV_CACHE = "CHANCERY_VPICO_CACHE"


class VPicoSetupError(RuntimeError):
    """Something the virtual Pico needs is missing; the message says what to do."""


class UF2NotFound(VPicoSetupError):
    pass


def find_node():
    """The node executable, at least version 18."""
    node = shutil.which("node")
    if node is None:
        raise VPicoSetupError(f"the virtual Pico runs on Node.js, which is not on PATH: install Node.js >= {NODE_MIN} "
                              "(https://nodejs.org/ or your package manager's nodejs)")
    out = subprocess.run([node, "--version"], check=False, capture_output=True, text=True, timeout=30).stdout.strip()
    m = re.match(r"v(\d+)\.", out)
    if not m or int(m.group(1)) < NODE_MIN:
        raise VPicoSetupError(f"{node} is Node.js {out or '?'}; the virtual Pico needs Node.js >= {NODE_MIN}")
    return node


def cache_dir():
    return os.environ.get(ENV_CACHE) or os.path.join(platformdirs.user_cache_dir("chancery"), "vpico")


def _installed_version(modules):
    try:
        with open(os.path.join(modules, "rp2040js", "package.json"), encoding="utf-8") as f:
            return json.load(f).get("version")
    except (OSError, ValueError):
        return None


def ensure_rp2040js(log=None):
    """The node_modules folder holding rp2040js RP2040JS, installed with npm on first use."""
    cache = cache_dir()
    modules = os.path.join(cache, "node_modules")
    if _installed_version(modules) == RP2040JS:
        return modules
    os.makedirs(cache, exist_ok=True)
    # One installer at a time (parallel test runs share the cache).
    with open(os.path.join(cache, ".install.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _installed_version(modules) == RP2040JS:
            return modules
        npm = shutil.which("npm")
        if npm is None:
            raise VPicoSetupError(f"npm is not on PATH: it comes with Node.js >= {NODE_MIN}; the virtual Pico "
                                  f"installs rp2040js {RP2040JS} with it into {cache}")
        with open(os.path.join(cache, "package.json"), "w", encoding="utf-8") as f:
            json.dump({"name": "chancery-vpico", "private": True, "description": "rp2040js for chancery.vpico",
                       "dependencies": {"rp2040js": RP2040JS}}, f, indent=2)
        if log:
            log(f"installing rp2040js {RP2040JS} into {cache} (once)")
        run = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--omit=dev"], check=False, cwd=cache,
                             capture_output=True, text=True, timeout=600)
        if run.returncode != 0 or _installed_version(modules) != RP2040JS:
            said = (run.stdout + run.stderr)[-2000:]
            raise VPicoSetupError(f"npm could not install rp2040js {RP2040JS} into {cache}:\n{said}")
    return modules


def find_uf2():
    """The MicroPython firmware for the Pico: $CHANCERY_PICO_UF2, else the team's kit."""
    path = os.environ.get(ENV_UF2)
    if path:
        if not os.path.isfile(path):
            raise UF2NotFound(f"{ENV_UF2}={path}: no such file")
        return path
    folder = os.path.join(SHARED, "firmware")
    found = sorted(glob.glob(os.path.join(folder, "*.uf2")))
    # a Pico W's firmware may sit beside it; prefer the plain Pico's
    found.sort(key=lambda p: ("RPI_PICO_W" in os.path.basename(p), "RPI_PICO" not in os.path.basename(p)))
    if not found:
        raise UF2NotFound("no MicroPython UF2 for the Raspberry Pi Pico: download the v1.28.0 RPI_PICO .uf2 from "
                          f"{DOWNLOAD} and set {ENV_UF2} to its path (or put it in {folder})")
    return found[0]


def find_bootrom(uf2):
    """The RP2040 B1 bootrom: $CHANCERY_PICO_BOOTROM, the team's kit, or beside the UF2's folder."""
    path = os.environ.get(ENV_BOOTROM)
    if path:
        if not os.path.isfile(path):
            raise VPicoSetupError(f"{ENV_BOOTROM}={path}: no such file")
        return path
    for candidate in (os.path.join(SHARED, "bootrom-b1.bin"),
                      os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(uf2))), "bootrom-b1.bin")):
        if os.path.isfile(candidate):
            return candidate
    raise VPicoSetupError("no RP2040 bootrom (bootrom-b1.bin, 16 KiB, from the raspberrypi/pico-bootrom-rp2040 "
                          f"b1 release): set {ENV_BOOTROM} to its path")


def pin_map(board="rpi-pico"):
    """The board's pin map (hardware/boards/BOARD.json): its path and contents."""
    path = board if board.endswith(".json") else os.path.join(ROOT, "hardware", "boards", board + ".json")
    with open(path, encoding="utf-8") as f:
        return path, json.load(f)
