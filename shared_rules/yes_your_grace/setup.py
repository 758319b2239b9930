"""Yes, Your Grace's setup: its settings, checked against the seats, and the state of round 1.

A module of its own: what a new game (or a resume, which starts from the header's
settings) reads, apart from the rules of play.
"""

from shared_rules.errors import RuleError
from shared_rules.schema import enum, ints
from shared_rules.yes_your_grace import NAME
from shared_rules.yes_your_grace.rulings import RULINGS


def settings():
    """The settings, as actions.SETTINGS gives them (its Built calls this)."""
    four = {"kind": "list", "of": ints(0, 9), "min": 4, "max": 4}
    for name, domain, default in (
            ("players", ints(3, 5), 4),
            ("annals", ints(1, 30), 12),  # Y1: the Record that ends the game
            ("steward", enum(["undamaged", "all"]), "undamaged"),  # Y2
            ("king", ints(0, 4), 0),
            ("face", enum(["loyalist", "usurper"]), "loyalist"),
            ("heir", ints(-1, 4), -1),
            ("roles", {"kind": "list", "of": ints(-1, 4), "min": 0, "max": 4}, []),
            ("holdings", {"kind": "list", "of": four, "min": 0, "max": 5}, []),
            ("damaged", {"kind": "list", "of": four, "min": 0, "max": 5}, []),
            ("max_value", ints(1, 9), 5),
            ("max_cost", ints(0, 9), 3),
            # rulings a table decides (RULINGS): the default is the reading the text favours
            # G16: the crown passed by a card to a seat not the Heir (an Overthrow's controller, G9):
            # the Heir card goes to the new King, nobody is Heir (L23, L25), or the Heir stays
            ("overthrow_heir", enum(["passes", "stays"]), "passes")):
        out = {"name": name, "domain": domain, "default": default}
        if name in RULINGS:  # a ruling a table decides: `chancery rules` lists it with its number
            out["ruling"] = "G16"
            out["absent"] = RULINGS[name]  # what a header without it means (engine.settings_for)
        yield out


def _bad(name, value, why, n):
    raise RuleError("bad_setting", {"name": name, "why": why, "value": value, "seats": n,
                                    "domain": {"kind": "int", "min": -1, "max": n - 1}})


def initial(settings, seed):
    """The state at the start of round 1, after the settings are checked against the seats.
    `seed` is unused: chance is the physical decks, entered as played."""
    s = dict(settings)
    n = s["players"]
    king, heir = s["king"], s["heir"]
    if king >= n:
        _bad("king", king, "out_of_range", n)
    if heir >= n or heir == king:
        _bad("heir", heir, "not_allowed", n)
    roles = list(s["roles"]) or [-1] * 4
    if len(roles) != 4 or [r for r in roles if r >= n or r == king]:
        _bad("roles", roles, "not_allowed", n)
    for name in ("holdings", "damaged"):
        if s[name] and len(s[name]) != n:
            _bad(name, s[name], "count", n)
    return {
        "game": NAME, "settings": s, "step": "resource", "round": 1,
        "king": king, "face": s["face"], "heir": heir if heir >= 0 else None,
        "holdings": [list(h) for h in s["holdings"]] or [[1, 1, 1, 1] for _ in range(n)],
        "damaged": [list(h) for h in s["damaged"]] or [[0, 0, 0, 0] for _ in range(n)],
        "roles": [r if r >= 0 else None for r in roles],
        "annals": [], "violence": 0, "triumphs": 0, "events": 0, "pending": 0,
        "played": [],  # the Roles (indexes) played to an Event this round: each goes to one (L12-L13)
        "kings": [king],  # the seats that were King this round: an Overthrow's possible targets (G13)
        "former": None, "successor": None, "war": 0, "resume": "",
        "shown": [None] * n, "last": None, "ending": "", "winners": [],
    }
