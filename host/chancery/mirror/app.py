"""The mirror: a terminal UI that shows the board's game live and presses its buttons.

It draws the board's LED panel as it looks on the table (board_text: each LED in
its cell of hardware/arrangement.json, with the overlay's captions and words, so
a track reads left to right as on the sheet) from the same render function the
firmware uses (shared_rules/render.py), on the same public view; the dice,
scores and services; what the board is asking; the latest events; the link's
state. It never shows what the public view hides. The keyboard presses the
board's buttons (virtual presses go through the board's own menus), and a
command line takes the actions of `chancery play` for a quicker table.

Keys: seat pads 0-4 are q/a/z, w/s/x, e/d/c, r/f/v, t/g/b (up/select/down;
the capital letter holds the button: a long press); the table controls are
Left/Right (the encoder), Enter (push), Backspace (back), and > < * for the
long forms. Type a command after ':' (e.g. `:solve 0 Castle`), `:new GAME
[SETTING=VALUE ...] [NAME ...]` starts a new game on the board (its seats named),
`:names Ann, Bob` names the seats of the game under way, `:undo` takes back the
board's last entry (it stays in the logbook, as taken back), Ctrl-Q quits.

Names: the board's welcome says the seats' names (link.Mirror.names); every sentence
shown calls a named seat by its name (words/names.py), and the strip's key and the
game's panel say who sits where.

On the virtual Pico (`chancery sim --chip`, chip=chip.ChipPins) the strip and the
display are what the chip's pins showed, decoded, and the keys press its GPIOs.
"""

import os
import re
import sys

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input, RichLog, Static

from chancery.board.link import FAULT_ADVICE, Diverged, LinkError, error_kind
from chancery.hardware import arrangement as cells
from chancery.hardware import files as hardware_files
from chancery.hardware import overlay
from chancery.logbook import chart
from chancery.logbook import store as logbook_store
from chancery.mirror import keyhelp
from chancery.play import box as ballot_box
from chancery.words import commands, narrate, new_game, show
from chancery.words import names as seat_words
from shared_rules import engine, matches, render, wire

PAD_KEYS = ("qaz", "wsx", "edc", "rfv", "tgb")  # per seat: up, select, down
TABLE_PAD = 5
TABLE_KEYS = {"left": 0, "enter": 1, "right": 2, "backspace": 3}
TABLE_LONG = {"less_than_sign": 0, "asterisk": 1, "greater_than_sign": 2}
HELP = """Keys (when the status line says the board's buttons):
  seat pads 0-4: q a z / w s x / e d c / r f v / t g b  (up, select, down; Shift holds the button)
  table: Left/Right turn the knob, Enter pushes it, Backspace is back; < * > hold left, push, right
Commands (':' to type one, Enter sends it, Esc goes back to the buttons):
  :ACTION ...            any action, as the terminal game takes it (e.g. :roll, :solve 0 Castle)
  :undo                  take back the board's last entry (kept in the logbook as taken back)
  :new GAME [NAME=VALUE ...] [PLAYER ...]   start another game on the board, its seats named
  :names [PLAYER, ...]   name the seats of this game, from seat 0 (- for none); alone: who sits where
  :cast SEAT             a seat's vote in the sealed ballot: its choice is typed next, not shown
  :deploy [BOARD]        put this checkout's firmware on the board
  :help                  this list, and what each key does on the board's screen now;  Ctrl-Q quits"""


PLACEHOLDER = ":command (e.g. :roll, :solve 0 Castle, :new kings_dilemma voting=sealed) or keys for the board's buttons"


def load_layout(game):
    """The game's LED layout placed on the board's arrangement, or None when hardware/layouts/ has
    none for it (no strip drawn)."""
    try:
        return hardware_files.layout(game)
    except hardware_files.UnknownName:
        return None


def key_press(key):
    """(pad, key index, hold) for a keyboard key, or None."""
    if key in TABLE_KEYS:
        return TABLE_PAD, TABLE_KEYS[key], "short"
    if key in TABLE_LONG:
        return TABLE_PAD, TABLE_LONG[key], "long"
    if len(key) == 1:
        for pad in range(len(PAD_KEYS)):
            i = PAD_KEYS[pad].find(key.lower())
            if i >= 0:
                return pad, i, "long" if key.isupper() else "short"
    return None


def _track_name(track):
    """A track's name in words: its label up to its colon ("Problem 0, die 1", "Stability"),
    else its first clause ("Seat 0 score", "Winners once the game is over"), without a
    bracket; the layout's key where there is no label."""
    label = (track.get("label") or track["name"]).split(" (")[0]
    return label.split(":")[0] if ":" in label else label.split(",")[0]


def track_names(tracks):
    """Each track's name in words (_track_name); tracks that would share one are named as the
    overlay heads them, by their label's first clause: "Balance: AYE Power", "Balance: the
    middle pool", "Balance: NAY Power"."""
    names = [_track_name(t) for t in tracks]
    out = []
    for track, name in zip(tracks, names):
        if names.count(name) > 1 and track.get("label"):
            name = track["label"].split(" (")[0].split(",")[0]
        out.append(name)
    return out


_PER_LED = re.compile(r"\b(\d+ [^,;:()]*? per LED)")


def scale(track):
    """How much one LED of a track that counts stands for, in its label's words ("10 points per
    LED", "2 Power per LED"), or None when an LED is one of what it counts."""
    if track.get("shows") not in ("scores", "bar"):
        return None
    unit = track.get("unit", 10 if track.get("shows") == "scores" else 1)
    if unit == 1:
        return None
    found = _PER_LED.search(track.get("label") or "")
    return found.group(1) if found else "%d per LED" % unit


def scales_text(tracks, names):
    """What one LED stands for on the tracks that count more than one a LED, each scale once with
    the rows it is for: "10 points (each seat's score)", "2 Power (Balance)"; "" when there are none."""
    groups = []  # (scale, [row names])
    for track, name in zip(tracks, names):
        per = scale(track)
        if per:
            for g in groups:
                if g[0] == per:
                    g[1].append(name)
                    break
            else:
                groups.append((per, [name]))
    out = []
    for per, rows in groups:
        heads = set(n.split(":")[0] for n in rows)
        forms = set(re.sub(r"\d+", "N", n) for n in rows)
        if len(heads) == 1 and ":" in rows[0]:
            which = heads.pop()  # "Balance: AYE Power", "Balance: NAY Power": the Balance
        elif len(forms) == 1:
            which = re.sub(r"\bSeat N(?:'s)?\b", "each seat's", forms.pop())  # Seat 0 score...: each seat's score
        else:
            which = ", ".join(rows)
        out.append("%s (%s)" % (per[:-len(" per LED")] if per.endswith(" per LED") else per, which))
    return "; ".join(out)


def seat_of(track):
    """The seat a track is one seat's (a score's, a seat's Damaged Holdings), or None."""
    seat = track.get("seat")
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


# The strip is drawn on a background of its own, dark as the strip's board, whatever the
# terminal's or the theme's: an LED's colour on a light background (yellow, white) or a
# dark one (blue, deep red) would be lost. Each colour is lifted towards white until it
# stands out from it (legible()); the words on the strip are light grey.
STRIP_BG = (16, 16, 16)
STRIP_TEXT = (200, 200, 200)
HOLLOW = (128, 128, 128)  # a waiting die, a mark on an empty space
DARK = (88, 88, 88)  # an LED that is off
MARKS = (150, 150, 150)  # the overlay's words under the LEDs
CELL = 4  # characters a cell of the panel takes on the screen: the LED, and its words under it
MARK = 3  # ... of which its words take this many, and a space
LEGIBLE = 3.0  # the least contrast ratio (WCAG's for large text and graphics) of a cell to the background


def luminance(rgb):
    """WCAG's relative luminance of an sRGB colour (0-255 a channel)."""
    out = 0.0
    for c, w in zip(rgb, (0.2126, 0.7152, 0.0722)):
        c = c / 255.0
        out += w * (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    return out


def contrast(a, b):
    """WCAG's contrast ratio of two colours (1 to 21)."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def legible(rgb):
    """The colour, lifted towards white (hue kept) until it stands out from the strip's background."""
    r, g, b = rgb
    while contrast((r, g, b), STRIP_BG) < LEGIBLE:
        r, g, b = r + (256 - r) // 4, g + (256 - g) // 4, b + (256 - b) // 4
    return min(255, r), min(255, g), min(255, b)


def _rgb(c):
    return "rgb(%d,%d,%d)" % tuple(c)


def terminal_theme(env):
    """Textual's theme for the terminal the mirror runs in: a light one when the terminal says
    its background is light ($COLORFGBG "fg;bg", bg 7 or 9-15: xterm, rxvt, Konsole, iTerm2),
    else the dark one. Either way the strip keeps its own dark background."""
    bg = (env.get("COLORFGBG") or "").split(";")[-1]
    return "textual-light" if bg.isdigit() and (int(bg) == 7 or 9 <= int(bg) <= 15) else "textual-dark"


def track_leds(track):
    """The strip indices of a track's LEDs, first LED first (its reading order on the overlay)."""
    if "idx" in track:
        return list(track["idx"])
    k = range(track["length"])
    return [track["start"] + (i if track.get("dir", 1) == 1 else track["length"] - 1 - i) for i in k]


def strip_text(frame, layout, view=None, names=None):
    """The LED tracks as rows of coloured cells, as the strip shows them: each colour
    brought back up from the layout's brightness cap (a strip at 47/255 is bright in a
    room, its bytes nearly black on a screen), and made legible on the strip's background.
    An LED in a colour that means "not yet" (a die waiting to be rolled, a mark on an
    empty space) is a hollow cell; with the public `view`, a score track says its score
    and a key gives each seat's colour (and name, with the seats' `names`, which also name
    the seats' tracks)."""
    out = Text()
    level = max(1, min(255, layout.get("level", 255)))
    hollow = _hollow(layout, level)
    players = ((view or {}).get("settings") or {}).get("players", 0)
    # a track of a seat the game does not have (seat 4's in a game of four) is dark: no row for it
    tracks = [t for t in layout["tracks"] if not players or seat_of(t) is None or seat_of(t) < players]
    labels = [seat_words.called(name, names) for name in track_names(tracks)]
    width = max(len(label) for label in labels) if labels else 0
    scores = (view or {}).get("scores")
    for track, label in zip(tracks, labels):
        out.append(label.ljust(width) + " ", style=_rgb(STRIP_TEXT))
        for led in track_leds(track):
            ch, colour = _led(frame, led, level, hollow)
            out.append(ch, style=_rgb(colour))
        if track.get("shows") == "scores" and isinstance(scores, list) and track.get("seat", 0) < len(scores):
            out.append(" %d" % scores[track.get("seat", 0)], style=_rgb(STRIP_TEXT))
        out.append("\n")
    scales = scales_text(tracks, track_names(tracks))
    if scales:  # what one LED of a count stands for: a lit LED is not one point
        out.append("One LED is".ljust(width) + " " + seat_words.called(scales, names) + "\n", style=_rgb(STRIP_TEXT))
    _seat_key(out, "Seats".ljust(width) + " ", layout, players, names)
    return out


def _seat_key(out, label, layout, players, names):
    """The key under the LEDs: each seat's colour, its number and name."""
    colours = layout.get("seat_colours") or []
    if colours and players:
        out.append(label, style=_rgb(STRIP_TEXT))
        for seat in range(min(players, len(colours))):
            out.append("\u25cf", style=_rgb(legible(colours[seat])))
            out.append("%d%s " % (seat, " " + names[seat] if names and seat < len(names) and names[seat] else ""),
                       style=_rgb(STRIP_TEXT))
        out.append("\n")


def _led(frame, i, level, hollow):
    """(character, its colour) of strip LED i as the screen shows it (see strip_text)."""
    r, g, b = frame[3 * i], frame[3 * i + 1], frame[3 * i + 2]
    if (r, g, b) in hollow:
        return "\u25cb", HOLLOW
    if r or g or b:
        return "\u25cf", legible((min(255, r * 255 // level), min(255, g * 255 // level), min(255, b * 255 // level)))
    return "\u00b7", DARK


def _hollow(layout, level):
    out = set()
    for name, c in layout.get("colours", {}).items():
        if name == "waiting" or name.endswith("_empty"):
            out.add((c[0] * level // 255, c[1] * level // 255, c[2] * level // 255))
    out.discard((0, 0, 0))  # a colour the cap darkens is off on the strip: not hollow
    return out


def _mark(text):
    """An LED's words from the overlay in a cell's few characters ("Seat 2" is "S2", "Re- source" "Res")."""
    text = text.replace("- ", "")
    if text.startswith("Seat ") and len(text) - 4 <= MARK:
        text = "S" + text[5:]
    return text[:MARK].center(MARK)


def board_text(frame, layout, view=None, names=None, grid=None):
    """The board as it looks on the table: the panel's cells where they are (hardware/arrangement.json,
    one row of text per row of LEDs, CELL characters a cell), each LED in its colour as strip_text draws
    it, each track's caption on the dark cells left of it and, under each row, what each LED means, as
    the game's overlay prints them; rows without an LED are one blank line. With the public `view`, a
    score track's row ends in its score, a track of a seat the game does not have (seat 4's in a game
    of four) is left out as the board leaves it dark, and a key gives each seat's colour (and name,
    with `names`)."""
    grid = grid or hardware_files.arrangement()
    out = Text()
    level = max(1, min(255, layout.get("level", 255)))
    hollow = _hollow(layout, level)
    at = {}  # (col, row): (track, k, strip index)
    players = ((view or {}).get("settings") or {}).get("players", 0)
    for t in layout["tracks"]:
        if players and seat_of(t) is not None and seat_of(t) >= players:
            continue  # a seat the game does not have: its LEDs stay dark, and the mirror names no such seat
        for k, i in enumerate(track_leds(t)):
            if 0 <= i < cells.count(grid):
                at[cells.cell(grid, i)] = (t, k, i)
    scores = (view or {}).get("scores")
    rows = [r for r in range(grid["rows"]) if any((c, r) in at for c in range(grid["columns"]))]
    width = grid["columns"] * CELL
    for n, row in enumerate(rows):
        if n and row > rows[n - 1] + 1:
            out.append("\n")
        line = [(" ", STRIP_TEXT)] * width
        under = [(" ", MARKS)] * width
        score = None
        free = 0  # the first column left of the next LED that no LED or caption holds
        for col in range(grid["columns"]):
            if (col, row) not in at:
                continue
            t, k, i = at[(col, row)]
            if k == 0:
                caption = t.get("caption")
                if caption is None:
                    caption = _track_name(t)
                caption = seat_words.called(caption, names)[:max(0, (col - free) * CELL - 1)]
                first = col * CELL - len(caption)
                for j, ch in enumerate(caption):
                    line[first + j] = (ch, STRIP_TEXT)
                if t.get("shows") == "scores" and isinstance(scores, list) and t.get("seat", 0) < len(scores):
                    score = scores[t.get("seat", 0)]
            ch, colour = _led(frame, i, level, hollow)
            line[col * CELL + 1] = (ch, colour)
            for j, m in enumerate(_mark(overlay.led_label(t, k))):
                under[col * CELL + j] = (m, MARKS)
            free = col + 1
        for cells_of, tail in ((line, None if score is None else " %d" % score), (under, None)):
            text = "".join(ch for ch, _c in cells_of).rstrip()
            for ch, colour in cells_of[:len(text)]:
                out.append(ch, style=_rgb(colour))
            if tail:
                out.append(tail, style=_rgb(STRIP_TEXT))
            out.append("\n")
    _seat_key(out, "Seats ", layout, players, names)
    return out


def placed(layout):
    """Whether the layout's tracks sit on the board's arrangement (then the mirror draws the board)."""
    return bool(layout.get("tracks")) and all("at" in t for t in layout["tracks"])


def panels(match, layout, frame, display_lines, phase=0, chip=None, names=None):
    """What the mirror draws of a match: (the LED panel as it looks on the table, board_text,
    or for a layout on a bare strip its tracks, strip_text; the game's panel; the board's
    display), all from the public view (matches.view(match, None)) and what the board
    sent, so that nothing a seat hides can reach the screen. `frame` is reused; `phase`
    as on the board (seats sharing an LED take turns). With `chip` (the virtual Pico's
    pins), the strip and the display are the ones decoded from the chip instead. With
    the seats' `names`, the panel calls each named seat by its name and says who sits where."""
    view = matches.view(match, None)
    if frame is not None and chip is not None and not chip.frame(frame):
        strip = "(nothing on the strip yet)"
    elif frame is not None:
        if chip is None:
            render.render(view, layout, frame, layout.get("level", 255), phase)
        strip = (board_text if placed(layout) else strip_text)(frame, layout, view, names)
    else:
        strip = "(no LED layout for %s in hardware/layouts/)" % match["game"]
    board = chip.display_text() if chip is not None else "\n".join(display_lines) or "(the board's display)"
    who = "Players: %s\n" % seat_words.listing(names) if names and [n for n in names if n] else ""
    return strip, who + show.status(view, names) + "\n" + seat_words.called(matches.prompt(match), names) + \
        game_over_chart(match, names), board


def game_over_chart(match, names=None):
    """The end-of-game screen's small chart: each player's score over the game as a text sparkline
    (the game's own tracks for a game that keeps no score), once the game is over; "" before, and
    for a game without the progress hook. Drawn from the public view of the log, as `chancery log
    chart ID` draws it in full; a named seat's line is its name's. The last one is kept: the screen is
    redrawn often, the game is over."""
    if not matches.is_over(match):
        return ""
    key = (match["game"], match["start"], len(match["entries"]), match["entries"][-1]["digest"], str(names))
    if _last_chart[0] != key:
        try:
            see = logbook_store.entry_view(match["game"])
            lines = chart.sparklines(dict(match, names=names), [see(e, None) for e in match["entries"]])
        except logbook_store.LogbookError:  # a log with no public view draws nothing
            lines = []
        _last_chart[:] = [key, "\n" + "\n".join(["Over the game:"] + lines) if lines else ""]
    return _last_chart[1]


_last_chart = [None, ""]


class MirrorApp(App):
    CSS = """
    Screen { overflow: hidden; }
    #status { height: 1; background: $boost; }
    #top { height: auto; max-height: 24; }
    #strip { width: auto; max-width: 60%; height: auto; background: rgb(16,16,16); color: rgb(200,200,200); }
    #table { width: 1fr; height: auto; padding-left: 1; }
    #board { height: auto; border: round $accent; padding: 0 1; }
    #events { height: 1fr; min-height: 4; border: round $panel; }
    """
    BINDINGS = [("ctrl+q", "quit", "Quit")]

    def __init__(self, link, connect=True, chip=None, **kwargs):
        super().__init__(**kwargs)
        self.link = link
        self.chip = chip
        self.chip_seen = None
        self.connect_first = connect
        self.layout_game = None
        self.layout_data = None
        self.frame = None
        self.phase = 0  # as the board's: where seats share an LED they take turns
        self.ticks = 0
        self.display_lines = list(link.display or [])  # the display frame sent before the mirror started
        self.diverged_said = None  # the last entry that did not replay here, as said (once)
        self.link.on_event = self.on_link_event
        self.theme = terminal_theme(os.environ)  # the strip is legible on either (strip_text)

    def compose(self) -> ComposeResult:
        yield Static("", id="status")
        with Horizontal(id="top"):
            yield Static("", id="strip")
            with Vertical(id="table"):
                yield Static("", id="state")
                yield Static("", id="board")
        yield RichLog(id="events", wrap=True, markup=False)
        yield Input(placeholder=PLACEHOLDER, id="command")
        yield Footer()

    def on_mount(self):
        self.query_one("#command", Input).can_focus = True
        if self.connect_first and self.link.ser is None:
            try:
                self.link.connect(attempts=3)
            except LinkError as e:
                self.log_line("Cannot reach the board: %s" % e)  # the link's words say where and why
        self.set_interval(0.05, self.poll_link)
        self.set_interval(0.1, self.watch_chip if self.chip is not None else self.turn_phase)
        self.show_history()
        self.refresh_all()

    def show_history(self, last=12):
        """What happened before the mirror looked (the board may have played unplugged)."""
        if self.link.mirror is None:
            return
        match = self.link.mirror.match
        first = max(0, len(match["entries"]) - last)
        for i, act, sentences in narrate.history(match, first, self.link.mirror.names):
            for line in sentences:
                self.log_line("#%d %s" % (i + 1, line))

    # --- the link ----------------------------------------------------------------

    def poll_link(self):
        if self.link.ser is None:
            return
        try:
            self.link.poll(0)
        except (OSError, LinkError) as e:
            if not isinstance(e, Diverged):  # a Diverged is said already (on_link_event "diverged")
                self.log_line("Link lost: %s; reconnecting. %s" % (e, LINK_ADVICE))
            self.link.close()
            self.set_timer(self.link.backoff_ms / 1000.0, self.reconnect)

    def reconnect(self):
        try:
            self.link.connect(attempts=1)
            self.refresh_all()
        except LinkError:
            self.set_timer(self.link.backoff_ms / 1000.0, self.reconnect)

    def on_link_event(self, kind, data):
        if kind == "entry" and self.link.mirror is not None:
            match = self.link.mirror.match
            i = data["i"]
            for line in narrate.lines(match["game"], self.link.mirror.before, data["events"], data.get("move"),
                                      self.link.mirror.names):
                self.log_line("#%d %s" % (i + 1, line))
            self.refresh_all()
        elif kind == "undo" and self.link.mirror is not None:
            schemas = engine.game_module(self.link.mirror.match["game"]).SCHEMAS
            for k in range(len(data["entries"]) - 1, -1, -1):
                self.log_line("#%d taken back: %s (kept in the logbook)" % (
                    data["len"] + k + 1, commands.command_text(data["entries"][k]["action"], schemas)))
            self.refresh_all()
        elif kind == "diverged":
            said = (data["i"], data["why"])
            if said != self.diverged_said:  # once, not at each reconnect that fetches it again
                self.diverged_said = said
                self.log_line("The board's entry #%d %s: it is neither mirrored nor stored in the logbook; "
                              "reconnecting to fetch it again" % (data["i"] + 1, data["why"]))
            self.refresh_all()
        elif kind == "new_game":
            self.log_line("\u2500" * 20 + " a new game: %s " % data.get("game") + "\u2500" * 20)
            self.refresh_all()
        elif kind == wire.DISPLAY:
            self.display_lines = data.get("lines", [])
            self.refresh_all()
        elif kind == "names":
            self.log_line("Players: %s" % seat_words.listing(data))
            self.refresh_all()
        elif kind == "kept" and data.get("stored"):  # a finished game the board kept, now in the logbook
            self.log_line("Stored the board's finished game %s (%s, %d entries); %d more on the board" % (
                data["id"], data["game"], data["len"], data["left"]))
        elif kind == wire.ERROR:
            self.log_line(error_line(self.link, data))
        elif kind in ("link", "welcome", "retry"):
            self.refresh_all()

    # --- drawing -----------------------------------------------------------------

    def turn_phase(self):
        """Every cycle_ms of the layout (if it has one), the next phase, as the board does."""
        cycle = (self.layout_data or {}).get("cycle_ms", 0)
        if cycle <= 0 or self.link.mirror is None:
            return
        self.ticks += 100
        if self.ticks >= cycle:
            self.ticks = 0
            self.phase += 1
            self.refresh_all()

    def watch_chip(self):
        """On the virtual Pico the chip animates its own strip: redraw when it shows something new."""
        seen = self.chip.seen()
        if seen != self.chip_seen:
            self.chip_seen = seen
            self.refresh_all()

    def log_line(self, text):
        if self.is_running:
            self.query_one("#events", RichLog).write(text)

    def refresh_all(self):
        if not self.is_running:  # the link may still report (closing) after the app has gone
            return
        link = self.link
        w = link.mirror.welcome if link.mirror else {}
        self.query_one("#status", Static).update(
            "Board %s  firmware %s  link %s  entries %d%s   %s" % (
                w.get("id", "?"), w.get("fw", "?"), link.state,
                len(link.mirror.match["entries"]) if link.mirror else 0,
                "  #%d DOES NOT REPLAY HERE" % (link.diverged.index + 1) if link.mirror and link.diverged else "",
                "[keys: typing a command; Enter sends, Esc back to the board]" if self.typing() else
                "[keys: the board's buttons; ':' to type, ':help']"))
        if link.mirror is None:
            return
        if self.layout_game != link.mirror.match["game"]:  # the first game seen, or a new one
            self.layout_game = link.mirror.match["game"]
            self.layout_data = load_layout(self.layout_game) or {}
            self.frame = bytearray(render.frame_size(self.layout_data)) if self.layout_data else None
        strip, state, board = panels(link.mirror.match, self.layout_data, self.frame, self.display_lines, self.phase,
                                     self.chip, link.mirror.names)
        self.query_one("#strip", Static).update(strip)
        self.query_one("#state", Static).update(state)
        self.query_one("#board", Static).update(board)

    # --- input -------------------------------------------------------------------

    def on_descendant_focus(self, event):
        self.refresh_all()  # the mark of where keys go

    def on_descendant_blur(self, event):
        self.refresh_all()

    def typing(self):
        """True while keys go to the command line, not to the board's buttons."""
        return self.focused is not None and isinstance(self.focused, Input)

    def on_key(self, event):
        if self.typing():
            if event.key == "escape":
                self.set_focus(None)
            return
        if event.key == "colon":
            self.query_one("#command", Input).focus()
            event.stop()
            return
        press = key_press(event.key if len(event.key) != 1 else event.character or event.key)
        if press is None or self.link.ser is None:
            return
        event.stop()
        if self.chip is not None:
            self.chip.press(*press)  # on the chip's pins, as a finger would
        else:
            self.ask(self.link.press, *press)

    def on_input_submitted(self, message):
        casting, self.casting = getattr(self, "casting", None), None
        if casting is not None:  # the choice of `:cast SEAT`, typed unshown: into the board's private box
            message.input.password = False
            message.input.placeholder = PLACEHOLDER
            self.cast_choice(casting, message.value)
            message.input.value = ""
            self.set_focus(None)
            return
        text = message.value.strip().lstrip(":")
        message.input.value = ""
        self.set_focus(None)  # a command sent: the keys are the board's buttons again
        if text in ("help", "?"):
            for line in HELP.splitlines():
                self.log_line(line)
            if self.link.mirror is not None:  # and what each key does on the screen the board shows now
                match = self.link.mirror.match
                shown = self.display_lines or (self.chip.display_text().splitlines() if self.chip is not None else [])
                for line in keyhelp.text(shown, match["game"], match["state"]):
                    self.log_line(line)
            return
        if not text or self.link.mirror is None:
            return
        if text.split()[0] == "deploy":
            self.deploy(text.split()[1:])
            return
        if text.split()[0] == "undo":  # :undo: the board takes back its last entry (the one shown here)
            count = len(self.link.mirror.match["entries"])
            if len(text.split()) > 1 or not count:
                self.log_line("undo takes back the last entry, one at a time (no number)" if count else
                              "undo: the game has no entry yet")
                return
            self.ask(self.link.act, {"type": "undo", "entry": count - 1})
            return
        if text.split()[0] == "new":  # :new GAME [SETTING=VALUE ...] [NAME ...]: the board starts a new game
            try:
                act, names = new_game.with_names(text.split()[1:])
            except commands.ParseError as e:
                self.log_line(str(e))
                return
            if names is not None:
                act["names"] = names  # in the one act: a board restarts after a game switch
            if self.ask(self.link.act, act) and names is not None:
                self.ask(self.link.offer_names)  # names new to the logbook, on the board's menu too
            return
        if text.split()[0] in ballot_box.CAST_WORDS:  # :cast SEAT, then its choice unshown
            self.cast_seat(text.split()[1:], message.input)
            return
        if text.split()[0] == "names":  # :names [NAME, ...]: who sits where, or name the seats
            self.name_seats(text[len("names"):].strip())
            return
        match = self.link.mirror.match
        g = engine.game_module(match["game"])
        try:
            act = commands.parse(text, g.SCHEMAS, match["settings"]["players"], g.card_names(match["state"]))
        except commands.ParseError as e:
            self.log_line(str(e))
            return
        self.ask(self.link.act, act)

    def cast_seat(self, words, field):
        """:cast SEAT: the input turns to a password field for that seat's choice (cast_choice)."""
        b = self.link.mirror.match["state"].get("ballot")
        if b is None or b["result"] is not None or not b["open"]:
            self.log_line("cast: no sealed ballot takes votes now")
            return
        if len(words) != 1 or not words[0].isdigit() or int(words[0]) not in b["voters"]:
            self.log_line("cast takes the voting seat's number: one of %s" % ", ".join([str(x) for x in b["voters"]]))
            return
        seat = int(words[0])
        if seat in b["voted"]:
            self.log_line("cast: seat %d has voted already" % seat)
            return
        self.casting = seat
        field.password = True
        field.placeholder = "seat %d's choice, not shown (%s)" % (seat, " / ".join(b["options"]))
        field.focus()

    def cast_choice(self, seat, text):
        b = self.link.mirror.match["state"].get("ballot")
        if b is None or b["result"] is not None or not b["open"]:
            self.log_line("cast: the ballot takes no votes now")
            return
        try:
            choice, count = ballot_box.read_choice(b, text)
        except ballot_box.BoxError as e:
            self.log_line("cast: %s; nothing sent" % e)
            return
        act = {"type": "ballot_cast", "seat": seat, "choice": choice}
        if count is not None:
            act["count"] = count
        self.ask(self.link.act, act)  # the board keeps the choice in its box; the log has the cast only

    def name_seats(self, text):
        """:names alone says who sits where; with names, the board names its seats (checked here
        first: a mistake is said, and nothing is sent)."""
        mirror = self.link.mirror
        seats = mirror.match["settings"]["players"]
        if not text:
            self.log_line("Players: %s" % seat_words.listing(mirror.names or [None] * seats))
            return
        try:
            names = seat_words.parse(text, seats)
        except commands.ParseError as e:
            self.log_line(str(e))
            return
        if self.ask(self.link.act, {"type": "names", "names": names}):
            self.ask(self.link.offer_names)  # names new to the logbook, on the board's menu too

    def deploy(self, words):
        """:deploy [BOARD]: put the checkout's firmware on this board. The mirror lets go of
        the port (mpremote opens it exclusively), and is back on it after the reset."""
        from chancery.deploy import flash as deploy

        if not self.connect_first:
            self.log_line("deploy: the simulated board runs the checkout's code already")
            return
        try:
            deploy.deploy(self.link.port_name, words[0] if words else "rpi-pico", link=self.link, say=self.log_line)
        except deploy.DeployError as e:
            self.log_line("deploy: %s" % e)

    def ask(self, request, *args):
        """Send a press or an act; True if the board did it. A refusal arrives as an error
        frame, which on_link_event reports like any other; only a lost link is said here."""
        try:
            answer = request(*args)
        except (OSError, LinkError) as e:
            self.log_line("Not delivered: %s. %s" % (str(e).rstrip("."), UNDELIVERED_ADVICE))
            return False
        return answer is None or answer[0] == wire.OK


# what the table can do when the link fails (a board fault of the link's kind, not the rules' answer)
LINK_ADVICE = "The board keeps its game on flash and its pads go on playing; the mirror catches up once it is back"
UNDELIVERED_ADVICE = ("The board may or may not have it: once the link is back, look for it among the events "
                      "before entering it again")


def differs(welcome, wanted):
    """True when the board's game is not the one asked for (another game, or a setting
    given that has another value). Both as the rules read them: a ruling setting at the
    reading a header states by leaving it out is not in the board's (engine.settings_for)."""
    if welcome["game"] != wanted["game"]:
        return True
    g = engine.game_module(wanted["game"])
    have = engine.settings_for(g, welcome["settings"], recorded=True)
    want = engine.settings_for(g, wanted["settings"])
    return [k for k in wanted["settings"] if have.get(k) != want.get(k)] != []


def attach(link, wanted, chip=None, again=False, names=None):
    """Start the game `wanted` on the linked board unless it plays that game already (or
    `again`: start it afresh anyway), name its seats (`names`, as typed after --names), then
    the mirror until Ctrl-Q; the link is closed after. A game it ends stays in the logbook and
    on the board's flash. Returns the exit code: 2, with nothing sent, for names the game refuses."""
    starts = wanted is not None and (again or differs(link.mirror.welcome, wanted))
    if names is not None:
        try:
            names = seat_words.checked(names, new_game.seats_of(wanted) if starts else
                                       link.mirror.match["settings"]["players"])
        except commands.ParseError as e:
            link.close()
            print("error: %s" % e, file=sys.stderr)
            return 2
    if starts:
        link.act(dict(wanted, names=names) if names is not None else wanted, wait=30.0)
    elif names is not None:
        link.act({"type": "names", "names": names})
    if names is not None:
        link.offer_names()  # the new names on the board's menu too
    MirrorApp(link, connect=False, chip=chip).run()
    link.close()
    return 0


def error_line(link, body):
    """An error frame as the events pane says it: a board fault (with what the table can do), a
    frame the board could not take, or a rules refusal, each in its own words."""
    kind = error_kind(body.get("code"))
    text = _error_text(link, body)
    if kind == "fault":
        if text.lower().startswith("board fault: "):  # the board's own words say it already
            text = text[len("board fault: "):]
        if "lost" in text:  # and what the table can do
            return "Board fault: %s" % text
        return "Board fault: %s. %s" % (text.rstrip("."), FAULT_ADVICE)
    if kind == "input":
        return "Not understood by the board: %s" % text
    return "Refused by the rules: %s" % text


def _error_text(link, body):
    """The sentence for an error frame (chancery.words.names.error_text)."""
    return seat_words.error_text(link, body)
