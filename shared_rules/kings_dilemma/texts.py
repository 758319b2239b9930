"""The King's Dilemma's words: error messages and where-the-game-stands sentences.

Rendered on demand from an error's facts (shared_rules/texts.py); line
numbers are in ../shared/seeds/kings-dilemma-rulebook.txt.
"""

ENDINGS = {
    "died": "the King is dead",
    "abdicated_top": "the King abdicated (Stability at the top end)",
    "abdicated_bottom": "the King abdicated (Stability at the bottom end)",
}


def seats(xs):
    return ", ".join(["House %d" % s for s in xs]) or "nobody"


def now(n):
    """Where the game stands, from flow.situation(state)."""
    step = n["step"]
    if step == "over":
        return "the game is over (%s); winner%s: %s" % (
            ENDINGS.get(n["ending"], n["ending"]), "s" if len(n["winners"]) > 1 else "", seats(n["winners"]))
    if step == "roll":
        return "the %d Resource markers' sides are to be rolled (odd = white, up; even = black, down)" % n["dice"]
    if step == "vote":
        if n["choice"] == "":
            return "House %d votes (vote aye/nay with Power, or pass)" % n["seat"]
        return "House %d votes again on %s (add Power or stay)" % (n["seat"], n["choice"].upper())
    if step == "side":
        return "the vote is tied: the Moderator, House %d, decides the winning side (decide)" % n["seat"]
    if step == "leader":
        return "the Moderator, House %d, appoints the Leader among %s (appoint)" % (n["seat"], seats(n["tied"]))
    if step == "outcome":
        return "enter the winning outcome's Resource changes, in card order (outcome)"
    return "record stickers, Story cards and Envelopes, then place the card (place)"


def _bad_roll(d):
    if d["why"] == "no_values":
        return "a %s roll needs the values read from the dice or coins (%d of them)" % (d["source"], d["dice"])
    if d["why"] == "ids":
        return "dice ids come with a smart roll's values, one per value: %d values wanted, %d ids, source %s" % (
            d["dice"], d["got"], d["source"])
    return "%d values are needed (one per Resource), got %d" % (d["dice"], d["got"])


def _bad_outcome(d):
    if d["why"] == "count":
        return "the outcome names %d Resources but gives %d amounts; one amount per Resource" % (
            d["resources"], d["amounts"])
    return "effect %d moves nothing: each amount is a signed number of spaces, not 0" % d["index"]


_WHAT = {"vote": "vote", "pass": "pass", "add": "add Power", "stay": "stay"}


_POOLS = {"coins": "Coins", "power": "Power", "agenda": "Agenda Points"}

TEXTS = {
    "bad_roll": _bad_roll,
    "wrong_step": lambda d: "%s is not possible now: %s" % (d["what"], now(d["now"])),
    "game_over": lambda d: now(d["now"]),
    "sealed_vote": lambda d: "the vote is sealed: each House casts its side and Power on its pad "
                             "(ballot_cast), and the board reveals them together (not %s)" % d["what"],
    "not_your_turn": lambda d: "it is House %d's turn to vote, not House %d's" % (d["seat"], d["asked"]),
    "choice_made": lambda d: "House %d chose %s on its first turn and cannot change it: it may add Power or "
                             "stay, or does nothing if it passed (L1926-1927)" % (d["seat"], d["choice"].upper()),
    "no_choice_yet": lambda d: "House %d has not voted yet: its first turn is vote or pass, not %s" % (
        d["seat"], _WHAT.get(d["what"], d["what"])),
    "not_enough_power": lambda d: "House %d does not have %d Power behind its screen (how much it has stays "
                                  "behind the screen)" % (d["seat"], d["asked"]),
    "moderator_taken": lambda d: "House %d already passed to become Moderator in this vote; pass and gather "
                                 "instead (L1892-1896)" % d["by"],
    "not_moderator": lambda d: "only the Moderator, House %d, decides this (House %d asked)" % (
        d["moderator"], d["seat"]),
    "not_tied": lambda d: "House %d is not among the tied top investors of the winning side: %s" % (
        d["seat"], seats(d["tied"])),
    "same_house": lambda d: "House %d cannot give Coins to itself" % d["seat"],
    "no_bargain": lambda d: "Coins change hands while a vote is on, from its first turn to its resolution "
                            "(L1932-1942; the setting bargain is vote), not now: %s" % now(d["now"]),
    "not_enough_coins": lambda d: "House %d does not have %d Coins (how many it has stays behind its screen)" % (
        d["seat"], d["asked"]),
    "bad_outcome": _bad_outcome,
    "bad_record": lambda d: "a sticker needs its resource (its Chronicle row) and its sign (positive or negative)",
    # the printed cards' effects (effects.py)
    "zero_effect": lambda d: "a %s effect of 0 changes nothing: enter the amount the card gives (+) or takes (-)"
                             % d["what"],
    "not_enough": lambda d: "House %d does not have %d %s to return to the general pool (how many it has stays behind "
                            "its screen)" % (d["seat"], d["asked"], _POOLS.get(d["pool"], d["pool"])),
    "stability_frozen": lambda d: "the King abdicated (Stability at the %s): the Stability marker no longer moves "
                                  "(L2348, L3212-3213)" % d["abdicated"],
    "no_momentum_change": lambda d: "%s %s a Momentum marker already: %s it changes nothing (add, remove or flip "
                                    "one that is there)" % (d["resource"][:1].upper() + d["resource"][1:],
                                                            "has" if d["marker"] else "has not", d["change"]),
    "not_before_vote": lambda d: "%s card is drawn as the round's card, before any House votes or passes; this "
                                 "round's vote has begun (L3054-3057)" % (
                                     "an Event" if d["card"] == "event" else "a Trigger"),
}


def prompt(state):
    """One line: what the table is being asked now."""
    from shared_rules.kings_dilemma.flow import situation

    b = state.get("ballot")
    if state["step"] == "vote" and b is not None and b["result"] is None:  # the sealed vote: all at once
        text = "the sealed vote: every House casts its side and Power on its own pad (%d of %d voted)" % (
            len(b["voted"]), len(b["voters"]))
    else:
        text = now(situation(state))
    if state["round"] and state["step"] != "over":
        return "Round %d, %s." % (state["round"], text)
    return text[0].upper() + text[1:] + "."
