"""The Council's decisions: check an action, emit its events, run the hand on.

Each step refuses with a RuleError before emitting anything; the engine works
on a copy, so a refused action changes nothing. A hand (L16): the draft (one
`draft` entry per seat), then events: the card revealed (`event`), one bid per
seat from the starting bidder clockwise (`bid` or `pass`), the drafted cards
revealed at once (a sealed ballot, reveal.py), the event resolved. The table's
effects (effects.py: chips, ranks, traitors, empire) may come at any step.

fold.py turns each event into the state and decides nothing. Event types reuse
the state's own keys where they fit (ranks, traitors, empire, hand).
"""

from shared_rules import ballot, decktet
from shared_rules.errors import RuleError
from shared_rules.the_council import reveal
from shared_rules.the_council.actions import EFFECTS

# ballot and reveal are loaded with the game, not when first needed: every hand uses them,
# and a module loaded late must find room for its code in a heap the game has fragmented.

_STEPS = {"draft": "draft", "event": "event", "bid": "bid", "pass": "bid"}


def situation(state):
    """The few facts that say where the game stands (for messages and prompts)."""
    now = {"step": state["step"], "hand": state["hand"], "seat": state["turn"], "event": state["event"]}
    for key in ("front", "deck", "events", "scores", "winners"):
        now[key] = state[key]
    now["draft"] = state["settings"]["draft"]
    return now


def where(state, card):
    """Where a card known to be out of the deck lies: the seat in front of which it lies,
    -1 for the discards, None if it may be in the deck or a hand."""
    for s in range(len(state["front"])):
        if card in state["front"][s]:
            return s
    return -1 if card in state["discard"] else None


def _out(state, card):
    w = where(state, card)
    if w is not None:
        raise RuleError("card_out", {"card": card, "seat": w})


def _draft(state, act, emit):
    n = state["settings"]["players"]
    front = state["front"]
    seat = act.get("seat")
    if seat is None:
        seat = next(s for s in range(n) if not front[s])
    elif front[seat]:
        raise RuleError("drafted_already", {"seat": seat, "cards": list(front[seat])})
    for c in act["cards"]:
        _out(state, c)
    entered = state["settings"]["draft"] == "chips"
    chips = act.get("chips")
    if entered == (chips is None):
        raise RuleError("bad_draft", {"why": "chips_missing" if entered else "chips_derived"})
    if chips is None:  # one chip per suit symbol (L23)
        chips = [0] * 6
        for c in act["cards"]:
            for i in range(6):
                if decktet.suit_bits(c) & (1 << i):
                    chips[i] += 1
    ev = {"t": "draft", "seat": seat, "cards": list(act["cards"]), "chips": chips}
    if len([s for s in range(n) if front[s]]) == n - 1:
        # every seat has its five: the n last cards of the hands lie face down (L21)
        ev["deck"] = state["deck"] - 6 * n
    emit(ev)
    if "deck" in ev and state["deck"] <= 0:
        reveal.end_phase(state, emit)


def _event(state, act, emit):
    card = act["card"]
    _out(state, card)
    r = decktet.rank(card)
    emit({"t": "event", "card": card, "need": r if r <= 9 else 0, "seat": state["starter"]})
    if not r and reveal.phase_over(state):  # T12: the Excuse, nothing happens; the next card is revealed
        reveal.end_phase(state, emit)


def _bid(state, act, emit):
    seat = state["turn"]
    if act.get("seat", seat) != seat:
        raise RuleError("not_your_turn", {"seat": seat, "asked": act["seat"]}, [seat])
    chips = [act.get(k, 0) for k in decktet.SUITS] if act["type"] == "bid" else [0] * 6
    bits = decktet.suit_bits(state["event"])
    for i in range(6):
        if not chips[i]:
            continue
        if not bits & (1 << i):
            raise RuleError("wrong_suit", {"suit": decktet.SUITS[i], "event": state["event"],
                                           "matching": list(decktet.suits(state["event"]))})
        have = state["chips"][seat * 6 + i]
        if chips[i] > have:
            raise RuleError("not_enough_chips", {"seat": seat, "suit": decktet.SUITS[i], "have": have,
                                                 "asked": chips[i]})
    emit({"t": "bid", "seat": seat, "chips": chips})
    n = state["settings"]["players"]
    if state["turn"] != state["starter"]:  # C10: one turn each, from the starting bidder
        return
    if not [s for s in range(n) if state["front"][s]]:  # C9: nothing to reveal, no ballot
        reveal.resolve(state, [[] for _ in range(n)], emit)
        return
    ballot.decide(state, {"type": "ballot_open", "question": "Reveal drafted cards", "multi": True,
                          "options": ["1", "2", "3", "4", "5"], "voters": list(range(n))}, emit)
    emit({"t": "await_reveal"})


def decide(state, act, emit):
    kind = act["type"]
    if state["step"] == "over":
        raise RuleError("game_over", {"now": situation(state)})
    if kind in EFFECTS:  # any step until the game is over (C17); loaded only when a table enters one
        from shared_rules.the_council import effects

        effects.apply(state, act, emit)
        return
    if state["step"] != _STEPS[kind]:
        raise RuleError("wrong_step", {"what": kind, "now": situation(state)})
    if kind == "draft":
        _draft(state, act, emit)
    elif kind == "event":
        _event(state, act, emit)
    else:
        _bid(state, act, emit)
