"""`chancery hardware wiring|overlay|enclosure|drawings|power`: the hardware job's entry point.

    chancery hardware wiring --board NAME [-o FILE]     one board's wiring diagram
    chancery hardware overlay --layout NAME [-o FILE]   one layout's printable overlay
    chancery hardware enclosure [-o FILE]               the enclosure's plates, for cutting
    chancery hardware drawings [--check]                (re)write, or check, the committed ones
    chancery hardware power --layout NAME [...]         the strip's current (power.py)

The committed drawings are hardware/wiring/BOARD.svg for every hardware/boards/*.json,
hardware/overlays/GAME.svg for every hardware/layouts/*.json and hardware/enclosure.svg
from hardware/arrangement.json. Exit status: 0
done (or all current), 1 --check found stale or missing drawings (named on stderr),
2 bad input (an unknown board or layout, with the names there are).

Run alone as `python -m chancery.hardware.cli ...` too.
"""

import argparse
import os
import sys

from chancery import ROOT
from chancery.hardware import enclosure, overlay, power, wiring
from chancery.hardware import files as hardware_files
from chancery.hardware.files import UnknownName

WIRING = os.path.join("hardware", "wiring")
OVERLAYS = os.path.join("hardware", "overlays")
ENCLOSURE = os.path.join("hardware", "enclosure.svg")


def configure(commands):
    """Add `hardware` to the command line's subparsers; returns its name."""
    configure_actions(commands.add_parser(
        "hardware", help="the hardware: wiring diagrams, LED overlays, the strip's power budget",
        description="Wiring diagrams and printable LED overlays from hardware/, and the strip's current."))
    return ["hardware"]


def configure_actions(hardware):
    """Add wiring, overlay, drawings and power to the `hardware` parser. Each action sets
    hardware_run, the function run() calls with the parsed args."""
    sub = hardware.add_subparsers(dest="hardware_cmd", metavar="ACTION")
    w = sub.add_parser("wiring", help="a board's wiring diagram (SVG) from its pin map",
                       description="Draw the wiring diagram of a board from hardware/boards/NAME.json.")
    w.add_argument("--board", required=True, metavar="NAME", help="a pin map in hardware/boards/ (e.g. rpi-pico)")
    w.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    w.set_defaults(hardware_run=run_wiring)
    o = sub.add_parser("overlay", help="a printable, to-scale LED overlay (SVG) for a game's layout",
                       description="Draw the overlay for hardware/layouts/NAME.json: every LED at its place on "
                                   "the board's arrangement, labelled, with the registration marks every game's sheet "
                                   "shares. Print at 100%%.")
    o.add_argument("--layout", required=True, metavar="NAME", help="a layout in hardware/layouts/ (e.g. chancellors)")
    o.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    o.set_defaults(hardware_run=run_overlay)
    e = sub.add_parser("enclosure", help="the enclosure's plates (SVG, 1:1 for a laser cutter) around the LED panel",
                       description="Draw the plates around the LEDs of hardware/arrangement.json: base, spacer, "
                                   "baffle, diffuser and top frame, at 100%%.")
    e.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    e.set_defaults(hardware_run=run_enclosure)
    d = sub.add_parser("drawings", help="write every committed wiring diagram and overlay (or --check them)",
                       description="Write hardware/wiring/*.svg and hardware/overlays/*.svg from the pin maps and "
                                   "layouts; with --check write nothing and fail when any is stale.")
    d.add_argument("--check", action="store_true", help="exit 1 naming the drawings that differ from their data")
    d.set_defaults(hardware_run=run_drawings)
    pw = sub.add_parser("power", help="the strip's worst-case and typical current and the brightness cap",
                        description="The current the layout's strip draws, by the model the board's limiter "
                                    "enforces (shared_rules/power.py), and the highest brightness cap that fits.")
    power.configure(pw)
    pw.set_defaults(hardware_run=power.run)
    hardware.set_defaults(hardware_help=hardware.print_help)


def run(args):
    """Run the chosen action; with none, print the group's help (exit 2)."""
    action = getattr(args, "hardware_run", None)
    if action is None:
        getattr(args, "hardware_help", lambda: None)()
        return 2
    return action(args)


def _error(text):
    print("error: " + text, file=sys.stderr)
    return 2


def _emit(text, output, what):
    if output:
        _write(output, text)
        print("wrote %s to %s (%d bytes)" % (what, output, len(text.encode("utf-8"))), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _write(path, text):
    # "\n" on every platform, so the committed bytes are the same everywhere
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def run_wiring(args):
    try:
        text = wiring.wiring_svg(args.board)
    except UnknownName as e:
        return _error(str(e))
    return _emit(text, args.output, "the wiring diagram of %s" % args.board)


def run_overlay(args):
    try:
        text = overlay.overlay_svg(args.layout)
    except UnknownName as e:
        return _error(str(e))
    return _emit(text, args.output, "the overlay of %s (print it at 100%%)" % args.layout)


def run_enclosure(args):
    return _emit(enclosure.enclosure_svg(), args.output, "the enclosure's plates (cut them at 100%)")


def drawings(root=ROOT):
    """{path relative to root: SVG text} for every committed drawing, made from root's data."""
    out = {}
    rules = hardware_files.rules(root)
    for name in hardware_files.names("boards", root):
        source = "hardware/boards/%s.json" % name
        out[os.path.join(WIRING, name + ".svg")] = wiring.wiring_svg(hardware_files.load("boards", name, root),
                                                                     source=source, rules=rules)
    grid = hardware_files.arrangement(root)
    for name in hardware_files.names("layouts", root):
        out[os.path.join(OVERLAYS, name + ".svg")] = overlay.overlay_svg(hardware_files.load("layouts", name, root),
                                                                         grid)
    out[ENCLOSURE] = enclosure.enclosure_svg(grid)
    return out


def stale(root=ROOT):
    """Paths (relative to root) whose committed bytes differ from what the data makes now,
    or that are missing, or that no pin map or layout makes any more."""
    wanted = drawings(root)
    out = []
    for rel, text in sorted(wanted.items()):
        path = os.path.join(root, rel)
        try:
            with open(path, "rb") as f:
                current = f.read() == text.encode("utf-8")
        except FileNotFoundError:
            current = False
        if not current:
            out.append(rel)
    for folder in (WIRING, OVERLAYS):
        if os.path.isdir(os.path.join(root, folder)):
            for name in sorted(os.listdir(os.path.join(root, folder))):
                rel = os.path.join(folder, name)
                if name.endswith(".svg") and rel not in wanted:
                    out.append(rel)
    return out


def run_drawings(args, root=None):
    root = root or ROOT
    if args.check:
        bad = stale(root)
        if bad:
            print("stale drawings (run `chancery hardware drawings` to rewrite them, and remove any whose data "
                  "is gone):", file=sys.stderr)
            for rel in bad:
                print("  " + rel.replace(os.sep, "/"), file=sys.stderr)
            return 1
        print("all drawings are current")
        return 0
    for rel, text in sorted(drawings(root).items()):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        _write(path, text)
        print("wrote " + rel.replace(os.sep, "/"))
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="chancery hardware", description="Hardware drawings and power.")
    configure_actions(p)
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
