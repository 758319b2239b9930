"""What a seat may do now (legal actions with narrowed domains) and what the board asks."""

from shared_rules.kings_dilemma.actions import SCHEMAS
from shared_rules.kings_dilemma.flow import bargain_open


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


def legal(state, seat=None):
    """Action schemas usable now by `seat` (None: anyone at the table)."""
    step = state["step"]
    by = SCHEMAS.one  # a type's schema, built for it alone (schema.by_type)
    out = []
    if step == "over":
        return out
    n = state["settings"]["players"]
    if step == "roll":
        k = state["pending"]
        roll = by("roll")  # built afresh: its own to change
        roll["params"] = [p for p in roll["params"] if p["name"] != "dice"]  # a reader's only
        out.append(_narrow(roll, {"values": {"kind": "list", "of": _ints(1, 6), "min": k, "max": k}}))
    elif step == "vote":
        who = state["turn"]
        if state["settings"].get("voting") != "sealed" and (seat is None or seat == who):
            # the schema's whole Power range, not what the House has: a menu on the table's
            # display, or the host's list, would show that (the rules refuse more than it
            # has, R6 included, and the refusal does not say how much)
            if state["choice"][who] == "":
                kinds = ["gather"]
                if "moderate" not in state["choice"]:
                    kinds.append("moderate")
                out.extend([by("vote"), _narrow(by("pass"), {"kind": {"kind": "enum", "values": kinds}})])
            else:
                out.extend([by("add"), by("stay")])
    elif step in ("side", "leader"):
        if seat is None or seat == state["moderator"]:
            if step == "side":
                out.append(by("decide"))
            else:
                dom = {"kind": "int", "min": 0, "max": n - 1, "among": list(state["tied"])}
                out.append(_narrow(by("appoint"), {"leader": dom}))
    elif step == "outcome":
        out.append(by("outcome"))
    else:
        out.append(by("record"))
        out.append(by("place"))
    if bargain_open(state):  # while a vote is on, or at any time (K7: the setting bargain)
        out.append(by("coins"))  # any House, any amount: who has how many Coins is behind the screens
    if step != "roll" and seat is None:  # the printed cards' effects (effects.py): the table enters them
        out.append(by("pool"))
        if not state["abdicated"]:  # the King abdicated: the Stability marker no longer moves (effects.py)
            out.append(by("stability"))
        out.extend([by("momentum"), by("agenda_value")])
        from shared_rules.kings_dilemma.effects import before_vote

        if before_vote(state):
            out.append(by("drawn"))
    return out
