"""What each key does on each kind of screen: the one map the display's footers are drawn from.

A screen's footer (its last lines) names what the keys do there, in the words of that screen;
the host's mirror shows the same map for the screen in view (`:help`: chancery/mirror/keyhelp.py
finds the kind from the screen's lines, by drawing the footers here and matching them).

An entry is (who, key, words): who presses it ("s" a seat's pad, "t" the table's controls,
"a" either); the key as the menus name it (firmware/pads.py: up down select back long_select
long_down), "*" any key, "ud" up or down; words: what it does there, short (a footer line is
16 characters: the label, ": " or ":", the words, cut at 16).

A seat's pad is three buttons, up select down: holding up is its back, holding down jumps a
group (a rank of cards, ten numbers, a page). The table's are the knob (turned: up and down;
pushed: select), and back.

The maps are kept as one string, read the first time a kind's footer is drawn (foot() keeps the
lines drawn, not the parsed maps): a line per kind, "KIND|WHO KEY WORDS|...", each
kind's entries in the order its footer shows them (the first that fit the display):
  over   the status of a game over: the line "game over", then idle's
  idle   the status, no menu open: a pad's first key opens its menu
  roll   the status while dice are due: the board rolls
  page   the status of a game with its own page (g.lines)
  type   a menu's first screen, the action
  pick   a value to pick
  list   a list with its least picked (before that: pick)
  card   a card to pick (the line above the footer is its rank and suits)
  send   a confirm screen
  fix    the refusal of a menu's action (the menu stays on its confirm screen)
  box    the table's screen of an open ballot
  undo?  the table's back during a ballot: take back the last entry?
"""

_MAPS = """over
idle|a * its menu
roll|t long_select roll
page|t back game page
type|a select pick|a ud move
pick|a select pick|a back back|s long_down jump|a ud move
list|a long_select done|a back back|a select pick|s long_down jump|a ud move
card|s long_down jump|a select pick|a back back|a ud move
send|a select send|a back change|a ud scroll
fix|a back change|a select send again
box|t long_select close|t back undo
undo?|t select yes|t * no"""
_ORDER = tuple(["up", "select", "down", "back", "long_select", "long_down"])  # a ballot's options, key by key
# the buttons' names: a seat's pad's, the table's (the knob cannot be held turned: no long_down)
_S = "up=up|down=dn|ud=up/dn|select=sel|long_select=hold sel|back=hold up|long_down=hold dn|*=a pad"
_T = "up=left|down=right|ud=turn|select=push|long_select=hold push|back=back|*=other"


def entries(kind, b=None):
    """The map of a kind of screen, a list of (who, key, words); "ballot": that of ballot b (its
    options on the keys); "pad": a game's own pad's, b (the game's pad(state, seat, "keys", None)[1])."""
    if kind == "ballot":
        return ballot(b)
    if kind == "pad":
        return b or ()
    for x in _MAPS.split("\n"):
        x = x.split("|")
        if x[0] == kind:
            return [tuple(e.split(" ", 2)) for e in x[1:]]
    return ()


def ballot(b):
    """A voter's keys while ballot b is open (firmware/ballot_box.py's key), and the table's close:
    each option on a key (up, select, down, then held); with counted options a tap counts one more
    and the hold casts (a hold whose option takes no count casts the fourth); with "multi" the
    first five keys mark an option, holding down casts the marked."""
    o = b["options"]
    n = len(o)
    out = []
    c = b.get("counted")
    if b.get("multi"):
        for i in range(min(n, 5)):
            out.append(("s", _ORDER[i], "mark " + o[i]))
        out.append(("s", "long_down", "cast"))
    elif c:
        for i in range(min(n, 3)):
            if o[i] in c:
                out.append(("s", _ORDER[i], "+1 " + o[i]))
        for i in range(min(n, 3)):
            if o[i] in c:
                out.append(("s", _ORDER[i + 3], o[i]))
            else:
                out.append(("s", _ORDER[i], o[i]))
                if n > 3:
                    out.append(("s", _ORDER[i + 3], o[3]))
    else:
        for i in range(min(n, 6)):
            out.append(("s", _ORDER[i], o[i]))
    out.append(("t", "long_select", "close"))
    return out


def label(who, key):
    """The button's name on the display for `who` ("s" or "t"), or None: no such key there."""
    for x in (_S if who == "s" else _T).split("|"):
        if x.split("=")[0] == key:
            return x.split("=")[1]
    return None


_DRAWN = {}  # (kind, who, room): a fixed kind's footer lines, drawn once (foot)


def foot(kind, who, room, b=None):
    """The footer's lines (at most `room`), a new list, for a kind of screen shown to `who` ("s" a
    seat's pad, "t" the table's; None: the shared status, both). A fixed kind's (not a ballot's
    or a game's pad's, drawn from `b`) are drawn once: every screen of a menu has a footer, and
    reading the maps again for each was most of a key's time on the chip."""
    if kind == "ballot" or kind == "pad":
        return _draw(kind, who, room, b)
    k = (kind, who, room)
    lines = _DRAWN.get(k)
    if lines is None:
        lines = _DRAWN[k] = tuple(_draw(kind, who, room, None))
    return list(lines)


def _draw(kind, who, room, b):
    out = []
    for e in entries(kind, b):
        if len(out) >= room:
            break
        x = line(who, e)
        if x is not None:
            out.append(x)
    return out


def line(who, e):
    """Entry e's footer line on a screen shown to `who` (as foot()), or None: not that pad's key."""
    w = e[0] if who is None and e[0] != "a" else who or "s"
    if e[0] != "a" and e[0] != w:
        return None
    lab = label(w, e[1])
    if lab is None:
        return None
    x = lab + ": " + e[2]
    return (x if len(x) <= 16 else lab + ":" + e[2])[:16]


def status(g, state):
    """The kinds of the status screen (no menu open) for game module g now, in the order shown:
    "over" (the game's end), "ballot" (a sealed ballot's voters and the table's close) and "pad"
    (a seat's pad that is the game's own now: g.pad's "keys") bring a line of their own before
    their keys (firmware/table.py's status)."""
    b = state.get("ballot")
    if b is not None and b["result"] is None:
        return ("ballot",)
    if g.is_over(state):
        return ("over", "idle")
    out = ["idle"]
    if g.pad is not None and g.pad(state, None, "keys", None) is not None:
        out = ["pad", "idle"]  # a seat's pad is the game's now (its line names the seat), the others' menus
    if g.dice_wanted(state):
        out.append("roll")
    if g.lines is not None:
        out.append("page")
    return out
