"""A board's pin map, read from its JSON file in hardware/boards/ (data, not code).

    cfg = pins.load("rpi-pico")            # /hardware/boards/rpi-pico.json on the flash
    cfg = pins.load("tests/x/board.json")  # or any path (a name with "/" or ".json")

The file is read once at boot and kept as the plain dict json.load gives; the
helpers below only look things up in it, so a backend holds no second copy of
the numbers. See hardware/boards/*.json's `doc` for the fields.
"""

import json

from shared_rules.power import BUDGET_MA

ROOT = "/hardware/boards/"
_CHANNELS = "RGB"


def path_of(name):
    """The file for a board name, or the name itself when it already is a path."""
    if "/" in name or name.endswith(".json"):
        return name
    return ROOT + name + ".json"


def load(name):
    with open(path_of(name)) as f:
        cfg = json.load(f)
    if len(cfg.get("buttons") or ()) != 19:
        # a short list would shift every table button onto the wrong index
        raise ValueError("%s: buttons must list 19 entries (null for none)" % name)
    return cfg


def buttons(cfg):
    """The 19 button pins in firmware/pads.py order; None where none is fitted."""
    return cfg["buttons"]


def strip(cfg):
    """(data pin, LED count, byte order such as "GRB")."""
    s = cfg["strip"]
    return s["data"], s["leds"], s.get("order", "GRB")


def order_offsets(order):
    """For each byte the strip wants, which byte of a logical R, G, B triple it takes:
    "GRB" -> b"\\x01\\x00\\x02". Raises ValueError for anything but a permutation of RGB."""
    if len(order) != 3:
        raise ValueError("byte order %r: three of R, G, B" % order)
    out = bytearray(3)
    seen = 0
    for k in range(3):
        c = _CHANNELS.find(order[k])
        if c < 0 or seen & (1 << c):
            raise ValueError("byte order %r: three of R, G, B" % order)
        seen |= 1 << c
        out[k] = c
    return bytes(out)


def active_level(cfg):
    """The pin level that means pressed: 0 for active-low (switch to GND, pull-up)."""
    return 0 if cfg.get("active_low", True) else 1


def encoder(cfg):
    """{"a", "b", "steps_per_detent"} or None."""
    return cfg.get("encoder")


def i2c(cfg):
    """{"id", "sda", "scl", "freq", "addr"} or None."""
    return cfg.get("i2c")


def budget_ma(cfg):
    """The strip's current budget (mA); without one, the limiter's default (power.BUDGET_MA:
    USB's 500 less the board's own draw), so the two never disagree."""
    return cfg.get("budget_ma", BUDGET_MA)


def used(cfg):
    """Every pin the map uses, as (role, pin) pairs: the buttons, the strip's data,
    the encoder and the I2C pair. For checks that no pin serves twice."""
    out = []
    for i, p in enumerate(cfg["buttons"]):
        if p is not None:
            out.append(("button%d" % i, p))
    out.append(("strip", cfg["strip"]["data"]))
    enc = cfg.get("encoder")
    if enc:
        out.append(("encoder_a", enc["a"]))
        out.append(("encoder_b", enc["b"]))
    bus = cfg.get("i2c")
    if bus:
        out.append(("sda", bus["sda"]))
        out.append(("scl", bus["scl"]))
    return out
