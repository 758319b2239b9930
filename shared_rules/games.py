"""The registry: every game the core knows, by name, loaded when first asked for.

A game is a folder, shared_rules/GAME/, that keeps the contract in
docs/adding-a-game.md, and one entry in load() below. The imports are explicit
(not __import__ of a computed name) so that a frozen or .mpy build sees every
module, and a board loads only the game it plays. Nothing else in shared_rules/,
firmware/ or host/ names a game: what differs between games is the game's own
module (its hooks, declared by every game) or its host-only modules, which the
host finds in the game's folder (host/chancery/words/describe.py).
"""

import shared_rules

GAMES = ["chancellors", "kings_dilemma", "the_council", "yes_your_grace"]
_MORE = {}  # name -> game module, registered at run time (register(): the tests' own games)


def load(name):
    """The game module of `name` (KeyError for none). One that is loaded is taken from
    its package, shared_rules: an import statement of a loaded module costs about 0.1 ms
    on a Pico, and a press asks for its game four times before the strip shows the entry.
    A game a board let go (firmware/table.py _forget) is no longer there, and is imported
    below again."""
    if name in GAMES:
        g = getattr(shared_rules, name, None)
        if g is not None:
            return g
    if name == "chancellors":
        from shared_rules import chancellors as g
    elif name == "kings_dilemma":
        from shared_rules import kings_dilemma as g
    elif name == "the_council":
        from shared_rules import the_council as g
    elif name == "yes_your_grace":
        from shared_rules import yes_your_grace as g
    else:
        g = _MORE[name]
    return g


def register(name, module):
    """Add a game from outside the core (a test's own): one line where it is wanted."""
    if name not in GAMES:
        GAMES.append(name)
    _MORE[name] = module


def message(error):
    """The sentence for a RuleError: what was wrong and what is allowed, in the words of
    its game (the game's words(), loaded now) or the core's (shared_rules/texts.py)."""
    from shared_rules import texts

    words = None
    if error.game is not None:
        try:
            words = load(error.game).words().TEXTS
        except KeyError:
            pass
    return texts.render(error, words)
