"""Chancellors' settings and action schemas, as data (see shared_rules/schema.py).

Only what the board needs to validate and build menus lives here; the prose
for people (the host's forms, `chancery rules`) is in docs.py, so that the
board does not carry it in RAM.
"""

from shared_rules.schema import Built, action, by_type, param, reason


def _settings():
    from shared_rules.chancellors import setup  # read for a new game only (the board lets it go)

    return setup.SETTINGS


SETTINGS = Built(_settings)

# The action types in the order menus offer them (_schema builds each: on a board a schema dict
# costs far more RAM than the bytecode that builds it, and a step looks one type up)
_TYPES = tuple(["roll", "reveal", "assign", "solve", "solve_part", "pass", "excuse", "score", "die", "service"])


def _schema(t):
    """The schema of action type t alone (None if the game has none)."""
    die = {"kind": "int", "min": 1, "max": 6}
    card = {"kind": "card", "deck": "decktet"}
    nobody = {"kind": "seat", "none": True}
    problem = {"kind": "int", "min": 0, "max": 4, "seats_max": 0}  # a problem per seat and one more: 0..seats
    if t == "solve" or t == "solve_part":
        excuse = param("excuse", {"kind": "bool"}, optional=True, default=False)
        if t == "solve":
            return action("solve", "seat", [
                param("problem", problem),
                param("cards", {"kind": "list", "of": card, "min": 1, "max": 12, "distinct": True}),
                excuse,
            ])
        return action("solve_part", "seat", [
            param("problem", problem),
            param("card", card),
            param("aside", {"kind": "int", "min": 0, "max": 1}),
            excuse,
        ])
    if t == "pass":
        return action("pass", "seat", [param("abdicate", {"kind": "bool"}, optional=True, default=False)])
    if t == "roll":
        return action("roll", "table", [
            param("values", {"kind": "list", "of": die, "min": 1, "max": 10}, optional=True, omit="board rolls"),
            param("source", {"kind": "enum", "values": ["board", "manual", "smart"]}, optional=True,
                  default="board"),
            # a smart roll's dice: each value's die (its id), in the values' order; the log keeps them, the
            # state does not (views.legal leaves this out of the menus: only a smart dice reader fills it)
            param("dice", {"kind": "list", "of": {"kind": "text", "max": 12}, "min": 1, "max": 10}, optional=True),
        ])
    if t == "reveal":
        return action("reveal", "table", [param("cards", {"kind": "per_seat", "of": card})])
    if t == "assign":
        return action("assign", "table", [
            param("diplomatic", nobody),
            param("army", nobody),
            param("navy", nobody),
        ])
    if t == "excuse":
        return action("excuse", "table", [param("holder", {"kind": "seat", "none": True})])
    # corrections and house rules (effects.py): the table's, at any time before the game is over
    why = reason()  # "fix a misentry", "house rule"
    if t == "score":
        return action("score", "table", [param("seat", {"kind": "seat"}),
                                         param("amount", {"kind": "int", "min": -20, "max": 20}), why])
    if t == "die":
        return action("die", "table", [param("problem", problem), param("die", {"kind": "int", "min": 0, "max": 1}),
                                       param("value", die), why])
    if t == "service":
        return action("service", "table", [param("service", {"kind": "enum", "values": ["diplomatic", "army", "navy"]}),
                                           param("holder", nobody), why])
    return None


SCHEMAS = by_type(_TYPES, _schema)
