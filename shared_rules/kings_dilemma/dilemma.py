"""Dilemma Resolution (L2238-2252): Resources, Momentum and Stability
(L2332-2374), the Chronicle sticker (L2376-2391), Story cards and Envelopes
(L2441-2482), the Time Counter (L3054-3070) and the end of the game
(L3208-3238), with rulings R10-R12 of ../shared/rules/kings-dilemma.md.
"""

from shared_rules.errors import RuleError
from shared_rules.kings_dilemma.actions import RESOURCES


def clamp(x, length):
    return 0 if x < 0 else (length - 1 if x >= length else x)


def momentum_step(pos, side, marker, d, length, edge=True):
    """One effect on one Resource: (new pos, side, marker, spaces moved incl. extra).

    side: 1 white (up), -1 black (down); marker: 0 or 1 Momentum marker.
    Same way as the Momentum: 1 extra space, 2 with the marker, and the marker
    is added (L2357-2360). Other way: no extra, flip, marker removed
    (L2362-2365). The marker stops at the track's ends (L2344). With edge False
    (R10's option), a marker already at the end it is pushed towards gets no
    extra and keeps its Momentum as it is."""
    way = 1 if d > 0 else -1
    size = d if d > 0 else -d
    at_end = (way > 0 and pos == length - 1) or (way < 0 and pos == 0)
    if way == side and not (at_end and not edge):
        size += 2 if marker else 1
        marker = 1
    elif way != side:
        side, marker = way, 0
    return clamp(pos + way * size, length), side, marker, size


def stability_step(pos, way, size, length):
    """(new pos, abdication end or "") for Stability moved `size` the same way (L2341-2348, R11)."""
    new = clamp(pos + way * size, length)
    if new == 0:
        return new, "bottom"
    if new == length - 1:
        return new, "top"
    return new, ""


def outcome(state, act, emit):
    """The winning outcome's Resource effects, in card order (L2336-2337)."""
    res, amounts = act["resources"], act["amounts"]
    if len(res) != len(amounts):
        raise RuleError("bad_outcome", {"why": "count", "resources": len(res), "amounts": len(amounts)})
    for i in range(len(amounts)):
        if amounts[i] == 0:
            raise RuleError("bad_outcome", {"why": "zero", "index": i})
    s = state["settings"]
    for i in range(len(res)):
        r = RESOURCES.index(res[i])
        d = amounts[i]
        pos, side, marker, size = momentum_step(state["resources"][r], state["momentum"][r],
                                                state["marker"][r], d, s["resource_track"], s["edge_momentum"])
        ev = {"t": "move", "resource": r, "amount": d, "spaces": size, "pos": pos, "side": side,
              "marker": marker}
        if not state["abdicated"]:  # frozen once the King abdicated (L2348, L3212-3213)
            ev["stability"], end = stability_step(state["stability"], 1 if d > 0 else -1, size,
                                                  s["stability_track"])
            if end:
                ev["abdicated"] = end
        emit(ev)
    emit({"t": "await", "step": "after"})


def record(state, act, emit):
    """Chronicle sticker, Story card (both signed by the Leader, L2380, L2478) or
    Envelope (a reminder to open it, L2441-2482): recorded for the campaign."""
    kind = act["kind"]
    ev = {"t": "record", "kind": kind, "round": state["round"]}
    if kind == "sticker":
        if "resource" not in act or "sign" not in act:
            raise RuleError("bad_record", {"kind": kind})
        ev["resource"], ev["sign"] = act["resource"], act["sign"]
    else:
        ev["number"] = act.get("number", 0)
    if kind != "envelope":
        ev["signer"] = state["leader"]
    emit(ev)


def place(state, act, emit):
    """Step E and F: the card on the Time Counter's top empty space, or on the
    King's-Death space once it is reached (L3054-3057, L3218-3220); Event and
    Trigger cards go to the Event area (L3054-3057). Then the end of the round:
    abdication first (R12), else death by the card back's icon or the fifth
    card on that space (L3215-3217)."""
    s = state["settings"]
    death = s["death_space"]
    icon = act.get("death_icon", False)
    on_death = False
    if act.get("where", "time_counter") == "time_counter":
        space = state["placed"] + 1 if state["placed"] < death else death
        emit({"t": "placed", "space": space, "death_icon": icon})
        on_death = space == death
    if state["abdicated"]:
        end(state, emit, "abdicated_" + state["abdicated"])
    elif on_death and (icon or state["on_death"] >= 5):
        end(state, emit, "died")
    else:
        from shared_rules.kings_dilemma import voting

        voting.start(state, emit)


def end(state, emit, ending):
    from shared_rules.kings_dilemma import scoring

    scores = scoring.scores(state)
    best = max([x[5] for x in scores])
    emit({"t": "end", "ending": ending, "scores": scores,
          "winners": [i for i in range(len(scores)) if scores[i][5] == best]})

