"""Yes, Your Grace's decisions: check an action, emit its events, run the round on.

Each step refuses with a RuleError before emitting anything; the engine works on
a copy, so a refused action changes nothing. A round (L9): the Resource Phase and
the Intrigue Phase are played at the table (the King names the Heir and gives
out Roles: `heir`, `role`), then each Event is resolved in the order the King
picks (`event`, resolve.py), then `next` ends the round (L21). What Intrigue
cards and other printed effects do the table enters as effects (effects.py,
loaded when one is entered): `heir`, `role`, `holding`, `fall`, `face`, `cards`.
"""

from shared_rules.errors import RuleError
from shared_rules.yes_your_grace import resolve
from shared_rules.yes_your_grace.resolve import victory, waiting  # noqa: F401  (views takes waiting from here)

PHASES = tuple(["resource", "intrigue", "event"])
# the table's entries of what printed effects do (and the King's naming of the Heir and the Roles)
EFFECTS = tuple(["heir", "role", "holding", "fall", "face", "cards"])


def situation(state):
    """The few facts that say where the game stands (for messages and prompts)."""
    now = {"step": state["step"], "round": state["round"], "king": state["king"], "face": state["face"],
           "heir": state["heir"], "records": len(state["annals"]), "annals": state["settings"]["annals"]}
    for key in ("successor", "former", "pending", "winners", "ending"):
        now[key] = state[key]
    now["waiting"] = waiting(state)
    return now


def _next(state, emit):
    step = state["step"]
    if step != "event":
        emit({"t": "phase", "step": PHASES[PHASES.index(step) + 1]})
        return
    # the end of the round (L21): Violence, else Peace, else nothing (the Triumphs are written)
    if state["violence"]:
        if resolve.write(state, "violence", emit):
            return
    elif not state["triumphs"]:
        if resolve.write(state, "peace", emit):
            return
    emit({"t": "round", "round": state["round"] + 1})


def _reveal(state, act, emit):
    wait = waiting(state)
    seat = act.get("seat", wait[0] if wait else None)
    if seat not in wait:
        raise RuleError("not_waiting", {"seat": seat, "waiting": wait}, wait)
    side, ambition = act["side"], act.get("ambition")
    if side == "chaos" and ambition is not None:
        raise RuleError("bad_allegiance", {"side": side, "ambition": ambition})
    emit({"t": "shown", "seat": seat, "side": side, "ambition": ambition})
    if len(wait) == 1:
        victory(state, emit)


def decide(state, act, emit):
    kind = act["type"]
    step = state["step"]
    if step == "over":
        raise RuleError("game_over", {"now": situation(state)})
    if kind in EFFECTS and step in PHASES:  # an effect (effects.py), at any time of the round
        from shared_rules.yes_your_grace import effects

        effects.apply(state, act, emit)
        return
    if kind == "next" and step in PHASES:
        _next(state, emit)
    elif kind == "event" and step == "event":
        resolve.event(state, act, emit)
    elif kind == "damage" and step == "damage":
        resolve.damage(state, act["kinds"], emit)
    elif kind == "accede" and step == "accede":
        resolve.accede(state, act, emit)
    elif kind == "civil_war" and step == "civil_war":
        resolve.civil_war(state, act, emit)
    elif kind == "reveal" and step == "reveal":
        _reveal(state, act, emit)
    else:
        raise RuleError("wrong_step", {"what": kind, "now": situation(state)})
