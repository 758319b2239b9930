"""Setup (L770-1010): the settings checked against each other, and the first state.

Settings defaults follow rulings R1 (track lengths) and L835 (8 Power and 10
Coins per House). Leader and Moderator come from the Prestige order, entered
as the setting `prestige` (seats from highest to lowest, L597-602 tie-breaks
applied by the players): the highest takes the Leader (L992-996), the lowest
the Moderator (L998-1001).
"""

from shared_rules import prng
from shared_rules.errors import RuleError


def _ints(lo, hi, k):
    return {"kind": "list", "of": {"kind": "int", "min": lo, "max": hi}, "min": k, "max": k}


def check(s):
    """Raise bad_setting unless the settings fit together (the schema checked each alone):
    per-House lists have one item per House (or none), the tracks have a centre
    space (R1), Prestige names each seat once, the King's-Death space is on the
    Time Counter."""
    n = s["players"]
    top = s["resource_track"] - 1
    # name, items wanted, lowest and highest value (None: the schema's check is enough)
    for name, k, lo, hi in (("power", n, None, 0), ("coins", n, None, 0), ("agenda_money", n, None, 0),
                            ("agenda_area", n, None, 0), ("agenda_goal", n, None, 0),
                            ("prestige", n, 0, n - 1), ("resources", 5, 0, top), ("open_agendas", 10, -1, n - 1)):
        v = s[name]
        why = ""
        if v and len(v) != k:
            why = "count"
        elif lo is not None and [x for x in v if x < lo or x > hi]:
            why = "out_of_range"
        elif name == "prestige" and [i for i in range(len(v)) if v[i] in v[i + 1:]]:
            why = "repeats"
        if why:
            raise RuleError("bad_setting", {"name": name, "why": why, "value": v, "seats": n,
                                            "domain": _ints(0 if lo is None else lo, 99 if lo is None else hi, k)})
    for name in ("resource_track", "stability_track"):
        if s[name] % 2 == 0:
            raise RuleError("bad_setting", {"name": name, "why": "not_allowed", "value": s[name], "seats": n,
                                            "domain": {"kind": "int", "min": 3, "max": 31,
                                                       "among": list(range(3, 32, 2))}})
    if s["death_space"] > s["time_counter"]:
        raise RuleError("bad_setting", {"name": "death_space", "why": "out_of_range", "value": s["death_space"],
                                        "seats": n, "domain": {"kind": "int", "min": 1, "max": s["time_counter"]}})


def initial(settings, seed):
    """The state before the Momentum roll: pools, Balance, tracks centred (L770-1001)."""
    s = dict(settings)
    check(s)
    n = s["players"]
    order = s["prestige"] or list(range(n))
    centre = s["resource_track"] // 2
    return {
        "game": "kings_dilemma",
        "settings": s,
        "step": "roll",
        "pending": 5,
        "round": 0,
        "power": list(s["power"]) or [8] * n,
        "coins": list(s["coins"]) or [10] * n,
        "middle": s["middle"],
        "leader": order[0],
        "moderator": order[-1],
        "turn": None,
        "choice": [""] * n,
        "committed": [0] * n,
        "side": "",
        "tied": [],
        "resources": list(s["resources"]) or [centre] * 5,
        "momentum": [0] * 5,
        "marker": [0] * 5,
        "stability": s["stability_track"] // 2,
        "abdicated": "",
        "placed": 0,
        "on_death": 0,
        "chronicle": [],
        "ending": "",
        "scores": [],
        "winners": [],
        "rng": prng.seed_state(seed),
    }
