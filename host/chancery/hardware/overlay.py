"""A printable overlay for a game's layout (hardware/layouts/GAME.json) on the board's LEDs, 1:1.

Every game's sheet is drawn for the one arrangement (hardware/arrangement.json) at the same
place on the same sheet (A4 portrait while the plates fit it): the enclosure's plate outline
(the line to trim along, with trim marks at its corners), its four corner pins (punched, they
put the sheet over the same LEDs whichever game it is for) and the top frame's window. Those
registration marks come from chancery.hardware.enclosure, so the sheet and the frame agree.

Inside the window, every LED a track uses is a square window of the baffle's cell, with what
that LED means printed in it (a track's first LED on the left: every track reads left to
right, as the mirror draws it and its label says); a track's caption is printed on the dark
cells left of it. Under the plate a key gives every track's words, and a 10 cm bar checks the
print's scale.

The sheet's unit is the millimetre, positions whole micrometres written with svg.mm, so the
file is byte-stable. Each LED is a <rect class="led" data-led="N" data-track="NAME"
data-col="C" data-row="R" ...> (x, y in mm), its words <text class="mark" data-led="N">, a
caption <text class="caption" data-track="NAME">, a registration mark carries data-mark.
"""

import re

from chancery.hardware import arrangement as cells
from chancery.hardware import enclosure, svg
from chancery.hardware import files as hardware_files

A4 = (210000, 297000)  # the sheet, portrait; a bigger arrangement gets a bigger one
MARGIN = 10000
FONT = "sans-serif"
PLATE_TOP = 40000  # the plate's top edge on the sheet: the title and how to use it above
WALL = enclosure.WALL_UM
CAPTION_MAX, CAPTION_MIN = 3000, 1800  # a caption's font size, micrometres
MARK_MAX, MARK_MIN = 2000, 1500  # an LED's words
EM_PCT = 62  # a sans-serif character's mean width, per cent of the font size (bold: +4)
KEY_FONT, KEY_PITCH = 2200, 3100
SCALE_MM = 100


def led_label(track, k):
    """What the k-th LED of a track stands for, as shared_rules/render.py lights it (the track's
    `marks`, when it has them, say it in the layout's own words)."""
    marks = track.get("marks")
    if marks and k < len(marks):
        return str(marks[k])
    shows = track.get("shows")
    if shows in ("scores", "bar"):
        # LED k fills as the count goes from k*unit to (k+1)*unit: full at (k+1)*unit
        unit = track.get("unit", 10 if shows == "scores" else 1)
        return str((k + 1) * unit)
    if shows == "problems":
        return str(k + 1)  # pips: a die showing v lights its first v LEDs
    if shows in ("step", "members"):
        values = track.get("values") or ()
        return str(values[k]).replace("_", " ") if k < len(values) else "-"
    if shows in ("queue", "excuse", "seat_marker"):
        return "Seat %d" % k
    if shows == "control":
        return str(track.get("service", "control")).capitalize()
    if shows == "sequence":
        return str(k + 1)
    return str(k)


def _width(text, size, bold=False):
    return len(text) * size * (EM_PCT + (4 if bold else 0)) // 100


def _fit(text, room, largest, smallest, bold=False):
    """The largest font size (micrometres, in 100 um steps) at which `text` fits `room`, or None."""
    size = largest
    while size >= smallest:
        if _width(text, size, bold) <= room:
            return size
        size -= 100
    return None


def placed(layout, grid=None):
    """The layout with its tracks' strip indices (resolved on the arrangement when it is not yet),
    and [(track, [(strip index, col, row)], first LED first)]. ValueError for a track that is not
    placed on the arrangement, leaves it, shares an LED or does not read in order."""
    grid = grid or hardware_files.arrangement()
    if any("idx" not in t for t in layout["tracks"]):
        for t in layout["tracks"]:
            if not cells.placed(t) and "idx" not in t:
                raise ValueError("track %s is not placed on the arrangement (no at)" % t.get("name"))
        layout = cells.resolve(layout, grid)
    out = []
    for t in layout["tracks"]:
        spots = [(i,) + cells.cell(grid, i) for i in t["idx"]]
        for a, b in zip(spots, spots[1:]):
            if (b[2], b[1]) <= (a[2], a[1]):
                raise ValueError("track %s: LED %d at (%d, %d) comes before LED %d at (%d, %d) in reading order"
                                 % (t.get("name"), b[0], b[1], b[2], a[0], a[1], a[2]))
        out.append((t, spots))
    return layout, out


def _free_left(tracks, t, col, row):
    """The first column of the dark cells left of (col, row) up to the nearest track's LED in that row."""
    left = 0
    for other, spots in tracks:
        for _i, c, r in spots:
            if r == row and c < col and other is not t:
                left = max(left, c + 1)
    return left


def key_lines(layout):
    """The key's lines: every track's label, the tracks whose labels differ only in their numbers
    said once ("Seat 0-3 score, 10 points per LED"), in the layout's order."""
    groups = {}
    order = []
    for t in layout["tracks"]:
        label = t.get("label") or t.get("name")
        skeleton = re.sub(r"\d+", "#", label)
        if skeleton not in groups:
            groups[skeleton] = []
            order.append(skeleton)
        groups[skeleton].append([int(n) for n in re.findall(r"\d+", label)])
    out = []
    for skeleton in order:
        numbers = groups[skeleton]
        parts = skeleton.split("#")
        text = parts[0]
        for slot in range(len(parts) - 1):
            values = sorted(set(n[slot] for n in numbers))
            if len(values) == 1:
                said = str(values[0])
            elif values == list(range(values[0], values[-1] + 1)):
                said = "%d-%d" % (values[0], values[-1])
            else:
                said = ", ".join(str(v) for v in values)
            text += said + parts[slot + 1]
        out.append(text)
    return out


def sheet_um(grid):
    """The sheet's (width, height) and the plate's top-left corner on it: the same for every game."""
    pw, ph = enclosure.plate_um(grid)
    width = max(A4[0], pw + 2 * MARGIN)
    height = max(A4[1], PLATE_TOP + ph + 70000)
    return width, height, ((width - pw) // 2, PLATE_TOP)


def registration(grid):
    """The marks every game's sheet shares, at the same places: the plate's outline (trim along it)
    with trim marks outside its corners, the four corner pins with a cross each, the window."""
    width, height, (x0, y0) = sheet_um(grid)
    pw, ph = enclosure.plate_um(grid)
    thin = dict(stroke="#000000", stroke_width="0.200", class_="registration")
    out = [svg.rect(svg.mm(x0), svg.mm(y0), svg.mm(pw), svg.mm(ph), fill="none", stroke="#808080",
                    stroke_width="0.150", stroke_dasharray="2,1", class_="registration", data_mark="plate")]
    for n, (cx, cy) in enumerate(((x0, y0), (x0 + pw, y0), (x0 + pw, y0 + ph), (x0, y0 + ph))):
        sx = -1 if cx == x0 else 1
        sy = -1 if cy == y0 else 1
        out.append(svg.line(svg.mm(cx + sx * 2000), svg.mm(cy), svg.mm(cx + sx * 8000), svg.mm(cy),
                            data_mark="trim-%d" % n, **thin))
        out.append(svg.line(svg.mm(cx), svg.mm(cy + sy * 2000), svg.mm(cx), svg.mm(cy + sy * 8000),
                            data_mark="trim-%d" % n, **thin))
    for n, (px, py) in enumerate(enclosure.pins_um(grid)):
        cx, cy = x0 + px, y0 + py
        out.append(svg.circle(svg.mm(cx), svg.mm(cy), svg.mm(enclosure.PIN_D_UM // 2), fill="none",
                              data_mark="pin-%d" % n, **thin))
        out.append(svg.line(svg.mm(cx - 3000), svg.mm(cy), svg.mm(cx + 3000), svg.mm(cy), data_mark="pin-%d" % n,
                            **thin))
        out.append(svg.line(svg.mm(cx), svg.mm(cy - 3000), svg.mm(cx), svg.mm(cy + 3000), data_mark="pin-%d" % n,
                            **thin))
    wx, wy, ww, wh = enclosure.window_um(grid)
    out.append(svg.rect(svg.mm(x0 + wx), svg.mm(y0 + wy), svg.mm(ww), svg.mm(wh), fill="none", stroke="#808080",
                        stroke_width="0.150", class_="registration", data_mark="window"))
    return out


def _scale_bar(x, y):
    """A 100 mm bar with a tick every centimetre."""
    length = SCALE_MM * 1000
    out = [svg.line(svg.mm(x), svg.mm(y), svg.mm(x + length), svg.mm(y), stroke="#000000", stroke_width="0.300",
                    data_scale_mm=SCALE_MM)]
    for cm in range(SCALE_MM // 10 + 1):
        tick = 3000 if cm % 5 == 0 else 1500
        out.append(svg.line(svg.mm(x + cm * 10000), svg.mm(y - tick), svg.mm(x + cm * 10000), svg.mm(y),
                            stroke="#000000", stroke_width="0.300"))
    for cm in (0, 5, 10):
        out.append(svg.text(svg.mm(x + cm * 10000), svg.mm(y + 4000), "%d cm" % cm, font_size="2.500",
                            font_family=FONT, text_anchor="middle"))
    out.append(svg.text(svg.mm(x + length + 4000), svg.mm(y), "Measure this bar: 10 cm on a print at 100%.",
                        font_size="2.500", font_family=FONT))
    return out


def _marks(x, y, text, index, pitch):
    """An LED's words inside its cell, under the LED's centre (x, y): one line, or two split at a
    space when one would be too small."""
    room = pitch - WALL - 400
    size = _fit(text, room, MARK_MAX, MARK_MIN)
    lines = [text]
    if (size is None or size < MARK_MAX) and " " in text:
        cut = min((abs(len(text) / 2 - i), i) for i, ch in enumerate(text) if ch == " ")[1]
        two = [text[:cut], text[cut + 1:]]
        both = _fit(max(two, key=len), room, MARK_MAX, MARK_MIN)
        if both is not None and (size is None or both > size):
            lines, size = two, both
    if size is None:
        raise ValueError("LED %d's words %r do not fit its %s mm cell" % (index, text, svg.mm(pitch)))
    half = (pitch - WALL) // 2
    out = []
    for n, line in enumerate(lines):
        base = y + half - 700 - (len(lines) - 1 - n) * (size + 200)
        out.append(svg.text(svg.mm(x), svg.mm(base), line, font_size=svg.mm(size), font_family=FONT,
                            text_anchor="middle", class_="mark", data_led=index))
    return out


def overlay_svg(layout, grid=None):
    """The overlay of `layout` (a name in hardware/layouts/ or a loaded layout) as SVG text, drawn
    for the arrangement `grid` (default hardware/arrangement.json)."""
    if isinstance(layout, str):
        layout = hardware_files.load("layouts", layout)
    grid = grid or hardware_files.arrangement()
    layout, tracks = placed(layout, grid)
    pitch = grid["pitch_um"]
    side = pitch - WALL
    width, height, (x0, y0) = sheet_um(grid)
    game = layout.get("game", "layout")
    title = "%s LED overlay" % layout.get("title", game.replace("_", " ").capitalize())
    body = [svg.text(svg.mm(MARGIN), svg.mm(MARGIN + 4000), title, font_size="5.000", font_family=FONT,
                     font_weight="bold")]
    used = sum(len(spots) for _t, spots in tracks)
    lines = ("%d of the board's %d LEDs (%d x %d, %s mm apart), drawn by `chancery hardware drawings`"
             % (used, cells.count(grid), grid["columns"], grid["rows"], svg.mm(pitch)),
             "from hardware/arrangement.json and hardware/layouts/%s.json. Every track reads left to right," % game,
             "its first LED on the left, as in the mirror and in the key below. Print at 100% (no fit to page),",
             "trim along the dashed square, punch the four circles, lay it over the diffuser under the top frame.")
    for k, line in enumerate(lines):
        body.append(svg.text(svg.mm(MARGIN), svg.mm(MARGIN + 9500 + 3500 * k), line, font_size="2.600",
                             font_family=FONT))
    body += registration(grid)
    for t, spots in tracks:
        name = t.get("name")
        for k, (i, col, row) in enumerate(spots):
            x, y = enclosure.led_um(grid, col, row)
            x, y = x0 + x, y0 + y
            body.append(svg.rect(svg.mm(x - side // 2), svg.mm(y - side // 2), svg.mm(side), svg.mm(side),
                                 class_="led", data_led=i, data_track=name, data_col=col, data_row=row, fill="none",
                                 stroke="#000000", stroke_width="0.250"))
            body += _marks(x, y, led_label(t, k), i, pitch)
        caption = t.get("caption")
        if caption is None:
            caption = (t.get("label") or name).split(":")[0].split(",")[0].split(" (")[0]
        if caption and spots:
            _i, col, row = spots[0]
            left = _free_left(tracks, t, col, row)
            room = (col - left) * pitch - 1600
            size = _fit(caption, room, CAPTION_MAX, CAPTION_MIN, bold=True)
            if size is None:
                raise ValueError("track %s: its caption %r does not fit the %d dark cells left of it"
                                 % (name, caption, col - left))
            x, y = enclosure.led_um(grid, col, row)
            body.append(svg.text(svg.mm(x0 + x - pitch // 2 - 800), svg.mm(y0 + y + size * 35 // 100), caption,
                                 font_size=svg.mm(size), font_family=FONT, font_weight="bold", text_anchor="end",
                                 class_="caption", data_track=name))
    _pw, ph = enclosure.plate_um(grid)
    y = y0 + ph + 12000
    for line in key_lines(layout):
        body.append(svg.text(svg.mm(x0), svg.mm(y), line, font_size=svg.mm(KEY_FONT), font_family=FONT,
                             class_="key"))
        y += KEY_PITCH
    body += _scale_bar(MARGIN, height - MARGIN - 4000)
    return svg.document("%smm" % svg.mm(width), "%smm" % svg.mm(height), body,
                        view_box="0 0 %s %s" % (svg.mm(width), svg.mm(height)), title=title)
