"""What the rules cannot know: typed corrections and house rules the table enters.

A Decktet card prints no effect, so in Chancellors what no rule here knows is a
misentry to put right (a die read wrong, points given to the wrong seat, the Sailor
handed to the wrong player) or a house rule (a handicap, L88's spirit of agreeing on
the game). Each effect is public (the table sees scores, dice and service cards: L21,
L23; Chancellors keeps no secret in the core) and carries an optional reason ("fix a
misentry", "house rule", a card's name); each is checked against the state's domains
and refused, with nothing changed, when it does not fit. None is taken once the game
is over (its winners are decided; undo the entry instead).

  score    points added to (+) or taken from (-) a seat's cumulative score (L55, L59, L84).
  die      a problem's die set to a value, 1-6 (L21): one in play, not one waiting to be
           rolled, nor one set aside to be rerolled (L55, L59).
  service  a royal service's card moved to a seat, or to the middle of the table (nobody,
           L23, L61).

Rulings (continuing the digest's X1, X2):
X3  A score effect never takes a score below 0 (scores start at 0 and only grow, L55,
    L59). It counts like any other points: for step A's tie-break on the lower score
    (L41), and for the target at the end of the turn (L84); a seat lifted to the target
    mid-turn ends the game at the turn's end, not at once.
X4  A die effect sets a die that is in play: not one waiting to be rolled (the roll gives
    it), nor the dice of a problem wholly solved this turn (set aside, rerolled at the
    turn's end, L55), nor the die a partial solve set aside (L59). It changes the
    problem's value, not what a solve already scored (a score effect does that).
X5  A service moved by an effect in step B takes its chance this turn with it, if the
    chance is not yet taken (the services act in their order, L47, whoever holds the
    card): to its new holder, or it lapses when nobody holds it. A service nobody held
    when step B began has no chance this turn, whoever is given it. In step C the order
    of chances was fixed when the step began (L63); the move counts from the next turn.
    (A misentered step A is best put right before step B: assign, or these effects.)
"""

from shared_rules.errors import RuleError
from shared_rules.schema import with_reason


def score(state, act, emit):
    seat, amount = act["seat"], act["amount"]
    if amount == 0:
        raise RuleError("zero_effect", {"seat": seat})
    if state["scores"][seat] + amount < 0:
        raise RuleError("score_below_zero", {"seat": seat, "score": state["scores"][seat], "asked": -amount})
    emit(with_reason(act, {"t": "score", "seat": seat, "amount": amount}))


def settable(state):
    """[[problem, die]] of the dice a die effect may set now (ruling X4): in play,
    not waiting to be rolled, nor set aside by a solve this turn (L55, L59)."""
    pending = state["pending"] if state["step"] == "roll" else []
    out = []
    for p in range(len(state["problems"])):
        if state["solved"][p] != "full":
            for d in (0, 1):
                if state["aside"][p] != d and [p, d] not in pending:
                    out.append([p, d])
    return out


def die(state, act, emit):
    p, d, value = act["problem"], act["die"], act["value"]  # p is a problem: the schema's seats_max
    can = settable(state)
    if [p, d] not in can:
        why = "solved" if state["solved"][p] == "full" else "aside" if state["aside"][p] == d else "rolling"
        raise RuleError("die_not_in_play", {"problem": p, "die": d, "why": why,
                                            "settable": can})
    if state["problems"][p][d] == value:
        raise RuleError("die_unchanged", {"problem": p, "die": d, "value": value})
    emit(with_reason(act, {"t": "die_set", "problem": p, "die": d, "value": value}))


def service(state, act, emit):
    name, holder = act["service"], act["holder"]
    if state["control"][name] == holder:
        raise RuleError("service_unchanged", {"service": name, "holder": holder})
    ev = {"t": "service", "service": name, "seat": holder}
    if state["step"] == "B":  # ruling X5: a chance not yet taken goes with the card
        queue = [[holder, s] if s == name else [seat, s] for seat, s in state["queue"]]
        queue = [item for item in queue if item[0] is not None]
        if queue != state["queue"]:
            ev["queue"] = queue
    emit(with_reason(act, ev))
    return "queue" in ev  # the chance that lapsed may have been the last of step B: the flow moves on


def apply(state, act, emit):
    """The effect `act` names (flow.decide hands every effect here). True when step B's order of
    chances changed (X5), so that the flow must see whether the step is done."""
    kind = act["type"]
    return (score if kind == "score" else die if kind == "die" else service)(state, act, emit) is True

