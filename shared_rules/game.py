"""What every game's package would otherwise write again, declared once.

A game's __init__.py (docs/adding-a-game.md) defines what is its own, then ends with
`game.declare(globals())`, which checks that the contract's own names are there (a game
without one fails at its import, naming it) and gives the rest their usual meaning:

* `prompt(state)`: its words()' prompt(state);
* `is_over(state)`: the step is "over";
* `view(state, seat, share)`: the state as it is, without the PRNG's (a game with no secret
  in its state; a game with some defines its own);
* `dice_wanted(state)`: 0 (no dice); `card_names(state)`: () (no action names a card);
* the optional hooks `ballot`, `pad`, `lines`, `view_entry`: None (the game does without).

The lazy parts (`initial`, `legal`, `words`) stay in each game, with explicit imports of its
own modules: a board's build and its deploy find the modules a game needs by its imports.
"""

from shared_rules import canon

OWN = tuple(["NAME", "LOG_PUBLIC", "SETTINGS", "SCHEMAS", "decide", "fold", "initial", "legal", "words"])
HOOKS = tuple(["ballot", "pad", "lines", "view_entry"])


def is_over(state):
    return state["step"] == "over"


def view(state, seat=None, share=False):
    """The state as any seat sees it: nothing secret in it but the PRNG, whose state would
    let anyone predict the board's next rolls. share=True: the view holds the state's own
    lists (for a caller that only reads it at once, as the board's render does)."""
    out = dict(state) if share else canon.copy(state)  # dict(): in C, not a loop over the keys in Python
    out.pop("rng", None)
    return out


def no_dice(state):
    return 0


def no_cards(state):
    return ()


def declare(names):
    """Check a game's module globals `names` against the contract and fill in the usual
    meaning of what it leaves out (see above). ValueError names a missing own name."""
    for name in OWN:
        if name not in names:
            raise ValueError("game %s: its __init__ lacks %s (docs/adding-a-game.md)" % (names.get("NAME"), name))
    words = names["words"]

    def prompt(state):
        return words().prompt(state)

    for name, usual in (("prompt", prompt), ("is_over", is_over), ("view", view), ("dice_wanted", no_dice),
                        ("card_names", no_cards)):
        if name not in names:
            names[name] = usual
    for name in HOOKS:
        if name not in names:
            names[name] = None
