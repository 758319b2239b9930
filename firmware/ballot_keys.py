"""A sealed ballot's keys: the voters' pads and the table's controls while a ballot is open
(firmware/controls.py hands them here). The box they cast into is firmware/ballot_box.py's.
"""

from firmware import keymap
from shared_rules.errors import RuleError

# a voter's keys in option order: up, select, down, then each held (up held is "back":
# firmware/pads.py's keys)
_KEYS = ("up", "select", "down", "back", "long_select", "long_down")


def key(c, seat, name, b):
    """A voter's pad while a ballot is open: each key is an option (up, select, down,
    then held up, select, down for a fourth to sixth), cast at once. The screen never
    shows which: it reads the same whatever the seat chose. With counted options a
    short press counts one more, up to max, and holding the key casts the option with its count
    (a held key whose option takes no count casts the fourth option). With "multi",
    the first five keys mark or unmark an option, and holding down casts what is
    marked (nothing marked: an empty choice). The table's controls (seat None) show
    how many have voted; holding push closes the ballot, and the board then reveals
    it; back, then push, takes back the last entry (a cast entered by mistake: that seat
    votes again). (screen, entry or None)"""
    table = c.table
    if seat is None:
        if name == "back" or c.undo_asked:  # a cast entered by mistake: back, then push, takes it back
            return _undo_key(c, name)
        if name != "long_select":
            return ["ballot", "%d of %d voted" % (len(b["voted"]), len(b["voters"]))] + keymap.foot("box", "t", 6), None
        return ["ballot", "closed"], table.act({"type": "ballot_close"})
    title = "S%d ballot" % seat
    if seat in b["voted"]:
        return [title, "voted"], None  # already: the same words as after its cast
    i = _KEYS.index(name) if name in _KEYS else len(_KEYS)
    held = c.marks
    counted = b.get("counted")
    choice = count = None
    if b.get("multi") and i < 6:
        marked = [k for k in range(5) if held.get((b["n"], seat, k))]
        if i < 5:
            if i < len(b["options"]):
                held[(b["n"], seat, i)] = i not in marked
                c.voter = (b["n"], seat, i)
            return [title, "marked"] + keymap.foot("ballot", "s", 6, b), None
        choice = [b["options"][k] for k in marked if k < len(b["options"])]
    elif counted and i < 6:
        short = i < 3
        i = i % 3
        if b["options"][i] in counted:
            at = (b["n"], seat, i)
            # past max a press keeps max: a refusal would tell the table what the seat counted
            count = min(held.get(at, 0) + 1, b["max"]) if short else held.get(at, 1)
            if short:
                held[at] = count
                c.voter = at
                return [title, "counted"] + keymap.foot("ballot", "s", 6, b), None
        elif not short:
            i = 3
    if choice is None:
        if i >= len(b["options"]):
            return ["Not allowed:", "no option on", "that key"], None
        choice = b["options"][i]
    move = {"type": "ballot_cast", "choice": choice}
    if count is not None:
        move["count"] = count
    index, refused = c.pad_act(move, seat)
    return refused or [title, "voted"], index


def awaited(c, b):
    """The cast a voter's pad is likely to make next (firmware/ahead.py computes it while that
    key is awaited): the one its press under way makes (c.pressing), else the hold that casts
    what the voter who counted or marked last has counted or marked. (seat, the key, the cast),
    or None (no voter has begun, or the one who did has voted)."""
    p = c.pressing  # a voter's press under way: the cast its tap or hold makes
    if p is not None and p[0] in b["voters"] and p[0] not in b["voted"]:
        got = _pressing(c, p[0], ("up", "select", "down").index(p[1]), b)
        if got is not None:
            return got
    got = c.voter  # (ballot, seat, option): a counted option's tap, or a mark
    if got is None or got[0] != b["n"] or got[1] in b["voted"]:
        return None
    return _pressing(c, got[1], 2 if b.get("multi") else got[2], b)  # its hold: down's, with "multi"


def _pressing(c, seat, k, b):
    """(seat, key, cast) that button k (up, select, down) makes on a voter's pad, pressed now:
    a counted option's hold (its tap counts), else the option's tap; with "multi" down's hold
    (the other keys mark). None where it casts nothing."""
    if b.get("multi"):
        return _marked(c, seat, b) if k == 2 else None
    o = b["options"]
    if k >= len(o):
        return None
    if o[k] in (b.get("counted") or ()):
        return seat, _KEYS[k + 3], {"type": "ballot_cast", "choice": o[k], "count": c.marks.get((b["n"], seat, k), 1)}
    return seat, _KEYS[k], {"type": "ballot_cast", "choice": o[k]}


def held(c, seat, button, b):
    """(seat, key, cast) of `button` (up, select, down) held on a voter's pad where its tap casts
    too (an option with no count: its hold casts the fourth option, key()); None elsewhere."""
    k = ("up", "select", "down").index(button)
    o = b["options"]
    if b.get("multi") or len(o) < 4 or o[k] in (b.get("counted") or ()):
        return None
    return seat, _KEYS[k + 3], {"type": "ballot_cast", "choice": o[3]}


def _marked(c, seat, b):
    """(seat, down held, the cast of what the seat marked) in a "multi" ballot."""
    choice = [b["options"][k] for k in range(5) if c.marks.get((b["n"], seat, k)) and k < len(b["options"])]
    return seat, "long_down", {"type": "ballot_cast", "choice": choice}


def _undo_key(c, name):
    """The table's keys while a ballot is open, for an undo: back asks, and a push then
    takes back the last entry (a cast entered by mistake: that seat votes again); any
    other key lets the question go. (screen, None)"""
    table = c.table
    c.undo_asked = name == "back"
    if c.undo_asked:
        return ["ballot", "take back #%d?" % table.count] + keymap.foot("undo?", "t", 6), None
    if name != "select":
        return ["ballot", "not taken back"], None
    try:
        i = table.undo()
    except RuleError as e:
        return c.why(e, None), None
    return ["undone", "entry %d" % (i + 1)], None
