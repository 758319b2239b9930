"""A printable overlay for a game's LED layout (hardware/layouts/GAME.json), to scale.

The sheet's size is in millimetres and its user unit is the millimetre, so printed
at 100% every drawn length is real. Each track is a row: its label as a heading,
then one square per LED at its real place along the strip (LEDs exactly the
strip's pitch apart, in strip order, the data input on the left) with what that
LED means written under it. LEDs no track uses get a row of their own, so every
LED of the strip is on the sheet exactly once. A 10 cm bar checks the print scale.

Positions are whole micrometres (the layout's pitch_um) written with svg.mm, so the
spacing is exact and the file byte-stable. Each LED is a
<rect class="led" data-led="N" data-track="NAME" x= y= ...> (x, y in mm).
"""

from chancery.hardware import files as hardware_files
from chancery.hardware import svg

A4 = (210000, 297000)  # the smallest sheet, portrait; a bigger layout gets a bigger one
MARGIN = 10000
FONT = "sans-serif"
LED_SIZE = 4000  # the square marking an LED (a 5050 WS2812B is 5 mm across)
ROW_PITCH = 12000  # heading, LEDs, labels
LABEL_ROOM = 5000  # left of the first LED centre, for its centred label
SCALE_MM = 100


def position(track, index):
    """Which LED of the track strip LED `index` is, counted from the track's first
    (score 0, pip 1, seat 0, the first step): dir -1 puts the first at the far end."""
    length = track.get("length", 0)
    k = index - track.get("start", 0)
    return length - 1 - k if track.get("dir", 1) < 0 else k


def led_label(track, k):
    """What the k-th LED of a track stands for, as shared_rules/render.py lights it."""
    shows = track.get("shows")
    if shows in ("scores", "bar"):
        # LED k fills as the count goes from k*unit to (k+1)*unit: it stands for those points
        unit = track.get("unit", 10 if shows == "scores" else 1)
        return str(k + 1) if unit == 1 else "%d-%d" % (k * unit + 1, (k + 1) * unit)
    if shows == "problems":
        return str(k + 1)  # pips: a die showing v lights its first v LEDs
    if shows == "step":
        values = track.get("values") or ()
        return str(values[k]) if k < len(values) else "-"
    if shows in ("queue", "excuse", "seat_marker"):
        return "Seat %d" % k
    if shows == "control":
        return str(track.get("service", "control")).capitalize()
    return str(k)


def _span(start, length):
    return "LED %d" % start if length == 1 else "LEDs %d-%d" % (start, start + length - 1)


def _rows(layout):
    """(heading, track name, [(strip index, label)]) per row: the tracks in order, then
    runs of LEDs no track uses. Raises ValueError when tracks overlap or leave the strip."""
    leds = layout["leds"]
    owner = {}
    rows = []
    for track in layout["tracks"]:
        start, length = track.get("start", 0), track.get("length", 0)
        if start < 0 or start + length > leds:
            raise ValueError("track %s: LEDs %d-%d are not all on the %d-LED strip"
                             % (track.get("name"), start, start + length - 1, leds))
        cells = []
        for i in range(start, start + length):
            if i in owner:
                raise ValueError("LED %d is in two tracks: %s and %s" % (i, owner[i], track.get("name")))
            owner[i] = track.get("name")
            cells.append((i, led_label(track, position(track, i))))
        rows.append(("%s (%s)" % (track.get("label") or track.get("name"), _span(start, length)),
                     track.get("name"), cells))
    run = []
    for i in range(leds + 1):
        if i < leds and i not in owner:
            run.append(i)
        elif run:
            rows.append(("Not used by any track (%s)" % _span(run[0], len(run)), "", [(j, "-") for j in run]))
            run = []
    return rows


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
    out.append(svg.text(svg.mm(x + length + 4000), svg.mm(y), "Measure this bar: it is 10 cm on a print at 100%.",
                        font_size="2.500", font_family=FONT))
    return out


def overlay_svg(layout):
    """The overlay of `layout` (a name in hardware/layouts/ or a loaded layout) as SVG text."""
    if isinstance(layout, str):
        layout = hardware_files.load("layouts", layout)
    pitch = layout["pitch_um"]
    rows = _rows(layout)
    game = layout.get("game", "layout")
    left = MARGIN + LABEL_ROOM
    body = []
    y = MARGIN
    title = "%s LED overlay" % layout.get("title", game.replace("_", " ").capitalize())
    body.append(svg.text(svg.mm(MARGIN), svg.mm(y + 5000), title, font_size="5.000", font_family=FONT,
                         font_weight="bold"))
    lines = ("%d LEDs, %s mm apart on the strip (hardware/layouts/%s.json; generated by `chancery hardware "
             "drawings`)." % (layout["leds"], svg.mm(pitch), game),
             "Print at 100% (no fit to page) and lay over the diffuser; each row runs the way the strip's data "
             "does, left to right.")
    for k, line in enumerate(lines):
        body.append(svg.text(svg.mm(MARGIN), svg.mm(y + 10000 + 3800 * k), line, font_size="2.600",
                             font_family=FONT))
    y += 19000
    widest = 0
    for heading, name, cells in rows:
        body.append(svg.text(svg.mm(left - LABEL_ROOM), svg.mm(y + 2800), heading, font_size="2.600",
                             font_family=FONT, font_weight="bold"))
        first = cells[0][0]
        for index, label in cells:
            centre = left + (index - first) * pitch
            body.append(svg.rect(svg.mm(centre - LED_SIZE // 2), svg.mm(y + 4000), svg.mm(LED_SIZE), svg.mm(LED_SIZE),
                                 class_="led", data_led=index, data_track=name, fill="none", stroke="#000000",
                                 stroke_width="0.250"))
            body.append(svg.text(svg.mm(centre), svg.mm(y + 10600), label, font_size="2.200", font_family=FONT,
                                 text_anchor="middle"))
        widest = max(widest, (len(cells) - 1) * pitch)
        y += ROW_PITCH
    y += 6000
    body += _scale_bar(MARGIN, y)
    # whole millimetres, and never smaller than A4 portrait
    width = max(A4[0], -(-(left + widest + LABEL_ROOM + MARGIN) // 1000) * 1000)
    height = max(A4[1], -(-(y + 5000 + MARGIN) // 1000) * 1000)
    return svg.document("%smm" % svg.mm(width), "%smm" % svg.mm(height), body,
                        view_box="0 0 %s %s" % (svg.mm(width), svg.mm(height)), title=title)
