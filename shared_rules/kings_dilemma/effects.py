"""What the printed cards do that no rule here knows: typed effects the table enters.

Story cards, House achievements, Majority Signer Bonuses, Trigger and Event cards and
outcomes change pools and tracks in ways only the printed card says (L1605-1663,
L2551-2555, L393-398, L3054-3057). Each effect is public (the table sees the card) and
carries an optional reason (the card's name, "house rule", "fix a misentry"); each is
checked against the state's domains and refused, with nothing changed, when it does not fit.

  pool          Coins, Power or Agenda Points from (+) or to (-) the general pool for a
                House; Agenda Points count in its final total (ruling K9).
  stability     the Stability marker moved; at either end the King abdicates (L2244,
                L3211-3213), and once abdicated it no longer moves (L2348).
  momentum      a Resource's Momentum marker added (on its current side), removed, or
                the marker flipped (its side turned, L2357-2365).
  agenda_value  an active Story card changes what an Open Agenda token is worth when it
                scores ("+1 additional", L1659-1663).
  drawn         the round's card is an Event or Trigger card: no Vote, it goes to the
                Event area (L3054-3057), and the round ends as after any card.

Ruling K9 (the texts are silent on where they go): Agenda Points from effects add to a
House's total beside the five scored columns, and are shown apart (the view's "ap").
"""

from shared_rules.errors import RuleError
from shared_rules.kings_dilemma.actions import RESOURCES
from shared_rules.schema import with_reason

_POOLS = {"coins": "coins", "power": "power", "agenda": "ap"}


def _nonzero(act, what):
    if act["amount"] == 0:
        raise RuleError("zero_effect", {"what": what})


def pool(state, act, emit):
    _nonzero(act, "pool")
    seat, key, amount = act["seat"], _POOLS[act["pool"]], act["amount"]
    if key != "ap" and state[key][seat] + amount < 0:  # not how many it has: that is behind the screen
        raise RuleError("not_enough", {"seat": seat, "pool": act["pool"], "asked": -amount})
    emit(with_reason(act, {"t": "pool", "seat": seat, "pool": key, "amount": amount}))


def stability(state, act, emit):
    from shared_rules.kings_dilemma.dilemma import stability_step

    _nonzero(act, "stability")
    if state["abdicated"]:
        raise RuleError("stability_frozen", {"abdicated": state["abdicated"]})
    d = act["amount"]
    pos, end = stability_step(state["stability"], 1 if d > 0 else -1, d if d > 0 else -d,
                              state["settings"]["stability_track"])
    ev = {"t": "stability", "amount": d, "stability": pos}
    if end:
        ev["abdicated"] = end
    emit(with_reason(act, ev))


def momentum(state, act, emit):
    r = RESOURCES.index(act["resource"])
    change = act["change"]
    side, marker = state["momentum"][r], state["marker"][r]
    if (change == "add" and marker) or (change == "remove" and not marker):
        raise RuleError("no_momentum_change", {"resource": act["resource"], "change": change, "marker": marker})
    if change == "add":
        marker = 1
    elif change == "remove":
        marker = 0
    else:  # turning the Resource marker over removes any Momentum marker on it (L2362-2365)
        side, marker = (-side if side else 1), 0
    emit(with_reason(act, {"t": "momentum_set", "resource": r, "side": side, "marker": marker, "change": change}))


def agenda_value(state, act, emit):
    _nonzero(act, "agenda_value")
    i = RESOURCES.index(act["resource"]) + (5 if act["sign"] == "negative" else 0)
    emit(with_reason(act, {"t": "agenda_value", "token": i, "amount": act["amount"]}))


def before_vote(state):
    """True while the round's card may still be an Event or Trigger card: no House has acted."""
    return state["step"] == "vote" and not [c for c in state["choice"] if c] and not sum(state["committed"])


def drawn(state, act, emit):
    if not before_vote(state):
        raise RuleError("not_before_vote", {"card": act["card"]})
    emit(with_reason(act, {"t": "drawn", "card": act["card"], "round": state["round"]}))
    from shared_rules.kings_dilemma.dilemma import place

    place(state, {"where": "event_area"}, emit)


def apply(state, act, emit):
    """The effect `act` names (flow.decide hands every effect here)."""
    kind = act["type"]
    (pool if kind == "pool" else stability if kind == "stability" else momentum if kind == "momentum"
     else agenda_value if kind == "agenda_value" else drawn)(state, act, emit)
