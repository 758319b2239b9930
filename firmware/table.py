"""The board's table: one match, its journal, and the clients that listen to it.

The table is the model: the match (header, state, count), act(), undo(), reload(), a new game
and a game switch, the board's dice generator, the idle upkeep. It does no I/O and imports no
client: the pads' keys and menus (firmware/controls.py's Controls) and the host's link
(firmware/link.py's Link) act on it and hear its news as listeners; the board layer composes
them (firmware/boot.py). So the same table runs on a Pico, an ESP32, a CircuitPython board and
the simulated board, and the tests drive it directly on either interpreter.

Listeners: each is called as fn(what, data) (tell()), in the order they listened, with
- "entry", (index, action, events, digest): an entry is on flash and in the state;
- "new", None: a new game (another, or the same with other settings) is under way;
- "undone", None: the last entry was taken back (the state is the shorter log's);
- "named", None: the seats' names changed (journal.names);
- "reload", None: the state is the journal's again (a step failed half-way through it);
- "fault", None: a board fault let an input go (fault());
- "idle", 0 then "idle", 1: the board is idle after an entry is shown (upkeep(), two parts): a
  client's own idle work, the most urgent first;
- "refused", the RuleError, and "hello", None: a client's news for the others (a pad's entry
  the rules refused; a host that said hello), told through the table.

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

An entry computed ahead (firmware/ahead.py, for a press the controls await): decide() takes the
step on a copy of the state, with the board's reveal after it when it leaves a sealed ballot
due; commit() enters it when the press comes.

Dice: the board rolls with its own generator, seeded from os.urandom at boot
and never written anywhere, and puts the faces into the roll action, so the
log holds every value (source "board") and nothing in it predicts the next
roll. The match seed stays in the log for replays.
"""

import gc

from firmware import ballot_box, undo
from firmware.journal import NoGame
from shared_rules import canon, engine, prng, schema


class Step:
    """One entry decided on a copy of the state (Table.decide), entered by Table.commit."""

    def __init__(self, state, count, last, move, line, digest, rng, entry, after, then, box=None):
        self.state, self.count, self.last = state, count, last  # what it was decided on
        # its journal line, prepared (Journal.prepare: the press only programs it), and digest
        self.move, self.line, self.digest, self.rng = move, line, digest, rng
        self.entry = entry  # (the normalised action, its events)
        self.after = after  # the state after it (and after `then`): commit() makes it the table's
        # the board's reveal after it, when the entry leaves a sealed ballot due (a close): (its
        # action, journal line, digest, normalised action, events), or None
        self.then = then
        # a sealed ballot's cast: (ballot, seat, [choice, count]) for the private box, put there
        # when it is entered (firmware/ballot_box.py); else None
        self.box = box


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
        self.ballot_box = None  # the private box, with the first ballot: plain data (firmware/ballot_box.py)
        self.dice = None  # the smart dice this board reads, when it reads some (firmware/board/ble_dice.py)
        self.changed = True  # the LEDs need a redraw (the board layer clears it)
        self.last_type = None  # the last entry's action type (the controls' status)
        self.snapshot_due = False  # the journal wants a snapshot: idle() takes it
        self.on_entry = None  # the board layer's: called as soon as an entry is on flash (to show it)
        # (index, state, digest): the state before entry `index`, the last, and the digest it
        # chained on, so that its undo needs no replay of the journal (firmware/undo.py): the state
        # a commit() was decided on, or the spare an act() folded in place found; else None
        self.before = None
        # (count, state, a copy of it), made by idle(): the state before the next entry that act()
        # folds in place, which then becomes its `before`; None, or left behind by any change
        self.spare = None
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
        b = self.state.get("ballot")
        if b is not None and b["result"] is None:  # a ballot open: its box read now, not at a press
            ballot_box.of(self)
        return self

    def new_game(self, game, settings):
        """A new match of `game`: its header on the journal, and the table on it."""
        match = engine.new_match(game, settings, _int(self._entropy(4)) & 0x3FFFFFFF)
        self.header = {"format": match["format"], "game": match["game"], "settings": match["settings"],
                       "seed": match["seed"], "start": match["start"]}
        self.journal.start(self.header)
        self.game, self.state, self.count = match["game"], match["state"], 0
        self.before = self.spare = None
        self.changed = True
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
        self.ballot_box = None
        self.new_game(game, settings)
        if names is not None:
            code.act(self, {"type": "names", "names": names})
        self.tell("new")
        return short

    def card_names(self, state):
        return engine.game_module(self.game).card_names(state)

    def act(self, move, seat=None):
        """Apply an action for `seat` (None: the table). Returns the entry's index; raises RuleError."""
        if self.state is None:  # a reload ran short of memory (see reload())
            self.reload()
        # folded in place: the state before it is kept only as the copy idle() made of it
        kept = self._spare_state()
        self.spare = self.before = None
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
            last = self.journal.last
            digest = canon.chain(last, action_text, events_text)
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
        if kept is not None:
            self.before = (index, kept, last)
        kept = None
        self.reveal_if_due()  # a reveal after it leaves no state before the reveal: it is never taken back
        return index

    def decide(self, move, seat):
        """The entry `move` would make for `seat`, decided on a copy of the state (nothing is
        journalled, shown or changed): a Step for commit(); raises RuleError when the rules
        refuse it. A sealed ballot the entry leaves due (a close, the last voter's cast) is revealed
        on the same copy. A cast's choice stays with the Step (its `box`), kept from the log as
        act() keeps it."""
        state = self.state
        move, rng = self.prepare(move, seat)
        box = None
        if isinstance(move, dict) and move.get("type") == "ballot_cast" and "choice" in move:
            move, box = ballot_box.take_choice(self, move)
        act, events, work = engine.decide(self.game, state, move, False)  # on a copy
        if box is not None:
            box = (state["ballot"]["n"], act["seat"], box)
        journal, count = self.journal, self.count
        texts = canon.encode(act), canon.encode(events)
        last = journal.last
        digest = canon.chain(last, texts[0], texts[1])
        line = journal.prepare(count, texts[0], texts[1], digest)
        entry = (act, events)
        then, b = None, work.get("ballot")
        if b is not None and b["result"] is None and not b["open"]:  # as reveal_if_due: the board's reveal
            then = ballot_box.reveal(self, b, box)
            act, events, work = engine.decide(self.game, work, then, True)  # the copy's own: in place
            texts = canon.encode(act), canon.encode(events)
            more = canon.chain(digest, texts[0], texts[1])
            then = (then, journal.prepare(count + 1, texts[0], texts[1], more), more, act, events)
        return Step(state, count, last, move, line, digest, rng, entry, work, then, box)

    def due(self, step):
        """`step` was decided on the table as it is now (no entry, undo or reload since)."""
        return step.state is self.state and step.count == self.count

    def commit(self, step, frame=None):
        """Enter a Step decided ahead (decide()), and the board's reveal after it: on flash, then on
        the strip (`frame`, the board layer's for the state after it, given to on_entry), then the
        state decided with it is the table's. The state it was decided on is kept as the one
        before it (self.before), so that an undo of it needs no replay (firmware/undo.py).
        Returns the entry's index."""
        then = step.then
        try:
            if step.box is not None:  # on flash before the cast is journaled, as in act()
                ballot_box.put(self, step.box[0], step.box[1], step.box[2])
            self.journal.write_line(self.count, step.line, step.digest)  # on flash before anyone hears of it
            if then is not None:
                self.journal.write_line(self.count + 1, then[1], then[2])
        except BaseException:
            self.reload()  # as act(): the journal's tail is checked again
            raise
        shown = frame is not None and self.on_entry is not None
        if shown:
            self.on_entry(frame)
        index = self.count
        before = self.state
        self.state, self.spare = step.after, None
        self.entered(step.entry[0], step.entry[1], step.digest, shown, step.rng)
        if then is not None:
            self.entered(then[3], then[4], then[2], shown, None)
            ballot_box.clear(self)  # after the frame: the box emptied, as its reveal() does
        # the state before the entry, for its undo; none before a reveal, which is never taken back
        self.before = (index, before, step.last) if then is None else None
        self.reveal_if_due()
        return index

    def entered(self, act, events, digest, shown, rng=None):
        """After an entry is on flash and folded into self.state: the count, what waits for
        the next idle(), the strip (unless `shown` already: commit()), the listeners.
        rng: the board's dice generator after a roll decided ahead, taken now that it is entered."""
        if rng is not None:
            self._rng = rng
        index = self.count
        self.count += 1
        self.changed = not shown
        self.last_type = act["type"]
        self.snapshot_due = self.journal.due()  # taken in idle(), once the entry is shown
        if self.on_entry is not None and not shown:  # the LEDs first; the host and the menu's next screen can wait
            self.on_entry()
        self.tell("entry", (index, act, events, digest))
        return index

    def reveal_if_due(self):
        """A sealed ballot that every voter has voted in, or the table closed, is revealed by
        the board from its private box as the next entry (firmware/ballot_box.py)."""
        b = self.state.get("ballot")
        if b is not None and b["result"] is None and not b["open"]:
            ballot_box.reveal(self)

    def undo(self, entry=None):
        """Take back the last entry: firmware/undo.py (see there). The listeners hear "undone"."""
        return undo.undo(self, entry)

    def name(self, move, seats=None):
        """The host's names or known_names (`seats`: a new game's, checked only): firmware/names.py,
        loaded for it (see there). The listeners hear "named" once the seats' names are on flash."""
        from firmware import names as code

        names = code.act(self, move, seats)
        if seats is None and move["type"] == "names":
            self.tell("named")
        return names

    def reload(self):
        """The state from the journal again: a step failed half-way through the state. The
        listeners hear "reload" first (the controls let go of what held the spoiled state); a
        resume that runs short of memory is tried once more after a "fault" (the controls let
        go of all they hold). If that fails as well the table has no state until the next
        action, key or status reloads it (they check); the entries are on flash."""
        self.state = self.before = self.spare = None
        self.tell("reload")
        gc.collect()
        try:
            self.header, self.state, self.count = self.journal.resume(engine)
        except MemoryError:
            self.tell("fault")
            gc.collect()
            self.header, self.state, self.count = self.journal.resume(engine)
        self.changed = True
        self.last_type = None

    def fault(self):
        """A board fault: the heap ran out in the middle of an input (the board layer caught the
        MemoryError). What the input held goes (the listeners hear "fault": the menu and its
        choices, an entry computed ahead, a new game being set up; here a game being switched
        to), and the state is reloaded from the journal, so the table is as it was before the
        input: every entry is on flash, nothing entered is lost. A reload that runs short too
        restarts a board that can restart, into the same game from its journal. Returns the
        display's lines saying so."""
        self.switch_due = None
        self.restart_due = False
        self.state = self.before = None
        self.tell("fault")
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
        """What waits until an entry is shown, all at once (the board layer calls this after each
        redraw, where it does not take upkeep()'s parts one by one)."""
        for _ in self.upkeep():
            pass

    def upkeep(self, collect=True):
        """idle()'s parts, one at each step of this generator: the listeners' "idle" (the controls
        compute the entry an awaited press would make), the snapshot, a step of the journal's own
        upkeep, a copy of the state for the undo of the next entry folded in place
        (self.spare), then a collection, so the next press starts on a tidy heap (collect=False:
        the caller takes it when it will: firmware/board/later.py waits for a quiet while). A part
        that yields "still" says that the parts after it wait for no button down. After
        a game switch, a board that can restarts instead. A board may serve an input between the
        parts (firmware/board/later.py): each part reads the table as it is when it runs."""
        if self.restart_due and self.restart is not None:
            self.restart_due = False
            self.restart(self.switch_due)  # on a board, does not return: main.py boots the new game
        if self.state is not None:
            self.tell("idle", 0)  # first: the entry an awaited press would make is the one a press waits for
            yield
            self.tell("idle", 1)  # then the next likeliest (a held press's, where its tap's came first)
            yield
        # "still": the parts after this wait while a button is down (firmware/board/later.py): each
        # writes littlefs (a snapshot's file and rename; a new block's allocation takes some 50 ms
        # on the chip), and a hold's long instant or a tap's release that came during it waited for it
        yield "still"
        if self.snapshot_due:
            self.snapshot_due = False
            try:
                self.journal.snapshot(self.state)
            except Exception as e:  # the entries are on flash: a missed snapshot costs only boot time
                print("chancery: snapshot failed:", e)
            yield
        # the raw flash log's next reservation and the removal of old ones, a kilobyte a part, off
        # an entry's path; after the look-ahead, which reads a sealed ballot's box
        # (firmware/ballot_box.py), so that the box's reservation is ready before the first cast.
        for _ in range(16):
            try:
                more = self.journal.tidy()
            except Exception as e:  # an entry that finds no spare makes one itself
                print("chancery: journal tidy failed:", e)
                more = False
            yield
            if not more:
                break
        if self.state is not None:
            if self._spare_state() is None:
                # a copy of the state, for the undo of the next entry that act() folds in place
                self.spare = (self.count, self.state, canon.copy(self.state))
                yield
        if collect:
            gc.collect()  # the step's garbage now, between presses: not in the next one

    def _spare_state(self):
        """The copy upkeep() made of the state as it is now (self.spare), or None where the state
        has moved since."""
        s = self.spare
        return s[2] if s is not None and s[0] == self.count and s[1] is self.state else None

    def prepare(self, move, seat):
        """(the move as it is entered: the board's faces in a roll it makes, `seat` in a seat's action
        that names none (not in the table's: a seat's pad may roll); the board's dice generator after
        it). act()'s and decide()'s."""
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


def _int(data):
    out = 0
    for b in data:
        out = (out << 8) | b
    return out
