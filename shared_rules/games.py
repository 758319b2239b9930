"""The games the core knows, loaded by name.

Explicit imports (not __import__ tricks) so that a frozen or .mpy build can
see every module statically, and so that a board only loads the game it plays.
"""

GAMES = tuple(["chancellors", "kings_dilemma"])


def load(name):
    if name == "chancellors":
        from shared_rules import chancellors

        return chancellors
    if name == "kings_dilemma":
        from shared_rules import kings_dilemma

        return kings_dilemma
    raise KeyError(name)


def docs(name):
    """The prose about a game's settings and actions (host side only)."""
    if name == "chancellors":
        from shared_rules.chancellors.docs import DOCS

        return DOCS
    if name == "kings_dilemma":
        from shared_rules.kings_dilemma.docs import DOCS

        return DOCS
    raise KeyError(name)
