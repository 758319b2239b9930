"""The link: the host's side of the table, a client of firmware/table.py as the keys are.

A Link answers the host's frames (frame()): a hello (welcome and state frames), a ping, a GET of
entries, a press sent by the host, an action (the table's own: new_game, undo, names; or a
game's), and the finished games' pull and ack (firmware/kept.py). It hears the table's news as
one of its listeners (Table.listen): each entry, an undo, a new game, a naming and a pad's
refusal, which it sends on once a hello has come (before that the port may be a REPL).

The board layer makes one at the first byte a host sends, with its own send(kind, body), as
the wire's code (shared_rules/wire.py) is: a board on its own at the table holds none of it
(firmware/__init__.py). The table knows nothing of it.
"""

from firmware import FIRMWARE, pads
from shared_rules import canon, engine, wire
from shared_rules.errors import RuleError


class Link:
    def __init__(self, table, send, controls=None):
        """table: firmware.table.Table; send(kind, body): writes one frame to the host; controls:
        the board's firmware/controls.py Controls, which a press from the host goes to."""
        self.table = table
        self.send = send
        self.controls = controls
        self.listening = False  # nothing is sent before a hello (the port may be a REPL)
        table.listen(self.heard)

    def heard(self, what, data):
        """The table's news (Table.tell), sent on to a host that has said hello."""
        if not self.listening:
            return
        if what == "entry":
            index, act, events, digest = data
            self.send(wire.ENTRY, {"i": index, "move": act, "events": events, "digest": digest})
        elif what == "new":
            self.hello()
        elif what == "undone":
            self.send_state()
        elif what == "named":
            self.send(wire.WELCOME, self.welcome())
        elif what == "refused":  # a pad's entry the rules refused: the facts, the host words them
            self.error(None, data.code, "", data.detail)

    def frame(self, seq, kind, body):
        """Answer one frame from the host."""
        table = self.table
        if kind == wire.HELLO:
            self.listening = True
            self.hello()
        elif kind == wire.PING:
            self.send(wire.PONG, {"re": seq})
        elif kind == wire.GET:
            self.get(seq, body)
        elif kind == wire.PRESS:
            self.press(seq, body)
        elif kind == wire.ACT:
            move = body.get("move")
            if isinstance(move, dict) and move.get("type") == "ballot_reveal":
                # only the board holds the choices: a reveal from outside could be anything
                self.error(seq, "board_reveals", "", {"type": "ballot_reveal"})
                return
            try:
                if isinstance(move, dict) and move.get("type") in ("new_game", "undo", "names", "known_names"):
                    if move["type"] == "undo":  # the state frame (the shorter log) goes before the ok
                        table.undo(move.get("entry"))
                    elif move["type"] == "new_game":
                        table.start(move, seq)
                        if table.restart_due:  # the answer comes after the restart (reboot.py)
                            return
                    else:  # the names: a welcome with them (heard()) before the ok
                        table.name(move)
                    if table.on_entry is not None:  # the strip and the display show it before the ok, as an entry's
                        table.on_entry()
                    self.send(wire.OK, {"re": seq, "i": None})
                    return
                index = table.act(move, body.get("seat"))
            except RuleError as e:
                # the facts, not the sentence: the host renders it with shared_rules.texts,
                # and the board keeps the prose of every message out of its RAM
                self.error(seq, e.code, "", e.detail)
                return
            self.send(wire.OK, {"re": seq, "i": index})
        else:  # pull and ack (the finished games kept on flash), or a kind a board does not take
            from firmware import kept

            kept.frame(self, seq, kind, body)

    def hello(self):
        self.send(wire.WELCOME, self.welcome())
        self.send_state()
        self.table.tell("hello")  # the controls show the display as it is to a host that has just come

    def send_state(self):
        """The state frame: the log's length, the state's digest and the public view, so a
        host can show the table before it has replayed anything (after a hello), or drop
        the entries it has past the length (after an undo)."""
        table = self.table
        view = engine.game_module(table.game).view(table.state, None)
        body = {"len": table.count, "digest": canon.digest(table.state), "view": view}
        try:  # checked here: a board that holds its frames until an input is answered writes them later
            wire.write(0, wire.STATE, body, None)
        except wire.FrameError as e:
            if e.code != "too_long":
                raise
            # a view longer than a frame may be (The King's Dilemma's, a sealed ballot open or
            # revealed): the snapshot without it; the host has the view from the entries (GET)
            view = body["view"] = None
        self.send(wire.STATE, body)

    def welcome(self):
        table = self.table
        out = {"fw": FIRMWARE, "proto": wire.PROTO, "game": table.game, "settings": table.header["settings"],
               "len": table.count, "digest": canon.digest(table.state), "id": table.board_id,
               "seed": table.header["seed"], "start": table.header["start"]}
        if table.journal.names is not None:  # the seats' names, once they have been named
            out["names"] = table.journal.names
        return out

    def get(self, seq, body):
        """Entries i..j-1 from the journal, one entry frame each (a host catching up)."""
        table = self.table
        i, j = body.get("i"), body.get("j")
        if not (isinstance(i, int) and isinstance(j, int) and 0 <= i <= j <= table.count):
            self.error(seq, "bad_range", "get needs 0 <= i <= j <= %d" % table.count)
            return
        k = 0
        for entry in table.journal.entries(i):
            if i + k >= j:
                break
            self.send(wire.ENTRY, {"i": i + k, "move": entry["action"], "events": entry["events"],
                                   "digest": entry["digest"]})
            k += 1

    def press(self, seq, body):
        """A press sent by the host (the simulated board's mirror, tests): as the pad's own key."""
        pad, key, hold = body.get("pad"), body.get("key"), body.get("hold")
        names = pads.TABLE_BUTTONS if pad == pads.TABLE else pads.PAD_BUTTONS
        if not (isinstance(pad, int) and 0 <= pad <= pads.TABLE and isinstance(key, int)
                and 0 <= key < len(names) and hold in (pads.SHORT, pads.LONG)):
            self.error(seq, "bad_press", "press needs pad 0-%d, a key of that pad and hold short|long"
                       % pads.TABLE)
            return
        screen, index = self.controls.pressed(pad, pads.menu_name(names[key], hold))
        self.send(wire.DISPLAY, {"lines": screen})
        self.send(wire.OK, {"re": seq, "i": index})

    def error(self, seq, code, message, detail=None):
        """Answer the host's frame `seq` (None: no frame) with an error: the facts, the host words them."""
        body = {"re": seq, "code": code, "message": message}
        if detail is not None:
            body["detail"] = detail
        self.send(wire.ERROR, body)

    def bad_line(self, err):
        """A line that was not a good frame (a wire.FrameError): answered, nothing else changes."""
        if self.listening:
            self.error(err.seq, err.code, err.message)
