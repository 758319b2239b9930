"""Chancellors (P.D. Magnus), for 2-4 seats: ../shared/seeds/chancellors.txt.

The game as the engine sees it; the rules live in the small modules beside
this one: services (step A), solving (card values), flow (decisions and the
turn), fold (events into state), views (views, legal actions, prompts),
effects (the table's corrections and house rules: scores, dice, services).
"""

from shared_rules import decktet, game
from shared_rules.chancellors.actions import SCHEMAS, SETTINGS  # noqa: F401
from shared_rules.chancellors.flow import decide  # noqa: F401
from shared_rules.chancellors.fold import fold  # noqa: F401

NAME = "chancellors"

# Every entry of the log may be exported as it is (host/chancery/logbook/store.py): hands are
# physical, control cards are entered once revealed, dice are public.
LOG_PUBLIC = True


def initial(settings, seed):
    """The state before anything happens (setup.py, read for a new game only)."""
    from shared_rules.chancellors import setup

    return setup.initial(settings, seed)


def dice_wanted(state):
    """How many dice the table must roll now (0 when it is not a time to roll)."""
    return len(state["pending"]) if state["step"] == "roll" else 0


def card_names(state):
    """Every card name an action may mention (the rules then say which are playable)."""
    return decktet.names(state["settings"]["extended"])


# views.py (legal actions and prompts) is loaded on first use: replaying a
# journal needs only decide, fold and view, and a board's RAM is better spent
# on the game.

def legal(state, seat=None):
    from shared_rules.chancellors import views as v

    return v.legal(state, seat)


def words():
    """The game's words (texts.py: error messages, prompts), loaded when first asked for
    (a host's, or a board's that shows a prompt)."""
    from shared_rules.chancellors import texts as words

    return words


game.declare(globals())  # view, prompt, is_over and the hooks this game does without (None)
