"""The pads' and the table controls' keys: what each key does (firmware/controls.py's Controls
hands them here, with itself as `c`; the table is c.table).

The controls import it at boot, with the rest of the key path: a single press can be an entry
(the table's hold for the board's roll, a vote card, a ballot's cast), and an import there would
come before the strip's frame. The menu object (firmware/menu.py) is dropped before a step it
sends, and made again by the pad's next key, which only opens it.
"""


from firmware import ahead, ballot_keys, keymap, menus, pads, words
from shared_rules import engine
from shared_rules.errors import RuleError
from shared_rules.schema import action, param


def key(c, pad, name):
    """A menu key from a pad (seat 0..4, or pads.TABLE). Returns the screen lines
    and the entry index if the key completed an action (else None)."""
    table = c.table
    c.screen_due = False  # the key's own screen is what the display shows
    seat = None if pad == pads.TABLE else pad
    if c.ahead is not None:  # an entry computed ahead (firmware/ahead.py): this key makes it, or it goes
        index = ahead.key(c, pad, name)
        if index is not None:
            return ["sent", table.last_type], index
    if seat is not None and seat >= engine.seats(table.state):
        # the pad of a seat the game does not have (the fifth in a game of four): no menu, whose
        # table actions it would offer as its own (The Council's would not even build one)
        menus.park(c)
        n = engine.seats(table.state)
        return ["S%d" % seat, "no seat %d here:" % seat, "%d seats, S0-S%d" % (n, n - 1)], None
    if c.refusal is not None:  # a long refusal up: its pad's up and down scroll it
        screen = why(c, None, seat, name)
        if screen is not None:
            return screen, None
    b = table.state.get("ballot")
    if b is not None and b["open"] and (seat in b["voters"] or seat is None):
        return ballot_keys.key(c, seat, name, b)
    g = engine.game_module(table.game)
    if g.pad is not None:  # a game whose pads mean something of their own at times (KD's vote cards)
        got = g.pad(table.state, seat, name, c.held.get(pad))
        if got is not None:
            screen, move, c.held[pad] = got
            if move is None:  # and below the game's screen, what the pad's keys do now
                keys = g.pad(table.state, seat, "keys", None)
                return screen + keymap.foot("pad", "s", 8 - len(screen), keys and keys[1]), None
            menus.park(c)  # another pad's menu: its room is the step's (as below)
            index, refused = c.pad_act(move, seat)
            return refused or ["S%d: %s" % (seat, move["type"]), "sent"], index
    menu = c.menu
    begun = menu.picks if menu is not None and pad == c.menu_pad else (c.parked.get(pad) or [None])[0]
    if seat is None and name == "back" and not begun:
        if c.setup is not None:
            c.setup = None  # back out of a new game's settings, or of naming
            return menus.menu(c).start(table.state, seat), None
        if g.lines is not None:  # the game's own page: The Council's chips, a calculator's working
            c.menu_pad = None  # the next key starts the menu afresh
            return g.lines(table.state), None
    if seat is None and name == "long_select" and not begun and g.dice_wanted(table.state):
        # the table's hold of push, with no entry begun on it, when dice are due: the board
        # rolls (one press; the menu's roll takes typed values). No menu is loaded for it:
        # that would come before the strip's frame; and a menu open on a pad goes, as before a
        # step a menu sends (on a Pico the first roll of the menus' heap path ran short beside it)
        menu = None
        menus.park(c)
        index, refused = c.pad_act({"type": "roll"}, None)
        return refused or ["roll", "sent"], index
    if menu is None or pad != c.menu_pad or menu.state is not table.state:
        # One menu for every pad (a board has one display, and RAM for one menu's
        # data): it turns to this pad, with what the pad had entered so far. The key
        # that turns it only opens it: the pad's screen is read before a choice.
        menu = None
        menus.park(c)
        kept = c.parked.pop(pad, None)  # (picks, auto), or None
        screen = menus.open_on(c, seat, kept and kept[0], kept[1] if kept else 0)
        c.menu_pad = pad
        return screen, None
    screen, move = menu.key(table.state, name, False)  # with an action, the next screen is drawn below
    if move is None:
        return screen, None
    if move["type"] == "undo":
        try:
            i = table.undo()
        except RuleError as e:
            return why(c, e, seat, None, keymap.foot("fix", "t" if seat is None else "s", 2)), None
        return ["undone", "entry %d" % (i + 1)], None
    if move["type"] == "names":
        return name_menu(c, menu, move, seat), None
    if move["type"] == "dice":
        from firmware.board import dice_holders

        return dice_holders.assign(table, move), None
    if move["type"] == "new_game":
        if c.setup is None:  # the game chosen: its settings next
            c.setup = move["game"]
            return menu.start(table.state, seat), None
        move = {"game": c.setup, "settings": move}
        move["settings"].pop("type")
        c.menu = c.menu_pad = c.ahead = None  # the old game's: its code and choices go before the new one's
        c.parked = {}
        try:
            short = table.start(move)
        except RuleError as e:
            return why(c, e, seat, None, keymap.foot("fix", "t" if seat is None else "s", 2)), None
        return ["new_game", move["game"]] + (short or []), None
    # The menu and its entry go before the step: the heap is the step's, not a menu's that no
    # screen needs until the next key (which makes it again, on the display's time, after the
    # strip's frame)
    picks, auto = menu.kept()
    c.menu = menu = None
    index, refused = c.pad_act(move, seat, keymap.foot("fix", "t" if seat is None else "s", 2))
    if refused is None:
        # an entry: the display shows status() (pressed()), so no menu screen is built for it
        return ["sent", move["type"]], index
    menus.open_on(c, seat, picks, auto)  # a refusal: back on its confirm screen, where back corrects it
    c.menu_pad = pad
    return refused, None


def why(c, e, seat, key=None, foot=()):
    """A refusal's display lines: "Not allowed:" and why, in the words of the file
    firmware/refusals.txt (firmware/words.py: no prose stays in RAM). A sentence longer than the display scrolls on the up and down of
    `seat`'s pad (None: the table's): key() hands them here (e None), and has the next
    screen, or None for a key that goes on as ever."""
    try:
        return words.lines(c, e, seat, key, foot)
    except (MemoryError, OSError, ValueError):  # the code, as a board without the words shows it
        c.refusal = None
        return None if e is None else ["Not allowed:", e.code[:16]] + list(foot)


def name_menu(c, menu, move, seat):
    """The table's menu chose "names": first a name for each seat among the known ones (the
    menu asks seat by seat), then, with them, the naming. The screen lines."""
    from firmware import names  # the seats' names: loaded at the first names action (firmware/__init__.py)

    table = c.table
    if "names" not in move:
        choices = names.known(table.journal) + [names.NO_NAME]
        c.setup = [action("names", "table", [param("names", {"kind": "per_seat", "of": {
            "kind": "enum", "values": choices}})])]
        return menu.start(table.state, seat)
    picked = [None if n == names.NO_NAME else n for n in move["names"]]
    try:
        table.name({"type": "names", "names": picked})  # a host hears the welcome with them
    except RuleError as e:  # the confirm screen stays: back corrects a pick, as for any action refused
        table.tell("refused", e)  # a host's link says it in its words, the display in the board's
        return why(c, e, seat, None, keymap.foot("fix", "t" if seat is None else "s", 2))
    c.setup = None
    menu.rest()  # its next key starts the table's menu afresh
    return ["names set"] + ["%d %s" % (s, picked[s] or names.NO_NAME) for s in range(len(picked))]
