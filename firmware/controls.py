"""The table's controls: the pads' and the table's keys, the one menu they share, the choices
parked while it serves another pad, what a game's own pad keys have counted, a refusal being
scrolled, and the entry an awaited press would make, computed ahead. A client of the table
(firmware/table.py), as the host's link is: it acts on the table and listens to its news.

The board layer makes one at boot (firmware/boot.py) and hands it each press (pressed()) and
asks it for the display's lines (status(), when screen_due). What each key does is
firmware/keys.py's; the menu firmware/menus.py's and firmware/menu.py's; the entry computed ahead
firmware/ahead.py's, at the table's "idle".
"""

from firmware import ahead, keymap, keys, menus
from shared_rules import engine
from shared_rules.errors import RuleError


class Controls:
    def __init__(self, table):
        self.table = table
        self.menu = None  # the one menu (firmware/menu.py), made at the first press
        self.menu_pad = None  # the pad it serves now
        self.parked = {}  # pad: its choices so far (picks, auto), while the menu serves another pad
        # pad: what a game's own pad keys have counted so far (keys.py); and a refusal longer than
        # the display, scrolled by its pad (firmware/words.py's Refusal). Both go with the state.
        self.held = {}
        self.refusal = None
        # while a sealed ballot is open: what voters' pads have counted or marked before their casts
        # ((ballot n, seat, key): value; a mark is no vote until it is cast, and another seat's
        # cast leaves it), and whether the table's back asked to take back the last entry
        # (firmware/ballot_keys.py)
        self.marks = {}
        self.voter = None  # (ballot, seat, option) that a voter's pad counted or marked last
        self.undo_asked = False
        # what the table's menu sets up: the game chosen, while its settings are entered, or the
        # names action (a list: its schema), while the seats are named (keys.py)
        self.setup = None
        self.screen_due = True  # the game moved (an entry, an undo, a new game): the display shows status()
        # an entry computed ahead while its press is awaited (firmware/ahead.py); and the board
        # layer's on_ahead(state): the strip's frame for that state, or None
        self.ahead = self.on_ahead = None
        self.pressing = None  # (pad, button) of the press under way: down, not yet a key (down())
        table.listen(self.heard)

    def heard(self, what, data):
        """The table's news (Table.tell)."""
        if what == "idle":
            if self.setup is not None:
                return
            if data == 0 and self.ahead is None:
                ahead.look(self)  # the entry an awaited press would make, computed now, not after it
            elif data == 1 and self.ahead is not None:
                ahead.held(self)  # and where that was a tap's, its hold's
            return
        if what == "hello":  # a host that has just come sees the display as it is (unless a key's screen is up)
            if self.menu_pad is None:
                self.screen_due = True
            return
        if what == "refused" or what == "named":
            return
        self.screen_due = True  # the state moved, or is the journal's again: the display shows status()
        self.ahead = None  # computed on the state before
        self.undo_asked = False
        if what == "fault":  # what the input held goes: the menu, its choices, a new game's setup
            self.menu = self.menu_pad = self.setup = None
            self.parked = {}
            return
        if self.menu is not None:
            self.menu.rest()  # it held the state before: the next key starts it afresh on this one
        if what == "reload":  # the same entries: the choices begun and the counts stay
            return
        # an entry, an undo or a new game: every pad's next key starts afresh
        self.held, self.refusal = {}, None
        self.parked = {}
        if what == "entry" and data[1]["type"] == "ballot_reveal":  # the ballot is over: its marks go
            self.marks, self.voter = {}, None
        if what == "new":  # the old game's menu goes with its code
            self.menu = self.menu_pad = self.setup = None
            self.marks, self.voter = {}, None
        elif what == "undone":  # a cast taken back: its seat votes again, from nothing marked
            self.setup = None
            self.marks, self.voter = {}, None

    def legal(self, state, seat):
        """The menus' actions: firmware/menus.py (firmware/menu.py asks this, as it would a game)."""
        return menus.legal(self, state, seat)

    def pressed(self, pad, name):
        """key(), and the screen the display shows after it: the key's own, or status() when
        the key moved the game (an entry, an undo, a new game: its menu screen would be
        left over from the state before). (screen, entry or None)"""
        if self.table.state is None:  # see Table.reload()
            self.table.reload()
        self.pressing = None  # the press is a key now
        screen, index = self.key(pad, name)
        if self.screen_due:
            self.screen_due = False
            screen = self.status()
            self.menu_pad = None  # the next key opens a menu on the screen, not blind on one not shown
        return screen, index

    def down(self, mask):
        """Buttons went down (bit i: button i, firmware/pads.py): a press begun, whose entry the
        look-ahead takes while it is held (firmware/ahead.py)."""
        ahead.down(self, mask)

    def phase_moved(self):
        """The strip's LEDs that take turns moved on (firmware/board/leds.py's tick): the frames
        drawn ahead follow (firmware/ahead.py)."""
        ahead.redraw(self)

    def key(self, pad, name):
        """A menu key from a pad (seat 0..4, or pads.TABLE): (the screen lines, the entry
        index if the key completed an action, else None). firmware/keys.py."""
        return keys.key(self, pad, name)

    def status(self):
        """The display's lines when no menu is open: the entry count and the last action,
        and the game's end (and who won) or a ballot's count. Derived from the present state, so after
        an entry from anywhere, an undo or a new game nothing is left over from before."""
        table = self.table
        if table.state is None:  # see Table.reload()
            table.reload()
        state = table.state
        top = "#%d %s" % (table.count, table.last_type) if table.last_type else "#%d" % table.count
        out = [top[:16]]
        g = engine.game_module(table.game)
        for kind in keymap.status(g, state):  # what each key does now (firmware/keymap.py)
            data = b = state.get("ballot")
            if kind == "over":
                out.append("game over")
                # and who won, as the seats' pads name them: "won: S1", "won: S0,2"
                out.append(("won: S" + ",".join([str(s) for s in state.get("winners") or []]))[:16])
            elif kind == "ballot":
                out.append("vote: %d of %d" % (len(b["voted"]), len(b["voters"])))
            elif kind == "pad":  # a seat's pad is the game's own now: which, and its keys
                seat, data = g.pad(state, None, "keys", None)
                out.append("S%d's pad:" % seat)
            out += keymap.foot(kind, None, 8 - len(out), data)
        return out

    def pad_act(self, move, seat, foot=()):
        """An action entered on a pad (or by the smart dice, or a sealed ballot's box): (its entry
        index, None), or (None, the refusal as display lines): the rules' answer goes to the
        display, the board plays on. The table's listeners hear "refused" (a host's link says it
        in its words); the display says it in the board's (why()); `foot`: the footer's lines
        below a refusal (a menu's: what its keys do then)."""
        try:
            return self.table.act(move, seat), None
        except RuleError as e:
            self.table.tell("refused", e)
            return None, self.why(e, seat, None, foot)

    def why(self, e, seat, key=None, foot=()):
        """A refusal's display lines, `foot` below them (firmware/keys.py, firmware/words.py)."""
        return keys.why(self, e, seat, key, foot)
