"""State = the fold of events: how each Chancellors event changes the state.

Folding never validates or decides anything; flow.py has already done that.
It mutates the state it is given (the engine hands it a private copy).
"""

from shared_rules import prng


def _die(state, ev):
    p, d = ev["problem"], ev["die"]
    state["problems"][p][d] = ev["value"]
    pending = state["pending"]
    for i in range(len(pending)):
        if pending[i][0] == p and pending[i][1] == d:
            pending.pop(i)
            break
    if ev["source"] == "board":
        # the board's roll came from the core PRNG: keep the generator in step
        _, state["rng"] = prng.die(state["rng"])
    if state["aside"][p] == d:
        state["aside"][p] = -1


def _turn(state, ev):
    n = len(state["problems"])
    state["turn"] = ev["turn"]
    state["step"] = "A"
    state["solved"] = [""] * n
    state["aside"] = [-1] * n
    state["played"] = []
    state["queue"] = []


def _solve(state, ev):
    seat, p = ev["seat"], ev["problem"]
    state["scores"][seat] += ev["points"]
    state["solved"][p] = "part" if ev["part"] else "full"
    if ev["part"]:
        state["aside"][p] = ev["aside"]
    state["played"].extend(ev["cards"])
    state["last_solver"] = seat
    state["queue"].pop(0)


def _pass(state, ev):
    if ev["abdicate"]:
        state["control"][ev["abdicate"]] = None
    state["queue"].pop(0)


def _excuse(state, ev):
    state["excuse"] = ev["seat"]


def _step(state, ev):
    state["step"] = ev["step"]
    state["queue"] = ev["queue"]


def _await_roll(state, ev):
    state["step"] = "roll"
    state["roll_for"] = ev["for"]
    state["pending"] = ev["dice"]


def _played(state, ev):
    state["played"].append(ev["card"])


def _control(state, ev):
    state["control"][ev["service"]] = ev["seat"]


def _escalate(state, ev):
    state["problems"][ev["problem"]][ev["die"]] = ev["value"]


def _end(state, ev):
    state["step"] = "over"
    state["ending"] = ev["ending"]
    state["winners"] = ev["winners"]
    state["queue"] = []


def _nothing(state, ev):
    pass


_FOLDS = {
    "die": _die,
    "turn": _turn,
    "solve": _solve,
    "pass": _pass,
    "step": _step,
    "await_roll": _await_roll,
    "played": _played,
    "control": _control,
    "escalate": _escalate,
    "excuse": _excuse,
    "end": _end,
    "draw_cards": _nothing,
}


def fold(state, ev):
    _FOLDS[ev["t"]](state, ev)
