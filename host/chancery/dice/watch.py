"""The board's rolls from smart dice: events in (firmware/dice/__init__.py), roll actions out, through the link.

When the board's game asks for dice (the game's dice_wanted on the mirrored state), a
Roll (firmware/dice/roll.py) takes the settled faces of the table's dice; when it has
them, the roll goes to the board as {"type": "roll", "values": [...], "source": "smart",
"dice": [each value's die]}. A die rolled when no roll is asked for is ignored, and said
so; a die lost in the middle of a roll leaves that roll to the board's menu.
"""

from firmware.dice.roll import Roll
from shared_rules import engine, schema, wire


def smart_roll_params(game):
    """(whether the game's roll takes source smart, whether it takes the dice ids)."""
    s = schema.find(engine.game_module(game).SCHEMAS, "roll")
    if s is None:
        return False, False
    params = {p["name"]: p for p in s["params"]}
    smart = "source" in params and "smart" in params["source"]["domain"].get("values", ())
    return smart, "dice" in params


class Watch:
    def __init__(self, link, say, dice=None):
        """link: a chancery.board.link.Link, hello'd; say(line): tells the table; dice: the ids
        of the dice that roll for the table (None: any die)."""
        self.link = link
        self.say = say
        self.dice = dice
        self.roll = None
        self.roll_at = None  # the log's length when the roll was asked: a new entry ends it
        self.refused_game = None  # a game whose roll takes no smart dice, said once

    def _asked(self):
        m = self.link.mirror
        if m is None:
            return 0, None
        return engine.game_module(m.match["game"]).dice_wanted(m.match["state"]), m.match

    def tick(self):
        """Look at the board's state: a roll asked for starts one, an entry ends it."""
        n, match = self._asked()
        length = len(match["entries"]) if match else None
        if not n:
            self.roll = None
            return
        if self.roll is not None and self.roll_at == length:
            return
        if not smart_roll_params(match["game"])[0]:
            if self.refused_game != match["game"]:
                self.refused_game = match["game"]
                self.say("%s's roll takes no smart dice: enter it on the board's menu" % match["game"])
            self.roll = None
            return
        self.roll, self.roll_at = Roll(n, self.dice), length
        self.say("the board asks for %d %s: roll them" % (n, "die" if n == 1 else "dice"))

    def event(self, event):
        self.tick()
        kind, die = event[0], event[1]
        if kind == "battery":
            self.say("die %s: battery %d%%" % (die, event[2]))
            return
        if self.roll is None or self.roll.fallback is not None:
            if kind == "settled" and self.roll is not None:
                self.say("die %s rolled %d: this roll is the board menu's now (a die was lost)" % (die, event[2]))
            elif kind == "settled":
                self.say("die %s rolled %d, but no roll is asked for: ignored" % (die, event[2]))
            elif kind == "lost":
                self.say("die %s disconnected" % die)
            return
        note = self.roll.take(event)
        if note:
            self.say("die " + note)
        if self.roll.done():
            self._send()

    def _send(self):
        roll, game = self.roll, self.link.mirror.match["game"]
        move = {"type": "roll", "values": list(roll.values), "source": "smart"}
        if smart_roll_params(game)[1]:
            move["dice"] = list(roll.ids)
        kind, body = self.link.act(move)
        if kind == wire.OK:
            self.say("rolled %s (entry %d)" % (" ".join([str(v) for v in roll.values]), body["i"]))
            self.roll = None
            self.tick()  # another roll may be asked for at once
            return
        from chancery.mirror.app import _error_text

        roll.fallback = roll.ids[-1] if roll.ids else "?"
        self.say("the board refused the roll: %s; enter it on the board's menu" % _error_text(self.link, body))
