"""Chancellors (P.D. Magnus), for 2-4 seats: ../shared/seeds/chancellors.txt.

The game as the engine sees it; the rules live in the small modules beside
this one: services (step A), solving (card values), flow (decisions and the
turn), fold (events into state), views (views, legal actions, prompts).
"""

from shared_rules import canon, decktet, prng
from shared_rules.chancellors.actions import SCHEMAS, SETTINGS  # noqa: F401
from shared_rules.chancellors.flow import decide  # noqa: F401
from shared_rules.chancellors.fold import fold  # noqa: F401

NAME = "chancellors"


def initial(settings, seed):
    """The state before anything happens: every problem's dice wait for the first roll (L21)."""
    n = settings["players"]
    problems = n + 1
    dice = []
    for p in range(problems):
        dice.append([p, 0])
        dice.append([p, 1])
    return {
        "game": NAME,
        "settings": dict(settings),
        "turn": 0,
        "step": "roll",
        "roll_for": "setup",
        "pending": dice,
        "scores": [0] * n,
        "control": {"diplomatic": None, "army": None, "navy": None},
        "problems": [[0, 0] for _ in range(problems)],
        "solved": [""] * problems,
        "aside": [-1] * problems,
        "queue": [],
        "played": [],
        "last_solver": None,
        "excuse": None,
        "rng": prng.seed_state(seed),
        "ending": "",
        "winners": [],
    }


def dice_wanted(state):
    """How many dice the table must roll now (0 when it is not a time to roll)."""
    return len(state["pending"]) if state["step"] == "roll" else 0


def card_names(state):
    """Every card name an action may mention (the rules then say which are playable)."""
    return decktet.names(state["settings"]["extended"])


def view(state, seat=None, share=False):
    """What `seat` (or the public, for None) may see. Chancellors keeps no
    secret in the core (hands are physical; control cards are entered once
    revealed), but the PRNG state would let anyone predict the board's next
    rolls, so no view shows it. share=True: the view holds the state's own
    lists (for a caller that only reads it at once, as the board's render does)."""
    out = {}
    for key in state:
        if key != "rng":
            out[key] = state[key] if share else canon.copy(state[key])
    return out


# views.py (legal actions and prompts) is loaded on first use: replaying a
# journal needs only decide, fold and view, and a board's RAM is better spent
# on the game.

def legal(state, seat=None):
    from shared_rules.chancellors import views as v

    return v.legal(state, seat)


def prompt(state):
    from shared_rules.chancellors import texts  # the words only when asked for (a host's)

    return texts.prompt(state)


def is_over(state):
    return state["step"] == "over"
