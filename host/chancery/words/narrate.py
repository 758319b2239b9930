"""A game's events in plain words: the game's own (shared_rules/GAME/narrate.py, found
through the registry: describe.words); a game without them reads as data, but for the
sealed ballot's events, which any game may hold (shared_rules/wording.py). With the
seats' names, each named seat is called by its name (names.called).
"""

from chancery.words import describe
from chancery.words import names as seat_words
from shared_rules import canon, engine, wording


def lines(game, before, events, action=None, names=None):
    """Plain sentences for `events`, which followed the state `before` (not modified).
    `action`, the action that made them when the caller knows it, lets a game name what
    its events carry only by index (Yes, Your Grace's cards of an Event's working).
    `names`: the seats' names (one per seat, None for a seat without one)."""
    words = describe.words(game, "narrate")
    if words is not None:
        out = words.lines(before, events, action)
    else:
        out = [wording.ballot(before, ev) if ev["t"][:7] == "ballot_" else wording.data(ev) for ev in events]
    return [seat_words.called(line, names) for line in out] if names else out


def history(match, first=0, names=None):
    """[(entry index, action, sentences)] for the entries from `first` on (`names` as lines()).

    Folds from the initial state, so it needs no stored intermediate states.
    """
    g = engine.game_module(match["game"])
    state = g.initial(match["settings"], match["seed"])
    out = []
    for i, entry in enumerate(match["entries"]):
        if i >= first:
            out.append((i, entry["action"], lines(match["game"], state, entry["events"], entry["action"], names)))
        for ev in entry["events"]:
            engine.fold(g, state, canon.copy(ev))  # see lines(): never let the state share the log's lists
    return out
