"""Smart dice at the table: their events in, the table's roll out when the game asks for one.

The same on the board (firmware/board/ble_dice.py, acting on the Table) and on the host
(chancery/dice/watch.py, acting through the link). When the game wants dice, a Roll
(roll.py) takes the settled faces of the desk's dice; with all of them it becomes
{"type": "roll", "values": [...], "source": "smart", "dice": [each value's die]}. A die
rolled when no roll is asked for is ignored, and said; a die lost mid-roll leaves that
roll to the menu; a game whose roll takes no smart dice is said once.
"""

from firmware.dice.roll import Roll


def smart_params(g):
    """(whether game module g's roll takes source smart, whether it takes the dice ids)."""
    for s in g.SCHEMAS:
        if s["type"] == "roll":
            smart = ids = False
            for p in s["params"]:
                if p["name"] == "source":
                    smart = "smart" in p["domain"].get("values", ())
                ids = ids or p["name"] == "dice"
            return smart, ids
    return False, False


class Desk:
    def __init__(self, asked, act, say, dice=None):
        """asked(): (game module, state, the log's length); act(move): None when the table
        took it, else the refusal in words; say(line): tells the table; dice: the ids of the
        dice that roll for the table (None: any)."""
        self.asked = asked
        self.act = act
        self.say = say
        self.dice = dice
        self.roll = None
        self.roll_at = None  # the log's length when the roll was asked: a new entry ends it
        self.said_no = None  # the game module whose roll takes no smart dice, said once

    def tick(self):
        """Look at the game: a roll asked for starts one, an entry ends it."""
        g, state, length = self.asked()
        n = g.dice_wanted(state) if g is not None else 0
        if not n:
            self.roll = None
            return
        if self.roll is not None and self.roll_at == length:
            return
        self.roll = None
        if not smart_params(g)[0]:
            if self.said_no != g.NAME:
                self.said_no = g.NAME
                self.say("%s's roll takes no smart dice: enter it on the menu" % g.NAME)
            return
        self.roll, self.roll_at = Roll(n, self.dice), length
        self.say("roll %d %s" % (n, "die" if n == 1 else "dice"))

    def event(self, event):
        self.tick()
        kind, die = event[0], event[1]
        if kind == "battery":
            self.say("die %s battery %d%%" % (die, event[2]))
            return
        roll = self.roll
        if roll is None or roll.fallback is not None:
            if kind == "settled" and roll is not None:
                self.say("die %s rolled %d: this roll is the menu's now (a die was lost)" % (die, event[2]))
            elif kind == "settled":
                self.say("die %s rolled %d, but no roll is asked for: ignored" % (die, event[2]))
            elif kind == "lost":
                self.say("die %s disconnected" % die)
            return
        note = roll.take(event)
        if note:
            self.say("die " + note)
        if roll.done():
            self._send(roll)

    def _send(self, roll):
        g = self.asked()[0]
        move = {"type": "roll", "values": list(roll.values), "source": "smart"}
        if smart_params(g)[1]:
            move["dice"] = list(roll.ids)
        refused = self.act(move)
        if refused is None:
            self.say("rolled " + " ".join([str(v) for v in roll.values]))
            self.roll = None
            self.tick()  # another roll may be asked for at once
            return
        roll.fallback = roll.ids[-1] if roll.ids else "?"
        self.say("the roll was refused: %s; enter it on the menu" % refused)
