"""Nim's words: its error messages and where the game stands."""

TEXTS = {
    "not_your_turn": "seat {seat} cannot take now: it is seat {turn}'s turn",
    "too_many": "only {pile} counters are left (asked {count})",
    "game_over": "the pile is empty: the game is over",
}


def prompt(state):
    if state["step"] == "over":
        return "the game is over: seat %d took the last counter" % state["winners"][0]
    return "seat %d takes 1 to 3 counters from %d (take)" % (state["turn"], state["pile"])
