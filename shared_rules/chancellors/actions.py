"""Chancellors' settings and action schemas, as data (see shared_rules/schema.py).

Only what the board needs to validate and build menus lives here; the prose
for people (the host's forms, `chancery rules`) is in docs.py, so that the
board does not carry it in RAM.
"""

from shared_rules.schema import Built, action, param, reason


def _settings():
    from shared_rules.chancellors import setup  # read for a new game only (the board lets it go)

    return setup.SETTINGS


SETTINGS = Built(_settings)

_DIE = {"kind": "int", "min": 1, "max": 6}
_CARD = {"kind": "card", "deck": "decktet"}
_SERVICE_SEAT = {"kind": "seat", "none": True}
_PROBLEM = {"kind": "int", "min": 0, "max": 4, "seats_max": 0}  # a problem per seat and one more: 0..seats
_WHY = reason()  # "fix a misentry", "house rule"
_USE_EXCUSE = param("excuse", {"kind": "bool"}, optional=True, default=False)

SCHEMAS = (
    action("roll", "table", [
        param("values", {"kind": "list", "of": _DIE, "min": 1, "max": 10}, optional=True, omit="board rolls"),
        param("source", {"kind": "enum", "values": ["board", "manual", "smart"]}, optional=True, default="board"),
        # a smart roll's dice: each value's die (its id), in the values' order; the log keeps them, the
        # state does not (views.legal leaves this out of the menus: only a smart dice reader fills it)
        param("dice", {"kind": "list", "of": {"kind": "text", "max": 12}, "min": 1, "max": 10}, optional=True),
    ]),
    action("reveal", "table", [param("cards", {"kind": "per_seat", "of": _CARD})]),
    action("assign", "table", [
        param("diplomatic", _SERVICE_SEAT),
        param("army", _SERVICE_SEAT),
        param("navy", _SERVICE_SEAT),
    ]),
    action("solve", "seat", [
        param("problem", _PROBLEM),
        param("cards", {"kind": "list", "of": _CARD, "min": 1, "max": 12, "distinct": True}),
        _USE_EXCUSE,
    ]),
    action("solve_part", "seat", [
        param("problem", _PROBLEM),
        param("card", _CARD),
        param("aside", {"kind": "int", "min": 0, "max": 1}),
        _USE_EXCUSE,
    ]),
    action("pass", "seat", [param("abdicate", {"kind": "bool"}, optional=True, default=False)]),
    action("excuse", "table", [param("holder", {"kind": "seat", "none": True})]),
    # corrections and house rules (effects.py): the table's, at any time before the game is over
    action("score", "table", [param("seat", {"kind": "seat"}), param("amount", {"kind": "int", "min": -20, "max": 20}),
                              _WHY]),
    action("die", "table", [param("problem", _PROBLEM), param("die", {"kind": "int", "min": 0, "max": 1}),
                            param("value", _DIE), _WHY]),
    action("service", "table", [param("service", {"kind": "enum", "values": ["diplomatic", "army", "navy"]}),
                                param("holder", _SERVICE_SEAT), _WHY]),
)
