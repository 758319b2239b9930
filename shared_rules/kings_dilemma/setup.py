"""The King's Dilemma's setup (L770-1010): its settings, checked against each other, and the first state.

A module of its own: what a new game (or a resume, which starts from the header's
settings) reads, apart from the rules of play.

Settings defaults follow rulings R1 (track lengths) and L835 (8 Power and 10 Coins
per House). Leader and Moderator come from the Prestige order, entered as the
setting `prestige` (seats from highest to lowest, L597-602 tie-breaks applied by the
players): the highest takes the Leader (L992-996), the lowest the Moderator (L998-1001).
"""

from shared_rules import prng
from shared_rules.errors import RuleError
from shared_rules.kings_dilemma import NAME
from shared_rules.kings_dilemma.rulings import RULINGS
from shared_rules.schema import ints, listof


def settings():
    """The settings, as actions.SETTINGS gives them (its Built calls this)."""
    per_house = listof(ints(0, 99), 0, 5)  # [] = the default for every House
    tables = listof(listof(ints(-99, 99), 0, 6), 0, 5)  # one small table per House; [] = none
    yes_no = {"kind": "bool"}
    for name, domain, default in (
        ("players", ints(3, 5), 4),
        ("power", per_house, []),
        ("coins", per_house, []),
        ("middle", ints(0, 99), 3),
        ("prestige", listof(ints(0, 4), 0, 5), []),
        ("resource_track", ints(3, 21), 9),
        ("resources", listof(ints(0, 20), 0, 5), []),
        ("stability_track", ints(3, 31), 13),
        ("time_counter", ints(1, 30), 8),
        ("death_space", ints(1, 30), 8),
        ("edge_momentum", yes_no, True),
        ("ranking", {"kind": "enum", "values": ["dense", "competition"]}, "dense"),
        ("coin_bonus", yes_no, False),
        ("open_agendas", listof(ints(-1, 4), 0, 10), []),
        ("agenda_money", tables, []),
        ("agenda_area", listof(listof(ints(0, 20), 0, 21), 0, 5), []),
        ("agenda_goal", tables, []),
        # the rulebook's open, turn-by-turn vote, or every House's side and Power sealed at once
        ("voting", {"kind": "enum", "values": ["open", "sealed"]}, "open"),
        # rulings a table decides (RULINGS): the default is the reading the text favours
        # K3: a House with 0 Power left earns no Power bonus, "most Power remaining" (L3551-3555,
        # L1700-1701), or 0 ranks like any other count
        ("zero_power", {"kind": "enum", "values": ["no_bonus", "ranked"]}, "no_bonus"),
        # K7: Coins change hands while a vote is on, "During the Voting Phase" and its
        # resolution (L1932-1942, L2080-2083, L2118-2130), or at any time (before: any)
        ("bargain", {"kind": "enum", "values": ["vote", "any"]}, "vote"),
    ):
        out = {"name": name, "domain": domain, "default": default}
        if name in RULINGS:  # a ruling a table decides: `chancery rules` lists it with its number
            out["ruling"] = "K3" if name == "zero_power" else "K7"
            out["absent"] = RULINGS[name]  # what a header without it means (engine.settings_for)
        yield out


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
    tokens = s["open_agendas"]
    for half in (0, 5):  # at most 2 Positive and 2 Negative tokens per player (L1449-1456)
        held = [x for x in tokens[half:half + 5] if x >= 0]
        over = [x for x in held if held.count(x) > 2]
        if over:
            raise RuleError("bad_setting", {"name": "open_agendas", "why": "too_many", "value": tokens, "seats": n,
                                            "seat": over[0], "sign": "Negative" if half else "Positive",
                                            "domain": _ints(-1, n - 1, 10)})
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
        "game": NAME,
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
        "ap": [0] * n,  # Agenda Points from effects (effects.py, ruling K9), added to the total
        "agenda_bonus": [0] * 10,  # what each Open Agenda token is worth more when it scores (L1659-1663)
        "ending": "",
        "scores": [],
        "winners": [],
        "rng": prng.seed_state(seed),
    }


