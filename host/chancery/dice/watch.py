"""The board's rolls from smart dice, through the link: firmware/dice/desk.py with the link's mirror and act."""

from firmware.dice.desk import Desk
from shared_rules import engine, wire


class Watch(Desk):
    def __init__(self, link, say, dice=None):
        """link: a chancery.board.link.Link, hello'd; say(line): tells the table; dice: the ids
        of the dice that roll for the table (None: any die)."""
        self.link = link
        Desk.__init__(self, self._asked, self._act, say, dice)

    def _asked(self):
        m = self.link.mirror
        if m is None:
            return None, None, None
        return engine.game_module(m.match["game"]), m.match["state"], len(m.match["entries"])

    def _act(self, move):
        kind, body = self.link.act(move)
        if kind == wire.OK:
            return None
        from chancery.words.names import error_text

        return error_text(self.link, body)
