"""The Vote of the Council (L1737-1942), Vote Resolution (L2072-2083) and
cleanup (L2155-2196), as the digest's algorithm (its section 2) with rulings
R2-R9 of ../shared/rules/kings-dilemma.md.

Seats go clockwise in ascending order (R2). A passer's later turns are
skipped automatically (they "do nothing", L1926-1927): the turn passes to the
next seat that has a choice to make, but the end-of-phase test (R4) is made
at every seat passed over, as if each had taken its empty turn.
"""

from shared_rules.errors import RuleError


def pred(state, seat):
    n = state["settings"]["players"]
    return (seat - 1) % n


def start(state, emit):
    """Phase 3 of a round (L1674-1684): the Leader votes first (L1738). In the
    sealed variant every House instead commits its side and Power at once, as a
    sealed ballot (shared_rules/ballot.py) that the board reveals when all have
    voted; sealed() then plays the choices as one round of turns. A sealed vote's
    options come in the order of a House's pad keys (up, select, down; then select
    held for the fourth: firmware/ballot_box.py)."""
    if state["settings"].get("voting") == "sealed":
        from shared_rules import ballot

        # a round's card that is an Event or Trigger card is placed in the Event area and
        # not voted on (kings-dilemma-rulebook.txt L3054-3057, L393-398): the sealed vote opened
        # for it, with any casts in, is set aside before the next round's opens
        ballot.set_aside(state, emit)
    emit({"t": "round", "round": state["round"] + 1, "seat": state["leader"]})
    if state["settings"].get("voting") == "sealed":
        from shared_rules import ballot

        ballot.decide(state, {"type": "ballot_open", "question": "Vote of the Council",
                              "options": ["aye", "gather", "nay", "moderate"], "counted": ["aye", "nay"],
                              "voters": list(range(state["settings"]["players"])),
                              "max": 99}, emit)  # not the Houses' Power: that is behind their screens


def sealed(state, emit):
    """The revealed sealed vote, as turns from the Leader clockwise (rulings S1-S3):
    S1 the first House from the Leader that chose PASS AND BECOME MODERATOR takes the
    Moderator, later ones gather; S2 an AYE or NAY of more Power than the House has
    commits all it has, and with none it gathers (R6); S3 the Leader token goes to
    strictly most Power committed. Then Vote Resolution as usual."""
    result = state["ballot"]["result"]
    n = state["settings"]["players"]
    taken = False
    for k in range(n):
        seat = (state["leader"] + k) % n
        c = result["choices"][seat]
        power = min(result["amounts"][seat] or 0, state["power"][seat])
        if c == "moderate" and not taken:
            taken = True
            emit({"t": "pass", "seat": seat, "kind": "moderate"})
        elif (c == "aye" or c == "nay") and power > 0:
            emit({"t": "vote", "seat": seat, "side": c, "power": power})
        else:
            emit({"t": "pass", "seat": seat, "kind": "gather"})
    c = state["committed"]
    top = max(c)
    best = [s for s in range(n) if c[s] == top]
    if top > 0 and len(best) == 1 and best[0] != state["leader"]:
        emit({"t": "leader", "seat": best[0], "why": "most_power"})
    _resolve(state, emit)


def _end_of_turn(state, emit, seat):
    """L1915-1924 (R3): strictly most committed Power takes the Leader token;
    then R4: the phase ends after the seat to the Leader's right."""
    c = state["committed"]
    if state["leader"] != seat and c[seat] > 0:
        if not [q for q in range(len(c)) if q != seat and c[q] >= c[seat]]:
            emit({"t": "leader", "seat": seat, "why": "most_power"})
    n = state["settings"]["players"]
    q = seat
    while True:
        if q == pred(state, state["leader"]):
            _resolve(state, emit)
            return
        q = (q + 1) % n
        if state["choice"][q] != "gather" and state["choice"][q] != "moderate":  # not a passer
            emit({"t": "next", "seat": q})
            return


def turn(state, act, emit):
    """One voting turn of the seat whose turn it is (R5, R6).

    First turn (L1737-1769, L1841-1901): vote (AYE or NAY with at least 1 Power)
    or pass (gather; or moderate, once per phase, the token at once). Either
    pass takes 1 Coin from the general pool onto the PASS card. Later turns
    (L1926-1930): add at least 1 Power to the same card, or stay."""
    kind = act["type"]
    seat = state["turn"]
    if act.get("seat", seat) != seat:
        raise RuleError("not_your_turn", {"seat": seat, "asked": act["seat"]}, [seat])
    choice = state["choice"][seat]
    first = kind == "vote" or kind == "pass"
    if first and choice != "":
        raise RuleError("choice_made", {"seat": seat, "choice": choice, "what": kind})
    if not first and choice == "":
        raise RuleError("no_choice_yet", {"seat": seat, "what": kind})
    k = act.get("power", 0)
    if k > state["power"][seat]:
        raise RuleError("not_enough_power", {"seat": seat, "asked": k})  # not how much it has: a secret
    if kind == "pass":
        if act.get("kind") == "moderate" and "moderate" in state["choice"]:
            raise RuleError("moderator_taken", {"seat": seat, "by": state["choice"].index("moderate")})
        emit({"t": "pass", "seat": seat, "kind": act.get("kind", "gather")})
    elif kind == "stay":
        emit({"t": "stay", "seat": seat})
    else:
        emit({"t": "vote", "seat": seat, "side": act.get("side", choice), "power": k})
    _end_of_turn(state, emit, seat)


def totals(state):
    aye = nay = 0
    for s in range(len(state["choice"])):
        if state["choice"][s] == "aye":
            aye += state["committed"][s]
        elif state["choice"][s] == "nay":
            nay += state["committed"][s]
    return aye, nay


def _resolve(state, emit):
    """Vote Resolution (L2072-2078, R8): the larger side wins; on a tie or when
    all passed, the Moderator names the side (the decide action)."""
    aye, nay = totals(state)
    if aye == nay:
        emit({"t": "await", "step": "side", "aye": aye, "nay": nay})
        return
    won(state, emit, "aye" if aye > nay else "nay", "more")


def decide_side(state, act, emit):
    mod = state["moderator"]
    if act.get("seat", mod) != mod:
        raise RuleError("not_moderator", {"seat": act["seat"], "moderator": mod}, [mod])
    aye, nay = totals(state)
    if aye == 0 and nay == 0:  # everyone passed: the Moderator takes the Leader token too (L2076-2078)
        emit({"t": "leader", "seat": mod, "why": "all_passed"})
    won(state, emit, act["side"], "moderator")


def won(state, emit, side, why):
    """Leader reassignment (L2080-2083, R9), then cleanup."""
    emit({"t": "won", "side": side, "why": why})
    lead = state["leader"]
    lost = state["choice"][lead]
    if lost in ("aye", "nay") and lost != side:
        c = state["committed"]
        winners = [s for s in range(len(c)) if state["choice"][s] == side]
        top = max([c[s] for s in winners])
        best = [s for s in winners if c[s] == top]
        if len(best) > 1:
            emit({"t": "await", "step": "leader", "tied": best})
            return
        emit({"t": "leader", "seat": best[0], "why": "winning_side"})
    cleanup(state, emit)


def appoint(state, act, emit):
    """The Moderator picks the Leader among the tied top investors (R9; may pick themself)."""
    mod = state["moderator"]
    if act.get("seat", mod) != mod:
        raise RuleError("not_moderator", {"seat": act["seat"], "moderator": mod}, [mod])
    if act["leader"] not in state["tied"]:
        raise RuleError("not_tied", {"seat": act["leader"], "tied": state["tied"]}, state["tied"])
    emit({"t": "leader", "seat": act["leader"], "why": "moderator"})
    cleanup(state, emit)


def cleanup(state, emit):
    """L2155-2196 in the body text's order (R7): Coins off the PASS cards, the
    middle split among gatherers (floor; the rest stays, L2165-2175), losers'
    Power back, winners' Power onto the middle (not shared this round)."""
    ch = state["choice"]
    n = len(ch)
    passers = [s for s in range(n) if ch[s] == "gather" or ch[s] == "moderate"]
    if passers:
        emit({"t": "coins_back", "seats": passers})
    gatherers = [s for s in range(n) if ch[s] == "gather"]
    if gatherers and state["middle"] >= len(gatherers):
        emit({"t": "gathered", "seats": gatherers, "each": state["middle"] // len(gatherers)})
    side = state["side"]
    c = state["committed"]
    losers = [s for s in range(n) if ch[s] in ("aye", "nay") and ch[s] != side]
    if losers:
        emit({"t": "returned", "seats": losers, "power": [c[s] for s in losers]})
    to_middle = 0
    for s in range(n):
        if ch[s] == side:
            to_middle += c[s]
    if to_middle:
        emit({"t": "to_middle", "power": to_middle})
    emit({"t": "await", "step": "outcome"})
