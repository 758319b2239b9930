"""Chancellors' settings and action schemas, as data (see shared_rules/schema.py).

Only what the board needs to validate and build menus lives here; the prose
for people (the host's forms, `chancery rules`) is in docs.py, so that the
board does not carry it in RAM. SETTINGS and SCHEMAS are re-iterables that build
their dicts when iterated (as in kings_dilemma/actions.py): on a Pico the schemas
as data took 2.5 KB of the heap for the whole game, the bytecode that builds them less.
"""

from shared_rules.chancellors.services import ORDER as SERVICES
from shared_rules.schema import Built, action, by_type, param, reason


def _settings():
    from shared_rules.chancellors import setup  # not at the top: setup reads the package's NAME

    return setup.SETTINGS


SETTINGS = Built(_settings)

# The action types in the order menus offer them (_schema builds each)
_TYPES = tuple(["roll", "reveal", "assign", "solve", "solve_part", "pass", "excuse", "score", "die", "service"])


def _schema(t):
    """The schema of action type t alone (None if the game has none)."""
    die = {"kind": "int", "min": 1, "max": 6}
    if t == "roll":
        return action("roll", "table", [
            param("values", {"kind": "list", "of": die, "min": 1, "max": 10}, optional=True, omit="board rolls"),
            param("source", {"kind": "enum", "values": ["board", "manual", "smart"]}, optional=True,
                  default="board"),
            # a smart roll's dice: each value's die (its id), in the values' order; the log keeps them, the
            # state does not (views.legal leaves this out of the menus: only a smart dice reader fills it)
            param("dice", {"kind": "list", "of": {"kind": "text", "max": 12}, "min": 1, "max": 10}, optional=True),
        ])
    card = {"kind": "card", "deck": "decktet"}
    if t == "reveal":
        return action("reveal", "table", [param("cards", {"kind": "per_seat", "of": card})])
    if t == "assign":
        return action("assign", "table", [param(k, {"kind": "seat", "none": True}) for k in SERVICES])
    problem = param("problem", {"kind": "int", "min": 0, "max": 4, "seats_max": 0})  # a problem per seat, one more
    if t == "solve":
        return action("solve", "seat", [
            problem,
            param("cards", {"kind": "list", "of": card, "min": 1, "max": 12, "distinct": True}),
            _use_excuse(),
        ])
    if t == "solve_part":
        return action("solve_part", "seat", [
            problem,
            param("card", card),
            param("aside", {"kind": "int", "min": 0, "max": 1}),
            _use_excuse(),
        ])
    if t == "pass":
        return action("pass", "seat", [param("abdicate", {"kind": "bool"}, optional=True, default=False)])
    if t == "excuse":
        return action("excuse", "table", [param("holder", {"kind": "seat", "none": True})])
    # corrections and house rules (effects.py): the table's, at any time before the game is over
    if t == "score":
        return action("score", "table", [param("seat", {"kind": "seat"}),
                                         param("amount", {"kind": "int", "min": -20, "max": 20}), reason()])
    if t == "die":
        return action("die", "table", [problem, param("die", {"kind": "int", "min": 0, "max": 1}),
                                       param("value", die), reason()])
    if t == "service":
        return action("service", "table", [param("service", {"kind": "enum", "values": list(SERVICES)}),
                                           param("holder", {"kind": "seat", "none": True}), reason()])
    return None


def _use_excuse():
    return param("excuse", {"kind": "bool"}, optional=True, default=False)


SCHEMAS = by_type(_TYPES, _schema)
