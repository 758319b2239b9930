"""Yes, Your Grace's events into the state: decides nothing (flow.py decides)."""

from shared_rules.yes_your_grace.actions import ROLES
from shared_rules.yes_your_grace.flow import PHASES


def fold(state, ev):
    t = ev["t"]
    if t in ("event", "civil_war"):  # the last working, for the table to read again
        last = dict(ev)
        del last["t"]
        state["last"] = last
    if t == "phase":
        state["step"] = ev["step"]
    elif t == "event":
        state["events"] += 1
        for r in ev["support"]["roles"] + ev["oppose"]["roles"]:
            state["played"].append(ROLES.index(r[0]))
        if ev["kind"] == "overthrow":
            state["violence"] = 1
    elif t == "record":
        state["annals"].append(ev["kind"])
        if ev["kind"] == "triumph":
            state["triumphs"] += 1
    elif t == "damage":
        for k in ev["kinds"]:
            state["holdings"][ev["seat"]][k] -= 1
            state["damaged"][ev["seat"]][k] += 1
        state["pending"] = 0
        if state["step"] == "damage":
            state["step"] = "event"
    elif t == "await":
        state["step"] = "damage"
        state["pending"] = ev["count"]
    elif t == "holding":
        s, k, change = ev["seat"], ev["kind"], ev["change"]
        if change == "gain":
            state["holdings"][s][k] += 1
        elif change == "lose":
            state["damaged" if ev["damaged"] else "holdings"][s][k] -= 1
        else:
            d = 1 if change == "damage" else -1
            state["holdings"][s][k] -= d
            state["damaged"][s][k] += d
    elif t == "heir":
        state["heir"] = ev["seat"]
    elif t == "face":
        state["face"] = ev["face"]
    elif t == "cards":
        pass  # G14: no hand is held; the cards count when they are revealed on an Event
    elif t == "role":
        state["roles"][ROLES.index(ev["role"])] = ev["seat"]
    elif t == "fall":
        state["former"] = ev["king"]
        state["successor"] = ev["successor"]
        state["resume"] = state["step"] if state["step"] in PHASES else "event"
        state["step"] = "accede" if ev["successor"] is not None else "civil_war"
    elif t == "civil_war":
        state["violence"] = state["war"] = 1
        state["successor"] = ev["winner"]
        state["step"] = "accede"
    elif t == "accede":
        seat = ev["seat"]
        state["king"], state["face"], state["heir"] = seat, ev["face"], ev.get("heir")  # G16: who stays Heir
        if seat not in state["kings"]:
            state["kings"].append(seat)
        for r in range(4):
            if state["roles"][r] == seat:  # the new King's Roles go back to the King (L24)
                state["roles"][r] = None
        state["step"], state["successor"], state["war"] = state["resume"], None, 0
    elif t == "round":
        state["round"] = ev["round"]
        state["step"] = "resource"
        state["violence"] = state["triumphs"] = state["events"] = 0
        state["played"] = []
        state["kings"] = [state["king"]]
    elif t == "shown":
        state["shown"][ev["seat"]] = [ev["side"], ev["ambition"]]
    elif t == "over":
        state["step"] = "over"
        state["ending"] = ev["ending"]
        state["winners"] = list(ev["winners"])
    else:
        raise ValueError("unknown event " + t)
