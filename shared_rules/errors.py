"""The one error type the rules raise.

A rule error is an answer, not a crash: a stable `code` that programs match
on, the facts of the case (`detail`: ints, strings and lists, so it can cross
the wire as it is) and what is allowed now (`allowed`, where the rules can
say). The engine guarantees the state is unchanged when one is raised.

The sentence a person reads (`message`) is rendered from `detail` by
shared_rules/texts.py only when it is asked for: the prose of every message
would otherwise sit in a board's RAM for the whole game, and a board that
reports an error to the host sends the code and the facts.
"""


class RuleError(Exception):
    def __init__(self, code, detail=None, allowed=None):
        super().__init__(code)
        self.code = code
        self.detail = detail if detail is not None else {}
        self.allowed = allowed
        self.game = None  # set by the engine, so the game's own texts are found

    @property
    def message(self):
        from shared_rules import texts

        return texts.render(self)

    def __str__(self):
        return self.code + ": " + self.message
