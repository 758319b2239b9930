"""Nim's events into the state."""


def fold(state, ev):
    if ev["t"] == "took":
        state["pile"] -= ev["count"]
        state["turn"] = (ev["seat"] + 1) % state["settings"]["players"]
    elif ev["t"] == "over":
        state["step"] = "over"
        state["winners"] = list(ev["winners"])
    else:
        raise ValueError("unknown event " + ev["t"])
