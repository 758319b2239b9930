"""A board's smart dice at work (firmware/board/ble_dice.py): a die's notification read, the
desk's tick or a die's event, the display's line. ble_dice calls this module for each: it
builds the reader, the desk and the roll from ble_dice's plain `box` and keeps none of them
after, so between the dice's events a board holds only ble_dice's tasks and that box.
"""
from shared_rules import engine
from shared_rules.compat import const

_W = const(16)  # characters on a display line


def handle(table, hw, box, die, shell, data):
    """One notification's bytes from `die` (data None: the die was lost; "on": it connected),
    or the desk's tick (die None)."""
    if die is None:
        event = None
    elif data is None:
        event = ("lost", die)
    elif isinstance(data, str):  # "on": connected (ble_dice._die); a notification is bytes
        say(table, hw, "die %s on" % die)
        return
    else:
        event = _read(die, shell, data)
        if event is None:  # a message that means nothing to the table
            return
    _desk(table, hw, box, event)


def _read(die, shell, data):
    """The notification's event (or None), by the die's reader (firmware/dice/godice.py)."""
    from firmware.dice import godice

    return godice.Reader(die, shell).feed(data)


def _desk(table, hw, box, event):
    """The desk's tick (event None) or one die's event, with the desk loaded for it."""
    if table.state is None:  # a step ran short of memory (Table.reload): ble_dice._asked waits, not a die
        table.reload()
    from firmware.dice import roll
    from firmware.dice.desk import Desk

    desk = Desk(lambda: (engine.game_module(table.game), table.state, table.count),
                lambda move: _act(table, hw, move), lambda line: say(table, hw, line), _for_table(box))
    desk.roll = None if box["roll"] is None else roll.of(box["roll"], desk.dice)
    desk.roll_at, desk.said_no = box["roll_at"], box["said_no"]
    if event is None:
        desk.tick()
    else:
        desk.event(event)
    box["roll"] = None if desk.roll is None else desk.roll.plain()
    box["roll_at"], box["said_no"] = desk.roll_at, desk.said_no


def _for_table(box):
    """The ids of the dice that roll for the table (the desk's `dice`), of box["holder"]."""
    holder = box["holder"]
    return [i for i in holder if holder[i] == "table"]


def nus(die, shell):
    """The die's UART service, RX and TX (bluetooth.UUIDs) and the battery's command; a shell
    that godice.py does not know is refused here (ValueError: this die's task stops)."""
    import bluetooth

    from firmware.dice import godice

    godice.Reader(die, shell)
    return bluetooth.UUID(godice.SERVICE), bluetooth.UUID(godice.RX), bluetooth.UUID(godice.TX), godice.ask_battery()


def _act(table, hw, move):
    """The dice's roll entered as a pad's is (Table.pad_act): None, or the refusal's last line."""
    index, refused = hw.controls.pad_act(move, None)
    hw.show(table)  # the entry on the strip and the display, as a press's
    table.idle()
    return None if refused is None else refused[-1]


def say(table, hw, line):
    """A line of the dice's on the display (and to a listening host)."""
    lines = [""]  # broken at spaces into the display's lines
    for word in line.split(" "):
        if lines[-1] and len(lines[-1]) + 1 + len(word) > _W:
            lines.append(word[:_W])
        else:
            lines[-1] = (lines[-1] + " " + word if lines[-1] else word)[:_W]
    hw.put_screen(table, lines)  # on the display, and to a listening host
    hw.show(table)
