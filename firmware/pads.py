"""The pads: which button is which, and what each press means to a menu.

Seats 0-4 have a pad of three buttons (up, select, down); the table has an
encoder (left/right detents, push) and a back button. A press is (index, kind)
with index in the order below and kind SHORT or LONG (firmware/buttons.py
makes them from pin levels; the host's virtual presses name them directly).
Kept apart from the debouncer so a board without pins (the simulated one)
does not load it.
"""

from shared_rules.compat import const

SHORT = "short"
LONG = "long"

SEAT_PADS = const(5)  # up to five seats, each with a pad of three buttons
TABLE = const(5)  # the pad number of the table controls
COUNT = const(19)  # 5 seats x 3 buttons + 4 table controls
PAD_BUTTONS = tuple(["up", "select", "down"])  # tuple([...]): see tests/helpers/mp_gate.py
TABLE_BUTTONS = tuple(["left", "push", "right", "back"])  # encoder ccw/cw arrive as left/right

# What each button means to a menu, short and long. A seat's pad has no back
# button, so holding "up" steps back; holding "down" jumps a group ahead
# (a rank of cards), which is how 45 cards are crossed with three buttons.
_SHORT_KEY = {"up": "up", "left": "up", "select": "select", "push": "select",
              "down": "down", "right": "down", "back": "back"}
_LONG_KEY = {"up": "back", "left": "back", "select": "long_select", "push": "long_select",
             "down": "long_down", "right": "long_down", "back": "back"}


def which(index):
    """(pad, button name) of a button index: seats' pads first, then the table's."""
    if index < 0 or index >= COUNT:
        raise IndexError(index)
    if index < SEAT_PADS * 3:
        return index // 3, PAD_BUTTONS[index % 3]
    return TABLE, TABLE_BUTTONS[index - SEAT_PADS * 3]


def index_of(pad, name):
    if pad == TABLE:
        return SEAT_PADS * 3 + TABLE_BUTTONS.index(name)
    if pad < 0 or pad >= SEAT_PADS:
        raise IndexError(pad)
    return pad * 3 + PAD_BUTTONS.index(name)


def menu_key(index, kind):
    """(pad, menu key) for a press: the menu's keys are up, down, select, back,
    long_select and long_down."""
    pad, name = which(index)
    return pad, menu_name(name, kind)


def menu_name(button, kind):
    """The menu key a button's press means (its name on a pad or the table's controls)."""
    return (_LONG_KEY if kind == LONG else _SHORT_KEY)[button]
