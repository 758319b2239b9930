"""The board's private ballot box: a sealed ballot's choices, kept off the log until the reveal.

The rules core never sees a choice before the reveal (shared_rules/ballot.py):
the table controller takes it from the cast (take_choice), puts it here, and
sends the core a cast without it; the voters' pads (key) and the reveal (reveal) are
here too. Here it is on flash before the cast is
acknowledged (a power cut loses no vote), in a file of its own (ballot.json beside
the journal) that no frame, log or export includes. When the ballot is due, the
controller asks for the reveal action and clears the box.

The box itself is plain data on the table (table.ballot_box):
[n, choices, held, undo_asked]
  n        the ballot its choices are for
  choices  str(seat): [choice, count or None]
  held     what voters' pads have counted or marked so far, before their casts, in RAM
           only (a mark is not a vote until it is cast): (ballot n, seat, key): value.
           Kept there, not with the table's own counts: another seat's cast must not wipe it
  undo_asked  the table's back was pressed: a push now takes back the last entry (undo.py)

File: ballot.json, one line in the journal's format (tag "b", then
`{"n": BALLOT, "choices": {"SEAT": CHOICE, ...}}`, then its CRC-32), written
to ballot.json.tmp and renamed over it: a cut during the write leaves the old
box whole.
"""

from firmware import keymap
from firmware.undo import ballot_key
from shared_rules import ballot
from shared_rules.errors import RuleError

BOX = "ballot.json"


def of(table):
    """The table's box, read from flash on first use: [n, choices, held, undo_asked]."""
    if table.ballot_box is None:
        box = [0, {}, {}, False]
        got = table.journal.get(BOX, {"n": int, "choices": dict})
        if got is not None:  # else none, torn or foreign: nothing of it was acknowledged
            box[0], box[1] = got["n"], got["choices"]
        table.ballot_box = box
    return table.ballot_box


def put(table, n, seat, choice):
    """Keep `seat`'s choice in ballot n (a newer ballot empties the box first), on flash."""
    box = of(table)
    if n != box[0]:
        box[0], box[1] = n, {}
    box[1][str(seat)] = choice
    table.journal.put(BOX, "b", {"n": n, "choices": box[1]})  # whole, then renamed over


def clear(table):
    table.ballot_box = [0, {}, {}, False]
    table.journal.drop(BOX)


# --- the table controller's side (firmware/table.py calls these) -----------------------

def take_choice(table, move):
    """(the cast without its choice and count, [choice, count]); refuses a choice that
    is no option (with "multi": a list of distinct options), or a count where the option
    takes none (or none where it does)."""
    move = dict(move)
    choice = move.pop("choice")
    count = move.pop("count", None)
    b = table.state.get("ballot")
    options = b["options"] if b is not None and b["result"] is None else []
    counted = b.get("counted") or [] if options else []
    bad = None
    picks = ballot.picked(b, choice) if options else None
    if picks is None or (isinstance(choice, list) and [x for x in choice if choice.count(x) > 1]):
        bad = ("choice", choice, {"kind": "enum", "values": list(options), "multi": bool(options and b.get("multi"))})
    elif (count is not None) != (choice in counted) or (count is not None and not (
            isinstance(count, int) and 1 <= count <= b["max"])):
        bad = ("count", count, {"kind": "int", "min": 1, "max": b.get("max", 0)})
    if bad is not None:
        raise RuleError("bad_param", {"action": "ballot_cast", "name": bad[0], "why": "not_allowed",
                                      "value": bad[1], "domain": bad[2], "seats": table.state["settings"]["players"]})
    return move, [choice, count]


def reveal(table, b=None):
    """The ballot is due (every voter has voted, or the table closed it: Table.reveal_if_due):
    the board reveals the choices from its box, all at once, as the next entry: each voter's
    choice, None for those who did not vote (a seat's choice that the log does not show as
    cast, left by a power cut between box and journal, does not count). With `b`, a ballot on a
    copy of the state (firmware/ahead.py's, for a close it takes ahead): only the reveal's action.
    (One function for both: each function on the board is an object in its RAM.)"""
    box, ours = of(table), b is None
    if ours:
        b = table.state["ballot"]
    kept = box[1] if box[0] == b["n"] else {}
    cast = [kept.get(str(s)) if s in b["voted"] else None for s in b["voters"]]
    act = {"type": "ballot_reveal", "choices": [c[0] if c else None for c in cast]}
    if b.get("counted"):
        act["amounts"] = [c[1] if c else None for c in cast]
    if not ours:
        return act
    box = kept = cast = b = None
    table.act(act)
    clear(table)


def key(table, seat, name, b):
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
    if seat is None:
        box = of(table)
        if name == "back" or box[3]:  # a cast entered by mistake: back, then push, takes it back
            return ballot_key(table, box, name)
        if name != "long_select":
            return ["ballot", "%d of %d voted" % (len(b["voted"]), len(b["voters"]))] + keymap.foot("box", "t", 6), None
        return ["ballot", "closed"], table.act({"type": "ballot_close"})
    title = "S%d ballot" % seat
    if seat in b["voted"]:
        return [title, "voted"], None  # already: the same words as after its cast
    keys = "up select down back long_select long_down".split(" ")  # option order (firmware/pads.py's keys)
    i = keys.index(name) if name in keys else len(keys)
    held = of(table)[2]
    counted = b.get("counted")
    choice = count = None
    if b.get("multi") and i < 6:
        marked = [k for k in range(5) if held.get((b["n"], seat, k))]
        if i < 5:
            if i < len(b["options"]):
                held[(b["n"], seat, i)] = i not in marked
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
    index, refused = table.pad_act(move, seat)
    return refused or [title, "voted"], index
