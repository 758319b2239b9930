"""The host's frames at the board's table (Table.frame): a hello, a ping, a GET, a press,
an action (the table's own: new_game, undo, names; or a game's), and the finished games'
pull and ack. Loaded by the first frame a host sends, as the link's code (shared_rules/wire.py)
is, and kept while the host is there: a board on its own at the table holds none of it (on a
Pico, room that the menus on top of a game need within 96 KB).
"""

from shared_rules import wire
from shared_rules.errors import RuleError


def answer(table, seq, kind, body):
    """Answer one frame from the host."""
    if kind == wire.HELLO:
        table.listening = True
        table.hello()
    elif kind == wire.PING:
        table.send(wire.PONG, {"re": seq})
    elif kind == wire.GET:
        table._link("get", seq, body)
    elif kind == wire.PRESS:
        table._link("press", seq, body)
    elif kind == wire.ACT:
        move = body.get("move")
        if isinstance(move, dict) and move.get("type") == "ballot_reveal":
            # only the board holds the choices: a reveal from outside could be anything
            table._error(seq, "board_reveals", "", {"type": "ballot_reveal"})
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
            table._error(seq, e.code, "", e.detail)
            return
        table.send(wire.OK, {"re": seq, "i": index})
    else:  # pull and ack (the finished games kept on flash), or a kind a board does not take
        table._kept("frame", seq, kind, body)
