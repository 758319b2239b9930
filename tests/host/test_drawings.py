"""The generated hardware drawings (host/chancery/hardware/).

* Every committed drawing (hardware/wiring/*.svg, hardware/overlays/*.svg) is what
  the generator makes now from the pin maps and layouts, byte for byte, and
  `drawings --check` says so (and names a stale one when it is not).
* Every drawing is well-formed XML.
* A wiring diagram labels each role (Seat 0 up, Strip data, Encoder A, Display SDA, ...)
  with the pin the map gives it, written as the board's documents write it; buttons
  the map leaves out are "not fitted". The role list follows firmware/pads.py.
* An overlay is an A4 sheet in millimetres drawn for the one arrangement
  (hardware/arrangement.json): every game's sheet has the same registration marks at
  the same places (the plate's outline, its corner pins, the frame's window: those of
  the enclosure drawing), every LED a track uses once, centred exactly over its cell
  (exact decimals, no float tolerance) and numbered as the strip numbers it, every
  track reading left to right with the words of what each LED means in its order (as
  the mirror draws it), and a 100 mm scale bar.
* The enclosure's plates (hardware/enclosure.svg): the corner pins the overlays punch,
  a baffle hole over every LED, slots under the strip's first and last LEDs.
"""

import copy
import hashlib
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal

import paths
import pytest

from chancery.hardware import arrangement as cells
from chancery.hardware import cli as commands
from chancery.hardware import enclosure, overlay, svg, wiring
from chancery.hardware import files as hardware_files
from chancery.hardware.files import UnknownName
from firmware import pads

ROOT = paths.ROOT
NS = "{http://www.w3.org/2000/svg}"
BOARDS = sorted(n[:-5] for n in os.listdir(os.path.join(ROOT, "hardware", "boards")) if n.endswith(".json"))
LAYOUTS = sorted(n[:-5] for n in os.listdir(os.path.join(ROOT, "hardware", "layouts")) if n.endswith(".json"))


def load(kind, name):
    with open(os.path.join(ROOT, "hardware", kind, name + ".json")) as f:
        return json.load(f)


def parse(text):
    return ET.fromstring(text.encode("utf-8"))


def texts(element):
    return ["".join(t.itertext()) for t in element.iter(NS + "text")]


# --- the committed drawings are current ----------------------------------------------

def test_there_are_boards_and_layouts_to_draw():
    assert BOARDS and LAYOUTS


@pytest.mark.parametrize("name", BOARDS)
def test_committed_wiring_diagram_is_current(name):
    path = os.path.join(ROOT, "hardware", "wiring", name + ".svg")
    assert os.path.exists(path), "%s is missing: run `chancery hardware drawings`" % path
    with open(path, "rb") as f:
        assert f.read() == wiring.wiring_svg(name).encode("utf-8"), \
            "%s is stale: run `chancery hardware drawings`" % path


@pytest.mark.parametrize("name", LAYOUTS)
def test_committed_overlay_is_current(name):
    path = os.path.join(ROOT, "hardware", "overlays", name + ".svg")
    assert os.path.exists(path), "%s is missing: run `chancery hardware drawings`" % path
    with open(path, "rb") as f:
        assert f.read() == overlay.overlay_svg(name).encode("utf-8"), \
            "%s is stale: run `chancery hardware drawings`" % path


def test_the_check_command_passes_on_the_checkout(capsys):
    assert commands.main(["drawings", "--check"]) == 0


def _copy_hardware(tmp_path):
    for folder in ("boards", "layouts", "wiring", "overlays"):
        shutil.copytree(os.path.join(ROOT, "hardware", folder), tmp_path / "hardware" / folder)
    for name in ("rules.json", "arrangement.json", "enclosure.svg"):
        shutil.copy(os.path.join(ROOT, "hardware", name), tmp_path / "hardware" / name)
    return str(tmp_path)


def test_the_check_names_a_drawing_whose_data_changed(tmp_path, monkeypatch, capsys):
    root = _copy_hardware(tmp_path)
    assert commands.stale(root) == []
    cfg = load("boards", "rpi-pico")
    cfg["strip"]["data"] = 28  # move the strip: the committed diagram no longer says so
    with open(os.path.join(root, "hardware", "boards", "rpi-pico.json"), "w") as f:
        json.dump(cfg, f)
    os.remove(os.path.join(root, "hardware", "overlays", LAYOUTS[0] + ".svg"))
    expected = [os.path.join("hardware", "overlays", LAYOUTS[0] + ".svg"),
                os.path.join("hardware", "wiring", "rpi-pico.svg")]
    assert commands.stale(root) == expected
    monkeypatch.setattr(commands, "ROOT", root)
    assert commands.main(["drawings", "--check"]) == 1
    err = capsys.readouterr().err
    assert "hardware/wiring/rpi-pico.svg" in err and "hardware/overlays/%s.svg" % LAYOUTS[0] in err
    # writing them makes the check pass again
    assert commands.main(["drawings"]) == 0
    assert commands.stale(root) == []
    with open(os.path.join(root, "hardware", "wiring", "rpi-pico.svg")) as f:
        assert ">GP28<" in f.read()


def test_a_drawing_no_data_makes_is_stale(tmp_path):
    root = _copy_hardware(tmp_path)
    shutil.copy(os.path.join(root, "hardware", "wiring", "rpi-pico.svg"),
                os.path.join(root, "hardware", "wiring", "gone-board.svg"))
    assert commands.stale(root) == [os.path.join("hardware", "wiring", "gone-board.svg")]


def test_output_is_the_same_every_time():
    """The same bytes from separate processes with different string hashing (set and dict
    orders that a single process would repeat): what `drawings --check` relies on."""
    code = ("import hashlib, sys; from chancery.hardware import overlay, wiring; "
            "print(hashlib.sha256((wiring.wiring_svg(sys.argv[1]) + overlay.overlay_svg(sys.argv[2])).encode())"
            ".hexdigest())")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT]))
    got = set()
    for seed in ("1", "2", "3"):
        env["PYTHONHASHSEED"] = seed
        run = subprocess.run([sys.executable, "-c", code, BOARDS[0], LAYOUTS[0]], env=env, capture_output=True,
                             text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        got.add(run.stdout.strip())
    want = hashlib.sha256((wiring.wiring_svg(BOARDS[0]) + overlay.overlay_svg(LAYOUTS[0])).encode()).hexdigest()
    assert got == {want}


# --- commands ------------------------------------------------------------------------

def test_unknown_board_is_a_clear_error(capsys):
    with pytest.raises(UnknownName) as e:
        wiring.wiring_svg("no-such-board")
    assert "no-such-board" in str(e.value) and all(name in str(e.value) for name in BOARDS)
    assert commands.main(["wiring", "--board", "no-such-board"]) == 2
    err = capsys.readouterr().err
    assert "unknown board 'no-such-board'" in err and "rpi-pico" in err


def test_unknown_layout_is_a_clear_error(capsys):
    assert commands.main(["overlay", "--layout", "no-such-game"]) == 2
    err = capsys.readouterr().err
    assert "unknown layout 'no-such-game'" in err and all(name in err for name in LAYOUTS)


def test_wiring_and_overlay_write_to_a_file(tmp_path):
    out = tmp_path / "pico.svg"
    assert commands.main(["wiring", "--board", "rpi-pico", "-o", str(out)]) == 0
    assert out.read_bytes() == wiring.wiring_svg("rpi-pico").encode("utf-8")
    out = tmp_path / "overlay.svg"
    assert commands.main(["overlay", "--layout", LAYOUTS[0], "-o", str(out)]) == 0
    assert out.read_bytes() == overlay.overlay_svg(LAYOUTS[0]).encode("utf-8")


def test_no_action_prints_help_and_fails(capsys):
    assert commands.main([]) == 2
    assert "drawings" in capsys.readouterr().out


def test_the_hardware_actions_are_one_parser_with_power_among_them():
    import argparse

    from chancery.hardware import power

    p = argparse.ArgumentParser()
    commands.configure_actions(p)
    assert p.parse_args(["power", "--layout", "chancellors"]).hardware_run is power.run
    assert p.parse_args(["wiring", "--board", "x"]).hardware_cmd == "wiring"
    assert commands.run(p.parse_args([])) == 2  # no action: the group's help


# --- the SVG writer --------------------------------------------------------------------

def test_svg_text_is_escaped_and_numbers_are_fixed():
    t = svg.text(1, 2.5, 'a < b & "c"', data_x="<")
    assert t == '<text x="1" y="2.500" data-x="&lt;">a &lt; b &amp; &quot;c&quot;</text>'
    assert parse('<svg xmlns="http://www.w3.org/2000/svg">%s</svg>' % t)[0].text == 'a < b & "c"'
    assert svg.num(-0.0001) == "0.000" and svg.num(0.1 + 0.2) == "0.300"
    assert svg.mm(16667) == "16.667" and svg.mm(5) == "0.005" and svg.mm(-1500) == "-1.500"
    with pytest.raises(TypeError):
        svg.mm(1.5)


# --- wiring diagrams -------------------------------------------------------------------

def expected_label(cfg, pin):
    """How the board's own documents write a pin (independent of wiring.pin_label)."""
    if cfg["port"] == "rp2":
        return "GP%d" % pin
    if cfg["port"] == "esp32":
        return "GPIO%d" % pin
    return "%s (GPIO%d)" % (pin, cfg["names"][pin])


def roles(cfg):
    """{role: pin or None} for every pin the map names, buttons named as firmware/pads.py does."""
    out = {}
    for i, pin in enumerate(cfg["buttons"]):
        pad, name = pads.which(i)
        out[("Table %s" if pad == pads.TABLE else "Seat %d %%s" % pad) % name] = pin
    out["Strip data"] = cfg["strip"]["data"]
    if cfg.get("encoder"):
        out["Encoder A"] = cfg["encoder"]["a"]
        out["Encoder B"] = cfg["encoder"]["b"]
    out["Display SDA"] = cfg["i2c"]["sda"]
    out["Display SCL"] = cfg["i2c"]["scl"]
    return out


def groups(root):
    return {g.get("data-role"): g for g in root.iter(NS + "g") if g.get("data-role")}


def test_button_roles_follow_the_firmware_order():
    for i in range(pads.COUNT):
        pad, name = pads.which(i)
        assert wiring.button_role(i) == (("Table %s" if pad == pads.TABLE else "Seat %d %%s" % pad) % name)


@pytest.mark.parametrize("name", BOARDS)
def test_wiring_labels_every_pin_as_the_map_says(name):
    cfg = load("boards", name)
    root = parse(wiring.wiring_svg(name))
    assert root.tag == NS + "svg"
    assert any(cfg["board"] in t for t in texts(root)), "the title names the board"
    drawn = groups(root)
    seen = set()
    for role, pin in roles(cfg).items():
        if pin is None:
            seat_pad = role.rsplit(" ", 1)[0] + " pad (up, select, down)"
            g = drawn.get(role, drawn.get(seat_pad))
            assert g is not None, "%s: no row for %s" % (name, role)
            assert any("not fitted" in t for t in texts(g)), "%s: %s should say not fitted" % (name, role)
            continue
        assert role in drawn, "%s: no row for %s" % (name, role)
        label = expected_label(cfg, pin)
        assert label in texts(drawn[role]), "%s: %s should be labelled %s, has %s" % (
            name, role, label, texts(drawn[role]))
        seen.add(label)
    # and no pin is drawn that the map does not use, besides the power pins (its supplies' in rules.json)
    supplies = load_rules()["boards"][cfg["rules"]]["supplies"].values()
    power = {"GND", "3V3"} | {s["label"] for s in supplies if s["label"]}
    fitted = {expected_label(cfg, pin) for pin in roles(cfg).values() if pin is not None} | power
    board_labels = {t.text for t in root.iter(NS + "text") if t.get("class") == "pin"}
    assert board_labels == fitted


def test_wiring_shows_the_strip_parts_and_the_display_address():
    all_text = " ".join(texts(parse(wiring.wiring_svg("rpi-pico"))))
    for part in ("74AHCT125", "330-470 \u03a9", "at the panel's DIN", "1000 \u00b5F", "DIN", "5 V supply", "SSD1306",
                 "0x3C", "Legend"):
        assert part in all_text, part


def load_rules():
    with open(os.path.join(ROOT, "hardware", "rules.json")) as f:
        return json.load(f)


@pytest.mark.parametrize("name", BOARDS)
def test_wiring_shows_the_decoupler_the_tied_off_channels_and_the_supply_path(name):
    cfg = load("boards", name)
    root = parse(wiring.wiring_svg(name))
    all_text = " ".join(texts(root))
    # the 74AHCT125's 0.1 uF across VCC (14) and GND (7); its unused channels held at 5 V or GND (TI)
    for part in ("0.1 \u00b5F at pins 14 and 7", "VCC 14", "GND 7", "2OE, 3OE, 4OE (pins 4, 10, 13) to 5 V",
                 "2A, 3A, 4A (pins 5, 9, 12) to GND", "OE 4, 10, 13", "A 5, 9, 12"):
        assert part in all_text, (name, part)
    # how 5 V reaches the board, from the rules: USB's pin (option A) and the supply's way in (option B)
    supplies = load_rules()["boards"][cfg["rules"]]["supplies"]
    drawn = groups(root)
    usb = [r for r in drawn if r.startswith("USB 5 V (option A")]
    assert len(usb) == 1 and supplies["usb"]["label"] in texts(drawn[usb[0]]), name
    ext = [r for r in drawn if r.startswith("Supply in (option B)")]
    if supplies["external"]["label"]:
        assert len(ext) == 1 and supplies["external"]["label"] in texts(drawn[ext[0]]), name
        assert "1N5817" in all_text, name
    else:
        assert ext == [] and "Supply in (option B): none" in all_text, name
    assert supplies["external"]["note"] in all_text, name


def test_a_moved_pin_changes_the_diagram():
    cfg = load("boards", "esp32-s3-devkitc")
    moved = copy.deepcopy(cfg)
    moved["buttons"][0], moved["buttons"][1] = cfg["buttons"][1], cfg["buttons"][0]
    g = groups(parse(wiring.wiring_svg(moved)))
    assert "GPIO%d" % cfg["buttons"][1] in texts(g["Seat 0 up"])
    assert "GPIO%d" % cfg["buttons"][0] not in texts(g["Seat 0 up"])


# --- overlays --------------------------------------------------------------------------

GRID = hardware_files.arrangement()


def leds(root):
    return [r for r in root.iter(NS + "rect") if r.get("data-led") is not None]


def marks(root):
    """{LED index: its words} as the sheet prints them in the LED's cell (lines joined by a space)."""
    out = {}
    for t in root.iter(NS + "text"):
        if t.get("class") == "mark":
            i = int(t.get("data-led"))
            out[i] = (out[i] + " " + t.text) if i in out else t.text
    return out


def registration(root):
    """The registration marks, as (tag, attributes) in the order drawn."""
    return [(e.tag, sorted(e.attrib.items())) for e in root.iter() if e.get("data-mark")]


def um(text):
    return int(Decimal(text) * 1000)


@pytest.mark.parametrize("name", LAYOUTS)
def test_overlay_is_an_a4_sheet_in_millimetres(name):
    root = parse(overlay.overlay_svg(name))
    assert (root.get("width"), root.get("height")) == ("210.000mm", "297.000mm")
    assert root.get("viewBox") == "0 0 210.000 297.000", "one user unit is one millimetre"


def test_every_overlay_lines_up_with_the_others_and_the_frame():
    """The four sheets carry the same registration marks at the same places: the plate's outline
    (trim), its four corner pins (punched: the screws of the enclosure go through them), the top
    frame's window; and those are the enclosure's."""
    sheets = [parse(overlay.overlay_svg(name)) for name in LAYOUTS]
    first = registration(sheets[0])
    assert len(first) == 1 + 8 + 12 + 1  # plate, two lines per trim mark, circle and cross per pin, window
    for root in sheets[1:]:
        assert registration(root) == first
    _w, _h, (x0, y0) = overlay.sheet_um(GRID)
    root = sheets[0]
    pins = [e for e in root.iter(NS + "circle") if (e.get("data-mark") or "").startswith("pin-")]
    assert [(um(e.get("cx")) - x0, um(e.get("cy")) - y0) for e in pins] == enclosure.pins_um(GRID)
    assert um(pins[0].get("r")) * 2 == enclosure.PIN_D_UM
    window = [e for e in root.iter(NS + "rect") if e.get("data-mark") == "window"][0]
    assert (um(window.get("x")) - x0, um(window.get("y")) - y0, um(window.get("width")),
            um(window.get("height"))) == enclosure.window_um(GRID)
    plate = [e for e in root.iter(NS + "rect") if e.get("data-mark") == "plate"][0]
    assert (um(plate.get("x")), um(plate.get("y")), um(plate.get("width")), um(plate.get("height"))) == (
        (x0, y0) + enclosure.plate_um(GRID))
    # the enclosure drawing's top frame: the same window and pins on its plate
    drawn = parse(enclosure.enclosure_svg(GRID))
    frame = [e for e in drawn.iter() if e.get("data-plate") == "frame"]
    fx, fy = um(frame[0].get("x")), um(frame[0].get("y"))
    holes = [(um(e.get("cx")) - fx, um(e.get("cy")) - fy) for e in frame if e.tag == NS + "circle"]
    assert holes == enclosure.pins_um(GRID)
    win = [e for e in frame[1:] if e.tag == NS + "rect"][0]
    assert (um(win.get("x")) - fx, um(win.get("y")) - fy, um(win.get("width")), um(win.get("height"))) == \
        enclosure.window_um(GRID)


@pytest.mark.parametrize("name", LAYOUTS)
def test_overlay_puts_every_led_over_its_cell_in_reading_order(name):
    layout = hardware_files.layout(name)
    root = parse(overlay.overlay_svg(name))
    drawn = leds(root)
    indices = [int(r.get("data-led")) for r in drawn]
    assert sorted(indices) == sorted(i for t in layout["tracks"] for i in t["idx"]), "each track LED once"
    assert len(set(indices)) == len(indices)
    _w, _h, (x0, y0) = overlay.sheet_um(GRID)
    side = GRID["pitch_um"] - enclosure.WALL_UM
    for r in drawn:
        i, col, row = int(r.get("data-led")), int(r.get("data-col")), int(r.get("data-row"))
        assert cells.index(GRID, col, row) == i  # the strip's LED under this cell
        cx, cy = enclosure.led_um(GRID, col, row)
        assert (um(r.get("x")) + side // 2, um(r.get("y")) + side // 2) == (x0 + cx, y0 + cy)
        assert um(r.get("width")) == um(r.get("height")) == side
    said = marks(root)
    for t in layout["tracks"]:
        cells_of = [r for r in drawn if r.get("data-track") == t["name"]]
        assert [int(r.get("data-led")) for r in cells_of] == t["idx"]  # first LED first
        spots = [(int(r.get("data-row")), int(r.get("data-col"))) for r in cells_of]
        assert spots == sorted(spots), "%s reads left to right, then down" % t["name"]
        assert [said[i] for i in t["idx"]] == [overlay.led_label(t, k) for k in range(len(t["idx"]))], t["name"]


def test_a_track_reads_the_same_on_the_sheet_and_in_the_mirror():
    """Issue 46: the overlays numbered alternate rows right to left while the mirror drew every
    track left to right. Now a track's LEDs are the same list, in the same order, for both."""
    from chancery.mirror.app import track_leds

    root = parse(overlay.overlay_svg("chancellors"))
    said = marks(root)
    layout = hardware_files.layout("chancellors")
    by = {t["name"]: t for t in layout["tracks"]}
    for name in ("score0", "score1", "p0d0", "p0d1"):
        idx = by[name]["idx"]
        assert track_leds(by[name]) == idx
        xs = [um(r.get("x")) for r in leds(root) if r.get("data-track") == name]
        assert xs == sorted(xs)  # left to right on the sheet
    assert [said[i] for i in by["score1"]["idx"]] == [str(10 * k) for k in range(1, 11)]
    assert [said[i] for i in by["score0"]["idx"]] == [str(10 * k) for k in range(1, 11)]
    assert [said[i] for i in by["p2d0"]["idx"]] == [str(k) for k in range(1, 7)]
    assert [said[i] for i in by["step"]["idx"]] == ["roll", "A", "B", "C", "over"]
    assert [said[i] for i in by["chance"]["idx"]] == ["Seat %d" % k for k in range(4)]
    assert said[by["diplomatic"]["idx"][0]] == "Diplo. corps" and said[by["army"]["idx"][0]] == "Army"
    captions = {t.get("data-track"): t.text for t in root.iter(NS + "text") if t.get("class") == "caption"}
    assert captions["score1"] == "Seat 1 score" and captions["p2d0"] == "Problem 2" and "p2d1" not in captions
    key = [t.text for t in root.iter(NS + "text") if t.get("class") == "key"]
    assert "Seat 0-3 score, 10 points per LED" in key and "Problem 0-4, die 0-1: one LED per pip" in key


def test_overlay_has_a_ten_centimetre_scale_bar():
    root = parse(overlay.overlay_svg(LAYOUTS[0]))
    bars = [ln for ln in root.iter(NS + "line") if ln.get("data-scale-mm")]
    assert len(bars) == 1 and bars[0].get("data-scale-mm") == "100"
    assert Decimal(bars[0].get("x2")) - Decimal(bars[0].get("x1")) == 100


def test_overlay_refuses_overlaps_and_unplaced_tracks():
    layout = load("layouts", "chancellors")
    clash = copy.deepcopy(layout)
    clash["tracks"][1]["at"] = [8, layout["tracks"][0]["at"][1]]  # over score0
    with pytest.raises(ValueError, match="score0's too"):
        overlay.overlay_svg(clash)
    old = copy.deepcopy(layout)
    del old["tracks"][0]["at"]
    old["tracks"][0].update(start=0, dir=1)
    with pytest.raises(ValueError, match="not placed on the arrangement"):
        overlay.overlay_svg(old)
    long = copy.deepcopy(layout)
    long["tracks"][0]["caption"] = "A caption far too long for the six dark cells left of the track"
    with pytest.raises(ValueError, match="does not fit"):
        overlay.overlay_svg(long)


def test_another_arrangement_moves_the_cells_not_the_reading():
    """A panel wired from the bottom-right in columns, at 12 mm: the same tracks over the same cells
    read the same words left to right; only the strip's numbers and the spacing change."""
    grid = dict(GRID, pitch_um=12000, first="bottom-right", runs="columns")
    root = parse(overlay.overlay_svg("kings_dilemma", grid))
    drawn = {r.get("data-led"): r for r in leds(root)}
    t = [t for t in load("layouts", "kings_dilemma")["tracks"] if t["name"] == "stability"][0]
    idx = [cells.index(grid, c, r) for c, r in cells.cells(t)]
    xs = [um(drawn[str(i)].get("x")) for i in idx]
    assert [b - a for a, b in zip(xs, xs[1:])] == [12000] * (len(xs) - 1)
    assert [marks(root)[i] for i in idx] == [str(k) for k in range(13)]


# --- the enclosure ----------------------------------------------------------------------

def test_committed_enclosure_is_current():
    with open(os.path.join(ROOT, "hardware", "enclosure.svg"), "rb") as f:
        assert f.read() == enclosure.enclosure_svg().encode("utf-8"), "run `chancery hardware drawings`"


def test_the_enclosures_plates_fit_the_arrangement():
    root = parse(enclosure.enclosure_svg(GRID))
    plates = {}
    for e in root.iter():
        if e.get("data-plate"):
            plates.setdefault(e.get("data-plate"), []).append(e)
    assert sorted(plates) == ["baffle", "base", "diffuser", "frame", "spacer"]
    w, h = enclosure.plate_um(GRID)
    for name, parts in plates.items():
        outline = parts[0]
        assert (um(outline.get("width")), um(outline.get("height"))) == (w, h), name
        assert len([p for p in parts if p.tag == NS + "circle"]) == 4, name
    # a square hole centred over every LED of the baffle
    base = plates["baffle"][0]
    bx, by = um(base.get("x")), um(base.get("y"))
    holes = {(um(p.get("x")) - bx + um(p.get("width")) // 2, um(p.get("y")) - by + um(p.get("height")) // 2)
             for p in plates["baffle"][1:] if p.tag == NS + "rect"}
    assert holes == {enclosure.led_um(GRID, c, r) for c in range(GRID["columns"]) for r in range(GRID["rows"])}
    # the base's slots under the strip's first LED (the data in) and its last (power at the far end)
    base = plates["base"][0]
    bx, by = um(base.get("x")), um(base.get("y"))
    slots = [(um(p.get("x")) - bx + um(p.get("width")) // 2, um(p.get("y")) - by + um(p.get("height")) // 2)
             for p in plates["base"][1:] if p.tag == NS + "rect"]
    assert slots == [enclosure.led_um(GRID, 0, 0), enclosure.led_um(GRID, *cells.cell(GRID, 255))]
    assert cells.cell(GRID, 255) == (0, 15)  # sixteen serpentine rows end at the bottom left


def test_a_drawing_written_to_a_file_is_said(tmp_path, capsys):
    """Issue 45: `hardware wiring`/`overlay -o FILE` printed nothing on success."""
    assert commands.main(["overlay", "--layout", "chancellors", "-o", str(tmp_path / "o.svg")]) == 0
    assert commands.main(["wiring", "--board", "rpi-pico", "-o", str(tmp_path / "w.svg")]) == 0
    err = capsys.readouterr().err
    assert "wrote the overlay of chancellors (print it at 100%%) to %s" % (tmp_path / "o.svg") in err, err
    assert "wrote the wiring diagram of rpi-pico to %s" % (tmp_path / "w.svg") in err, err


def _text_boxes(root, em=0.6):
    """(text, x0, y0, x1, y1) of each <text>, its width estimated at `em` of its font size a
    character (more than DejaVu Sans's average, so an estimate errs towards a collision); a text
    turned by rotate(-90) runs up the page from its anchor (down from it when anchored at its end)."""
    out = []
    for t in root.iter(NS + "text"):
        words = "".join(t.itertext())
        size = float(t.get("font-size", 11))
        width = len(words) * size * em
        x, y = float(t.get("x")), float(t.get("y"))
        anchor = t.get("text-anchor", "start")
        if "rotate(-90" in (t.get("transform") or ""):
            y0 = y if anchor == "end" else y - width
            out.append((words, x - size * 0.75, y0, x + size * 0.2, y0 + width))
        else:
            x0 = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
            out.append((words, x0, y - size * 0.75, x0 + width, y + size * 0.2))
    return out


@pytest.mark.parametrize("name", BOARDS)
def test_no_wire_runs_through_the_words_of_a_wiring_diagram(name):
    """Issue 45: the wires rising from the supply rows to the rails crossed the VBUS, VSYS and GND
    captions, and "GND 7" sat under the 0.1 uF capacitor. No line of the drawing passes through
    a text (the legend's samples are beside their words)."""
    root = parse(wiring.wiring_svg(name))
    lines = [tuple(float(e.get(k)) for k in ("x1", "y1", "x2", "y2")) for e in root.iter(NS + "line")]
    crossed = []
    for words, x0, y0, x1, y1 in _text_boxes(root):
        for ax, ay, bx, by in lines:
            if min(ax, bx) < x1 and max(ax, bx) > x0 and min(ay, by) < y1 and max(ay, by) > y0:
                crossed.append((words, (ax, ay, bx, by)))
    assert crossed == [], crossed
