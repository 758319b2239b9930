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


def _counted(d):
    """'seat 1's Moons chips', 'the empire's rank in Waves': the count an effect moves (effects.py)."""
    what, suit = d["what"], decktet.SUITS[d["suit"]] if d["suit"] is not None else ""
    if what == "empire":
        return "the empire's rank in %s" % suit
    if what == "ranks":
        return "seat %d's rank in %s" % (d["seat"], suit)
    return "seat %d's %s" % (d["seat"], "traitor chips" if what == "traitors" else suit + " chips")


_EFFECTS = {"chips": "a seat's chips", "ranks": "a seat's rank", "traitors": "a seat's traitor chips",
            "empire": "the empire's rank"}


def _effect_range(d):
    have, most, amount = d["have"], d["most"], d["amount"]
    why = "the tracks run 0-6: L8, T9" if most == 6 else "no pool goes below 0, and 99 is the most kept: C18"
    if amount < 0:
        room = "it can lose at most %d" % have if have else "it cannot lose more"
    else:
        room = "it can gain at most %d" % (most - have) if have < most else "it cannot gain more"
    return "%s: %d, and %+d would make %d, outside 0-%d (%s); %s" % (_counted(d), have, amount, have + amount,
                                                                  most, why, room)


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
    # the table's effects (effects.py)
    "zero_effect": lambda d: "moving %s by 0 changes nothing: enter the amount gained (+) or lost (-)" % _EFFECTS.get(
        d["what"], d["what"]),
    "effect_range": _effect_range,
}


def prompt(state):
    """One line: what the table is being asked now."""
    from shared_rules.the_council.flow import situation

    text = now(situation(state))
    if state["step"] != "over":
        return "Hand %d, %s." % (state["hand"], text)
    return text[0].upper() + text[1:] + "."
