"""The enclosure around the LED panel, drawn from the arrangement (hardware/arrangement.json).

A stack of square plates, each the panel's size and a border all round, held by an M3
screw (or pin) through each corner; from the table up:

  base      3 mm plywood or MDF: the panel is stuck on it; a slot under the strip's first
            LED and one under its last let the data-in and power wires (and the power
            injected at the far end) pass to the back;
  spacer    a ring as thick as the panel (2 mm card or plywood) around it, so that the
            plates above lie flat;
  baffle    3 mm plywood with a square hole over every LED (cut two, stacked: 6 mm): each
            LED lights its own cell and no light bleeds into the next, and the diffuser sits
            far enough above the LEDs to spread them into even squares;
  diffuser  3 mm opal (milky) acrylic, holes at the corners only;
  overlay   the game's printed sheet (hardware/overlays/GAME.svg), cut to the plates' size
            and punched at the same four corners: the pins put every game's sheet over the
            same LEDs;
  frame     3 mm plywood with a window the panel's size: it holds the overlay flat.

Everything here is whole micrometres, like the overlays, which take the plate's size, the
pins and the window from here, so that a sheet and the frame cannot disagree.
"""

from chancery.hardware import arrangement as cells
from chancery.hardware import files as hardware_files
from chancery.hardware import svg

BORDER_UM = 10000  # the plates reach this far past the panel on every side
PIN_INSET_UM = 5000  # a corner pin's centre from the plate's two edges
PIN_D_UM = 3400  # an M3 screw's clearance hole (and the overlay's punched hole)
WALL_UM = 2000  # the baffle's wall between two cells
SPACER_CLEAR_UM = 500  # the spacer's window is the panel and this all round
SLOT_UM = (12000, 6000)  # a wire slot in the base: width, height
GAP_UM = 20000  # between plates on the cutting sheet
MARGIN_UM = 10000
CUT = "#ff0000"  # a laser cutter's usual colour for "cut"; black text is engraved or ignored
FONT = "sans-serif"


def plate_um(grid):
    """A plate's (width, height): the panel and the border."""
    w, h = cells.size_um(grid)
    return w + 2 * BORDER_UM, h + 2 * BORDER_UM


def pins_um(grid):
    """The four corner pins' centres, from the plate's top-left corner: top-left, top-right,
    bottom-right, bottom-left."""
    w, h = plate_um(grid)
    a, bx, by = PIN_INSET_UM, w - PIN_INSET_UM, h - PIN_INSET_UM
    return [(a, a), (bx, a), (bx, by), (a, by)]


def window_um(grid):
    """The top frame's window (and the overlay's panel outline): (x, y, width, height) on the plate."""
    w, h = cells.size_um(grid)
    return BORDER_UM, BORDER_UM, w, h


def led_um(grid, col, row):
    """A cell's LED centre on the plate (the panel sits in the border)."""
    x, y = cells.centre_um(grid, col, row)
    return BORDER_UM + x, BORDER_UM + y


def slots_um(grid):
    """The base's wire slots (x, y, width, height), centred under the strip's first and last LEDs."""
    out = []
    for i in (0, cells.count(grid) - 1):
        x, y = led_um(grid, *cells.cell(grid, i))
        out.append((x - SLOT_UM[0] // 2, y - SLOT_UM[1] // 2, SLOT_UM[0], SLOT_UM[1]))
    return out


def _cut_rect(x, y, w, h, **kw):
    return svg.rect(svg.mm(x), svg.mm(y), svg.mm(w), svg.mm(h), fill="none", stroke=CUT, stroke_width="0.100", **kw)


def _plate(grid, x0, y0, name, title, holes):
    """One plate at (x0, y0) on the sheet: its outline, its corner pins, `holes` (x, y, w, h on the
    plate) and its name under it."""
    w, h = plate_um(grid)
    out = [_cut_rect(x0, y0, w, h, data_plate=name)]
    for px, py in pins_um(grid):
        out.append(svg.circle(svg.mm(x0 + px), svg.mm(y0 + py), svg.mm(PIN_D_UM // 2), fill="none", stroke=CUT,
                              stroke_width="0.100", data_plate=name))
    for x, y, hw, hh in holes:
        out.append(_cut_rect(x0 + x, y0 + y, hw, hh, data_plate=name))
    out.append(svg.text(svg.mm(x0), svg.mm(y0 + h + 6000), title, font_size="4.000", font_family=FONT))
    return out


def plates(grid):
    """[(name, title, holes)] of every plate, bottom to top."""
    w, h = cells.size_um(grid)
    side = grid["pitch_um"] - WALL_UM
    baffle = []
    for row in range(grid["rows"]):
        for col in range(grid["columns"]):
            x, y = led_um(grid, col, row)
            baffle.append((x - side // 2, y - side // 2, side, side))
    c = SPACER_CLEAR_UM
    return [
        ("base", "base: 3 mm plywood or MDF; the panel stuck on, its wires through the slots", slots_um(grid)),
        ("spacer", "spacer: as thick as the panel (2 mm card or plywood)",
         [(BORDER_UM - c, BORDER_UM - c, w + 2 * c, h + 2 * c)]),
        ("baffle", "baffle: 3 mm plywood, cut 2 and stack them", baffle),
        ("diffuser", "diffuser: 3 mm opal acrylic", []),
        ("frame", "top frame: 3 mm plywood; the overlay goes under it", [window_um(grid)]),
    ]


def enclosure_svg(grid=None):
    """The enclosure's plates on one cutting sheet at 1:1 (SVG text), from the arrangement
    (a loaded one, or hardware/arrangement.json)."""
    if grid is None:
        grid = hardware_files.arrangement()
    w, h = plate_um(grid)
    body = []
    title = "Chancery enclosure: the plates around the %dx%d LED panel" % (grid["columns"], grid["rows"])
    body.append(svg.text(svg.mm(MARGIN_UM), svg.mm(MARGIN_UM + 5000), title, font_size="6.000", font_family=FONT,
                         font_weight="bold"))
    notes = ("%s; plates %s x %s mm, an M3 screw through each corner (%s mm holes). Red lines are cut; cut at "
             "100%% (hardware/arrangement.json; generated by `chancery hardware drawings`)."
             % (grid.get("part", "LED panel"), svg.mm(w), svg.mm(h), svg.mm(PIN_D_UM)),
             "Stack from the table up: base, spacer, baffle, baffle, diffuser, the game's overlay, top frame "
             "(hardware/README.md, The enclosure).")
    for k, line in enumerate(notes):
        body.append(svg.text(svg.mm(MARGIN_UM), svg.mm(MARGIN_UM + 12000 + 5000 * k), line, font_size="3.500",
                             font_family=FONT))
    top = MARGIN_UM + 12000 + 5000 * len(notes) + 5000
    each = plates(grid)
    per_row = 3
    for n, (name, label, holes) in enumerate(each):
        x0 = MARGIN_UM + (n % per_row) * (w + GAP_UM)
        y0 = top + (n // per_row) * (h + GAP_UM)
        body += _plate(grid, x0, y0, name, label, holes)
    rows = -(-len(each) // per_row)
    width = 2 * MARGIN_UM + per_row * w + (per_row - 1) * GAP_UM
    height = top + rows * h + (rows - 1) * GAP_UM + MARGIN_UM + 8000
    width, height = -(-width // 1000) * 1000, -(-height // 1000) * 1000
    return svg.document("%smm" % svg.mm(width), "%smm" % svg.mm(height), body,
                        view_box="0 0 %s %s" % (svg.mm(width), svg.mm(height)), title=title)
