"""Nim's state in words (host only)."""

from shared_rules import wording

EXAMPLES = {"take": ["take 2"]}  # the terminal game's help: an action as typed
CARD_FORMS = ""  # Nim names no card


def status(view):
    return "Pile %d | turn: %s" % (view["pile"], wording.seat(view["turn"]))


def full(view, prompt_line):
    return "Nim: %d seats\n%s\nNow: %s" % (view["settings"]["players"], status(view), prompt_line)


def actor(state):
    return state["turn"] if state["step"] == "take" else None


def heading(settings):
    return wording.playing("Nim", settings)


facts = None  # the logbook's hooks (docs/adding-a-game.md): Nim's stats are its wins alone
progress = None
