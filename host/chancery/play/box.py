"""The terminal's sealed ballot box: what a board's private box (firmware/ballot_box.py) does, for a
game played at the terminal (`chancery play`).

A seat casts with `cast SEAT`; its choice is then asked on a line of its own that the terminal does
not echo (getpass; a script's piped line is shown as `*`), so the players sharing the screen see
who has voted, never what. The choice is an option (a prefix will do) and, where the option is
counted, its count: `aye 3`; for a ballot whose voters pick any set of options (The Council's reveal
of drafted cards), the options, `1 4 5`, or `-` for none. The log gets `ballot_cast` with the seat
only (shared_rules/ballot.py); the choices wait in a file of their own beside the game's log
(LOG.box, written before the cast is applied) and leave it in the reveal, which the box makes
itself once every voter has voted or the table has closed the ballot (`close`).
"""

import json
import os

CAST_WORDS = ("cast", "vote", "mark")
CLOSE_WORDS = ("close",)


class BoxError(Exception):
    pass


def read_choice(b, text):
    """[choice, count] for ballot `b` from the words typed; raises BoxError saying what is allowed."""
    words = text.replace(",", " ").split()
    options = b["options"]
    if b.get("multi"):
        if words in ([], ["-"], ["none"]):
            return [[], None]
        picked = []
        for w in words:
            found = [o for o in options if o.lower() == w.lower()] or [o for o in options
                                                                       if o.lower().startswith(w.lower())]
            if len(found) != 1 or found[0] in picked:
                raise BoxError("%r is not one of %s (each once; - for none)" % (w, ", ".join(options)))
            picked.append(found[0])
        return [picked, None]
    if not words:
        raise BoxError("a choice is one of %s" % ", ".join(options))
    found = [o for o in options if o.lower() == words[0].lower()] or [
        o for o in options if o.lower().startswith(words[0].lower())]
    if len(found) != 1:
        raise BoxError("%r is not one of %s" % (words[0], ", ".join(options)))
    choice = found[0]
    counted = b.get("counted") or []
    if choice in counted:
        if len(words) != 2 or not words[1].isdigit() or not 1 <= int(words[1]) <= b["max"]:
            raise BoxError("%s takes a count from 1 to %d: %s N" % (choice, b["max"], choice))
        return [choice, int(words[1])]
    if len(words) != 1:
        raise BoxError("%s takes no count" % choice)
    return [choice, None]


class Box:
    """The open ballot's choices, kept in `path` (a JSON file: {"n": ballot, "choices": {seat: [choice,
    count]}}) until the reveal."""

    def __init__(self, path):
        self.path = path
        self.n, self.choices = 0, {}
        try:
            with open(path) as f:
                got = json.load(f)
            self.n, self.choices = got["n"], got["choices"]
        except (OSError, ValueError, KeyError, TypeError):
            pass

    def put(self, n, seat, choice):
        if n != self.n:
            self.n, self.choices = n, {}
        self.choices[str(seat)] = choice
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"n": self.n, "choices": self.choices}, f)
        os.replace(tmp, self.path)

    def reveal(self, b):
        """The ballot_reveal action for ballot `b` from the choices kept: None for a voter that did not
        vote (or whose choice a lost box no longer has: it cannot be revealed, and the reveal says so)."""
        kept = self.choices if self.n == b["n"] else {}
        cast = [kept.get(str(s)) if s in b["voted"] else None for s in b["voters"]]
        missing = [s for s, c in zip(b["voters"], cast) if c is None and s in b["voted"]]
        if missing:
            raise BoxError("the box has lost the choices of seats %s (its file %s)" % (
                ", ".join([str(s) for s in missing]), self.path))
        act = {"type": "ballot_reveal", "choices": [c[0] if c else None for c in cast]}
        if b.get("counted"):
            act["amounts"] = [c[1] if c else None for c in cast]
        return act

    def clear(self):
        self.n, self.choices = 0, {}
        try:
            os.remove(self.path)
        except OSError:
            pass
