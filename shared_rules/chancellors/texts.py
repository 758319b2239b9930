"""Chancellors' words: its error messages and where-the-game-stands sentences.

Rendered on demand from an error's facts (shared_rules/texts.py); line
numbers are in ../shared/seeds/chancellors.txt.
"""

from shared_rules import decktet
from shared_rules.chancellors.services import CARD, TITLE


def slots(dice):
    return ", ".join(["problem %d die %d" % (p, d) for p, d in dice])


def now(n):
    """Where the game stands, from flow.situation(state)."""
    step = n["step"]
    if step == "over":
        who = ", ".join(["seat %d" % s for s in n["winners"]])
        how = "catastrophe: the lowest score wins" if n["ending"] == "catastrophe" else \
            "the target was reached: the highest score wins"
        return "the game is over (%s); winner%s: %s" % (how, "s" if len(n["winners"]) > 1 else "", who)
    if step == "roll":
        k = len(n["dice"])
        return "%d %s waiting to be rolled (%s)" % (k, "die is" if k == 1 else "dice are", slots(n["dice"]))
    if step == "A":
        return "step A: the cards played for control must be revealed (reveal) or control assigned (assign)"
    if step == "B":
        return "step B: seat %d's chance with the %s (solve, solve_part or pass)" % (n["seat"], TITLE[n["service"]])
    return "step C: seat %d's chance to solve without help (solve or pass)" % n["seat"]


def _dice(d):
    return "problem %d (%d-%d)" % (d["problem"], d["dice"][0], d["dice"][1])


def _bad_roll(d):
    k = len(d["dice"])
    if d["why"] == "no_values":
        return "a %s roll needs the values read from the dice (%d of them)" % (d["source"], k)
    if d["why"] == "ids":
        return "dice ids come with a smart roll's values, one per value: %d values wanted, %d ids, source %s" % (
            k, d["got"], d["source"])
    return "%d %s to roll (%s), got %d values" % (k, "die" if k == 1 else "dice", slots(d["dice"]), d["got"])


_ILLEGAL = {
    "service": "{card} is a royal service card, not in play (L23)",
    "excuse": "the Excuse is not played as a card; it lies in front of its holder (record it with the excuse "
              "action)",
    "played": "{card} was already played this turn",
    "twice": "{card} is played by two seats; each card exists once",
}


def _bad_excuse(d):
    if d["why"] == "has_service":
        return "the Excuse helps only a seat that controls no service (L104)"
    holder = d["holder"]
    return "seat %d does not hold the Excuse (%s)" % (
        d["seat"], "nobody does" if holder is None else "seat %d does" % holder)


def _problem_solved(d):
    return "problem %d was already %s solved this turn; open problems: %s" % (
        d["problem"], "wholly" if d["how"] == "full" else "partly",
        ", ".join([str(x) for x in d["open"]]) or "none")


def _die_not_in_play(d):
    why = {"solved": "problem %d was wholly solved this turn: its dice are set aside and rerolled at the end of "
                     "the turn (L55)" % d["problem"],
           "aside": "problem %d die %d was set aside by a partial solve and is rerolled at the end of the turn "
                    "(L59)" % (d["problem"], d["die"]),
           "rolling": "problem %d die %d is waiting to be rolled: the roll gives its value" % (d["problem"], d["die"])}
    return "%s; dice that can be set now: %s" % (why[d["why"]], slots(d["settable"]) or "none")


def _service_unchanged(d):
    name = TITLE[d["service"]]
    if d["holder"] is None:
        now = "the %s is already uncontrolled (its card in the middle of the table)" % name
    else:
        now = "seat %d already controls the %s" % (d["holder"], name)
    return "%s: enter the seat that should hold the %s, or nobody" % (now, CARD[d["service"]])


TEXTS = {
    "bad_roll": _bad_roll,
    "wrong_step": lambda d: "%s is not possible now: %s" % (d["what"], now(d["now"])),
    "game_over": lambda d: now(d["now"]),
    "illegal_card": lambda d: _ILLEGAL[d["why"]].format(card=decktet.label(d["card"])),
    "not_your_turn": lambda d: "it is seat %d's chance, not seat %d's" % (d["seat"], d["asked"]),
    "bad_excuse": _bad_excuse,
    "problem_solved": _problem_solved,
    "wrong_suit": lambda d: "%s shares no suit with a service seat %d controls (%s) (L49)" % (
        decktet.label(d["card"]), d["seat"], ", ".join([CARD[s] for s in d["services"]])),
    "no_part_without_help": lambda d: "without a service (or the Excuse) only a whole problem can be solved (L65)",
    "too_high": lambda d: "%s is worth %d on %s; a partial solve needs one card worth at most the lower die, %d "
                          "(L57)" % (decktet.label(d["card"]), d["value"], _dice(d), min(d["dice"])),
    "too_low": lambda d: "the cards add up to %d; %s needs at least %d%s" % (
        d["total"], _dice(d), d["need"], " (twice the dice, without help: L65)" if d["help"] == "none" else ""),
    "bad_abdicate": lambda d: "only a seat passing with a service in step B can abdicate (L61)",
    # corrections and house rules (effects.py)
    "zero_effect": lambda d: "a score effect of 0 changes nothing: enter the points to add (+) or take away (-)",
    "score_below_zero": lambda d: "seat %d has %d points: taking %d would leave it below 0 (ruling X3); %s" % (
        d["seat"], d["score"], d["asked"],
        "take at most %d" % d["score"] if d["score"] else "it has no points to take"),
    "die_not_in_play": _die_not_in_play,
    "die_unchanged": lambda d: "problem %d die %d already shows %d: enter the value it should show" % (
        d["problem"], d["die"], d["value"]),
    "service_unchanged": _service_unchanged,
    "no_excuse": lambda d: "the Excuse is in the extended deck, which this game does not use (setting extended)",
}


def prompt(state):
    """One line: what the table is being asked now."""
    from shared_rules.chancellors.flow import situation

    text = now(situation(state))
    if state["turn"] and state["step"] != "over":
        return "Turn %d, %s." % (state["turn"], text)
    return text[0].upper() + text[1:] + "."
