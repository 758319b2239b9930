"""The games the core knows, loaded by name.

Explicit imports (not __import__ tricks) so that a frozen or .mpy build can
see every module statically, and so that a board only loads the game it plays.
Each game's prose (its docs module) is found by shared_rules/describe.py, on
the host: a module path named here would be an interned string on every board.
"""

GAMES = tuple(["chancellors", "kings_dilemma", "the_council", "yes_your_grace"])


def load(name):
    if name == "chancellors":
        from shared_rules import chancellors

        return chancellors
    if name == "kings_dilemma":
        from shared_rules import kings_dilemma

        return kings_dilemma
    if name == "the_council":
        from shared_rules import the_council

        return the_council
    if name == "yes_your_grace":
        from shared_rules import yes_your_grace

        return yes_your_grace
    raise KeyError(name)
