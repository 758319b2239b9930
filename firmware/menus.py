"""The table's one menu, as the pads share it: the actions it offers (the game's, and the table's
own: undo, names, the smart dice's holders, new_game with its settings), and the menu opened on a
pad, closed with its choices parked, and opened again where it was (firmware/keys.py, firmware/ahead.py).
"""

from firmware.menu import Menu
from shared_rules import engine
from shared_rules.schema import action, param


def legal(table, state, seat):
    """The menus' actions (firmware/menu.py asks this, as it would a game): the
    game's, and for the table also undo (once there is an entry) and new_game,
    whose settings are asked next."""
    if table.setup is not None and seat is None:
        if isinstance(table.setup, list):  # the seats' names
            return table.setup
        return [action("new_game", "table", [param(x["name"], x["domain"], optional=True, default=x["default"])
                                             for x in engine.game_module(table.setup).SETTINGS])]
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


def open_on(table, seat, picks, auto=0):
    """The menu on the table's state for `seat`, resuming `picks` (None: none); its screen."""
    schemas = legal(table, table.state, seat)
    m = menu(table)
    screen = m.start(table.state, seat, schemas)
    if picks is not None:
        screen = m.resume(picks, auto)
    return screen


def reopen(table, pad, seat, at):
    """The pad's menu open again on its confirm screen, scrolled as it was (at: the menu's auto,
    cur and top), after firmware/ahead.py took its entry ahead."""
    kept = table.parked.pop(pad, None)
    if kept is not None:
        open_on(table, seat, kept[0], at[0])
        table.menu_pad = pad
        table.menu.cur, table.menu.top = at[1], at[2]


def park(table):
    """The menu closed, the choices its pad had begun kept (table.parked: picks and how many of the
    last were defaults it skipped), as when the menu turns to another pad: that pad's next key opens
    it again and resumes them, its back still going to the first default skipped."""
    m = table.menu
    if m is not None and table.menu_pad is not None and m.state is table.state:
        table.parked[table.menu_pad] = m.kept()
    table.menu = table.menu_pad = None


def menu(table):
    """The table's one menu (closed before a step it sends: park())."""
    if table.menu is None:
        table.menu = Menu(table.legal, table.card_names)
    return table.menu
