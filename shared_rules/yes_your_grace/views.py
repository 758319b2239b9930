"""What a seat may do now (legal actions with narrowed domains)."""

from shared_rules.yes_your_grace.actions import KINDS, MAX_CARDS, ROLES, SCHEMAS, Names
from shared_rules.yes_your_grace.flow import PHASES, waiting


def _narrow(schema, domains):
    """The schema with some parameters' domains replaced (and parameters dropped: None)."""
    out = dict(schema)
    params = []
    for p in schema["params"]:
        if p["name"] in domains:
            if domains[p["name"]] is None:
                continue
            p = dict(p)
            p["domain"] = domains[p["name"]]
        params.append(p)
    out["params"] = params
    return out


def _seats(n, among, none=False):
    d = {"kind": "int", "min": 0, "max": n - 1, "among": among}
    if none:
        d["none"] = True
    return d


def _cards(among, hi):
    return {"kind": "list", "of": {"kind": "card", "deck": "yes_your_grace", "among": among}, "min": 0, "max": hi}


def _domains(state, seat, kind):
    """The narrowed domains of action `kind` now ({} as it is), or None when it is not offered."""
    step = state["step"]
    n = len(state["holdings"])
    king = state["king"]
    if step in PHASES:
        if kind in ("next", "holding"):
            return {}
        others = [s for s in range(n) if s != king]
        if kind in ("heir", "role"):
            return {"seat": _seats(n, others, True)}
        if kind == "fall":
            return {"to": _seats(n, others, True)}
        if kind == "face":  # G15: the face it does not show
            return {"face": {"kind": "enum", "values": ["usurper" if state["face"] == "loyalist" else "loyalist"]}}
        if kind == "cards":  # G14: hands are held until the Intrigue Phase ends (L13)
            return {} if step != "event" else None
        if kind == "event" and step == "event":
            held = [r for r in ROLES if state["roles"][ROLES.index(r)] is not None  # not yet played this round
                    and ROLES.index(r) not in state["played"]]
            roles = {"kind": "list", "of": {"kind": "enum", "values": held}, "min": 0, "max": len(held),
                     "distinct": True} if held else None
            return {"support_roles": roles, "oppose_roles": roles, "controller": _seats(n, list(range(n))),
                    "target": _seats(n, list(range(n)))}
        return None
    if kind != step:
        return None
    if step == "damage":
        whole = state["holdings"][king]
        k = state["pending"]
        kinds = [KINDS[j] for j in range(4) if whole[j]]
        return {"kinds": {"kind": "list", "of": {"kind": "enum", "values": kinds}, "min": k, "max": k}}
    if step == "civil_war":
        # only the types the Undamaged Holdings at the table provide (L25)
        have = [t for t in range(4) if sum([state["holdings"][s][t] for s in range(n)])]
        if len(have) == 4:
            return {}
        names = Names(state["settings"])
        per = names.values * names.costs
        among = [names[i] for i in range(len(names)) if (i // per if i < 3 * per else 3) in have]
        return {"cards": {"kind": "per_seat", "of": _cards(among, MAX_CARDS)}}
    if step == "reveal" and seat is not None and seat not in waiting(state):
        return None
    return {}


def legal(state, seat=None):
    """Action schemas usable now by `seat` (None: anyone at the table), in SCHEMAS order; only
    the usable ones are built (schema.by_type), one at a time, and narrowed (a board's heap)."""
    out = []
    for t in SCHEMAS.types:
        d = _domains(state, seat, t)
        if d is not None:
            s = SCHEMAS.one(t)
            out.append(_narrow(s, d) if d else s)
    return out
