"""The board's game controller: one match, its journal, and its listeners; its pads' keys and
menus in firmware/keys.py and firmware/menu.py. The host's link (firmware/link.py) is a client:
it listens (listen()) and acts; the table imports none of it.

No I/O of its own: the board layer hands it presses and composes its clients,
so the same controller runs on a Pico, an ESP32, a CircuitPython board and the
simulated board, and the tests drive it directly on either interpreter.

Listeners: each is called as fn(what, data) (tell()), in the order they listened, with
- "entry", (index, action, events, digest): an entry is on flash and in the state;
- "new", None: a new game (another, or the same with other settings) is under way;
- "undone", None: the last entry was taken back (the state is the shorter log's);
- "named", None: the seats' names changed (journal.names);
- "refused", the RuleError: an entry from a pad, the dice or a menu was refused.

A new game (another game, or the same with other settings) is chosen on the
table's menu (its last action, "new_game": the game, then each of its
settings, "(default)" first) or sent by the host as the action
{"type": "new_game", "game": G, "settings": {...}}. The journal keeps the game
it ends on flash until the host has stored it (firmware/kept.py, which also
refuses a new game the flash has no room for), and the listeners hear "new".

Undo: the table's menu (its "undo", once there is an entry) or the host (the action
{"type": "undo", "entry": I}) takes back the last entry. The journal keeps it on
flash behind an undo line; the state is reloaded from the journal, and the host is
sent a state frame with the shorter length (it keeps the entry in its logbook as
taken back). A sealed ballot's reveal is never taken back.

Names: the host names the seats (the action {"type": "names", "names": [...]}) and offers
the names it knows ({"type": "known_names", ...}); the table's menu offers "names" once
it has some. firmware/names.py does both; the names are in the game's journal, and the
welcome carries them.

An action, from any source (a seat's pad, the table controls, the host), goes
the same way: the rules core checks it (engine.step); only then is the entry
appended to the journal, flushed, and only then acknowledged and echoed to
the host. A refusal changes nothing and is answered with the rule's code.

Dice: the board rolls with its own generator, seeded from os.urandom at boot
and never written anywhere, and puts the faces into the roll action, so the
log holds every value (source "board") and nothing in it predicts the next
roll. The match seed stays in the log for replays.
"""

import gc

from firmware import ahead, ballot_box, keymap, keys, menus, undo
from firmware.journal import NoGame
from shared_rules import canon, engine, prng, schema
from shared_rules.errors import RuleError


class Table:
    def __init__(self, journal, entropy, game="chancellors", settings=None, board_id="sim"):
        """journal: firmware.journal.Journal; entropy(n): n random bytes (os.urandom)."""
        self.journal = journal
        self.listeners = []  # the clients' fn(what, data): see the module's note
        self.game = game
        self.settings = settings
        self.board_id = board_id
        self._rng = prng.seed_state(_int(entropy(4)))
        self._entropy = entropy
        self.header = None
        self.state = None
        self.count = 0
        self.menu = None  # the one menu (firmware/menu.py), loaded at the first press
        self.menu_pad = None  # the pad it serves now
        self.parked = {}  # pad: its choices so far, while the menu serves another pad
        # pad: what a game's own pad keys have counted so far (see key()); and a refusal longer than
        # the display, scrolled by its pad ([seat, lines, top, footer]: firmware/words.py). Both go
        # with the state.
        self.held = {}
        self.refusal = None
        self.ballot_box = None  # the private box, with the first ballot: plain data (firmware/ballot_box.py)
        self.dice = None  # the smart dice this board reads, when it reads some (firmware/board/ble_dice.py)
        # what the table's menu sets up: the game chosen, while its settings are entered, or the
        # names action (a list: its schema), while the seats are named (firmware/names.py)
        self.setup = None
        self.changed = True  # the LEDs and the display need a redraw
        self.screen_due = True  # the game moved (an entry, an undo, a new game): the display shows status()
        self.last_type = None  # the last entry's action type, for status()
        self.snapshot_due = False  # the journal wants a snapshot: idle() takes it
        self.on_entry = None  # the board layer's: called as soon as an entry is on flash (to show it)
        # an entry computed ahead while its press is awaited: a menu's confirm, a hold on a game's own
        # pad, the table's hold that closes a sealed ballot (firmware/ahead.py); and the board layer's
        # on_ahead(state): the strip's frame for that state, or None
        self.ahead = self.on_ahead = None
        # (index, state, digest): the state before entry `index`, the last, and the digest it
        # chained on, where the entry was computed ahead on a copy (firmware/ahead.py: the state
        # it was computed on is kept); else None
        self.before = None
        self.restart = None  # the board layer's restart(switch), if it restarts after a game switch
        self.restart_due = False  # a game switch was asked for: idle() restarts the board into the new game
        self.switch_due = None  # its note: {"move": the new_game action, "re": the host's frame or None}

    # --- the listeners -----------------------------------------------------------

    def listen(self, fn):
        """fn(what, data) hears the table's news from now on (see the module's note)."""
        self.listeners.append(fn)

    def tell(self, what, data=None):
        for fn in self.listeners:
            fn(what, data)

    # --- the match ---------------------------------------------------------------

    def boot(self):
        """Resume the journalled game, or start a new one if there is none (a game that a
        switch's restart has started already stays: firmware/board/reboot.py)."""
        if self.state is None:
            try:
                self.header, self.state, self.count = self.journal.resume(engine)
                self.game = self.header["game"]
            except NoGame:
                self.new_game(self.game, self.settings)
        self.reveal_if_due()  # the power went after the last vote, before the reveal
        return self

    def new_game(self, game, settings):
        """A new match of `game`: its header on the journal, and the table on it."""
        match = engine.new_match(game, settings, _int(self._entropy(4)) & 0x3FFFFFFF)
        self.header = {"format": match["format"], "game": match["game"], "settings": match["settings"],
                       "seed": match["seed"], "start": match["start"]}
        self.journal.start(self.header)
        self.game, self.state, self.count = match["game"], match["state"], 0
        self.before = None
        self.menu = None
        self.menu_pad = None
        self.parked = {}
        self.setup = None
        self.changed = self.screen_due = True
        self.last_type = None

    def start(self, move, seq=None):
        """The action new_game: a new match of move["game"] with move["settings"] (the
        defaults for those not given); refused, with nothing changed, if either is
        unknown or a setting is out of its domain, or the flash has no room for it
        (flash_full). The listeners hear "new". Returns the display's warning
        when the flash has room for this game only, else None.

        Another game, on a board that restarts (firmware/board/reboot.py): only the flash's
        room is checked here; the restart notes the action (and seq, the host's frame), and
        the boot starts the game with no other game's code or names in its heap and answers.
        seq: the host's frame that asked for it, kept with a switch's note for its answer."""
        self.menu = self.menu_pad = self.ahead = None
        self.parked = {}
        game, settings, names = move.get("game"), move.get("settings", {}), move.get("names")
        switch = game != self.game and game in engine.games.GAMES
        # no room on the flash for a new game's journal: refused, nothing moved
        from firmware import kept  # the flash's room for a new game

        short = kept.room(self)
        if switch and self.restart is not None:
            self.switch_due = {"move": {"type": "new_game", "game": game, "settings": settings}, "re": seq}
            if names is not None:
                self.switch_due["move"]["names"] = names
            self.restart_due = True
            return short
        players = engine.settings_for(engine.game_module(game), settings)["players"]  # raises RuleError:
        from firmware import names as code

        if names is not None:  # nothing moved yet
            names = code.act(self, {"type": "names", "names": names}, players)
        self.setup = None
        self.ballot_box = None
        self.held, self.refusal = {}, None
        self.new_game(game, settings)
        if names is not None:
            code.act(self, {"type": "names", "names": names})
        self.tell("new")
        return short

    def legal(self, state, seat):
        """The menus' actions: firmware/menus.py (firmware/menu.py asks this, as it would a game)."""
        return menus.legal(self, state, seat)

    def card_names(self, state):
        return engine.game_module(self.game).card_names(state)

    def act(self, move, seat=None):
        """Apply an action for `seat` (None: the table). Returns the entry's index; raises RuleError."""
        if self.state is None:  # a reload ran short of memory (see reload())
            self.reload()
        self.ahead = None  # an entry computed ahead (firmware/ahead.py) is on the state before: its room is the step's
        self.before = None  # folded in place: no state before it is kept
        move, self._rng = self.prepare(move, seat)
        cast = isinstance(move, dict) and move.get("type") == "ballot_cast" and "choice" in move
        if cast:  # the choice goes to the private box, never to the log
            move, choice = ballot_box.take_choice(self, move)
        # The events fold into the board's one state in place (a copy of it cost more than
        # the rules on a Pico): whatever fails after the first event reloads the journal.
        try:
            act, events, state = engine.decide(self.game, self.state, move, True)
        except engine.Spoiled as e:
            self.reload()
            raise e.cause
        try:
            if cast:  # on flash before the cast is journaled (a choice left by a failure after it does not count)
                ballot_box.put(self, state["ballot"]["n"], act["seat"], choice)
            action_text, events_text = canon.encode(act), canon.encode(events)
            digest = canon.chain(self.journal.last, action_text, events_text)
            self.journal.write(self.count, action_text, events_text, digest)  # on flash before anyone hears of it
        except BaseException:
            # the spoiled state and the texts go before the reload, which needs a state's room
            act = events = state = action_text = events_text = None
            self.reload()
            raise
        action_text = events_text = move = None
        self.state = state
        state = None
        index = self.entered(act, events, digest, False)
        act = events = None
        self.reveal_if_due()
        return index

    def entered(self, act, events, digest, shown, rng=None):
        """After an entry is on flash and folded into self.state: the count, what waits for
        the next idle(), the strip (unless `shown` already: firmware/ahead.py), the host.
        rng: the board's dice generator after a roll computed ahead, taken now that it is entered."""
        if rng is not None:
            self._rng = rng
        index = self.count
        self.count += 1
        self.changed = not shown
        self.screen_due = True
        self.last_type = act["type"]
        self.snapshot_due = self.journal.due()  # taken in idle(), once the entry is shown
        self.held = {}  # counts kept on the pads (KD's Power) belong to the state that is gone
        self.refusal = None
        self.parked = {}  # the state moved on: every pad's next key starts afresh
        self.ahead = None  # and an entry computed ahead on the state before
        if self.menu is not None:
            self.menu.rest()
        if self.on_entry is not None and not shown:  # the LEDs first; the host and the menu's next screen can wait
            self.on_entry()
        self.tell("entry", (index, act, events, digest))
        return index

    def reveal_if_due(self):
        """A sealed ballot that every voter has voted in, or the table closed, is revealed by
        the board from its private box as the next entry (firmware/ballot_box.py, loaded for it)."""
        b = self.state.get("ballot")
        if b is not None and b["result"] is None and not b["open"]:
            ballot_box.reveal(self)

    def undo(self, entry=None):
        """Take back the last entry: firmware/undo.py, loaded for it (see there)."""
        return undo.undo(self, entry)

    def name(self, move, seats=None, menu=None, seat=None):
        """The host's names or known_names (`seats`: a new game's, checked only), or (with
        `menu`) the table menu's names: firmware/names.py, loaded for it (see there). The
        listeners hear "named" once the seats' names are on flash."""
        from firmware import names as code

        if menu is not None:
            return code.menu(self, menu, move, seat)
        names = code.act(self, move, seats)
        if seats is None and move["type"] == "names":
            self.tell("named")
        return names

    def reload(self):
        """The state from the journal again: a step failed half-way through the state. Short
        memory is the likeliest cause, so a resume that runs short too is tried once more
        without the menu (its code and screen: the next key loads it again). If that fails as
        well the table has no state until the next action, key or status reloads it (they
        check; no new name for it: see the module's note on names); the entries are on flash."""
        self.state = self.before = None
        if self.menu is not None:
            self.menu.rest()  # it held the spoiled state too; the next key starts it afresh on the new one
        gc.collect()
        try:
            self.header, self.state, self.count = self.journal.resume(engine)
        except MemoryError:
            self.menu = self.menu_pad = None  # the choices parked on other pads stay
            gc.collect()
            self.header, self.state, self.count = self.journal.resume(engine)
        self.changed = self.screen_due = True
        self.last_type = None

    def fault(self):
        """A board fault: the heap ran out in the middle of an input (the board layer caught the
        MemoryError). What the input held goes (the menu and its choices, an entry computed ahead,
        a new game being set up or switched to, and the code of every game), and the state is
        reloaded from the journal, so the table is as it was before the input: every entry is on
        flash, nothing entered is lost. A reload that runs short too restarts a board that can
        restart, into the same game from its journal. Returns the display's lines saying so."""
        self.menu = self.menu_pad = self.ahead = self.setup = self.switch_due = None
        self.parked = {}
        self.restart_due = False
        self.state = self.before = None
        try:
            self.reload()
            self.game = self.header["game"]
        except MemoryError:
            self.state = None  # the next key, action or status reloads it (the entries are on flash)
            gc.collect()
            if self.restart is not None:
                self.restart(None)  # on a board, does not return: the boot resumes the game
        return ["Board fault:", "out of memory.", "Game reloaded", "from its journal", "(nothing lost):",
                "try that again."]

    def idle(self):
        """What waits until an entry is shown (the board layer calls this after each redraw):
        the snapshot, a step of the journal's own upkeep, then a collection, so the next
        press starts on a tidy heap. After a game switch, a board that can restarts instead."""
        if self.restart_due and self.restart is not None:
            self.restart_due = False
            self.restart(self.switch_due)  # on a board, does not return: main.py boots the new game
        if self.snapshot_due:
            self.snapshot_due = False
            try:
                self.journal.snapshot(self.state)
            except Exception as e:  # the entries are on flash: a missed snapshot costs only boot time
                print("chancery: snapshot failed:", e)
        try:
            self.journal.tidy()  # a block of the raw flash log's next reservation, off an entry's path
        except Exception as e:  # an entry that finds no spare makes one itself
            print("chancery: journal tidy failed:", e)
        if self.ahead is None and self.setup is None and self.state is not None:
            # the entry an awaited press would make, computed now, not after it (firmware/ahead.py)
            ahead.look(self)
        gc.collect()  # the step's garbage now, between presses: not in the next one

    def prepare(self, move, seat):
        """(the move as it is entered: the board's faces in a roll it makes, `seat` in a seat's action
        that names none (not in the table's: a seat's pad may roll); the board's dice generator after
        it). Table.act's, and firmware/ahead.py's."""
        rng = self._rng
        if isinstance(move, dict):
            g = engine.game_module(self.game)
            if move.get("type") == "roll" and "values" not in move:
                move, rng = self._board_roll(g, move)
            if seat is not None and "seat" not in move:
                s = schema.find(g.SCHEMAS, move.get("type"))  # a table's action stays the table's
                if s is None or s["who"] != "table":
                    move = dict(move)
                    move["seat"] = seat
        return move, rng

    def _board_roll(self, g, move):
        """(the roll with the board's faces in it, the generator after them)."""
        n = g.dice_wanted(self.state)
        if n == 0:
            return move, self._rng  # not a time to roll: the rules answer wrong_step
        values, rng = prng.dice(self._rng, n)
        out = dict(move)
        out["values"] = values
        out["source"] = "board"
        return out, rng

    # --- the menus (pads and table controls) ---------------------------------------

    def pressed(self, pad, name):
        """key(), and the screen the display shows after it: the key's own, or status() when
        the key moved the game (an entry, an undo, a new game: its menu screen would be
        left over from the state before). (screen, entry or None)"""
        if self.state is None:  # see reload()
            self.reload()
        screen, index = self.key(pad, name)
        if self.screen_due:
            self.screen_due = False
            screen = self.status()
            self.menu_pad = None  # the next key opens a menu on the screen, not blind on one not shown
        return screen, index

    def status(self):
        """The display's lines when no menu is open: the entry count and the last action,
        and the game's end (and who won) or a ballot's count. Derived from the present state, so after
        an entry from anywhere, an undo or a new game nothing is left over from before."""
        if self.state is None:  # see reload()
            self.reload()
        top = "#%d %s" % (self.count, self.last_type) if self.last_type else "#%d" % self.count
        out = [top[:16]]
        g = engine.game_module(self.game)
        for kind in keymap.status(g, self.state):  # what each key does now (firmware/keymap.py)
            data = b = self.state.get("ballot")
            if kind == "over":
                out.append("game over")
                # and who won, as the seats' pads name them: "won: S1", "won: S0,2"
                out.append(("won: S" + ",".join([str(s) for s in self.state.get("winners") or []]))[:16])
            elif kind == "ballot":
                out.append("vote: %d of %d" % (len(b["voted"]), len(b["voters"])))
            elif kind == "pad":  # a seat's pad is the game's own now: which, and its keys
                seat, data = g.pad(self.state, None, "keys", None)
                out.append("S%d's pad:" % seat)
            out += keymap.foot(kind, None, 8 - len(out), data)
        return out

    def key(self, pad, name):
        """A menu key from a pad (seat 0..4, or pads.TABLE): (the screen lines, the entry
        index if the key completed an action, else None). firmware/keys.py, loaded for keys."""
        return keys.key(self, pad, name)

    def pad_act(self, move, seat, foot=()):
        """An action entered on a pad (or by the smart dice, or a sealed ballot's box): (its entry
        index, None), or (None, the refusal as display lines): the rules' answer goes to the
        display, the board plays on. The listeners hear "refused" (a host's link says it in its
        words); the display says it in the board's (why(),
        which alone loads the keys' code: a die's roll or a ballot's cast does not); `foot`: the
        footer's lines below a refusal (a menu's: what its keys do then)."""
        try:
            return self.act(move, seat), None
        except RuleError as e:
            self.tell("refused", e)
            return None, self.why(e, seat, None, foot)

    def why(self, e, seat, key=None, foot=()):
        """A refusal's display lines, `foot` below them (firmware/keys.py, firmware/words.py)."""
        return keys.why(self, e, seat, key, foot)

    def status_due(self):
        """The display shows status() next, unless a key's screen is up (a host that has just said
        hello sees the display as it is, not a blank until the next key)."""
        if self.menu_pad is None:
            self.screen_due = True


def _int(data):
    out = 0
    for b in data:
        out = (out << 8) | b
    return out

