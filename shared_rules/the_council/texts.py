"""The Council's words: error messages and where-the-game-stands sentences.

Rendered on demand from an error's facts (shared_rules/texts.py); Lnn are
lines of ../shared/seeds/the-council.txt, Tn the digest's rulings.
"""

from shared_rules import decktet


def seats(xs):
    return ", ".join(["seat %d" % s for s in xs]) or "nobody"


def now(n):
    """Where the game stands, from flow.situation(state)."""
    step = n["step"]
    if step == "over":
        return "the empire has collapsed; scores %s; winner%s: %s" % (
            ", ".join([str(x) for x in n["scores"]]), "s" if len(n["winners"]) > 1 else "", seats(n["winners"]))
    if step == "draft":
        what = "five drafted cards and chips" if n["draft"] == "chips" else "five drafted cards"
        waiting = [s for s in range(len(n["front"])) if not n["front"][s]]
        return "the draft: enter the %s of %s (draft)" % (what, seats(waiting))
    if step == "event":
        return "reveal the next event from the deck (event; %d cards left, %d events so far)" % (
            n["deck"], n["events"])
    suits = "/".join(decktet.suits(n["event"]))
    on = "the event %s (%s)" % (n["event"], suits)
    if step == "bid":
        return "seat %d bids chips of %s on %s, or passes (bid, pass)" % (n["seat"], suits, on)
    return "every seat picks the drafted cards it reveals on %s, sealed; then the reveal" % on


def _card_out(d):
    if d["seat"] >= 0:
        return "%s lies in front of seat %d: it cannot be drafted or revealed from the deck" % (d["card"], d["seat"])
    return "%s has been discarded (spent or a past event, T3): it is out until the deck is reshuffled (T11)" % (
        d["card"])


TEXTS = {
    "wrong_step": lambda d: "%s is not possible now: %s" % (d["what"], now(d["now"])),
    "game_over": lambda d: now(d["now"]),
    "not_your_turn": lambda d: "it is seat %d's turn to bid, not seat %d's" % (d["seat"], d["asked"]),
    "drafted_already": lambda d: "seat %d has drafted already (%s); the other seats still draft" % (
        d["seat"], ", ".join(d["cards"])),
    "card_out": _card_out,
    "bad_draft": lambda d: ("this table enters each seat's chips with its cards (setting draft = chips): "
                            "add chips, six counts in the order Moons, Suns, Waves, Leaves, Wyrms, Knots"
                            if d["why"] == "chips_missing" else
                            "the chips come from the drafted cards (one per suit symbol, L23): leave chips out, "
                            "or set draft = chips"),
    "wrong_suit": lambda d: "the event %s is %s: chips of %s do not match it (L25); bid only %s" % (
        d["event"], "/".join(d["matching"]), d["suit"], ", ".join(d["matching"])),
    "not_enough_chips": lambda d: "seat %d has %d %s chips, not %d" % (d["seat"], d["have"], d["suit"], d["asked"]),
}


def prompt(state):
    """One line: what the table is being asked now."""
    from shared_rules.the_council.flow import situation

    text = now(situation(state))
    if state["step"] != "over":
        return "Hand %d, %s." % (state["hand"], text)
    return text[0].upper() + text[1:] + "."
