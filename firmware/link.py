"""The link: the board's answers to the host's frames (Table.frame): a hello (welcome and state
frames), a ping, a GET of entries, a press sent by the host, an action (the table's own: new_game,
undo, names; or a game's), and the finished games' pull and ack (firmware/kept.py). Loaded by the
first frame a host sends, as the wire's code (shared_rules/wire.py) is: a board on its own at the
table holds none of it (firmware/__init__.py).
"""

from firmware import FIRMWARE, pads
from shared_rules import canon, engine, wire
from shared_rules.errors import RuleError


def answer(table, seq, kind, body):
    """Answer one frame from the host."""
    if kind == wire.HELLO:
        table.listening = True
        table.hello()
    elif kind == wire.PING:
        table.send(wire.PONG, {"re": seq})
    elif kind == wire.GET:
        get(table, seq, body)
    elif kind == wire.PRESS:
        press(table, seq, body)
    elif kind == wire.ACT:
        move = body.get("move")
        if isinstance(move, dict) and move.get("type") == "ballot_reveal":
            # only the board holds the choices: a reveal from outside could be anything
            table.answer_error(seq, "board_reveals", "", {"type": "ballot_reveal"})
            return
        try:
            if isinstance(move, dict) and move.get("type") in ("new_game", "undo", "names", "known_names"):
                if move["type"] == "undo":  # the state frame (the shorter log) goes before the ok
                    table.undo(move.get("entry"))
                elif move["type"] == "new_game":
                    table.start(move, seq)
                    if table.restart_due:  # the answer comes after the restart (reboot.py)
                        return
                else:
                    table.name(move)
                    if move["type"] == "names" and table.listening:  # the names, before the ok
                        table.send(wire.WELCOME, table.welcome())
                if table.on_entry is not None:  # the strip and the display show it before the ok, as an entry's
                    table.on_entry()
                table.send(wire.OK, {"re": seq, "i": None})
                return
            index = table.act(move, body.get("seat"))
        except RuleError as e:
            # the facts, not the sentence: the host renders it with shared_rules.texts,
            # and the board keeps the prose of every message out of its RAM
            table.answer_error(seq, e.code, "", e.detail)
            return
        table.send(wire.OK, {"re": seq, "i": index})
    else:  # pull and ack (the finished games kept on flash), or a kind a board does not take
        from firmware import kept

        kept.frame(table, seq, kind, body)


def hello(table):
    table.send(wire.WELCOME, welcome(table))
    send_state(table)
    if table.menu_pad is None:
        # no key's screen up: the board layer shows (and sends) status(), so a host that
        # has just come sees the display as it is, not a blank until the next key
        table.screen_due = True


def send_state(table):
    """The state frame: the log's length, the state's digest and the public view, so a
    host can show the table before it has replayed anything (after a hello), or drop
    the entries it has past the length (after an undo)."""
    view = engine.game_module(table.game).view(table.state, None)
    body = {"len": table.count, "digest": canon.digest(table.state), "view": view}
    try:
        table.send(wire.STATE, body)
    except wire.FrameError as e:
        if e.code != "too_long":
            raise
        # a view longer than a frame may be (The King's Dilemma after a sealed vote's
        # reveal): the snapshot without it; the host has the view from the entries (GET)
        view = body["view"] = None
        table.send(wire.STATE, body)


def welcome(table):
    out = {"fw": FIRMWARE, "proto": wire.PROTO, "game": table.game, "settings": table.header["settings"],
           "len": table.count, "digest": canon.digest(table.state), "id": table.board_id,
           "seed": table.header["seed"], "start": table.header["start"]}
    if table.journal.names is not None:  # the seats' names, once they have been named
        out["names"] = table.journal.names
    return out


def get(table, seq, body):
    """Entries i..j-1 from the journal, one entry frame each (a host catching up)."""
    i, j = body.get("i"), body.get("j")
    if not (isinstance(i, int) and isinstance(j, int) and 0 <= i <= j <= table.count):
        table.answer_error(seq, "bad_range", "get needs 0 <= i <= j <= %d" % table.count)
        return
    k = 0
    for entry in table.journal.entries(i):
        if i + k >= j:
            break
        table.send(wire.ENTRY, {"i": i + k, "move": entry["action"], "events": entry["events"],
                                "digest": entry["digest"]})
        k += 1


def press(table, seq, body):
    """A press sent by the host (the simulated board's mirror, tests): as the pad's own key."""
    pad, key, hold = body.get("pad"), body.get("key"), body.get("hold")
    names = pads.TABLE_BUTTONS if pad == pads.TABLE else pads.PAD_BUTTONS
    if not (isinstance(pad, int) and 0 <= pad <= pads.TABLE and isinstance(key, int)
            and 0 <= key < len(names) and hold in (pads.SHORT, pads.LONG)):
        table.answer_error(seq, "bad_press", "press needs pad 0-%d, a key of that pad and hold short|long"
                     % pads.TABLE)
        return
    screen, index = table.pressed(pad, pads.menu_name(names[key], hold))
    table.send(wire.DISPLAY, {"lines": screen})
    table.send(wire.OK, {"re": seq, "i": index})
