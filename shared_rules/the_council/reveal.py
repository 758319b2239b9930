"""The simultaneous reveal, the event's resolution (L27-L36, T2-T10, T12), the
end of an events phase (T1), the collapse (L37-L38) and the score (L39-L41).

Each seat's revealed cards come from the sealed ballot (shared_rules/ballot.py,
multi mode): a seat's choice is a set of positions "1".."5" in its list of
drafted cards still in front of it (`front`, public: they lie face up). A
position beyond that list reveals nothing (C8). Effects (L28-L32), under T4
only of cards sharing a suit with the event, and only in its matching suits:
Ace unlimited chips, number cards break ties (lower better), Pawn +1 chip,
Court a traitor chip on failure, Crown a rank (T5). Ranks change one event at
a time, so each is checked against the ranks as they stand (T8, T9).
"""

from shared_rules import decktet

_ACE = 999  # an Ace's bid: more than any count of chips (C7)
_NONE = 99  # no number card: the worst tie-break key


def from_ballot(state, emit):
    """Resolve the event from the revealed ballot's choices (None: that seat revealed nothing)."""
    b = state["ballot"]
    revealed = [[] for _ in state["front"]]
    for k in range(len(b["voters"])):
        seat = b["voters"][k]
        picked = b["result"]["choices"][k] or []
        front = state["front"][seat]
        for p in range(1, len(front) + 1):
            if str(p) in picked:
                revealed[seat].append(front[p - 1])
    resolve(state, revealed, emit)


def _pick(settings, bids, keys, i, low):
    """The seats that gain (low False: T6, L35) or trade (low True: T7, L36) in suit i.
    Highest: only a seat bidding at least 1 chip; tied, the lowest number card in that suit
    breaks the tie, else nobody. Lowest: every seat, zero bids included (or with lowest =
    bidders only those who bid); tied, a lower number card escapes; still tied: nobody, or
    all of them with lowest_ties = all."""
    n = len(bids)
    seats = [s for s in range(n) if bids[s][i] > 0 or (low and settings["lowest"] == "all")]
    if not seats:
        return []
    best = min([bids[s][i] for s in seats]) if low else max([bids[s][i] for s in seats])
    tied = [s for s in seats if bids[s][i] == best]
    if len(tied) > 1:
        key = max([keys[s][i] for s in tied]) if low else min([keys[s][i] for s in tied])
        tied = [s for s in tied if keys[s][i] == key and (low or key < _NONE)]
    if len(tied) > 1 and not (low and settings["lowest_ties"] == "all"):
        return []
    return tied


def lowest_card(cards):
    """The lowest rank among cards (the Excuse has none, C6); 0: none."""
    ranks = [decktet.rank(c) for c in cards if decktet.rank(c)]
    return min(ranks) if ranks else 0


def resolve(state, revealed, emit):
    """Play the revealed cards and resolve the event (revealed: a list of card names per seat)."""
    ev = state["event"]
    bits = decktet.suit_bits(ev)
    settings = state["settings"]
    n = len(revealed)
    matching = [i for i in range(6) if bits & (1 << i)]
    bids = [state["bids"][s * 6:s * 6 + 6] for s in range(n)]
    keys = [[_NONE] * 6 for _ in range(n)]
    courts = []
    crowns = []
    for s in range(n):
        for c in revealed[s]:
            cb = decktet.suit_bits(c)
            r = decktet.rank(c)
            if not (settings["effects"] == "all" or cb & bits):
                continue
            for i in matching:
                if cb & (1 << i):
                    if r == 1:
                        bids[s][i] = _ACE
                    elif r <= 9:
                        keys[s][i] = min(keys[s][i], r)
                    elif r == decktet.PAWN:
                        bids[s][i] += 1
            if r == decktet.COURT:
                courts.append(s)
            elif r > decktet.COURT:
                crowns.append([s, next(i for i in range(6) if cb & (1 << i))])
    total = 0
    ace = False
    for s in range(n):
        for i in matching:
            if bids[s][i] >= _ACE:
                ace = True
            else:
                total += bids[s][i]
    r = decktet.rank(ev)
    need = r if r <= 9 else 0
    success = ace or total >= need
    ranks = state["ranks"]
    for s, i in crowns:  # T5: whatever the outcome, capped at 6
        if ranks[s * 6 + i] < 6:
            emit({"t": "ranks", "seat": s, "suit": i, "why": "card"})
    for i in matching:
        for s in _pick(settings, bids, keys, i, not success):
            if success and ranks[s * 6 + i] < 6:
                emit({"t": "ranks", "seat": s, "suit": i, "why": "bid"})
            elif not success and ranks[s * 6 + i] > 0:  # T8: nothing to trade at rank 0
                emit({"t": "ranks", "seat": s, "suit": i, "why": "traitors"})
    if not success:
        for s in courts:
            emit({"t": "traitors", "seat": s})
        for i in matching:
            if state["empire"][i] > 0:
                emit({"t": "empire", "suit": i})
    # L33: the lowest revealed card starts the next bidding; equal: the first from this event's
    # starting bidder clockwise (C6); nobody revealed: the next seat (T10)
    start = state["starter"]
    best = None
    for k in range(n):
        s = (start + k) % n
        low = lowest_card(revealed[s])
        if low and (best is None or low < best[0]):
            best = [low, s]
    emit({"t": "resolved", "outcome": "success" if success else "failure", "total": total, "ace": ace,
          "need": need, "starter": (start + 1) % n if best is None else best[1],
          "cards": [list(x) for x in revealed]})
    if phase_over(state):
        end_phase(state, emit)


def phase_over(state):
    """T1: the events phase ends when the deck is empty, or after `events` events (a setting)."""
    most = state["settings"]["events"]
    return state["deck"] <= 0 or (most > 0 and state["events"] >= most)


def fallen(state):
    """The suits where the empire is below at least one seat (L38-L39)."""
    ranks = state["ranks"]
    return [i for i in range(6) if [k for k in range(i, len(ranks), 6) if ranks[k] > state["empire"][i]]]


def scores(state):
    """L39: traitor chips + the seat's ranks in every fallen suit, doubled where the
    seat itself is above the empire."""
    out = []
    for s in range(len(state["traitors"])):
        total = state["traitors"][s]
        for i in fallen(state):
            r = state["ranks"][s * 6 + i]
            total += 2 * r if r > state["empire"][i] else r
        out.append(total)
    return out


def winners(state, points):
    """L41: the highest score; tied, the tied seat that revealed the lowest-ranked card in
    the last event; T13: none of them revealed one, a shared win (C5: equal ranks too)."""
    top = max(points)
    tied = [s for s in range(len(points)) if points[s] == top]
    low = state["last"]
    shown = [s for s in tied if low[s]]
    if len(tied) == 1 or not shown:
        return tied
    best = min([low[s] for s in shown])
    return [s for s in shown if low[s] == best]


def end_phase(state, emit):
    """L37-L38: the collapse ends the game; otherwise the next hand (C1, C2, T11 with C4)."""
    if fallen(state):
        points = scores(state)
        emit({"t": "over", "fallen": fallen(state), "scores": points, "winners": winners(state, points)})
        return
    n = len(state["front"])
    ev = {"t": "hand", "hand": state["hand"] + 1, "dealer": (state["dealer"] + 1) % n}
    if state["deck"] <= 6 * n:  # T11, C4: the draft could not leave a card to reveal
        ev["deck"] = len(decktet.names(state["settings"]["extended"]))
    emit(ev)
