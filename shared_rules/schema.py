"""Action schemas: what each action takes, as data.

Every action type of every game declares its parameters and their domains
here, in plain dicts, so that the board's menus and the host's forms are
generated from them and no game needs input code of its own. A domain is one
of:

  {"kind": "int", "min": a, "max": b}       ("among": [...] narrows it; "none": True also allows null)
  {"kind": "enum", "values": [...]}          strings
  {"kind": "bool"}
  {"kind": "seat"}                            0 .. seats-1 ("none": True also allows null)
  {"kind": "card", "deck": "decktet"}         a card name ("among": [...] narrows it)
  {"kind": "text", "max": n}                  1..n characters of printable ASCII ("none": True
                                              also allows null; "multi": True a list of up to 6
                                              distinct texts); entered on the host, never on a pad
  {"kind": "list", "of": DOMAIN, "min": a, "max": b}   ("distinct": True: no repeats)
  {"kind": "per_seat", "of": DOMAIN}          one item for each seat, in seat order

A scalar domain may carry "start": the value a menu's cursor starts on, the likeliest one the
rules imply now (a game's legal() sets it: a service's holder stays when nobody takes it); it
narrows nothing. On an optional parameter it also says that the menu asks for it rather than
leaving it at its default (a bid's first suit, on one chip: a bid of nothing is a pass).

`check` validates an action against its schema and returns it with defaults
filled in; it raises RuleError("bad_param", ...) with the parameter, what was
wrong and the domain (texts.describe turns a domain into words).
"""

# Builtins as this module's globals: MicroPython looks a name up in the module first, and on a
# Pico a builtin found there costs 1 us against 9 us through the builtins' table (canon.py)
from builtins import bool, dict, int, isinstance, len, list, min, range, str, tuple, type

from shared_rules.canon import printable
from shared_rules.errors import RuleError


def reason():
    """A printed effect's optional reason (the card's name, "house rule", "fix a misentry"):
    every game's effects take it, and keep it in their event (with_reason)."""
    return param("reason", {"kind": "text", "max": 40}, optional=True)


def with_reason(act, event):
    """`event`, with the action's reason if one was given."""
    if act.get("reason"):
        event["reason"] = act["reason"]
    return event


def ruling(state, name, rulings):
    """A ruling setting as the rules read it: a ruling a table decides where the seed is
    silent, added after games were logged without it (engine.settings_for). `rulings` is the
    game's table of them, {name: absent}, absent being the reading the core followed before
    the setting existed: the settings hold the value only when it is another, so a state, a
    header or an old log without it means that reading. The one place a ruling is read."""
    return state["settings"].get(name, rulings[name])


def ints(lo, hi):
    """An int domain, lo..hi."""
    return {"kind": "int", "min": lo, "max": hi}


def listof(of, lo, hi):
    """A list domain of `of`, lo..hi items long."""
    return {"kind": "list", "of": of, "min": lo, "max": hi}


def enum(values):
    """An enum domain of these words."""
    return {"kind": "enum", "values": list(values)}


def param(name, domain, optional=False, default=None, omit=None):
    """omit: for an optional parameter, what leaving it out means, in a few words for a
    menu ("board rolls"); menus say "(default)" without it."""
    p = {"name": name, "domain": domain}
    if optional:
        p["optional"] = True
        p["default"] = default
        if omit:
            p["omit"] = omit
    return p


def action(type_, who, params):
    """who: "seat" (an action of the seat whose chance it is) or "table"."""
    return {"type": type_, "who": who, "params": params}


def int_max(domain, seats):
    """An int domain's largest value: with "seats_max" (d), at most seats + d once the seat
    count is known (Chancellors has a problem more than it has seats)."""
    d = domain.get("seats_max")
    return domain["max"] if d is None or not seats else min(domain["max"], seats + d)


def _named(name):
    """A parameter's name for a message: an item of a list is checked under (list's name, index),
    and the text "cards[3]" is made only when it fails (a step checks every item of a list)."""
    return "%s[%d]" % (_named(name[0]), name[1]) if isinstance(name, tuple) else name


def _fail(name, domain, seats, value, why):
    raise RuleError("bad_param", {"name": _named(name), "why": why, "value": value, "domain": domain,
                                  "seats": seats})


def check_value(name, domain, value, seats, cards):
    """Validate one value; `cards` is the set-like collection of known card names."""
    kind = domain["kind"]
    if value is None and domain.get("none") and kind in ("int", "text"):
        return
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            _fail(name, domain, seats, value, "not_int")
        if value < domain["min"] or value > int_max(domain, seats):
            _fail(name, domain, seats, value, "out_of_range")
        among = domain.get("among")
        if among is not None and value not in among:
            _fail(name, domain, seats, value, "not_allowed")
    elif kind == "enum":
        # compare by type too: 0 == False in Python, but not in an action
        if not [v for v in domain["values"] if v == value and type(v) is type(value)]:
            _fail(name, domain, seats, value, "not_choice")
    elif kind == "bool":
        if value is not True and value is not False:
            _fail(name, domain, seats, value, "not_bool")
    elif kind == "seat":
        if value is None and domain.get("none"):
            return
        if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value >= seats:
            _fail(name, domain, seats, value, "not_seat")
    elif kind == "card":
        if not isinstance(value, str) or value not in cards:
            _fail(name, domain, seats, value, "not_card")
        among = domain.get("among")
        if among is not None and value not in among:
            _fail(name, domain, seats, value, "not_allowed")
    elif kind == "text":
        if isinstance(value, list) and domain.get("multi"):  # several distinct texts (a multi ballot's pick)
            if len(value) > 6 or [x for x in value if value.count(x) > 1]:
                _fail(name, domain, seats, value, "repeats")
            for x in value:
                check_value(name, {"kind": "text", "max": domain["max"]}, x, seats, cards)
            return
        if not isinstance(value, str) or not 0 < len(value) <= domain["max"] or not printable(value):
            _fail(name, domain, seats, value, "not_text")
    elif kind in ("list", "per_seat"):
        if not isinstance(value, list):
            _fail(name, domain, seats, value, "not_list")
        if kind == "per_seat":
            lo = hi = seats
        else:
            lo, hi = domain["min"], domain["max"]
        if len(value) < lo or len(value) > hi:
            _fail(name, domain, seats, value, "count")
        of = domain["of"]
        for i in range(len(value)):
            check_value((name, i), of, value[i], seats, cards)
        if kind == "list" and domain.get("distinct"):
            for i in range(len(value)):
                if value.index(value[i]) != i:  # an equal item before it (no slice made per item)
                    _fail(name, domain, seats, value, "repeats")
    else:
        raise RuleError("bad_schema", {"kind": kind})


class Built:
    """Schemas or settings built when iterated: Built(gen) calls `gen` (a generator
    function, or a function returning a tuple) afresh on each pass. On a board a schema dict costs far more RAM than the
    bytecode that builds it, and the engine looks one schema up per action (find).
    `one`, if given, builds the schema of one action type alone (None for a type it does not
    know): find calls it rather than building every schema before the one it wants, which
    was half of a step on a Pico."""

    def __init__(self, build, one=None, types=None):
        self.build = build
        self.one = one
        self.types = types  # with `one`: the types it builds, in order

    def __iter__(self):
        return iter(self.build())  # a generator, or a function returning a tuple


def by_type(types, one):
    """Schemas built one type at a time: `one(type_)` builds a type's schema, `types` lists
    them in the order menus offer them."""
    return Built(lambda: (one(t) for t in types), one, types)


def find(schemas, type_):
    one = getattr(schemas, "one", None)
    if one is not None:
        return one(type_)
    for s in schemas:
        if s["type"] == type_:
            return s
    return None


def check(act, schemas, seats, cards):
    """Validate an action dict against the game's schemas; returns a normalised copy."""
    if not isinstance(act, dict):
        raise RuleError("bad_action", {"value": act}, [s["type"] for s in schemas])
    s = find(schemas, act.get("type"))
    if s is None:
        types = [x["type"] for x in schemas]
        raise RuleError("unknown_action", {"value": act.get("type"), "types": types}, types)
    out = {"type": s["type"]}
    known = ["type"]
    if s["who"] == "seat":
        known.append("seat")
        if "seat" in act and act["seat"] is not None:
            check_value("seat", {"kind": "seat"}, act["seat"], seats, cards)
            out["seat"] = act["seat"]
    for p in s["params"]:
        name = p["name"]
        known.append(name)
        if name in act:
            check_value(name, p["domain"], act[name], seats, cards)
            out[name] = act[name]
        elif p.get("optional"):
            if p["default"] is not None:
                out[name] = p["default"]
        else:
            raise RuleError("bad_param", {"action": s["type"], "name": name, "why": "missing",
                                          "domain": p["domain"], "seats": seats})
    for key in act:
        if key not in known:
            raise RuleError("bad_param", {"action": s["type"], "unknown": key, "params": known[1:]})
    return out
