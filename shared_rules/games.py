"""The games the core knows, loaded by name.

Explicit imports (not __import__ tricks) so that a frozen or .mpy build can
see every module statically, and so that a board only loads the game it plays.
"""

GAMES = ("chancellors",)


def load(name):
    if name == "chancellors":
        from shared_rules import chancellors

        return chancellors
    raise KeyError(name)


def docs(name):
    """The prose about a game's settings and actions (host side only)."""
    if name == "chancellors":
        from shared_rules.chancellors.docs import DOCS

        return DOCS
    raise KeyError(name)
