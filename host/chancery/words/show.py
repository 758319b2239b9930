"""A game's public state as text: a compact status for the play prompt and the mirror's
panel, a full one for `chancery replay`.

The words are the game's own (shared_rules/GAME/show.py, found through the registry:
describe.words); a game without them reads as data. Works on the public view
(matches.view(match, None)). With the seats' names, a named seat is called by its name.
"""

from chancery.words import describe
from chancery.words import names as seat_words
from shared_rules import wording


def status(view, names=None):
    """Two or more short lines for the play prompt (and the mirror's state panel)."""
    words = describe.words(view.get("game"), "show")
    return seat_words.called(words.status(view) if words is not None else wording.data_status(view), names)


def full(view, prompt_line):
    """The multi-line form printed by `chancery replay`."""
    words = describe.words(view.get("game"), "show")
    return words.full(view, prompt_line) if words is not None else wording.data_full(view, prompt_line)
