"""The wiring diagram of one board, drawn from its pin map (hardware/boards/NAME.json).

The board is a block on the left with every pin the map uses on its right edge;
each pin's wire runs straight right to what it drives, grouped in sections: the
LED strip (through a 74AHCT125, its 0.1 uF decoupler and its unused channels tied
off, and the series resistor at the strip's end; with its 5 V supply and 1000 uF
capacitor, and how 5 V reaches the board: hardware/rules.json's supplies), each
seat's pad, the table controls and the SSD1306 display.
Buttons the map leaves out (null) are listed as "not fitted". Pins are written
as the board's own documents write them (see pin_label).

Each pin's row is a <g data-role="Seat 0 up"> holding the pin's label (a
<text class="pin">), so a test can check every role against the map. No wire
runs through a word: the supply rows' wires rise to the rails between the words
above a wire and the rest of a row's words (at DETAIL_X).
"""

from chancery.hardware import files as hardware_files
from chancery.hardware import svg

# The 19 buttons in firmware/pads.py order (seat pads 0-4 up/select/down, then the
# table's left/push/right/back). Repeated here because the installed host package
# does not ship firmware/; tests/host/test_drawings.py checks the two agree.
SEATS = 5
PAD_BUTTONS = ("up", "select", "down")
TABLE_BUTTONS = ("left", "push", "right", "back")
TABLE_FIRST = SEATS * len(PAD_BUTTONS)

# Geometry, in SVG user units (the diagram is not to scale).
ROW = 24  # between two wires
BOARD_X0, BOARD_X1 = 20, 260  # the board block
WIRE_END = 420  # where a pin's wire meets its part
DETAIL_X = 580  # the rest of a supply row's words: right of the wires rising to the rails (545 and 560)
WIDTH = 980
FONT = "sans-serif"

SIGNAL, FIVE_V, THREE_V3, GND, MUTED = "#000000", "#c00000", "#d07000", "#006000", "#808080"


def pin_label(cfg, pin):
    """A pin as the board's documents write it: GP22 on a Pico (rp2), GPIO18 on an
    ESP32-S3, and a CircuitPython board name with its GPIO, "A3 (GPIO29)"."""
    if isinstance(pin, str):
        gpio = (cfg.get("names") or {}).get(pin)
        return pin if gpio is None else "%s (GPIO%d)" % (pin, gpio)
    return ("GP%d" if cfg.get("port") == "rp2" else "GPIO%d") % pin


def button_role(index):
    """The role of button `index` (pads order): "Seat 2 select", "Table back"."""
    if index < TABLE_FIRST:
        return "Seat %d %s" % (index // len(PAD_BUTTONS), PAD_BUTTONS[index % len(PAD_BUTTONS)])
    return "Table " + TABLE_BUTTONS[index - TABLE_FIRST]


class _Rows:
    """Lays out the diagram top to bottom: y advances one row (or more) at a time."""

    def __init__(self, cfg, y, board=None):
        self.cfg = cfg
        self.board = board  # the pin map's entry in hardware/rules.json, or None
        self.y = y
        self.out = []
        self.common = "GND" if cfg.get("active_low", True) else "3V3"

    def pin(self, role, pin, colour=SIGNAL, label=None, note=None, split=False):
        """One pin's row: its label inside the board, its role above the wire, the wire.
        pin None: the row says "not fitted" (and why, if note says) and has no wire. split:
        only the role's words before its first ": " are above the wire, the rest at DETAIL_X,
        clear of the wires that rise from the supply rows to the rails."""
        head, rest = role.split(": ", 1) if split else (role, None)
        y = self.y
        if pin is None:
            parts = [svg.text(BOARD_X1 + 12, y + 4, "%s: not fitted%s" % (role, note or ""), fill=MUTED,
                              font_size=11, font_family=FONT)]
        else:
            parts = [
                svg.text(BOARD_X1 - 8, y + 4, label or pin_label(self.cfg, pin), class_="pin", font_size=11,
                         font_family=FONT, text_anchor="end", font_weight="bold"),
                svg.circle(BOARD_X1, y, 3, fill=colour),
                svg.text(BOARD_X1 + 12, y - 5, head + (note or ""), font_size=11, font_family=FONT),
                svg.line(BOARD_X1, y, WIRE_END, y, stroke=colour, stroke_width=2),
            ]
            if rest:
                parts.append(svg.text(DETAIL_X, y - 5, rest, font_size=11, font_family=FONT))
        self.out.append(svg.group(parts, data_role=role))
        self.y += ROW
        return y

    def heading(self, text):
        self.y += 10
        self.out.append(svg.text(WIRE_END, self.y, text, font_size=13, font_family=FONT, font_weight="bold"))
        self.y += ROW

    def gap(self, rows):
        self.y += rows * ROW

    def add(self, *parts):
        self.out.extend(parts)


def _ground(x, y):
    """The ground symbol hanging from (x, y): a stub and three shrinking bars."""
    return [
        svg.line(x, y, x, y + 6, stroke=GND, stroke_width=2),
        svg.line(x - 8, y + 6, x + 8, y + 6, stroke=GND, stroke_width=2),
        svg.line(x - 5, y + 9, x + 5, y + 9, stroke=GND, stroke_width=2),
        svg.line(x - 2, y + 12, x + 2, y + 12, stroke=GND, stroke_width=2),
    ]


def _switch(x, y, common):
    """A momentary switch from (x, y) to the common rail (GND for active-low buttons)."""
    colour = GND if common == "GND" else THREE_V3
    out = [
        svg.circle(x + 4, y, 3, fill="none", stroke=SIGNAL),
        svg.line(x + 6, y - 2, x + 30, y - 12, stroke=SIGNAL, stroke_width=2),
        svg.circle(x + 34, y, 3, fill="none", stroke=SIGNAL),
        svg.line(x + 37, y, x + 60, y, stroke=colour, stroke_width=2),
    ]
    if common == "GND":
        return out + _ground(x + 60, y)
    return out + [svg.text(x + 64, y + 4, "3V3", font_size=10, font_family=FONT, fill=THREE_V3)]


def _box(x, y, width, height, title, lines=(), fill="#f4f4f4"):
    out = [svg.rect(x, y, width, height, fill=fill, stroke=SIGNAL, stroke_width=1.5)]
    if title:
        out.append(svg.text(x + 6, y + 14, title, font_size=11, font_family=FONT, font_weight="bold"))
    for k, line in enumerate(lines):
        out.append(svg.text(x + 6, y + 28 + 13 * k, line, font_size=10, font_family=FONT))
    return out


def _junction(x, y, colour):
    return svg.circle(x, y, 3.5, fill=colour)


def _capacitor(x, y, label, polar=False):
    """A capacitor standing from the 5 V rail at (x, y) down to the GND rail at y + GND_BELOW_5V."""
    out = [
        _junction(x, y, FIVE_V),
        svg.line(x, y, x, y + 12, stroke=FIVE_V, stroke_width=2),
        svg.line(x - 10, y + 12, x + 10, y + 12, stroke=SIGNAL, stroke_width=3),
        svg.line(x - 10, y + 19, x + 10, y + 19, stroke=SIGNAL, stroke_width=3),
        svg.line(x, y + 19, x, y + GND_BELOW_5V, stroke=GND, stroke_width=2),
        _junction(x, y + GND_BELOW_5V, GND),
        svg.text(x + 14, y + 20, label, font_size=10, font_family=FONT),
    ]
    if polar:
        out.append(svg.text(x - 20, y + 11, "+", font_size=11, font_family=FONT))
    return out


GND_BELOW_5V = 40  # the GND rail runs this far below the 5 V rail
SHIFTER_LINES = [
    "in 1A (pin 2), out 1Y (pin 3), 1OE (pin 1) to GND",
    "unused inputs held at VCC or GND, never floating:",
    "2OE, 3OE, 4OE (pins 4, 10, 13) to 5 V (off)",
    "2A, 3A, 4A (pins 5, 9, 12) to GND",
    "2Y, 3Y, 4Y (pins 6, 8, 11) open",
]


def _strip(rows):
    cfg = rows.cfg
    data, leds, order = cfg["strip"]["data"], cfg["strip"]["leds"], cfg["strip"].get("order", "GRB")
    rows.heading("LED panel (WS2812B, %d LEDs, %s)" % (leds, order))
    y = rows.pin("Strip data", data)
    shifter_x1 = 700
    box_bottom = y + 74
    rows.add(*_box(WIRE_END, y - 16, shifter_x1 - WIRE_END, box_bottom - y + 16, "74AHCT125 level shifter",
                   SHIFTER_LINES, fill="#eef4ff"))
    # 1Y -> the data wire -> the resistor at the strip's end -> DIN
    strip_x0 = 830
    rows.add(
        svg.line(shifter_x1, y, 760, y, stroke=SIGNAL, stroke_width=2),
        svg.rect(760, y - 6, 50, 12, fill="#ffffff", stroke=SIGNAL, stroke_width=1.5),
        svg.text(785, y - 10, "330-470 \u03a9", font_size=10, font_family=FONT, text_anchor="middle"),
        svg.text(785, y + 18, "at the panel's DIN", font_size=9, font_family=FONT, text_anchor="middle"),
        svg.line(810, y, strip_x0, y, stroke=SIGNAL, stroke_width=2),
    )
    rail_5v = box_bottom + 66  # room for the longest label along a tie, "OE 4, 10, 13", and the decoupler
    rail_gnd = rail_5v + GND_BELOW_5V
    rows.add(*_box(strip_x0, y - 40, 140, rail_gnd - y + 60, "WS2812B panel",
                   ["%d LEDs, byte order %s" % (leds, order)], fill="#fff4f4"))
    for pin_y, name in ((y, "DIN"), (rail_5v, "5V"), (rail_gnd, "GND")):
        rows.add(svg.text(strip_x0 + 6, pin_y + 4, name, font_size=10, font_family=FONT, font_weight="bold"))
    # The 5 V supply (option B) feeds the strip and the level shifter; its GND is the board's GND too.
    rows.add(*_box(WIRE_END, rail_5v - 26, 110, 80, "5 V supply", ["option B", "+5 V", "GND"], fill="#fff8e8"))
    rows.add(
        svg.line(WIRE_END + 110, rail_5v, strip_x0, rail_5v, stroke=FIVE_V, stroke_width=2),
        svg.line(WIRE_END + 110, rail_gnd, strip_x0, rail_gnd, stroke=GND, stroke_width=2),
    )
    # the shifter's supply and its tied-off channels, down to the rails
    ties = ((590, rail_5v, FIVE_V, "OE 4, 10, 13"), (610, rail_gnd, GND, "A 5, 9, 12"),
            (660, rail_5v, FIVE_V, "VCC 14"), (690, rail_gnd, GND, "GND 7"))
    for x, rail, colour, name in ties:  # each label along its wire
        rows.add(svg.line(x, box_bottom, x, rail, stroke=colour, stroke_width=2), _junction(x, rail, colour),
                 svg.text(x - 3, box_bottom + 4, name, font_size=8, font_family=FONT, text_anchor="end",
                          transform="rotate(-90 %d %d)" % (x - 3, box_bottom + 4)))
    # the 0.1 uF decoupler straight across VCC (pin 14) and GND (pin 7), at the chip, below their
    # labels (each runs down its wire from the chip: "GND 7" ends 30 below it)
    cy = box_bottom + 40
    rows.add(
        _junction(660, cy, FIVE_V), svg.line(660, cy, 672, cy, stroke=FIVE_V, stroke_width=2),
        svg.line(672, cy - 6, 672, cy + 6, stroke=SIGNAL, stroke_width=2.5),
        svg.line(678, cy - 6, 678, cy + 6, stroke=SIGNAL, stroke_width=2.5),
        svg.line(678, cy, 690, cy, stroke=GND, stroke_width=2), _junction(690, cy, GND),
        svg.text(696, cy + 4, "0.1 \u00b5F at pins 14 and 7", font_size=9, font_family=FONT),
    )
    # 1000 uF across the strip's supply, at the strip: + to 5 V (never on VBUS: USB 2.0 7.2.4.1)
    rows.add(*_capacitor(760, rail_5v, "1000 \u00b5F", polar=True))
    rows.gap((rail_gnd - y) // ROW + 1)  # the supply, the rails and the capacitors hang below the data row
    # the board's GND joins the supply's: without a common ground the data has no reference. First
    # below the rails, so that its wire up to the GND rail crosses no other row
    g = rows.pin("Common ground: board GND to the 5 V supply's GND", "GND", colour=GND, label="GND", split=True)
    rows.add(
        svg.line(WIRE_END, g, 545, g, stroke=GND, stroke_width=2),
        svg.line(545, g, 545, rail_gnd, stroke=GND, stroke_width=2),
        _junction(545, rail_gnd, GND),
    )
    _supply_rows(rows, rail_5v, rail_gnd)


def _supply_rows(rows, rail_5v, rail_gnd):
    """How 5 V reaches the board: the USB supply's pin (option A: to the 5 V rail on the bench only,
    never with the 1000 uF) and the separate supply's way in (option B), from hardware/rules.json."""
    board = rows.board
    if board is None:
        return
    usb, ext = board["supplies"].get("usb"), board["supplies"].get("external")
    if usb and usb.get("label"):
        y = rows.pin("USB 5 V (option A): bench only, to the 5 V rail without the 1000 \u00b5F", usb["label"],
                     colour=FIVE_V, split=True)
        rows.add(svg.circle(WIRE_END + 4, y, 4, fill="#ffffff", stroke=FIVE_V, stroke_width=2))
    if ext is None:
        return
    if ext.get("label"):
        y = rows.pin("Supply in (option B): the 5 V rail through a 1N5817, band (cathode) at %s"
                     % ext["label"], ext["label"], colour=FIVE_V, split=True)
        # the diode on the wire: anode at the rail, cathode (bar) toward the board
        dx = 470
        rows.add(
            svg.line(WIRE_END, y, 560, y, stroke=FIVE_V, stroke_width=2),
            svg.line(560, y, 560, rail_5v, stroke=FIVE_V, stroke_width=2),
            _junction(560, rail_5v, FIVE_V),
            svg.rect(dx - 12, y - 9, 24, 18, fill="#ffffff", stroke="none"),
            svg.polygon([(dx + 8, y - 8), (dx + 8, y + 8), (dx - 6, y)], fill=SIGNAL),
            svg.line(dx - 7, y - 8, dx - 7, y + 8, stroke=SIGNAL, stroke_width=3),
            svg.text(dx, y + 20, "1N5817", font_size=9, font_family=FONT, text_anchor="middle"),
        )
    else:
        rows.add(svg.text(BOARD_X1 + 12, rows.y + 4, "Supply in (option B): none; the supply feeds the strip and "
                          "the shifter, the board stays on USB", font_size=11, font_family=FONT))
        rows.gap(1)
    rows.add(svg.text(BOARD_X1 + 12, rows.y + 4, ext["note"], font_size=11, font_family=FONT, fill=MUTED))
    rows.gap(1)


def _seats(rows):
    buttons = rows.cfg["buttons"]
    for seat in range(SEATS):
        first = seat * len(PAD_BUTTONS)
        pins = buttons[first:first + len(PAD_BUTTONS)]
        if all(p is None for p in pins):
            rows.heading("Seat %d pad" % seat)
            rows.pin("Seat %d pad (up, select, down)" % seat, None)
            continue
        rows.heading("Seat %d pad: three buttons to %s" % (seat, rows.common))
        for k, pin in enumerate(pins):
            y = rows.pin(button_role(first + k), pin)
            if pin is not None:
                rows.add(*_switch(WIRE_END, y, rows.common))


def _table(rows):
    cfg = rows.cfg
    buttons = rows.cfg["buttons"]
    enc = cfg.get("encoder")
    rows.heading("Table controls" + (": rotary encoder with push switch, and buttons" if enc else ": four buttons"))
    turns = " (the encoder's turns do this)" if enc else ""
    if enc:
        top = rows.y
        a = rows.pin("Encoder A", enc["a"])
        rows.pin("Encoder B", enc["b"])
        push = buttons[TABLE_FIRST + TABLE_BUTTONS.index("push")]
        p = rows.pin("Table push", push)
        rows.add(*_box(WIRE_END, top - 16, 200, rows.y - top, "", fill="#eefaee"))
        for y, name in ((a, "A"), (a + ROW, "B"), (p, "SW")):
            rows.add(svg.text(WIRE_END + 6, y + 4, name, font_size=10, font_family=FONT, font_weight="bold"))
        rows.add(
            svg.text(WIRE_END + 40, a + 4, "Rotary encoder", font_size=11, font_family=FONT, font_weight="bold"),
            svg.text(WIRE_END + 40, a + ROW + 4, "C (common) to %s" % rows.common, font_size=10, font_family=FONT),
            svg.text(WIRE_END + 40, p + 4, "push switch, other leg to %s" % rows.common, font_size=10,
                     font_family=FONT),
        )
        # C, the encoder's common pin, beside its label
        rows.add(svg.line(WIRE_END + 200, a + ROW, WIRE_END + 220, a + ROW, stroke=GND, stroke_width=2))
        rows.add(*_ground(WIRE_END + 220, a + ROW))
        rest = ("left", "right", "back")
    else:
        rest = TABLE_BUTTONS
    for name in rest:
        pin = buttons[TABLE_FIRST + TABLE_BUTTONS.index(name)]
        note = turns if name in ("left", "right") and pin is None else ""
        y = rows.pin("Table " + name, pin, note=note)
        if pin is not None:
            rows.add(*_switch(WIRE_END, y, rows.common))


def _display(rows):
    bus = rows.cfg.get("i2c")
    if not bus:
        rows.heading("Display")
        rows.pin("SSD1306 display", None)
        return
    addr = bus.get("addr", 0x3C)
    rows.heading("SSD1306 OLED display, I2C address 0x%02X (%d)" % (addr, addr))
    top = rows.y
    sda = rows.pin("Display SDA", bus["sda"])
    rows.pin("Display SCL", bus["scl"])
    vcc = rows.pin("Display VCC (3.3 V)", "3V3", colour=THREE_V3, label="3V3")
    rows.pin("Display GND", "GND", colour=GND, label="GND")
    rows.add(*_box(WIRE_END, top - 16, 200, rows.y - top, "", fill="#f0f0ff"))
    for k, name in enumerate(("SDA", "SCL", "VCC", "GND")):
        rows.add(svg.text(WIRE_END + 6, sda + k * ROW + 4, name, font_size=10, font_family=FONT, font_weight="bold"))
    freq = bus.get("freq")
    rows.add(
        svg.text(WIRE_END + 50, sda + 4, "SSD1306 128x64 (I2C)", font_size=11, font_family=FONT, font_weight="bold"),
        svg.text(WIRE_END + 50, sda + ROW + 4, "address 0x%02X" % addr, font_size=10, font_family=FONT),
        svg.text(WIRE_END + 50, vcc + 4, "I2C bus %s%s" % (bus.get("id", 0), ", %d kHz" % (freq // 1000)
                                                              if freq else ""), font_size=10, font_family=FONT),
    )


def _legend(y, common):
    out = [svg.text(BOARD_X0, y, "Legend", font_size=13, font_family=FONT, font_weight="bold")]
    y += 22
    for colour, what in ((SIGNAL, "signal wire from a board pin"), (FIVE_V, "5 V (strip supply)"),
                         (THREE_V3, "3.3 V from the board"), (GND, "GND")):
        out += [svg.line(BOARD_X0, y - 4, BOARD_X0 + 40, y - 4, stroke=colour, stroke_width=2),
                svg.text(BOARD_X0 + 50, y, what, font_size=11, font_family=FONT)]
        y += 20
    out += _switch(BOARD_X0 - 4, y - 4, common)
    pull = "internal pull-up, pressed reads low" if common == "GND" else "internal pull-down, pressed reads high"
    out.append(svg.text(BOARD_X0 + 80, y, "momentary push button, other leg to %s (%s)" % (common, pull),
                        font_size=11, font_family=FONT))
    y += 24
    out += [_junction(BOARD_X0 + 20, y - 4, SIGNAL),
            svg.text(BOARD_X0 + 50, y, "joined wires (crossing lines without a dot are not joined)", font_size=11,
                     font_family=FONT)]
    y += 20
    out.append(svg.text(BOARD_X0 + 50, y, "not fitted: the pin map has no pin for it (null)", font_size=11,
                        font_family=FONT, fill=MUTED))
    return out, y


def wiring_svg(board, source=None, rules=None):
    """The wiring diagram of `board` (a name in hardware/boards/, or a loaded pin map) as SVG text.
    source: the file to name in the diagram (default: hardware/boards/NAME.json for a name);
    rules: hardware/rules.json's data (read from the checkout when not given)."""
    if isinstance(board, str):
        source = source or "hardware/boards/%s.json" % board
        cfg = hardware_files.load("boards", board)
    else:
        cfg = board
    data = hardware_files.rules() if rules is None else rules
    entry = data["boards"].get(cfg.get("rules"))
    title = "Chancery wiring: %s" % cfg.get("board", "board")
    rows = _Rows(cfg, 110, entry)
    top = rows.y
    _strip(rows)
    _seats(rows)
    _table(rows)
    _display(rows)
    bottom = rows.y
    board_block = [
        svg.rect(BOARD_X0, top, BOARD_X1 - BOARD_X0, bottom - top, fill="#e8f0e8", stroke=SIGNAL, stroke_width=2),
        svg.text(BOARD_X0 + 10, top + 20, "Board", font_size=13, font_family=FONT, font_weight="bold"),
        svg.text(BOARD_X0 + 10, top + 36, "%s port" % cfg.get("port", "?"), font_size=11, font_family=FONT),
    ]
    legend, end = _legend(bottom + 40, rows.common)
    head = [
        svg.text(BOARD_X0, 30, title, font_size=18, font_family=FONT, font_weight="bold"),
        svg.text(BOARD_X0, 52, "Pin map: %s. Generated by `chancery hardware drawings`: edit the pin map, "
                 "not this file." % (source or "(given)"), font_size=11, font_family=FONT),
        svg.text(BOARD_X0, 70, _pin_note(cfg), font_size=11, font_family=FONT),
    ]
    height = end + 30
    return svg.document(WIDTH, height, head + board_block + rows.out + legend, view_box="0 0 %d %d" % (WIDTH, height),
                        title=title)


def _pin_note(cfg):
    port = cfg.get("port")
    if port == "rp2":
        return "Pins: GPn is RP2040 GPIO n, as printed on the Pico's pinout."
    if port == "circuitpython":
        return "Pins: CircuitPython board names (board.NAME), with the chip's GPIO each stands for."
    return "Pins: GPIOn is the chip's GPIO n, as printed beside the board's header."
