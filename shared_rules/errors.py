"""The one error type the rules raise.

A rule error is an answer, not a crash: it names what was wrong (a stable
`code` that programs can match on) and what is allowed now (`allowed`), and the
engine guarantees that the state is unchanged when one is raised.
"""


class RuleError(Exception):
    def __init__(self, code, message, allowed=None):
        super().__init__(code + ": " + message)
        self.code = code
        self.message = message
        self.allowed = allowed

    def as_dict(self):
        out = {"code": self.code, "message": self.message}
        if self.allowed is not None:
            out["allowed"] = self.allowed
        return out


class LogError(Exception):
    """A match log that does not replay: names the entry and the reason."""

    def __init__(self, entry, reason):
        where = "header" if entry is None else "entry " + str(entry)
        super().__init__(where + ": " + reason)
        self.entry = entry
        self.reason = reason
