"""The King's Dilemma's settings and action schemas, as data (see shared_rules/schema.py).

Prose for people is in docs.py (host only). Line numbers (Lnnn) are in
../shared/seeds/kings-dilemma-rulebook.txt; rulings Rn in
../shared/rules/kings-dilemma.md section 8.

SETTINGS and SCHEMAS are re-iterables that build their dicts when iterated,
one at a time: on a board a schema dict costs far more RAM than the bytecode
that builds it, and the engine only ever looks one schema up per action
(schema.find) and reads the settings once, when a game starts. Each pass
yields fresh dicts, so a caller may keep or change what it gets.
"""

from shared_rules.schema import Built, action, by_type, param, reason

# The rulings a table decides where the rulebook is silent (issue 43): settings added after
# games were logged without them, {name: the reading the core followed before}. A header
# without one means that reading, and the settings hold one only when it is another
# (engine.settings_for); the rules read them with schema.ruling. Their defaults, the readings
# the rulebook's text favours, are in setup.py; their help with the lines in docs.py.
RULINGS = {"zero_power": "no_bonus", "bargain": "any"}

# The five Resources in track order (L779-781); index = position in every per-Resource list.
RESOURCES = tuple(["influence", "wealth", "morale", "welfare", "knowledge"])


def _int(lo, hi):
    return {"kind": "int", "min": lo, "max": hi}


def _list(of, lo, hi):
    return {"kind": "list", "of": of, "min": lo, "max": hi}


def _settings():
    from shared_rules.kings_dilemma import setup  # read for a new game only (the board lets it go)

    return setup.settings()


# The action types in the order menus offer them (_schema builds each)
_TYPES = tuple(["roll", "vote", "pass", "add", "stay", "decide", "appoint", "coins", "outcome", "record", "pool",
                "stability", "momentum", "agenda_value", "drawn", "place"])


def _side():
    return {"kind": "enum", "values": ["aye", "nay"]}


def _res():
    return {"kind": "enum", "values": list(RESOURCES)}


def _schema(t):
    """The schema of action type t alone (None if the game has none): the votes first, the
    table's entries after them."""
    if t == "vote":
        return action("vote", "seat", [param("side", _side()), param("power", _int(1, 99))])
    if t == "pass":
        return action("pass", "seat", [param("kind", {"kind": "enum", "values": ["gather", "moderate"]},
                                             optional=True, default="gather")])
    if t == "add":
        return action("add", "seat", [param("power", _int(1, 99))])
    if t == "stay":
        return action("stay", "seat", [])
    if t == "decide":
        return action("decide", "seat", [param("side", _side())])
    if t == "roll":
        return action("roll", "table", [
            param("values", _list(_int(1, 6), 1, 5), optional=True, omit="board rolls"),
            param("source", {"kind": "enum", "values": ["board", "manual", "smart"]}, optional=True,
                  default="board"),
            # a smart roll's dice: each value's die, for the log only (views.legal leaves it out of the menus)
            param("dice", _list({"kind": "text", "max": 12}, 1, 5), optional=True),
        ])
    if t == "appoint":
        return action("appoint", "seat", [param("leader", {"kind": "seat"})])
    if t == "coins":
        return action("coins", "table", [param("giver", {"kind": "seat"}), param("taker", {"kind": "seat"}),
                                         param("amount", _int(1, 999))])
    if t == "outcome":
        return action("outcome", "table", [param("resources", _list(_res(), 0, 10)),
                                           param("amounts", _list(_int(-9, 9), 0, 10))])
    if t == "record":
        return action("record", "table", [
            param("kind", {"kind": "enum", "values": ["sticker", "story", "envelope"]}),
            param("resource", _res(), optional=True),
            param("sign", {"kind": "enum", "values": ["positive", "negative"]}, optional=True),
            param("number", _int(0, 999), optional=True, default=0),
        ])
    # the printed cards' effects (effects.py), at any time but the setup roll
    if t == "pool":
        return action("pool", "table", [param("seat", {"kind": "seat"}),
                                        param("pool", {"kind": "enum", "values": ["coins", "power", "agenda"]}),
                                        param("amount", _int(-99, 99)), reason()])
    if t == "stability":
        return action("stability", "table", [param("amount", _int(-30, 30)), reason()])
    if t == "momentum":
        return action("momentum", "table", [param("resource", _res()),
                                            param("change", {"kind": "enum", "values": ["add", "remove", "flip"]}),
                                            reason()])
    if t == "agenda_value":
        return action("agenda_value", "table", [param("resource", _res()),
                                                param("sign", {"kind": "enum", "values": ["positive", "negative"]}),
                                                param("amount", _int(-9, 9)), reason()])
    if t == "drawn":
        return action("drawn", "table", [param("card", {"kind": "enum", "values": ["event", "trigger"]}), reason()])
    if t == "place":
        return action("place", "table", [
            param("where", {"kind": "enum", "values": ["time_counter", "event_area"]}, optional=True,
                  default="time_counter"),
            param("death_icon", {"kind": "bool"}, optional=True, default=False),
        ])
    return None


SETTINGS = Built(_settings)
SCHEMAS = by_type(_TYPES, _schema)
