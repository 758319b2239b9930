"""The sealed ballot: a hidden vote that any game's table can hold.

    ballot_open   (table)  question, options (2-6), voters (default: every seat)
    ballot_cast   (a seat) that this seat has voted, and nothing else
    ballot_close  (table)  no more votes: those who have not voted abstain
    ballot_reveal (table)  every voter's choice at once (None: abstained)

A ballot may let each voter pick any set of the options ("multi": a choice is
then a list of distinct options, empty for none: The Council's reveal of
drafted cards), or ask a secret count with some options ("counted", 1..max:
The King's Dilemma's sealed vote, a side and the Power behind it).

A choice never enters the log before the reveal: ballot_cast has no choice
parameter (schema.check refuses one), so its entry, its events and the state
(hence every digest, view, frame, pixel and exported log) are the same
whatever the seat chose. Whoever takes the votes keeps them apart until every
voter has voted or the table has closed the ballot: on a board, the table
controller's private ballot box on flash (firmware/ballot_box.py), which then
sends ballot_reveal itself. The reveal is checked against what the log knows:
one choice per voter, an option for each seat that voted, None for each that
did not.

State: state["ballot"] = {"n": how many ballots this match has opened,
"question", "options", "voters", "voted" (seats, in the order they voted),
"open" (votes still taken), "result": None or {"choices", "counts" (per
option, how many picked it)[, "amounts"]}[, "counted", "max"][, "multi"]}. A match
that never opens a ballot has no "ballot" key, so its states and digests are
those of its game alone. Loaded only when a ballot action or event appears.
"""

from shared_rules.errors import RuleError
from shared_rules.schema import action, by_type, param

# built on each look-up (schema.by_type): a board keeps no schema dicts; the names are the games' own
# (_TYPES, _schema), which a board has interned already
_TYPES = tuple(["ballot_open", "ballot_cast", "ballot_close", "ballot_reveal"])


def _schema(t):
    """The schema of ballot action type t alone (None if it is none)."""
    if t == "ballot_cast":
        return action("ballot_cast", "seat", [])
    if t == "ballot_close":
        return action("ballot_close", "table", [])
    if t == "ballot_open":
        return action("ballot_open", "table", [
            param("question", {"kind": "text", "max": 40}),
            param("options", {"kind": "list", "of": {"kind": "text", "max": 16}, "min": 2, "max": 6,
                              "distinct": True}),
            param("voters", {"kind": "list", "of": {"kind": "seat"}, "min": 1, "max": 5, "distinct": True},
                  optional=True),
            # options that also take a secret count (1..max): a side and the Power behind it
            param("counted", {"kind": "list", "of": {"kind": "text", "max": 16}, "min": 1, "max": 6,
                              "distinct": True}, optional=True),
            param("max", {"kind": "int", "min": 1, "max": 99}, optional=True),
            param("multi", {"kind": "bool"}, optional=True),
        ])
    if t == "ballot_reveal":
        return action("ballot_reveal", "table", [
            # a choice is an option, or with "multi" a list of them (schema.py: "multi")
            param("choices", {"kind": "list", "of": {"kind": "text", "max": 16, "none": True, "multi": True},
                              "min": 1, "max": 5}),
            param("amounts", {"kind": "list", "of": {"kind": "int", "min": 1, "max": 99, "none": True}, "min": 1,
                              "max": 5}, optional=True),
        ])
    return None


SCHEMAS = by_type(_TYPES, _schema)


def decide(state, act, emit):
    kind = act["type"]
    if kind == "ballot_open":
        b = state.get("ballot")
        if b is not None and b["result"] is None:
            raise RuleError("ballot_open", {"question": b["question"], "voted": list(b["voted"])})
        voters = act.get("voters")
        voters = list(range(state["settings"]["players"])) if voters is None else sorted(voters)
        counted = act.get("counted")
        if counted and ([c for c in counted if c not in act["options"]] or act.get("multi")):
            raise RuleError("bad_param", {"action": "ballot_open", "name": "counted", "why": "not_allowed",
                                          "value": counted, "domain": {"kind": "enum", "values": act["options"]},
                                          "seats": state["settings"]["players"]})
        ev = {"t": "ballot_opened", "n": (b["n"] + 1) if b else 1, "question": act["question"],
              "options": list(act["options"]), "voters": voters}
        if counted:
            ev["counted"], ev["max"] = list(counted), act.get("max", 99)
        if act.get("multi"):
            ev["multi"] = True
        emit(ev)
        return
    b = state.get("ballot")
    if b is None or b["result"] is not None:  # none opened, or the last one revealed
        raise RuleError("no_ballot", {})
    if kind == "ballot_reveal":
        if b["open"]:
            raise RuleError("ballot_not_done", {"voted": list(b["voted"]), "voters": list(b["voters"])})
        _reveal(b, act["choices"], act.get("amounts"), emit)
        return
    if not b["open"]:
        raise RuleError("ballot_closed", {"voted": list(b["voted"]), "voters": list(b["voters"])})
    if kind == "ballot_close":
        emit({"t": "ballot_closed"})
        return
    seat = act.get("seat")  # ballot_cast
    if seat not in b["voters"]:
        raise RuleError("not_a_voter", {"seat": seat, "voters": list(b["voters"])})
    if seat in b["voted"]:
        raise RuleError("voted_already", {"seat": seat})
    emit({"t": "ballot_voted", "seat": seat})


def set_aside(state, emit):
    """A game's rule that ends the question a ballot asks before its reveal (The King's Dilemma's
    round card turning out an Event or Trigger card: no vote is held on it) sets that ballot aside:
    it takes no more votes and is never revealed, and its casts count for nothing. The event says
    which ballot, and nothing of a choice (the board's box empties at the next ballot). A ballot
    already revealed, or none, is left as it is."""
    b = state.get("ballot")
    if b is not None and b["result"] is None:
        emit({"t": "ballot_set_aside", "n": b["n"]})


def picked(b, c):
    """The options a choice picks (a list for a multi ballot, else one option), or
    None if `c` is no choice this ballot allows."""
    if b.get("multi"):
        if not isinstance(c, list) or [x for x in c if x not in b["options"]]:
            return None
        return c
    return [c] if c in b["options"] else None


def _reveal(b, choices, amounts, emit):
    """One choice per voter: a choice (picked()) for each seat that voted, None for each
    that did not; with counted options, an amount (1..max) for each choice of those, else None."""
    n = len(b["voters"])
    counted = b.get("counted") or []
    if len(choices) != n or (amounts is not None and len(amounts) != n) or (counted and amounts is None):
        raise RuleError("bad_reveal", {"why": "count", "voters": list(b["voters"]), "choices": len(choices)})
    counts = [0] * len(b["options"])
    for i in range(n):
        voted = b["voters"][i] in b["voted"]
        c = choices[i]
        picks = None if c is None else picked(b, c)
        if (c is None) == voted or (c is not None and picks is None):
            raise RuleError("bad_reveal", {"why": "choice", "seat": b["voters"][i], "voted": voted,
                                           "options": list(b["options"]), "multi": b.get("multi", False)})
        a = amounts[i] if amounts is not None else None
        if (a is not None) != (c in counted) or (a is not None and a > b["max"]):
            raise RuleError("bad_reveal", {"why": "amounts", "seat": b["voters"][i], "counted": counted,
                                           "max": b.get("max", 0), "voted": voted, "options": list(b["options"])})
        for x in picks or []:
            counts[b["options"].index(x)] += 1
    ev = {"t": "ballot_revealed", "choices": list(choices), "counts": counts}
    if counted:
        ev["amounts"] = list(amounts)
    emit(ev)


def fold(state, ev):
    t = ev["t"]
    if t == "ballot_opened":
        state["ballot"] = {"n": ev["n"], "question": ev["question"], "options": list(ev["options"]),
                           "voters": list(ev["voters"]), "voted": [], "open": True, "result": None}
        if "counted" in ev:
            state["ballot"]["counted"], state["ballot"]["max"] = list(ev["counted"]), ev["max"]
        if "multi" in ev:
            state["ballot"]["multi"] = True
        return
    b = state["ballot"]
    if t == "ballot_voted":
        b["voted"].append(ev["seat"])
        if len(b["voted"]) == len(b["voters"]):
            b["open"] = False
    elif t == "ballot_closed":
        b["open"] = False
    elif t == "ballot_set_aside":  # done with, nothing revealed: no reveal is due, no vote taken
        b["open"] = False
        b["result"] = {"set_aside": True}
    elif t == "ballot_revealed":
        b["result"] = {"choices": list(ev["choices"]), "counts": list(ev["counts"])}
        if "amounts" in ev:
            b["result"]["amounts"] = list(ev["amounts"])
    else:
        raise ValueError("unknown event " + t)
