"""What a seat may do now (legal actions with narrowed domains) and what the board asks."""

from shared_rules.kings_dilemma.actions import SCHEMAS


def _by_type():
    out = {}
    for s in SCHEMAS:
        out[s["type"]] = s
    return out


def _narrow(schema, domains):
    """The schema with some parameters' domains replaced."""
    out = dict(schema)
    params = []
    for p in schema["params"]:
        if p["name"] in domains:
            p = dict(p)
            p["domain"] = domains[p["name"]]
        params.append(p)
    out["params"] = params
    return out


def _ints(lo, hi):
    return {"kind": "int", "min": lo, "max": hi}


def _vote_actions(state, by, who):
    have = state["power"][who]
    out = []
    if state["choice"][who] == "":
        if have > 0:  # R6: with no Power a House may only pass
            out.append(_narrow(by["vote"], {"power": _ints(1, have)}))
        kinds = ["gather"]
        if "moderate" not in state["choice"]:
            kinds.append("moderate")
        out.append(_narrow(by["pass"], {"kind": {"kind": "enum", "values": kinds}}))
    else:
        if have > 0:
            out.append(_narrow(by["add"], {"power": _ints(1, have)}))
        out.append(by["stay"])
    return out


def legal(state, seat=None):
    """Action schemas usable now by `seat` (None: anyone at the table)."""
    step = state["step"]
    by = _by_type()
    out = []
    if step == "over":
        return out
    n = state["settings"]["players"]
    if step == "roll":
        k = state["pending"]
        out.append(_narrow(by["roll"], {"values": {"kind": "list", "of": _ints(1, 6), "min": k, "max": k}}))
    elif step == "vote":
        who = state["turn"]
        if state["settings"].get("voting") != "sealed" and (seat is None or seat == who):
            out.extend(_vote_actions(state, by, who))
    elif step in ("side", "leader"):
        if seat is None or seat == state["moderator"]:
            if step == "side":
                out.append(by["decide"])
            else:
                dom = {"kind": "int", "min": 0, "max": n - 1, "among": list(state["tied"])}
                out.append(_narrow(by["appoint"], {"leader": dom}))
    elif step == "outcome":
        out.append(by["outcome"])
    else:
        out.append(by["record"])
        out.append(by["place"])
    coins = state["coins"]
    rich = [s for s in range(n) if coins[s] > 0]
    if rich:
        out.append(_narrow(by["coins"], {"giver": {"kind": "int", "min": 0, "max": n - 1, "among": rich},
                                         "amount": _ints(1, max(coins))}))
    return out
