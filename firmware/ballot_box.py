"""The board's private ballot box: a sealed ballot's choices, kept off the log until the reveal.

The rules core never sees a choice before the reveal (shared_rules/ballot.py):
the table controller takes it from the cast (take_choice), puts it here, and
sends the core a cast without it; the reveal (reveal) is here too, and the voters' keys are
firmware/ballot_keys.py's. Here it is on flash before the cast is
acknowledged (a power cut loses no vote), in a side file of the journal's own (ballot.json;
on a Pico its lines are programmed into raw flash reservations ballotN.bin: Journal.add) that
no frame, log or export includes. When the ballot is due, the
controller asks for the reveal action and clears the box.

The box itself is plain data on the table (table.ballot_box), as its file holds it:
{"n": the ballot its choices are for, "choices": {str(seat): [choice, count or None]}}.
What the voters' pads have counted or marked before their casts is the controls' (Controls.marks).

File: ballot.json, lines in the journal's format (tag "b", then
`{"n": BALLOT, "choices": {"SEAT": CHOICE, ...}}`, then its CRC-32), a line added for each
cast with that seat's choice (Journal.add: on a Pico a page or two programmed, where a littlefs
append erased and copied a block, 45 ms on its flash part); read back in order, a line of a
newer ballot emptying the box first. A cut during a line leaves it torn, passed over when
read: that cast was never acknowledged. The reveal removes the file (its reservation goes in
the quiet moments after). A cast decided ahead (Table.decide, firmware/ahead.py) keeps its
choice with its Step until the press enters it. (A box that a firmware before this wrote,
a littlefs file, or one line with every choice, reads the same.)
"""

from shared_rules import ballot
from shared_rules.errors import RuleError

BOX = "ballot.json"


def of(table):
    """The table's box, read from flash on first use: {"n", "choices"}, its lines in order (a
    line of a newer ballot empties the box first; a line torn or foreign was never acknowledged)."""
    if table.ballot_box is None:
        box = {"n": 0, "choices": {}}
        for got in table.journal.each(BOX, {"n": int, "choices": dict}):
            if got["n"] != box["n"]:
                box = {"n": got["n"], "choices": {}}
            box["choices"].update(got["choices"])
        table.ballot_box = box
    return table.ballot_box


def put(table, n, seat, choice):
    """Keep `seat`'s choice in ballot n (a newer ballot empties the box first), on flash: one line
    added to the file (a littlefs commit; its whole rewrite, renamed over, took most of a cast)."""
    box = of(table)
    if n != box["n"]:
        box["n"], box["choices"] = n, {}
    box["choices"][str(seat)] = choice
    table.journal.add(BOX, "b", {"n": n, "choices": {str(seat): choice}})


def clear(table):
    table.ballot_box = {"n": 0, "choices": {}}
    table.journal.clear(BOX)


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


def reveal(table, b=None, cast=None):
    """The ballot is due (every voter has voted, or the table closed it: Table.reveal_if_due):
    the board reveals the choices from its box, all at once, as the next entry: each voter's
    choice, None for those who did not vote (a seat's choice that the log does not show as
    cast, left by a power cut between box and journal, does not count). With `b`, a ballot on a
    copy of the state (Table.decide's, for a close or the last cast decided ahead): only the
    reveal's action; `cast`, that cast's (ballot, seat, [choice, count]), not in the box yet."""
    box, ours = of(table), b is None
    if ours:
        b = table.state["ballot"]
    kept = box["choices"] if box["n"] == b["n"] else {}
    if cast is not None:
        kept = dict(kept)
        kept[str(cast[1])] = cast[2]
    cast = [kept.get(str(s)) if s in b["voted"] else None for s in b["voters"]]
    act = {"type": "ballot_reveal", "choices": [c[0] if c else None for c in cast]}
    if b.get("counted"):
        act["amounts"] = [c[1] if c else None for c in cast]
    if not ours:
        return act
    box = kept = cast = b = None
    table.act(act)
    clear(table)
