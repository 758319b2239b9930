"""The words of the rules core: error messages and domain descriptions.

Rendered on demand from an error's code and facts (see errors.py), so that a
board carries the prose only when it has to show it. Generic codes are here;
each game's own codes are in its texts module (shared_rules/GAME/texts.py),
which the caller passes (games.message). This module imports nothing.
A template is either a str.format string over the facts or a function of them.
"""


def show(value):
    """A value as a person reads it in a message, cut short if long."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def word(v):
    if v is True or v is False or v is None:
        return "true" if v is True else ("false" if v is False else "null")
    return str(v)


def describe(domain, seats):
    """A short human text of what a schema domain allows (see schema.py)."""
    kind = domain["kind"]
    if kind == "int":
        among = domain.get("among")
        if among is not None:
            return "one of " + (", ".join([str(x) for x in among]) if among else "(none available)")
        d = domain.get("seats_max")  # schema.int_max: texts imports nothing of the core
        return "an integer from %d to %d" % (domain["min"], domain["max"] if d is None or not seats else
                                             min(domain["max"], seats + d))
    if kind == "enum":
        if domain.get("multi"):
            return "a list of distinct items of " + ", ".join([word(v) for v in domain["values"]])
        return "one of " + ", ".join([word(v) for v in domain["values"]])
    if kind == "bool":
        return "true or false"
    if kind == "seat":
        text = "a seat from 0 to %d" % (seats - 1)
        return text + " or null" if domain.get("none") else text
    if kind == "card":
        among = domain.get("among")
        if among is not None:
            return "one of the cards " + (", ".join(among) if among else "(none available)")
        return "a card name"
    if kind == "list":
        n = "%d" % domain["min"] if domain["min"] == domain["max"] else "%d to %d" % (domain["min"], domain["max"])
        return "a list of %s%s items, each %s" % (n, " distinct" if domain.get("distinct") else "",
                                                  describe(domain["of"], seats))
    if kind == "per_seat":
        return "a list of %d items (one per seat), each %s" % (seats, describe(domain["of"], seats))
    if kind == "text":
        text = "a text of 1 to %d printable ASCII characters" % domain["max"]
        return text + " or null" if domain.get("none") else text
    return kind


_WHY = {
    "not_int": "must be an integer",
    "out_of_range": "is out of range",
    "not_choice": "is not a choice",
    "not_bool": "must be true or false",
    "not_seat": "is not a seat",
    "not_card": "is not a card of this deck",
    "not_allowed": "is not allowed here",
    "not_list": "must be a list",
    "count": "has the wrong number of items",
    "repeats": "repeats an item",
    "not_text": "must be a short text of printable ASCII",
}


def _bad_value(d):
    """NAME WHY (got VALUE); allowed: WHAT."""
    if d["why"] == "too_many":  # a per-seat cap (The King's Dilemma's Open Agenda tokens)
        return "%s gives seat %d more than 2 %s tokens (got %s); a player holds at most 2 of each" % (
            d["name"], d["seat"], d["sign"], show(d.get("value")))
    return "%s %s (got %s); allowed: %s" % (d["name"], _WHY.get(d["why"], d["why"]), show(d.get("value")),
                                           describe(d["domain"], d.get("seats", 0)))


def _bad_param(d):
    if "unknown" in d:
        return "%s takes no parameter %s; its parameters: %s" % (
            d["action"], show(d["unknown"]), ", ".join(d["params"]) or "none")
    if d["why"] == "missing":
        return "%s %s is missing; allowed: %s" % (d["action"], d["name"], describe(d["domain"], d.get("seats", 0)))
    return _bad_value(d)


def _bad_setting(d):
    if "unknown" in d:
        return "%s has no setting %s; its settings: %s" % (d["game"], show(d["unknown"]), ", ".join(d["names"]))
    if "why" not in d:
        return "settings must be an object of name: value"
    return _bad_value(d)


def _named(d):
    return "the name" if d.get("seat") is None else "seat %d's name" % d["seat"]


def _bad_name(d):
    why = {"char": "has a character that is not printable ASCII (a board's display shows ASCII only)",
           "space": "begins or ends with a space", "comma": "has a comma (commas separate names)",
           "seat": "is a seat's own name (stats and --player read it as a seat)"}
    return "%s %s %s" % (_named(d), show(d["name"]), why.get(d.get("why"), "is not a name"))


TEXTS = {
    "unknown_game": lambda d: "no game %s; known games: %s" % (show(d["game"]), ", ".join(d["games"])),
    "bad_setting": _bad_setting,
    "bad_seed": lambda d: "the seed must be an integer (got %s)" % show(d["value"]),
    "bad_param": _bad_param,
    "bad_action": lambda d: 'an action must be an object with a "type" (got %s)' % show(d["value"]),
    "unknown_action": lambda d: "no action type %s in this game; allowed: %s" % (
        show(d["value"]), ", ".join(d["types"])),
    "bad_schema": lambda d: "unknown domain kind " + show(d["kind"]),
    "bad_undo": lambda d: "can undo 0 to %d entries (asked %s)" % (d["max"], show(d["count"])),
    # undo at the table (firmware/table.py): the last entry only, never a sealed ballot's reveal
    "nothing_to_undo": "the game has no entry yet: there is nothing to take back",
    "undo_not_last": lambda d: "only the last entry (#%d) can be taken back, not #%s; undo again for each one before it" % (
        d["last"] + 1, show(d["entry"] + 1 if isinstance(d["entry"], int) else d["entry"])),
    "undo_reveal": lambda d: ("entry #%d revealed a sealed ballot: its votes are public now, and taking it back would "
                              "let a seat vote again knowing the others'. Enter a correction instead" % (d["entry"] + 1)),
    # a board's flash (firmware/kept.py): the finished games wait there for the host
    "flash_full": lambda d: ("the board's flash is full: this entry was not kept and the game stays as it was. "
                             "%d finished games wait on it for the host to store them. Connect the host (chancery "
                             "mirror): it stores them and the board frees their room; then enter it again" % d["kept"])
    if d.get("why") == "entry" else
                            ("the board's flash has %d KB free and a new game needs %d KB: %d finished games wait "
                             "on it for the host to store them. Connect the host (chancery mirror): it stores them "
                             "and the board frees their room; then start the new game" % (d["free"], d["need"],
                                                                                          d["kept"])),
    # seat names (shared_rules/seat_names.py): a seat's name is None or one of these
    "bad_names": lambda d: "names are a list of texts, one per seat from seat 0 (null for a seat without a name), "
                           "not %s" % show(d["value"]),
    "names_too_many": lambda d: ("%d names for %d seats: at most one name per seat" % (d["given"], d["seats"])
                                 if d["seats"] is not None else
                                 "%d names: a board keeps at most %d for its menu" % (d["given"], d["max"])),
    "name_empty": lambda d: "%s is empty: a name has 1 to %d characters (- leaves a seat without one)" % (
        _named(d), d["max"]),
    "name_too_long": lambda d: "%s %s has %d characters: at most %d (a board's display is 16 wide)" % (
        _named(d), show(d["name"]), len(d["name"]), d["max"]),
    "name_bad": _bad_name,
    "name_duplicate": lambda d: ("%s is the name of seat %d and of seat %d: each seat's name is its own (case "
                                 "ignored)" % (show(d["name"]), d["seats"][0], d["seats"][1]) if d["seats"] else
                                 "%s is in the list twice (case ignored)" % show(d["name"])),
    # the sealed ballot (shared_rules/ballot.py), which any game's table may hold
    "no_ballot": "no ballot is waiting for votes or a reveal; the table opens one with ballot_open",
    "ballot_open": lambda d: "a ballot is under way (%s), %d voted so far: reveal it before opening another" % (
        show(d["question"]), len(d["voted"])),
    "ballot_closed": lambda d: "the ballot takes no more votes (%d of %d voted); it is to be revealed" % (
        len(d["voted"]), len(d["voters"])),
    "not_a_voter": lambda d: "seat %s does not vote in this ballot; the voters: %s" % (
        show(d["seat"]), ", ".join([str(s) for s in d["voters"]])),
    "voted_already": "seat {seat} has voted already: a vote is cast once",
    "board_reveals": "the board reveals a ballot itself, from the choices only it holds",
    "ballot_not_done": lambda d: "the ballot waits for seats %s (the table may close it first)" % (
        ", ".join([str(s) for s in d["voters"] if s not in d["voted"]])),
    "bad_reveal": lambda d: ("the reveal needs one choice per voter (%d), got %d" % (len(d["voters"]), d["choices"])
                             if d["why"] == "count" else
                             "seat %d: a count of 1 to %d goes with each choice of %s, null with any other"
                             % (d["seat"], d["max"], ", ".join(d["counted"])) if d["why"] == "amounts" else
                             "seat %d %s; the options: %s" % (
                                 d["seat"], ("voted: its choice must be a list of distinct options (or [])"
                                             if d.get("multi") else "voted: its choice must be an option")
                                 if d["voted"] else "did not vote: its choice is null", ", ".join(d["options"]))),
}


def render(error, words=None):
    """The sentence for a RuleError: what was wrong and what is allowed. `words`: the
    game's own templates (its texts module's TEXTS), looked up before the core's; the
    registry's games.message(error) passes them."""
    template = (words or {}).get(error.code) or TEXTS.get(error.code)
    if template is None:
        return "%s %s" % (error.code, show(error.detail))
    try:
        if isinstance(template, str):
            return template.format(**error.detail)
        return template(error.detail)
    except (KeyError, IndexError, TypeError, ValueError) as e:
        # a missing fact must not turn an answer into a crash
        return "%s %s (%s)" % (error.code, show(error.detail), e)
