"""Generic track kinds for render.py, driven by the layout's keys (any game may use them).

A track of one of these kinds names its view field in `field` (its `shows` is
the kind). Only the public view is read; a field that is missing, None or not
an int where an int is wanted leaves the track dark, and so does a colour
name the layout's `colours` lacks.

  position     One LED at view[field] (or view[field][index]), 0 = the track's
               first LED, in `colour`. Optional: `side` (a field, per index
               like `field`: > 0 up, < 0 down, 0 none) and `extra` (a field:
               0 or 1) draw a trail of 1 + extra LEDs behind the marker (away
               from the way it goes) in `up` or `down` colour, ahead of it when
               there is no room behind; `flag` (a field) truthy lights every
               other LED of the track in `flag_colour`.
  bar          view[field] (or its index-th item; an int, or a list of ints summed; with `where` and
               `equals`, only the items i with view[where][i] == equals) as
               `unit` per LED in `colour`, the LED being filled lit in
               proportion, like the score tracks. Optional `mark_setting` (a
               name in view["settings"], a 1-based space) with `mark_colour`
               (lit once the count reaches that space) and `mark_empty`.
  seat_marker  view[field] a seat (or a list of seats): LED `seat` lit in that
               seat's colour, or in `colour` when the track names one.
  seats_at     view[field] a list with one position per seat (with `index`,
               each seat's item is a list and its index-th item the
               position): each position where seats stand lit in a seat's
               colour. Several seats on one position take turns, one per
               `phase` (render's argument, which a board advances every
               layout["cycle_ms"]), so each is seen. Optional `with` (a field,
               per index like `field`) is one more at its position, in `colour`
               (The Council's empire).
  members      `values`: LED k lit in `colour` (or in `colours`[k], a colour
               name per value) when values[k] equals view[field] or is one of
               its items (a list): a set of suits, a step, a card's face.
  sequence     view[field] a list of names: LED k lit in the colour named by
               its k-th item (Yes, Your Grace's Annals: each Record's type).

Loaded by render() on the first track of these kinds: a game that uses none
(Chancellors) never pays for this module. A track's key that names a view field is listed in
render.py's _NAMED (render.reads): a board redraws a track only when those fields change.
"""

# Builtins as this module's globals: MicroPython looks a name up in the module first, and on a
# Pico a builtin found there costs 1 us against 9 us through the builtins' table (canon.py)
from builtins import dict, int, isinstance, len, list, range, str, type

from shared_rules.render_leds import _run, _seat_colour, _seat_led


def _int(v):
    return type(v) is int  # not a bool (whose type is bool): one call, where isinstance took two


def _item(view, t, key):
    """view[t[key]], or its t["index"]-th item when the track has an index."""
    v = view.get(t.get(key))
    i = t.get("index")
    if i is None:
        return v
    if isinstance(v, list) and _int(i) and 0 <= i < len(v):
        return v[i]
    return None


def _position(view, t, frame, leds, base, step, length, colours, level):
    pos = _item(view, t, "field")
    if not _int(pos) or pos < 0 or pos >= length:
        return
    if view.get(t.get("flag")):
        c = colours.get(t.get("flag_colour"))
        _run(frame, leds, base, step, 0, length, c, level, 255)
    side = _item(view, t, "side") if "side" in t else None
    if _int(side) and side != 0:
        n = 2 if _item(view, t, "extra") == 1 else 1
        back = -1 if side > 0 else 1
        first = pos + back if back > 0 else pos - n
        if first < 0 or first + n > length:  # no room behind: ahead
            first = pos + 1 if back < 0 else pos - n
        c = colours.get(t.get("up") if side > 0 else t.get("down"))
        while n > 0:
            if 0 <= first < length:
                _run(frame, leds, base, step, first, 1, c, level, 255)
            first += 1
            n -= 1
    _run(frame, leds, base, step, pos, 1, colours.get(t.get("colour")), level, 255)


def _bar(view, t, frame, leds, base, step, length, colours, level):
    v = _item(view, t, "field")
    if isinstance(v, list):
        where = view.get(t.get("where")) if "where" in t else None
        if where is not None and not isinstance(where, list):
            return
        eq = t.get("equals")
        total = 0
        for i in range(len(v)):
            if _int(v[i]) and (where is None or (i < len(where) and where[i] == eq)):
                total += v[i]
        v = total
    if not _int(v):
        return
    unit = t.get("unit", 1)
    if not _int(unit) or unit <= 0:
        return
    colour = colours.get(t.get("colour"))
    full = v // unit if v > 0 else 0
    if full >= length:
        _run(frame, leds, base, step, 0, length, colour, level, 255)
    else:
        _run(frame, leds, base, step, 0, full, colour, level, 255)
        rem = v - full * unit if v > 0 else 0
        if rem:
            _run(frame, leds, base, step, full, 1, colour, level * rem, 255 * unit)
    if "mark_setting" in t:
        m = view.get("settings")
        m = m.get(t["mark_setting"]) if isinstance(m, dict) else None
        if _int(m) and 1 <= m <= length:
            reached = v > (m - 1) * unit
            c = colours.get(t.get("mark_colour") if reached else t.get("mark_empty"))
            _run(frame, leds, base, step, m - 1, 1, c, level, 255)


def _at(x, i):
    """A seat's position: x itself, or its i-th item when the track has an index."""
    if i is None:
        return x
    if isinstance(x, list) and _int(i) and 0 <= i < len(x):
        return x[i]
    return None


def _seats_at(view, t, frame, leds, base, step, length, seats, colours, level, phase):
    v = view.get(t.get("field"))
    if not isinstance(v, list):
        return
    i = t.get("index")
    other = _item(view, t, "with") if "with" in t else None
    at = [_at(x, i) for x in v]  # each seat's position, once per track
    for pos in range(length):
        n = at.count(pos) + (1 if other == pos else 0)  # counted, then the phase-th taken
        if n == 0:
            continue
        k = phase % n
        colour = None
        for s in range(len(at)):
            if at[s] == pos:
                if k == 0:
                    colour = _seat_colour(seats, s)
                    break
                k -= 1
        if colour is None:  # the turn of `with`
            colour = colours.get(t.get("colour"))
        _run(frame, leds, base, step, pos, 1, colour, level, 255)


def _members(view, t, frame, leds, base, step, length, colours, level):
    v = view.get(t.get("field"))
    values = t.get("values") or ()
    each = t.get("colours")
    for k in range(len(values) if len(values) < length else length):
        if values[k] == v or (isinstance(v, list) and values[k] in v):
            name = each[k] if isinstance(each, list) and k < len(each) else t.get("colour")
            _run(frame, leds, base, step, k, 1, colours.get(name), level, 255)


def _sequence(view, t, frame, leds, base, step, length, colours, level):
    v = view.get(t.get("field"))
    if isinstance(v, list):
        for k in range(len(v) if len(v) < length else length):
            if isinstance(v[k], str):
                _run(frame, leds, base, step, k, 1, colours.get(v[k]), level, 255)


def draw(kind, view, t, frame, leds, base, step, length, seats, colours, level, phase=0):
    """Draw one track of `kind` (position, bar, seat_marker, seats_at, members or sequence); see the module doc."""
    if kind == "seats_at":
        _seats_at(view, t, frame, leds, base, step, length, seats, colours, level, phase)
    elif kind == "members":
        _members(view, t, frame, leds, base, step, length, colours, level)
    elif kind == "sequence":
        _sequence(view, t, frame, leds, base, step, length, colours, level)
    elif kind == "position":
        _position(view, t, frame, leds, base, step, length, colours, level)
    elif kind == "bar":
        _bar(view, t, frame, leds, base, step, length, colours, level)
    elif kind == "seat_marker":
        v = view.get(t.get("field"))
        c = colours.get(t["colour"]) if "colour" in t else None
        if isinstance(v, list):
            for s in v:
                if _int(s):
                    _seat_led(frame, leds, base, step, length, s, c or _seat_colour(seats, s), level)
        elif _int(v):
            _seat_led(frame, leds, base, step, length, v, c or _seat_colour(seats, v), level)
