"""Which die rolls for whom, on a board that reads smart dice itself (firmware/board/ble_dice.py).

A die rolls for the table (its rolls, such as Chancellors' problem dice) or for a seat; the
table's menu sets it (its action "dice": a die, then "table" or "seat N"), and it is kept on
flash beside the journal (dice.json). A die that is a seat's gives no value to a table's roll
(the desk says so); every die is the table's until the menu says otherwise.

The holders live in ble_dice's plain box, `table.dice` (its "holder": {die id: "table" or
"seat N"}). The roll under way takes its dice from the holders at each event
(firmware/board/dice_events.py), so a die given away mid-roll rolls no more for it.
"""

import json


def load(table, ids):
    """table.dice["holder"] for the dice `ids`, as dice.json (its "path") kept them."""
    box = table.dice
    holder = {}
    for i in ids:
        holder[i] = "table"
    try:
        with open(box["path"]) as f:
            kept = json.load(f)
        for i in kept:
            if i in holder:
                holder[i] = kept[i]
    except (OSError, ValueError):  # none kept yet, or a file cut short: every die is the table's
        pass
    box["holder"] = holder


def action(table, seats):
    """The table menu's action "dice" (its schema)."""
    from shared_rules.schema import action, param

    return action("dice", "table", [param("die", {"kind": "enum", "values": sorted(table.dice["holder"])}),
                                    param("holder", {"kind": "enum", "values": ["table"] + ["seat %d" % i
                                                                                          for i in range(seats)]})])


def assign(table, move):
    """The menu's "dice" action: the die is the holder's from now on (the display's lines)."""
    box = table.dice
    box["holder"][move["die"]] = move["holder"]
    with open(box["path"], "w") as f:
        f.write(json.dumps(box["holder"]))
    return ["die " + move["die"], "for " + move["holder"]]
