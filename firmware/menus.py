"""The table's one menu, as the pads share it: the actions it offers (the game's, and the table's
own: undo, names, the smart dice's holders, new_game with its settings), and the menu opened on a
pad, closed with its choices parked, and opened again where it was (firmware/keys.py).
`c` is firmware/controls.py's Controls; the table is c.table.
"""

from firmware.menu import Menu
from shared_rules import engine
from shared_rules.schema import action, param


def legal(c, state, seat):
    """The menus' actions (firmware/menu.py asks this, as it would a game): the
    game's, and for the table also undo (once there is an entry) and new_game,
    whose settings are asked next."""
    table = c.table
    if c.setup is not None and seat is None:
        if isinstance(c.setup, list):  # the seats' names
            return c.setup
        return [action("new_game", "table", [param(x["name"], x["domain"], optional=True, default=x["default"])
                                             for x in engine.game_module(c.setup).SETTINGS])]
    out = list(engine.game_module(table.game).legal(state, seat))
    if seat is None:
        if table.count:
            out.append(action("undo", "table", []))
        if table.journal.exists("known.json"):  # names the host offered (firmware/names.py)
            out.append(action("names", "table", []))
        if table.dice is not None:  # which die rolls for whom (firmware/board/dice_holders.py)
            from firmware.board import dice_holders

            out.append(dice_holders.action(table, engine.seats(state)))
        out.append(action("new_game", "table", [param("game", {"kind": "enum", "values": list(engine.games.GAMES)})]))
    return out


def open_on(c, seat, picks, auto=0):
    """The menu on the table's state for `seat`, resuming `picks` (None: none); its screen."""
    state = c.table.state
    schemas = legal(c, state, seat)
    m = menu(c)
    screen = m.start(state, seat, schemas)
    if picks is not None:
        screen = m.resume(picks, auto)
    return screen


def park(c):
    """The menu closed, the choices its pad had begun kept (c.parked: picks and how many of the
    last were defaults it skipped), as when the menu turns to another pad: that pad's next key opens
    it again and resumes them, its back still going to the first default skipped."""
    m = c.menu
    if m is not None and c.menu_pad is not None and m.state is c.table.state:
        c.parked[c.menu_pad] = m.kept()
    c.menu = c.menu_pad = None


def menu(c):
    """The table's one menu (closed before a step it sends: park())."""
    if c.menu is None:
        c.menu = Menu(c.legal, c.table.card_names)
    return c.menu
