"""Seat names: what a player's name may be, one answer on the board and on the host.

A game's names are a list with one item per seat, from seat 0: a name, or None for a
seat that has none (it stays "seat 2"). Names are not part of a game's rules, state or
log: seat numbers stay the key there, and the names travel beside the log (a journal
side line on the board, the logbook's players table on the host, a "names" field in
an exported log's header). A name is what `check` accepts:

- 1 to MAX characters of printable ASCII: the board's display shows ASCII only, and
  MAX leaves room for a menu's marks on its 16-character lines;
- no space at either end and no comma (`--names Ann,Bob` separates names with commas);
- not a seat's own name ("seat 2", "2"): stats and `--player` read those as seats;
- not another seat's name in the same game, case ignored (ASCII only, as SQLite's NOCASE
  compares in the logbook's players table).

Errors are RuleErrors whose facts name the seat, the name and what is allowed
(shared_rules/texts.py words them); nothing is changed where one is raised.
"""

from shared_rules.compat import const
from shared_rules.errors import RuleError

MAX = const(12)  # characters in a name
MAX_KNOWN = const(12)  # names the host offers the board's menu (the board keeps them on flash)


def _why(name):
    """None if `name` may be a seat's name, else the reason: a RuleError's (code, why)."""
    if name == "":
        return "name_empty", None
    if len(name) > MAX:
        return "name_too_long", None
    for c in name:
        if not 32 <= ord(c) <= 126:
            return "name_bad", "char"
    if name[0] == " " or name[-1] == " ":
        return "name_bad", "space"
    if "," in name:
        return "name_bad", "comma"
    low = name.lower()
    if low[:4] == "seat":
        low = low[4:].strip()
    if low.isdigit():
        return "name_bad", "seat"
    return None


def check_one(name, seat=None):
    """Raise the RuleError that refuses `name` for `seat` (None: a name of the known list)."""
    if not isinstance(name, str):
        raise RuleError("bad_names", {"value": name, "seat": seat})
    why = _why(name)
    if why is not None:
        detail = {"name": name, "seat": seat, "max": MAX}
        if why[1] is not None:
            detail["why"] = why[1]
        raise RuleError(why[0], detail)


def _same(a, b):
    return a is not None and b is not None and a.lower() == b.lower()


def check(names, seats):
    """The names of a game of `seats` seats: `names` (a list from seat 0, None for a seat
    without a name, at most one per seat) padded with None to one per seat. Raises RuleError."""
    if not isinstance(names, list):
        raise RuleError("bad_names", {"value": names, "seat": None})
    if len(names) > seats:
        raise RuleError("names_too_many", {"given": len(names), "seats": seats})
    out = []
    for s in range(seats):
        name = names[s] if s < len(names) else None
        if name is not None:
            check_one(name, s)
            for t in range(s):
                if _same(out[t], name):
                    raise RuleError("name_duplicate", {"name": name, "seats": [t, s]})
        out.append(name)
    return out


def check_known(names):
    """The host's known names for the board's menu: a list of at most MAX_KNOWN distinct names."""
    if not isinstance(names, list):
        raise RuleError("bad_names", {"value": names, "seat": None})
    if len(names) > MAX_KNOWN:
        raise RuleError("names_too_many", {"given": len(names), "seats": None, "max": MAX_KNOWN})
    for k in range(len(names)):
        check_one(names[k])
        for t in range(k):
            if _same(names[t], names[k]):
                raise RuleError("name_duplicate", {"name": names[k], "seats": None})
    return names
