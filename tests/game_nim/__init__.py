"""Nim, a test-only game: one folder (tests/game_nim/) and one line (games.register) are enough.

Seats take 1 to 3 counters in turn from one pile; who takes the last wins. The
modules are the contract's (docs/adding-a-game.md): actions, flow, fold, views,
texts on the board's side; docs, show, narrate the host's. What every game has in
common (its view, prompt, is_over, no dice, no cards, no hooks) is game.declare's.
"""

from game_nim.actions import SCHEMAS, SETTINGS  # noqa: F401
from game_nim.flow import decide  # noqa: F401
from game_nim.fold import fold  # noqa: F401
from shared_rules import game

NAME = "nim"
LOG_PUBLIC = True  # nothing is hidden


def initial(settings, seed):
    return {"game": NAME, "settings": dict(settings), "step": "take", "turn": 0, "pile": settings["pile"],
            "winners": []}


def legal(state, seat=None):
    from game_nim import views

    return views.legal(state, seat)


def words():
    from game_nim import texts

    return texts


game.declare(globals())
