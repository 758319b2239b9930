"""Seat names as people type and read them.

`parse` reads what a person types (`--names Ann,Bob,-,Dee`, `:names Ann Bob`) and checks it
with the rule the board uses too (shared_rules/seat_names.py), so a mistake is answered in
words before anything is sent or stored. `called` puts the names into the games' own
sentences: every game's words say "seat 2" for a seat (narrate, show and texts keep that
convention, shared_rules/wording.py; The King's Dilemma says "House 2"), so one substitution
names them all, and a seat without a name stays "seat 2".
"""

import re

from chancery.words import commands
from shared_rules import games, seat_names
from shared_rules.errors import RuleError

NO_NAME = "-"  # typed for a seat that keeps no name
_SEAT = re.compile(r"\b(?:[Ss]eat|House) (\d+)\b")


def split(text):
    """The names in `text`: separated by commas when it has any (a name may hold a space
    then), else by spaces; "-" is a seat without a name (None)."""
    parts = text.split(",") if "," in text else text.split()
    if not parts:
        parts = [text]  # nothing at all typed: one empty name, refused as such
    return [None if p.strip() == NO_NAME else p.strip() for p in parts]


def parse(text, seats):
    """One name per seat (None: no name) from typed `text`, for a game of `seats` seats;
    raises commands.ParseError in words (an empty, too long or repeated name, too many)."""
    return checked(split(text), seats)


def checked(names, seats):
    """`names` padded to one per seat; raises commands.ParseError saying what is wrong."""
    try:
        return seat_names.check(names, seats)
    except RuleError as e:
        raise commands.ParseError("names: %s" % games.message(e))


def label(seat, names=None):
    """How a seat is called: its name, or "seat N" without one."""
    if names and seat < len(names) and names[seat]:
        return names[seat]
    return "seat %d" % seat


def called(text, names):
    """`text` with each "seat N" (or "House N") of a named seat replaced by its name."""
    if not names or not [n for n in names if n]:
        return text
    def one(m):
        seat = int(m.group(1))
        return names[seat] if seat < len(names) and names[seat] else m.group(0)

    return _SEAT.sub(one, text)


def listing(names):
    """"seat 0 Ann, seat 1 Bob, seat 2 (no name)": who sits where."""
    return ", ".join(["seat %d %s" % (s, n or "(no name)") for s, n in enumerate(names)])


def error_text(link, body):
    """The sentence for an error frame: the board may send only the code and the facts."""
    if body.get("message"):
        return body["message"]
    e = RuleError(body.get("code", "?"), body.get("detail") or {})
    e.game = link.mirror.match["game"] if link.mirror else None
    if e.code.startswith("name") or e.code == "bad_names":  # about the names themselves: seats by number
        return games.message(e)
    return called(games.message(e), link.mirror.names if link.mirror else None)
