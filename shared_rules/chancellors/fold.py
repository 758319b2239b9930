"""State = the fold of events: how each Chancellors event changes the state.

Folding never validates or decides anything; flow.py has already done that.
It mutates the state it is given (the engine hands it a private copy). One
function with a branch per event type, not a function per type: on a board
every function object costs RAM.
"""

from shared_rules import canon, prng


def fold(state, ev):
    t = ev["t"]
    if t == "die":
        p, d = ev["problem"], ev["die"]
        state["problems"][p][d] = ev["value"]
        pending = state["pending"]
        for i in range(len(pending)):
            if pending[i][0] == p and pending[i][1] == d:
                pending.pop(i)
                break
        if ev["source"] == "board":
            # the value came from the core PRNG: keep the generator in step
            state["rng"] = prng.die(state["rng"])[1]
        if state["aside"][p] == d:
            state["aside"][p] = -1
    elif t == "solve":
        seat, p = ev["seat"], ev["problem"]
        state["scores"][seat] += ev["points"]
        state["solved"][p] = "part" if ev["part"] else "full"
        if ev["part"]:
            state["aside"][p] = ev["aside"]
        state["played"].extend(ev["cards"])
        state["last_solver"] = seat
        state["queue"].pop(0)
    elif t == "pass":
        if ev["abdicate"]:
            state["control"][ev["abdicate"]] = None
        state["queue"].pop(0)
    elif t == "played":
        state["played"].append(ev["card"])
    elif t == "control":
        state["control"][ev["service"]] = ev["seat"]
    elif t == "step":
        state["step"] = ev["step"]
        state["queue"] = canon.copy(ev["queue"])  # a copy: later folds pop from it, never from the log
    elif t == "await_roll":
        state["step"] = "roll"
        state["roll_for"] = ev["for"]
        state["pending"] = canon.copy(ev["dice"])
    elif t == "escalate":
        state["problems"][ev["problem"]][ev["die"]] = ev["value"]
    elif t == "turn":
        n = len(state["problems"])
        state["turn"] = ev["turn"]
        state["step"] = "A"
        state["solved"] = [""] * n
        state["aside"] = [-1] * n
        state["played"] = []
        state["queue"] = []
    elif t == "score":  # the effects (effects.py)
        state["scores"][ev["seat"]] += ev["amount"]
    elif t == "die_set":
        state["problems"][ev["problem"]][ev["die"]] = ev["value"]
    elif t == "service":
        state["control"][ev["service"]] = ev["seat"]
        if "queue" in ev:  # step B: the service's chance went with it (ruling X5)
            state["queue"] = canon.copy(ev["queue"])
    elif t == "excuse":
        state["excuse"] = ev["seat"]
    elif t == "end":
        state["step"] = "over"
        state["ending"] = ev["ending"]
        state["winners"] = list(ev["winners"])
        state["queue"] = []
    elif t != "draw_cards":  # draw_cards: step E is physical, a reminder only
        raise ValueError("unknown event " + t)
