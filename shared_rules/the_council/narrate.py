"""The Council's events in plain words, one sentence per event.

`lines(before, events)` folds the events one by one onto a copy of the state they
followed, so each sentence can say what changed: the cards a seat revealed (its
ballot positions read against the cards in front of it before the reveal), a rank
now, the empire's rank, the total bid. Nothing in this game's state is hidden; the
reveal's choices are read only from the ballot_revealed event. An event this module
does not know reads as a generic sentence with its data, never a crash.
"""

from shared_rules import canon, decktet
from shared_rules.the_council.show import SUITS, card_short, card_text, chips, is_reveal, need, plural, seat, seats
from shared_rules.wording import ballot as wording_ballot
from shared_rules.wording import cap, each

WHY_START = "the lowest revealed card"
CROWN = decktet.COURT + 1  # the rank above the Courts (decktet.py)



def _cards(cards):
    return ", ".join([card_text(c) for c in cards]) or "nothing"


def _matching(card):
    bits = decktet.suit_bits(card) if card else 0
    return [i for i in range(6) if bits & (1 << i)]


def _total(state):
    n = state["settings"]["players"]
    return sum([state["bids"][s * 6 + i] for s in range(n) for i in _matching(state["event"])])


def _of(total, card):
    """'total 4 of 7', or 'total 1' for an event that cannot fail."""
    k = need(card)
    return "total %d of %d" % (total, k) if k else "total %d; it cannot fail" % total


def _chip_list(row):
    return ", ".join(["%d %s" % (row[i], SUITS[i]) for i in range(6) if row[i]])


def _draft(before, after, ev):
    got = _chip_list(ev["chips"])
    how = " as counted at the table" if after["settings"]["draft"] == "chips" else ""  # C3
    text = "%s drafts %s and takes %s." % (cap(seat(ev["seat"])), _cards(ev["cards"]),
                                           ("chips%s: %s" % (how, got)) if got else "no chips")
    if "deck" in ev:
        text = text[:-1] + "; the draft is over, %s left in the deck." % plural(after["deck"], "card")
    return text


def _event(before, after, ev):
    card = ev["card"]
    if card == decktet.EXCUSE and not ev["need"]:
        return "The event is the Excuse: nothing happens, it is discarded and the next card is revealed (T12)."
    k, suits = ev["need"], "/".join(decktet.suits(card))
    if k:
        want = "the chips bid in %s must total %d" % (suits, k)
    else:
        want = "it cannot fail (it needs 0); bids in %s" % suits
    return "Event: %s: %s; %s bids first." % (card_text(card), want, seat(ev["seat"]))


def _bid(before, after, ev):
    s = ev["seat"]
    if not [x for x in ev["chips"] if x]:
        return "%s passes (%s)." % (cap(seat(s)), _of(_total(after), after["event"]))
    return "%s bids %s (%s)." % (cap(seat(s)), _chip_list(ev["chips"]), _of(_total(after), after["event"]))


def shown(state, s):
    """The cards seat s reveals in the event being resolved (read from the revealed ballot
    while the step is still the reveal's; [] when no ballot was held, C9)."""
    b = state.get("ballot")
    if state["step"] != "reveal" or not is_reveal(b) or b.get("result") is None:
        return []
    for seat_, cards, _ in revealed(state, {"choices": b["result"]["choices"]}):
        if seat_ == s:
            return cards
    return []


def _named(state, s, rank, suit=None):
    """', Huntress,': the revealed card of that rank (and first suit) behind an effect, or ''."""
    for c in shown(state, s):
        if decktet.rank(c) == rank and (suit is None or _matching(c)[:1] == [suit]):
            return ", %s," % c
    return ""


def _ranks(before, after, ev):
    s, i, why = ev["seat"], ev["suit"], ev["why"]
    now = after["ranks"][s * 6 + i]
    if why == "card":
        return "%s's revealed Crown%s gives it a rank in %s (now %d)." % (
            cap(seat(s)), _named(before, s, CROWN, i), SUITS[i], now)
    if why == "bid":
        ace = [c for c in shown(before, s) if decktet.rank(c) == 1 and i in _matching(c)]
        return "%s, the highest bidder in %s%s, gains a rank (now %d)." % (
            cap(seat(s)), SUITS[i], " with its %s" % ace[0] if ace else "", now)
    if why == "traitors":
        return "%s, the lowest bidder in %s, trades a rank for a traitor chip (%s now %d; %s)." % (
            cap(seat(s)), SUITS[i], SUITS[i], now, plural(after["traitors"][s], "traitor chip"))
    return "%s's rank in %s changes to %d (%s)." % (cap(seat(s)), SUITS[i], now, why)


def _resolved(before, after, ev):
    total, k = ev["total"], ev["need"]
    if ev["outcome"] == "success":
        if ev.get("ace"):
            text = "The event succeeds: a revealed Ace makes the bid unlimited (%d chips besides, %d needed)." % (
                total, k)
        else:
            text = "The event succeeds: a total of %d, %d needed." % (total, k)
    else:
        text = "The event fails: a total of %d, %d needed." % (total, k)
    revealed = [c for cards in ev["cards"] for c in cards]
    low = [c for c in revealed if decktet.rank(c)]
    if not low:
        why = "nobody revealed a card" if not revealed else "no revealed card has a rank"
        why += ": the next seat, T10"
        return text + " %s starts the next bidding (%s)." % (cap(seat(ev["starter"])), why)
    best = min([decktet.rank(c) for c in low])
    card = [c for c in ev["cards"][ev["starter"]] if decktet.rank(c) == best]
    named = card_short(card[0]) if card else decktet.rank_name(best)
    return text + " %s starts the next bidding (%s, %s)." % (cap(seat(ev["starter"])), WHY_START, named)


def _hand(before, after, ev):
    text = "--- Hand %d: %s deals and bids first" % (ev["hand"], seat(ev["dealer"]))
    left = sum([len(f) for f in before["front"]])
    if "deck" in ev:
        text += "; every discard is reshuffled into the deck (%s, T11)" % plural(ev["deck"], "card")
    elif left:
        text += "; the %s left in front of the seats %s discarded" % (
            plural(left, "drafted card"), "is" if left == 1 else "are")
    return text + " ---"


def _over(before, after, ev):
    fallen = ", ".join([SUITS[i] for i in ev["fallen"]])
    scores = ev["scores"]
    w = ev["winners"]
    said = ", ".join(["%s %d" % (seat(s), v) for s, v in enumerate(scores)])
    top = max(scores) if scores else 0
    tied = [s for s in range(len(scores)) if scores[s] == top]
    text = "The empire has collapsed (fallen: %s): the game ends. Scores: %s." % (fallen, said)
    best = plural(scores[w[0]], "point") if w else "0 points"
    if len(tied) > 1:
        text += " %s tie at %s:" % (cap(seats(tied)), best)
        if len(w) == 1:
            return text + " %s wins, having revealed the lowest card in the last event." % seat(w[0])
        if not [s for s in w if before["last"][s]]:
            return text + " none of them revealed a card in the last event, so they share the win (T13)."
        return text + " %s revealed equally low cards in the last event and share the win (C5)." % seats(w)
    return text + " Winner: %s (%s)." % (seats(w), best)


def _effect(before, after, ev):
    """The table's effect (effects.py): what moved, by how much, where it stands now, and the
    reason the table gave."""
    key, d = ev["key"], ev["amount"]
    n = d if d > 0 else -d
    s, i = ev.get("seat"), ev.get("suit")
    if key == "chips":
        text = "%s %s %s %s the supply (now %d" % (cap(seat(s)), "takes" if d > 0 else "returns", chips(n, i),
                                                  "from" if d > 0 else "to", after["chips"][s * 6 + i])
    elif key == "traitors":
        text = "%s %s %s (now %d" % (cap(seat(s)), "gains" if d > 0 else "loses", plural(n, "traitor chip"),
                                     after["traitors"][s])
    else:
        whose = "The empire's" if key == "empire" else "%s's" % cap(seat(s))
        now = after["empire"][i] if key == "empire" else after["ranks"][s * 6 + i]
        text = "%s rank in %s moves %s %d (now %d" % (whose, SUITS[i], "up" if d > 0 else "down", n, now)
    return text + ("; %s)." % ev["reason"] if ev.get("reason") else ").")


# event tag -> sentence(before, after, event); every tag flow.fold knows
TELL = {
    "draft": _draft,
    "event": _event,
    "bid": _bid,
    "await_reveal": lambda b, a, ev: ("Bidding is over (%s): every seat marks on its pad the positions (1-5) of "
                                      "the drafted cards it reveals." % _of(_total(a), a["event"])),
    "ranks": _ranks,
    "traitors": lambda b, a, ev: "%s's revealed Court%s gives it a traitor chip on the failure (now %d)." % (
        cap(seat(ev["seat"])), _named(b, ev["seat"], decktet.COURT), a["traitors"][ev["seat"]]),
    "empire": lambda b, a, ev: "The empire loses a rank in %s (now %d)." % (SUITS[ev["suit"]],
                                                                              a["empire"][ev["suit"]]),
    "resolved": _resolved,
    "hand": _hand,
    "over": _over,
    "effect": _effect,
}


def one(before, after, ev):
    """One sentence for one event, `before` and `after` the states around it."""
    tell = TELL.get(ev["t"])
    return tell(before, after, ev) if tell else generic(ev)


def generic(ev):
    """Any event this module does not know (or cannot read): its data, in a sentence."""
    return "An event not narrated here: %s." % canon.encode(ev)


def revealed(before, ev):
    """The cards each voter revealed: its positions read against its cards in front of
    it before the reveal (reveal.from_ballot: a position beyond them reveals nothing,
    a position named twice reveals its card once). [(seat, cards, positions)]."""
    b = before["ballot"]
    out = []
    for seat_, c in zip(b["voters"], ev["choices"]):
        picked = c if isinstance(c, list) else ([] if c is None else [c])
        front = before["front"][seat_]
        cards = [front[p - 1] for p in range(1, len(front) + 1) if str(p) in picked]
        out.append((seat_, cards, c))
    return out


def ballot(before, ev):
    """The reveal's sealed ballot (ballot_* events): who has marked; the cards at the reveal.
    A ballot the table opened itself reads as in any game (wording.ballot)."""

    t = ev["t"]
    b = before.get("ballot")
    if t == "ballot_opened":
        if ev.get("multi") and ev["question"] == "Reveal drafted cards":
            return "The sealed reveal opens for %s." % seats(ev["voters"])
        return wording_ballot(before, ev)
    if not is_reveal(b):
        return wording_ballot(before, ev)
    if t == "ballot_voted":
        return "%s has marked its cards." % cap(seat(ev["seat"]))
    if t == "ballot_closed":
        return "The reveal ballot is closed: a seat that has not marked reveals nothing."
    if t == "ballot_set_aside":
        return wording_ballot(before, ev)
    said = []
    for s, cards, c in revealed(before, ev):
        if c is None:
            said.append("%s reveals nothing (not marked)" % seat(s))
        else:
            said.append("%s reveals %s" % (seat(s), _cards(cards)))
    return "Revealed at once: %s." % "; ".join(said)


def lines(before, events, action=None):
    """Plain sentences for `events`, which followed the state `before` (not modified)."""
    return each("the_council", before, events, one, generic, ballot)
