"""A game's events in plain words: the game's own (shared_rules/GAME/narrate.py, found
through the registry: describe.words); a game without them reads as data, but for the
sealed ballot's events, which any game may hold (shared_rules/wording.py).
"""

from chancery.words import describe
from shared_rules import canon, engine, wording


def lines(game, before, events, action=None):
    """Plain sentences for `events`, which followed the state `before` (not modified).
    `action`, the action that made them when the caller knows it, lets a game name what
    its events carry only by index (Yes, Your Grace's cards of an Event's working)."""
    words = describe.words(game, "narrate")
    if words is not None:
        return words.lines(before, events, action)
    return [wording.ballot(before, ev) if ev["t"][:7] == "ballot_" else wording.data(ev) for ev in events]


def history(match, first=0):
    """[(entry index, action, sentences)] for the entries from `first` on.

    Folds from the initial state, so it needs no stored intermediate states.
    """
    g = engine.game_module(match["game"])
    state = g.initial(match["settings"], match["seed"])
    out = []
    for i, entry in enumerate(match["entries"]):
        if i >= first:
            out.append((i, entry["action"], lines(match["game"], state, entry["events"], entry["action"])))
        for ev in entry["events"]:
            engine.fold(g, state, canon.copy(ev))  # see lines(): never let the state share the log's lists
    return out
