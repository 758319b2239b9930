"""State = the fold of events: how each King's Dilemma event changes the state.

Folding decides nothing (flow.py, voting.py and dilemma.py have); one
function with a branch per event type (every function object costs RAM).
"""

from shared_rules import canon, prng


def fold(state, ev):
    t = ev["t"]
    if t == "vote":
        seat = ev["seat"]
        state["choice"][seat] = ev["side"]
        state["committed"][seat] += ev["power"]
        state["power"][seat] -= ev["power"]
    elif t == "next":
        state["turn"] = ev["seat"]
    elif t == "leader":
        state["leader"] = ev["seat"]
    elif t == "pass":
        state["choice"][ev["seat"]] = ev["kind"]
        if ev["kind"] == "moderate":
            state["moderator"] = ev["seat"]
    elif t == "move":
        r = ev["resource"]
        state["resources"][r] = ev["pos"]
        state["momentum"][r] = ev["side"]
        state["marker"][r] = ev["marker"]
        if "stability" in ev:
            state["stability"] = ev["stability"]
        if "abdicated" in ev:
            state["abdicated"] = ev["abdicated"]
    elif t == "await":
        state["step"] = ev["step"]
        state["turn"] = None
        state["tied"] = list(ev.get("tied", []))
    elif t == "won":
        state["side"] = ev["side"]
    elif t == "coins":
        state["coins"][ev["giver"]] -= ev["amount"]
        state["coins"][ev["taker"]] += ev["amount"]
    elif t == "coins_back":
        for s in ev["seats"]:
            state["coins"][s] += 1
    elif t == "gathered":
        for s in ev["seats"]:
            state["power"][s] += ev["each"]
        state["middle"] -= ev["each"] * len(ev["seats"])
    elif t == "returned":
        seats = ev["seats"]
        for i in range(len(seats)):
            state["power"][seats[i]] += ev["power"][i]
            state["committed"][seats[i]] = 0
    elif t == "to_middle":
        state["middle"] += ev["power"]
        for s in range(len(state["choice"])):
            if state["choice"][s] == state["side"]:
                state["committed"][s] = 0
    elif t == "stay":
        pass
    elif t == "momentum":
        state["momentum"][ev["resource"]] = ev["side"]
        state["pending"] -= 1
        if ev["source"] == "board":  # the value came from the core PRNG: keep it in step
            state["rng"] = prng.die(state["rng"])[1]
    elif t == "round":
        n = state["settings"]["players"]
        state["round"] = ev["round"]
        state["step"] = "vote"
        state["turn"] = ev["seat"]
        state["choice"] = [""] * n
        state["committed"] = [0] * n
        state["side"] = ""
        state["tied"] = []
    elif t == "record":
        rec = dict(ev)
        del rec["t"]
        state["chronicle"].append(rec)
    elif t == "placed":
        state["placed"] += 1
        if ev["space"] == state["settings"]["death_space"]:
            state["on_death"] += 1
    elif t == "pool":
        state[ev["pool"]][ev["seat"]] += ev["amount"]
    elif t == "stability":
        state["stability"] = ev["stability"]
        if "abdicated" in ev:
            state["abdicated"] = ev["abdicated"]
    elif t == "momentum_set":
        state["momentum"][ev["resource"]] = ev["side"]
        state["marker"][ev["resource"]] = ev["marker"]
    elif t == "agenda_value":
        state["agenda_bonus"][ev["token"]] += ev["amount"]
    elif t == "drawn":
        pass  # the card goes to the Event area; place() has ended the round
    elif t == "end":
        state["step"] = "over"
        state["turn"] = None
        state["ending"] = ev["ending"]
        state["scores"] = canon.copy(ev["scores"])
        state["winners"] = list(ev["winners"])
    else:
        raise ValueError("unknown event " + t)
