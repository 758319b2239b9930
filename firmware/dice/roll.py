"""A roll read from smart dice: the events of the dice (firmware/dice/__init__.py) in, the
roll's values and each value's die out. The board and the host use the same one.

A die gives a value only by settling after it rolled: a die still in the air gives
none, and the roll is not done while any of its dice is in the air (a second die of the
same throw may still land). A die lost while it rolls, or after it gave some of the
values, ends the roll: the table enters it on the menu (`fallback` says which die).
"""


class Roll:
    def __init__(self, wanted, dice=None):
        """wanted: how many values the rules ask for; dice: the ids of the dice that may
        give them (those assigned to the roll's owner), None for any die."""
        self.wanted = wanted
        self.dice = dice
        self.values = []
        self.ids = []  # the die of each value
        self.rolling = []  # the dice in the air
        self.fallback = None  # the die lost in the middle of the roll: the menu enters it

    def plain(self):
        """The roll as a list, but its dice (for a board that lets this module go between its
        dice's events: of(), with the dice as they are then)."""
        return [self.wanted, self.values, self.ids, self.rolling, self.fallback]

    def done(self):
        return self.fallback is None and len(self.values) >= self.wanted and not self.rolling

    def take(self, event):
        """One event; returns a note for the table (a short line) or None."""
        kind, die = event[0], event[1]
        if self.dice is not None and die not in self.dice:
            return "%s: not for this roll" % die if kind == "settled" else None
        if kind == "rolling":
            if die not in self.rolling:
                self.rolling.append(die)
            return None
        if kind == "lost":
            if die in self.rolling or die in self.ids:
                self.fallback = die
                return "%s lost: enter the roll on the menu" % die
            return "%s lost" % die
        if kind not in ("settled", "moved", "tilted"):
            return None
        if die in self.rolling:
            self.rolling.remove(die)
        if kind == "tilted":
            return "%s is cocked: roll it again" % die
        if kind == "moved":
            return "%s was turned by hand: roll it" % die
        if len(self.values) >= self.wanted:
            return "%s: the roll has its %d values" % (die, self.wanted)
        self.values.append(event[2])
        self.ids.append(die)
        return None


def of(plain, dice):
    """The roll that Roll.plain() gave, whose values may come from `dice` (Roll's)."""
    roll = Roll(plain[0], dice)
    roll.values, roll.ids, roll.rolling, roll.fallback = plain[1], plain[2], plain[3], plain[4]
    return roll
