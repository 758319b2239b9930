"""The LED frame: the public view and a layout in, one pixel per LED out.

One pure function, used by the firmware (which writes the frame to the strip)
and by the host mirror (which draws the same frame), so what the table sees
and what the laptop shows cannot drift apart. The layout is data
(hardware/layouts/*.json): which LEDs of the board's arrangement form which track
(hardware/arrangement.json: the track's strip indices, `idx`, first LED first), which
view field each track shows and the colours. See that file's `doc`.

The frame is a preallocated bytearray of logical R, G, B triples, one per LED
(the strip's byte order, e.g. GRB, is the backend's job). Rendering writes it
in place with index arithmetic: no tuple, list or int object beyond small ints
is made per pixel, because a board renders on every change and a fragmented
heap is what ends a long game.

Every channel is scaled by `level` (0-255), the global brightness cap; the
current limiter (shared_rules/power.py) runs after it. A track whose view
field is missing, whose colour the layout lacks, or whose `shows` is unknown
stays dark: a layout may describe more (or less) than a game shows.

Besides the Chancellors kinds (`shows` names the view field: scores,
problems, control, step, queue, excuse), generic kinds take their field from
the track's `field` key: position, bar, seat_marker, seats_at, members and sequence (see
shared_rules/render_tracks.py, loaded only when a layout uses them).
"""

# Builtins as this module's globals: MicroPython looks a name up in the module first, and on a
# Pico a builtin found there costs 1 us against 9 us through the builtins' table (canon.py)
from builtins import len, memoryview, range

from shared_rules.compat import const
from shared_rules.render_leds import _run, _seat_colour, _seat_led

_FULL = const(255)
_SERVICES = tuple(["diplomatic", "army", "navy"])


def frame_size(layout):
    """Bytes a frame for this layout needs: three per LED."""
    return layout["leds"] * 3


def brightest(layout, level=None):
    """The largest byte render() writes for this layout at `level` (default: the layout's own):
    its brightest colour channel, scaled as every LED's is (a partly filled LED is dimmer). The
    current limiter's bound (power.limit's top)."""
    if level is None:
        level = layout.get("level", _FULL)
    level = 0 if level < 0 else (_FULL if level > _FULL else level)
    top = 0
    colours = layout.get("colours") or {}
    for c in list(layout.get("seat_colours") or ()) + [colours[k] for k in colours]:
        for v in c or ():
            if v > top:
                top = v
    return top * level // _FULL


def _score(view, t, frame, leds, base, step, length, seats, level):
    """`unit` points per LED; the LED being filled is lit in proportion."""
    scores = view.get("scores")
    seat = t.get("seat", 0)
    if not scores or seat >= len(scores):
        return
    colour = _seat_colour(seats, seat)
    unit = t.get("unit", 10)
    s = scores[seat]
    if s <= 0 or unit <= 0:
        return
    full = s // unit
    if full >= length:
        _run(frame, leds, base, step, 0, length, colour, level, _FULL)
        return
    _run(frame, leds, base, step, 0, full, colour, level, _FULL)
    rem = s - full * unit
    if rem:
        _run(frame, leds, base, step, full, 1, colour, level * rem, _FULL * unit)


def _die(view, t, frame, leds, base, step, length, colours, level):
    """One die as pips: its value's count lit. Waiting to be rolled (or never
    rolled): every LED dim. Set aside by a partial solve: dark. A problem
    solved this turn: pips in `solved` (wholly) or `part` colour."""
    problems = view.get("problems")
    p = t.get("problem", 0)
    d = t.get("die", 0)
    if not problems or p >= len(problems):
        return
    for pd in view.get("pending") or ():
        if pd[0] == p and pd[1] == d:
            _run(frame, leds, base, step, 0, length, colours.get("waiting"), level, _FULL)
            return
    value = problems[p][d]
    if value <= 0:
        _run(frame, leds, base, step, 0, length, colours.get("waiting"), level, _FULL)
        return
    solved = view.get("solved")
    how = solved[p] if solved and p < len(solved) else ""
    if how == "part":
        aside = view.get("aside")
        if aside and p < len(aside) and aside[p] == d:
            return
        colour = colours.get("part")
    elif how == "full":
        colour = colours.get("solved")
    else:
        colour = colours.get("pip")
    _run(frame, leds, base, step, 0, value if value < length else length, colour, level, _FULL)


_GENERIC = tuple(["position", "bar", "seat_marker", "seats_at", "members", "sequence"])
# the view's keys each Chancellors kind reads (its own, for its presence, first)
_READS = {"scores": tuple(["scores"]), "problems": tuple(["problems", "pending", "solved", "aside"]),
          "control": tuple(["control"]), "step": tuple(["step"]), "queue": tuple(["queue", "step", "winners"]),
          "excuse": tuple(["excuse"])}
_NAMED = tuple(["field", "side", "extra", "flag", "where", "with"])  # a generic track's keys naming view fields


def reads(shows, t):
    """The view's keys a track of kind `shows` (t: its dict) reads: where each holds the same value,
    the track lights the same LEDs (a board redraws only the tracks whose keys changed:
    firmware/board/leds.py's Redraw); a seats_at track reads the phase as well."""
    if shows not in _GENERIC:
        return _READS.get(shows, (shows,))
    out = [t[k] for k in _NAMED if t.get(k) is not None]
    if "mark_setting" in t:
        out.append("settings")
    return tuple(out)


def plan(layout):
    """Each track as (shows, generic kind?, base, step, length, track): what render()
    works out of the layout for every frame, once (a board keeps it with the layout).
    base/step: the strip index of the track's first LED and +1 or -1 when its LEDs are
    one run on the strip (a track along a row of a serpentine arrangement is, whichever
    way the row's data runs); else step 0 and base the track's strip indices, first LED
    first, as bytes (a tuple past LED 255). A track placed on the arrangement carries its
    indices in `idx` (chancery.hardware.arrangement works them out when the layout is
    loaded or deployed); a bare-strip track has start, length and dir (1: its first LED
    at start, -1 at the other end)."""
    out = []
    for t in layout["tracks"]:
        shows = t.get("shows")
        idx = t.get("idx")
        if idx is None:
            length = t.get("length", 0)
            if t.get("dir", 1) < 0:
                base, step = t.get("start", 0) + length - 1, -1
            else:
                base, step = t.get("start", 0), 1
        else:
            length = len(idx)
            base = step = 0  # no LEDs: nothing to light
            if length:
                base = idx[0]
                step = idx[1] - base if length > 1 else 1
                for k in range(length):
                    if step * step != 1 or idx[k] != base + k * step:
                        step = 0
                        break
            if step == 0:
                base = bytes(idx) if length and min(idx) >= 0 and max(idx) < 256 else tuple(idx)
        out.append((shows, shows in _GENERIC, base, step, length, t))
    return out


def blank(frame, leds, item):
    """A planned track's LEDs dark (item: one of plan()'s), the rest of the frame as it was."""
    _run(frame, leds, item[2], item[3], 0, item[4], _DARK, 1, 1)


_DARK = tuple([0, 0, 0])


def render(view, layout, frame, level=255, phase=0, dark=None, tracks=None):
    """Fill `frame` (a bytearray of at least frame_size(layout) bytes) in
    place from the public view; returns frame. Bytes past the layout's LEDs
    are never touched. `phase` picks whose turn it is where several seats
    share an LED (seats_at tracks: a board advances it every cycle_ms).
    A board's fast path: `dark`, zero bytes as many as the frame's, to clear it
    with one copy in C (None: byte by byte; False: the caller has cleared it, as
    a board does in C with framebuf's fill); `tracks`, plan(layout) kept."""
    leds = layout["leds"]
    if len(frame) < leds * 3:
        raise ValueError("frame holds %d bytes, the layout needs %d" % (len(frame), leds * 3))
    if dark is not False:  # False: the caller has cleared it
        if dark is not None and len(dark) >= leds * 3:
            frame[0:leds * 3] = memoryview(dark)[0:leds * 3]
        else:
            for i in range(leds * 3):
                frame[i] = 0
    level = 0 if level < 0 else (_FULL if level > _FULL else level)
    if level == 0:
        return frame
    seats = layout.get("seat_colours") or ()
    colours = layout.get("colours") or {}
    more = None  # shared_rules.render_tracks, loaded on the first track of its kinds
    for item in layout["tracks"] if tracks is None else tracks:
        if tracks is None:  # as plan() works it out (nothing allocated: a board renders often)
            t = item
            shows = t.get("shows")
            generic = shows in _GENERIC
            base = t.get("idx")
            if base is not None:  # LED by LED through its indices (plan() finds the runs, once)
                step = 0
                length = len(base)
            else:
                length = t.get("length", 0)
                if t.get("dir", 1) < 0:
                    base, step = t.get("start", 0) + length - 1, -1
                else:
                    base, step = t.get("start", 0), 1
        else:
            shows, generic, base, step, length, t = item
        if not generic and shows not in view:
            continue
        if generic:
            if more is None:
                from shared_rules import render_tracks as more
            more.draw(shows, view, t, frame, leds, base, step, length, seats, colours, level, phase)
        elif shows == "scores":
            _score(view, t, frame, leds, base, step, length, seats, level)
        elif shows == "problems":
            _die(view, t, frame, leds, base, step, length, colours, level)
        elif shows == "control":
            control = view["control"]
            service = t.get("service")
            if control and service in _SERVICES:
                _run(frame, leds, base, step, 0, 1, _seat_colour(seats, control.get(service)), level, _FULL)
        elif shows == "step":
            values = t.get("values") or ()
            now = view["step"]
            for k in range(len(values) if len(values) < length else length):
                if values[k] == now:
                    _run(frame, leds, base, step, k, 1, colours.get("step"), level, _FULL)
        elif shows == "queue":
            queue = view["queue"]
            if queue:  # the seat whose chance it is
                seat = queue[0][0]
                _seat_led(frame, leds, base, step, length, seat, _seat_colour(seats, seat), level)
            elif view.get("step") == "over":  # the winners, each in their colour
                for seat in view.get("winners") or ():
                    _seat_led(frame, leds, base, step, length, seat, _seat_colour(seats, seat), level)
        elif shows == "excuse":
            _seat_led(frame, leds, base, step, length, view["excuse"], colours.get("excuse"), level)
    return frame
