"""Every pin map in hardware/boards/ against the datasheets' rules in hardware/rules.json.

The rules are data, each with its source (rules.json's "sources" and a section):
* no pin the map uses, nor any in its gpio list, is off limits for that board: a
  strapping pin, the flash/PSRAM bus, USB, or one the board keeps for itself;
* no pin that runs at 1.8 V on any listed module variant is used for a role that
  drives 5 V or 3.3 V logic (the strip's data into the 74AHCT125, the display's bus),
  nor offered in the gpio list (which offers its pins for any role);
* the strip's budget and the board's own draw together fit what the map's supply
  path allows (USB 2.0's 500 mA; a separate supply's rating less the house margin).

And the budget's other consumers agree: the firmware's defaults, the layouts, and a
brightness cap (level) at which a typical frame fits every board's default budget.
Each check is a function returning its problems, and is shown broken maps too, so a
test that passes has looked at something.
"""

import copy
import json
import os

import paths
import pytest

from chancery.hardware import files as hardware_files
from chancery.hardware import power as power_cmd
from firmware.board import pins
from shared_rules import power

ROOT = paths.ROOT
HW = os.path.join(ROOT, "hardware")
BOARDS = sorted(n[:-5] for n in os.listdir(os.path.join(HW, "boards")) if n.endswith(".json"))
LAYOUTS = sorted(n[:-5] for n in os.listdir(os.path.join(HW, "layouts")) if n.endswith(".json"))
KINDS = {"strapping", "flash_psram", "usb", "reserved"}


def load(*parts):
    with open(os.path.join(HW, *parts), encoding="utf-8") as f:
        return json.load(f)


RULES = load("rules.json")


def gpio(cfg, pin):
    """A pin's GPIO number: CircuitPython maps name their pins (the map's names table)."""
    return cfg["names"][pin] if isinstance(pin, str) else pin


def problems(cfg, rules=RULES):
    """Every rule of rules.json this pin map breaks; [] when it keeps them all."""
    board = rules["boards"].get(cfg.get("rules"))
    if board is None:
        return ["rules %r: no such entry in hardware/rules.json" % cfg.get("rules")]
    out = []
    used = [(role, gpio(cfg, pin)) for role, pin in pins.used(cfg)]
    listed = [("gpio list", g) for g in cfg.get("gpio", [])]
    for rule in board["off_limits"]:
        for role, g in used + listed:
            if g in rule["pins"]:
                out.append("%s: GPIO%d is %s (%s; %s)" % (role, g, rule["kind"], rule["why"], rule["source"]))
    for rule in board["low_voltage"]:
        for role, g in used + listed:  # the gpio list offers its pins for any role
            if g in rule["pins"] and (role in rule["forbid"] or role == "gpio list"):
                out.append("%s: GPIO%d runs at %d mV on %s, too low for what it drives (%s)"
                           % (role, g, rule["mv"], ", ".join(rule["variants"]), rule["source"]))
    supply = cfg.get("supply")
    path = board["supplies"].get(supply)
    if path is None:
        return out + ["supply %r: the board's supplies are %s" % (supply, ", ".join(sorted(board["supplies"])))]
    if "limit_ma" in path:
        limit, why = path["limit_ma"], path["source"]
    elif isinstance(cfg.get("supply_ma"), int):
        pct = rules["parts"]["external_derate_pct"]
        limit, why = cfg["supply_ma"] * pct["value"] // 100, pct["source"]
    else:
        return out + ["supply %r: the map gives no supply_ma (the supply's rating)" % supply]
    own = board["board_ma"]["value"] if path["board_on_it"] else 0
    if cfg["budget_ma"] + own > limit:
        out.append("budget_ma %d + the board's %d mA is above the %d mA the %s supply allows (%s)"
                   % (cfg["budget_ma"], own, limit, supply, why))
    return out


# --- the rules themselves ------------------------------------------------------------------

def test_every_rule_names_its_source():
    def cited(text):
        return text.split(" ", 1)[0].rstrip(",;:") in RULES["sources"]

    for name, part in RULES["parts"].items():
        assert isinstance(part["value"], int) and cited(part["source"]), name
    for name, board in RULES["boards"].items():
        assert cited(board["board_ma"]["source"]) and isinstance(board["board_ma"]["value"], int), name
        for rule in board["off_limits"]:
            assert rule["kind"] in KINDS and rule["pins"] and rule["why"] and cited(rule["source"]), (name, rule)
        for rule in board["low_voltage"]:
            assert rule["mv"] < RULES["parts"]["shifter_vih_mv"]["value"] and rule["variants"], (name, rule)
            assert set(rule["forbid"]) <= {"strip", "sda", "scl"} and cited(rule["source"]), (name, rule)
        assert set(board["supplies"]) == {"usb", "external"}, name
        for supply in board["supplies"].values():
            assert cited(supply["source"]) and supply["note" if "note" in supply else "pin"], (name, supply)
        assert board["supplies"]["usb"]["limit_ma"] <= RULES["parts"]["usb_port_ma"]["value"], name


def test_every_pin_map_names_its_rules_and_supply():
    for name in BOARDS:
        cfg = load("boards", name + ".json")
        assert cfg["rules"] in RULES["boards"], name
        assert cfg["supply"] in ("usb", "external"), name


# --- every pin map keeps them ----------------------------------------------------------------

@pytest.mark.parametrize("name", BOARDS)
def test_pin_map_keeps_the_datasheets_rules(name):
    assert problems(load("boards", name + ".json")) == []


def _set(path, value):
    def change(cfg):
        *head, last = path
        target = cfg
        for key in head:
            target = target[key]
        target[last] = value
    return change


@pytest.mark.parametrize("name, change, why", [
    # strapping, USB, flash/PSRAM, and the board's own pins on the ESP32-S3
    ("esp32-s3-devkitc", _set(["buttons", 0], 0), "strapping"),
    ("esp32-s3-devkitc", _set(["buttons", 5], 46), "strapping"),
    ("esp32-s3-devkitc", _set(["strip", "data"], 20), "usb"),
    ("esp32-s3-devkitc", _set(["buttons", 3], 30), "flash_psram"),
    ("esp32-s3-devkitc", _set(["i2c", "sda"], 35), "flash_psram"),
    ("esp32-s3-devkitc", _set(["buttons", 7], 43), "reserved"),
    ("esp32-s3-devkitc", _set(["strip", "data"], 38), "reserved"),
    ("esp32-s3-devkitc", lambda c: c["gpio"].append(45), "gpio list: GPIO45 is strapping"),
    # 1.8 V on the N16R8V/N32R8V modules: not for the strip's data nor the display
    ("esp32-s3-devkitc", _set(["strip", "data"], 47), "1800 mV"),
    ("esp32-s3-devkitc", _set(["i2c", "scl"], 47), "1800 mV"),
    ("esp32-s3-devkitc", lambda c: c["gpio"].append(47), "gpio list: GPIO47 runs at 1800 mV"),
    # the Picos' own pins (a Pico W's wireless chip)
    ("rpi-pico", _set(["buttons", 0], 25), "reserved"),
    ("rpi-pico", _set(["strip", "data"], 23), "reserved"),
    ("rpi-pico-w", _set(["i2c", "sda"], 24), "wireless"),
    ("rpi-pico2", _set(["encoder", "a"], 29), "VSYS/3"),
    # the KB2040's NeoPixel and BOOT button, by a name the map gives them
    ("adafruit-kb2040", lambda c: (c["names"].__setitem__("NEOPIXEL", 17), c["buttons"].__setitem__(12, "NEOPIXEL")),
     "NeoPixel"),
    ("adafruit-kb2040", lambda c: (c["names"].__setitem__("BOOT", 11), _set(["strip", "data"], "BOOT")(c)), "BOOT"),
    # the same pins on the Picos under CircuitPython, by the names a map gives them
    ("rpi-pico-circuitpython", lambda c: (c["names"].__setitem__("GP25", 25), _set(["buttons", 0], "GP25")(c)),
     "the on-board LED"),
    ("rpi-pico2-circuitpython", lambda c: (c["names"].__setitem__("A3", 29), _set(["encoder", "a"], "A3")(c)),
     "VSYS/3"),
    ("rpi-pico-w-circuitpython", lambda c: (c["names"].__setitem__("GP24", 24), _set(["i2c", "sda"], "GP24")(c)),
     "wireless"),
    ("rpi-pico-circuitpython", lambda c: c["gpio"].append(23), "gpio list: GPIO23 is reserved"),
    ("rpi-pico-circuitpython", _set(["budget_ma"], 500), "above the 500 mA"),
    # budgets above the supply path
    ("rpi-pico", _set(["budget_ma"], 500), "above the 500 mA"),
    ("esp32-s3-devkitc", _set(["budget_ma"], 450), "above the 500 mA"),
    ("adafruit-kb2040", _set(["budget_ma"], 460), "above the 500 mA"),
    ("rpi-pico", lambda c: c.update(supply="external", supply_ma=2000, budget_ma=1600), "above the 1600 mA"),
    ("rpi-pico", lambda c: c.update(supply="external", budget_ma=1000), "no supply_ma"),
    ("rpi-pico", _set(["supply"], "battery"), "supply 'battery'"),
    ("rpi-pico", _set(["rules"], "arduino-uno"), "no such entry"),
])
def test_the_check_finds_a_bad_map(name, change, why):
    cfg = copy.deepcopy(load("boards", name + ".json"))
    change(cfg)
    found = problems(cfg)
    assert any(why in p for p in found), found


@pytest.mark.parametrize("name, budget, supply_ma", [
    ("rpi-pico", 1500, 2000),  # the guide's example: the Pico shares the supply (VSYS)
    ("esp32-s3-devkitc", 1600, 2000),  # the board stays on USB: the supply feeds the strip alone
    ("adafruit-kb2040", 1600, 2000),
])
def test_a_separate_supply_raises_the_budget(name, budget, supply_ma):
    cfg = copy.deepcopy(load("boards", name + ".json"))
    cfg.update(supply="external", supply_ma=supply_ma, budget_ma=budget)
    assert problems(cfg) == []


# --- the budget's other consumers agree --------------------------------------------------------

def test_the_defaults_are_the_picos_usb_budget():
    pico = load("boards", "rpi-pico.json")
    assert power.BUDGET_MA == pins.budget_ma({}) == pico["budget_ma"] == 450
    for name in LAYOUTS:
        assert load("layouts", name + ".json")["budget_ma"] == pico["budget_ma"], name


@pytest.mark.parametrize("name", LAYOUTS)
def test_the_default_brightness_fits_every_boards_budget_for_a_typical_frame(name):
    layout = hardware_files.layout(name)  # on the arrangement: every LED of the panel draws its idle current
    for board in BOARDS:
        budget = load("boards", board + ".json")["budget_ma"]
        assert power_cmd.typical_ma(layout, layout["level"]) <= budget, (board, layout["level"])
    # and not needlessly dim: at most one step below the highest cap that fits the smallest of those
    # budgets (with the panel's 256 chips idle, Chancellors and The King's Dilemma both fit at 25)
    smallest = min(load("boards", b + ".json")["budget_ma"] for b in BOARDS)
    assert power_cmd.typical_level(layout, smallest) - layout["level"] <= 1, name
