"""The Council's events into the state: decides nothing (flow.py decides).

Event types reuse the state's own keys where they fit (ranks, traitors, empire, hand).
"""

from shared_rules.the_council import reveal


def slot(key, seat, suit):
    """Where one count lies in the state's list `key`: ranks and chips by seat and suit (flat,
    seat * 6 + suit), traitor chips by seat, the empire's ranks by suit."""
    return suit if key == "empire" else seat if key == "traitors" else seat * 6 + suit


def fold(state, ev):
    t = ev["t"]
    n = state["settings"]["players"]
    if t == "bid":
        seat = ev["seat"]
        for i in range(6):  # T2: chips bid are spent whatever the outcome
            state["bids"][seat * 6 + i] = ev["chips"][i]
            state["chips"][seat * 6 + i] -= ev["chips"][i]
        state["turn"] = (seat + 1) % n
    elif t == "ranks":  # a Crown ("card"), a won bid ("bid"), or a rank traded for a traitor chip
        s = ev["seat"]
        if ev["why"] == "traitors":
            state["ranks"][s * 6 + ev["suit"]] -= 1
            state["traitors"][s] += 1
        else:
            state["ranks"][s * 6 + ev["suit"]] += 1
    elif t == "traitors":  # a Court on a failed event
        state["traitors"][ev["seat"]] += 1
    elif t == "empire":
        state["empire"][ev["suit"]] -= 1
    elif t == "draft":
        seat = ev["seat"]
        state["front"][seat] = list(ev["cards"])
        for i in range(6):
            state["chips"][seat * 6 + i] += ev["chips"][i]
        if "deck" in ev:  # the last seat's: the draft is over
            state["deck"] = ev["deck"]
            state["step"] = "event"
    elif t == "event":
        state["deck"] -= 1
        if not ev["need"] and ev["card"] == "Excuse":  # T12: discarded, the next card is revealed
            state["discard"].append(ev["card"])
            return
        state["event"] = ev["card"]
        state["step"] = "bid"
        state["turn"] = ev["seat"]
        state["bids"] = [0] * (6 * n)
        state["outcome"] = ""
    elif t == "await_reveal":
        state["step"] = "reveal"
        state["turn"] = None
    elif t == "resolved":
        state["turn"] = None
        for s in range(n):
            state["last"][s] = reveal.lowest_card(ev["cards"][s])  # L33, L41
            for c in ev["cards"][s]:  # T3: spent, discarded
                state["front"][s].remove(c)
                state["discard"].append(c)
        state["discard"].append(state["event"])
        state["events"] += 1
        state["outcome"] = ev["outcome"]
        state["starter"] = ev["starter"]
        state["step"] = "event"
    elif t == "hand":
        for s in range(n):  # C1: the drafted cards left are discarded
            if "deck" not in ev:
                state["discard"].extend(state["front"][s])
            state["front"][s] = []
        if "deck" in ev:  # T11: every discard reshuffled into the deck
            state["discard"] = []
            state["deck"] = ev["deck"]
        state["hand"] = ev["hand"]
        state["dealer"] = state["starter"] = ev["dealer"]
        state["step"] = "draft"
        state["events"] = 0
    elif t == "effect":  # the table's effect (effects.py): one count moved by its amount
        key = ev["key"]
        state[key][slot(key, ev.get("seat"), ev.get("suit"))] += ev["amount"]
    elif t == "over":
        state["step"] = "over"
        state["turn"] = None
        state["scores"] = list(ev["scores"])
        state["winners"] = list(ev["winners"])
    else:
        raise ValueError("unknown event " + t)
