"""Chancellors' setup: its settings and the state before the first roll.

A module of its own: what a new game (or a resume, which starts from the header's
settings) reads, apart from the rules of play.
"""

from shared_rules import prng
from shared_rules.chancellors import NAME

# What actions.SETTINGS gives (its Built reads this)
SETTINGS = (
    {"name": "players", "domain": {"kind": "int", "min": 2, "max": 4}, "default": 4},
    {"name": "target", "domain": {"kind": "int", "min": 1, "max": 1000}, "default": 100},
    {"name": "extended", "domain": {"kind": "bool"}, "default": False},
)


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
