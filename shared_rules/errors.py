"""The one error type the rules raise.

A rule error is an answer, not a crash: a stable `code` that programs match
on, the facts of the case (`detail`: ints, strings and lists, so it can cross
the wire as it is) and what is allowed now (`allowed`, where the rules can
say). The engine guarantees the state is unchanged when one is raised.

The sentence a person reads is rendered from `detail` by the caller, with
games.message(error), only when it is asked for: the prose of every message
would otherwise sit in a board's RAM for the whole game, and a board that
reports an error to the host sends the code and the facts. This module imports
nothing: every rule module raises it, and the words import the rules.
"""


class RuleError(Exception):
    def __init__(self, code, detail=None, allowed=None):
        super().__init__(code)
        self.code = code
        self.detail = detail if detail is not None else {}
        self.allowed = allowed
        self.game = None  # set by the engine, so the game's own texts are found
