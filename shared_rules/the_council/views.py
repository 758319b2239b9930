"""What a seat may do now (legal actions with narrowed domains)."""

from shared_rules import decktet, schema
from shared_rules.the_council.actions import EFFECTS, SCHEMAS
from shared_rules.the_council.flow import where


def available(state):
    """The cards that may still be in the deck or in a hand (not in front of a seat, not discarded)."""
    return [c for c in decktet.names(state["settings"]["extended"]) if where(state, c) is None]


def legal(state, seat=None):
    """Action schemas usable now by `seat` (None: anyone at the table)."""
    step = state["step"]
    out = []
    by = SCHEMAS.one  # a type's schema, built for it alone (schema.by_type)
    card = {"kind": "card", "deck": "decktet", "among": available(state)}
    if step == "draft" and (seat is None or not state["front"][seat]):
        # five cards among those still unseen; the chips only when the table enters them (C3)
        params = [{"name": "cards", "domain": {"kind": "list", "of": card, "min": 5, "max": 5, "distinct": True}}]
        if state["settings"]["draft"] == "chips":
            params.append({"name": "chips", "domain": by("draft")["params"][1]["domain"]})
        out.append({"type": "draft", "who": "seat", "params": params})
    elif step == "event":
        out.append({"type": "event", "who": "table", "params": [{"name": "card", "domain": card}]})
    elif step == "bid" and (seat is None or seat == state["turn"]):
        # only the event's suits the bidder holds chips of, each up to those chips (L25); none: no
        # bid (a bid of nothing is a pass). The first asks, its cursor on one chip (a menu skips
        # to the confirm where every parameter is at its default, as a bid of nothing would be)
        bits = decktet.suit_bits(state["event"])
        have = state["chips"][state["turn"] * 6:state["turn"] * 6 + 6]
        params = []
        for i in range(6):
            if bits & (1 << i) and have[i]:
                d = {"kind": "int", "min": 0, "max": have[i]}
                if not params:
                    d["start"] = 1
                params.append({"name": decktet.SUITS[i], "domain": d, "optional": True, "default": 0})
        if params:
            out.append({"type": "bid", "who": "seat", "params": params})
        out.append(by("pass"))
    elif step == "reveal" and seat is None and state["ballot"]["open"]:
        from shared_rules import ballot  # the table may close the ballot: who has not voted reveals nothing

        out.append(schema.find(ballot.SCHEMAS, "ballot_close"))
    if seat is None and step != "over":  # the table's effects (effects.py, C17), after the step's own
        out.extend([by(k) for k in EFFECTS])
    return out


def lines(state):
    """The table's display (16 x 8): each seat's chips by suit (Moons Suns Waves Leaves
    wYrms Knots; 10 and more as a letter) and traitor chips, then the event being bid."""
    out = ["S  M S W L Y K T"]
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    chips = state["chips"]
    for seat in range(state["settings"]["players"]):
        row = [digits[min(c, 35)] for c in chips[seat * 6:seat * 6 + 6]] + [digits[min(state["traitors"][seat], 35)]]
        out.append("%d  %s" % (seat, " ".join(row)))
    if state["event"] and state["step"] in ("bid", "reveal"):
        out.append(state["event"][:16])
        r = decktet.rank(state["event"])
        out.append("bid %d need %d" % (sum(state["bids"]), r if r <= 9 else 0))  # as reveal.py counts
    return out
